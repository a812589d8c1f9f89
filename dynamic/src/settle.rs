//! The last step of `normalize()` for a schema whose values depend on where things land in the
//! file, as the generated code's (`rt::settle`): the value is written (its relocatable blocks
//! where the plan puts them) and read again, so that blocks move and views are read again from
//! the bytes now written; refused where anything else would differ.

use skelcodec_runtime as rt;

use crate::value::{Struct, Value};
use crate::{Interpreter, write};

/// Writes `value`, the root `root` holds, and reads it again (see `rt::__private::settle::settle`);
/// returns what that changed (moved offsets, views read again, unclaimed bytes), by path.
pub(crate) fn settle(
    interpreter: &Interpreter,
    root: &Struct,
    value: &Value,
) -> rt::Result<Vec<rt::Mismatch>> {
    let schema = interpreter.schema();
    let offsets: Vec<&str> = (schema.relocated_offsets())
        .map(|(_, offset, _, _)| offset.id.as_str())
        .collect();
    let views = schema.view_names();
    let moves = match offsets.is_empty() {
        true => None,
        false => write::write_into(schema, value, rt::Writer::planning_relocations())?
            .into_relocation_plan()?,
    };
    let w = match moves {
        Some(moves) => rt::Writer::relocating(moves),
        None if views.is_empty() => return Ok(Vec::new()),
        None => rt::Writer::new(),
    };
    let bytes = write::write_into(schema, value, w)?.into_bytes()?;
    let fresh = interpreter.read(&bytes)?;
    if fresh == *value {
        return Ok(Vec::new());
    }
    let document = |value: &Value| serde_json::to_value(interpreter.document(value)).ok();
    let may_change = rt::__private::settle::MayChange {
        offsets: &offsets,
        views: &views,
    };
    let mut changed = Vec::new();
    if let (Some(before), Some(after)) = (document(value), document(&fresh)) {
        if let Some(path) = rt::__private::settle::first_unsettled(&before, &after, may_change) {
            return Err(rt::__private::settle::unsettled_error(path));
        }
        changed = rt::__private::settle::changed_leaves(&before, &after, &[]);
    }
    if let Value::Struct(fresh) = fresh {
        root.take_from(&fresh);
    }
    Ok(changed)
}

/// What `normalize()` would change beyond what `found` names, as the generated code's
/// `check()` finds it (`rt::__private::settle::mismatches`): on a copy of `value`, normalized, compared
/// by documents.
pub(crate) fn mismatches(
    interpreter: &Interpreter,
    value: &Value,
    found: &[rt::Mismatch],
) -> Vec<rt::Mismatch> {
    if !interpreter.schema().settles() {
        return Vec::new();
    }
    let document = |value: &Value| serde_json::to_value(interpreter.document(value)).ok();
    let Some(before) = document(value) else {
        return Vec::new();
    };
    let Ok(copy) = interpreter.value_of(&before) else {
        return Vec::new();
    };
    match interpreter
        .normalize(&copy)
        .ok()
        .and_then(|_| document(&copy))
    {
        Some(after) => rt::__private::settle::changed_leaves(&before, &after, found),
        None => Vec::new(),
    }
}
