//! Values read from another value's stream (`io: chunk.data_slot._io`, RIFF's idiom), written
//! back into it by `normalize()`. Such a value is kept as read and never written itself: the
//! bytes of the value whose stream it was read from are written instead, so an edit of it was
//! refused. Where that value is a *slot* (a type that reads nothing, keeping its substream's
//! bytes: `slot: {}`), `normalize()` writes the edited value into the slot's bytes at its
//! position, in place of the bytes it was read from: all of them to the end of the stream when
//! it reads to its end, up to and with its terminator when it is terminated, its size when it
//! has a fixed one. The sizes that measure the slot then follow as any derived size does.
//! Values of the root read from the end of the file (`pos: _io.size - 769`) are written back
//! alike, into the file's unclaimed bytes that hold them.

use skelcodec_codegen::expr::Expr;
use skelcodec_codegen::model::{Field, FieldType, Repeat, Schema, SlotSpan, Stream};
use skelcodec_runtime as rt;
use skelcodec_runtime::__private::fields::Replaced;

use crate::Interpreter;
use crate::choice::{self, CaseNames};
use crate::eval::Scope;
use crate::plan::Plan;
use crate::value::{Link, Val, Value};

/// Writes the value of field `index` of `link` into the slot it was read from; true when the
/// slot's bytes changed. Nothing is done where the slot or the bytes the value replaces cannot
/// be told.
pub(crate) fn write_back(
    schema: &Schema,
    plan: &Plan,
    link: &Link,
    index: usize,
) -> rt::Result<bool> {
    let Some(Slotted {
        slot,
        mut bytes,
        pos,
        replaced,
        value,
    }) = slotted(schema, plan, link, index)
    else {
        return Ok(false);
    };
    let field = &schema.types[link.ty()].fields[index];
    let written = crate::write::field_bytes(schema, link, field, &value)?;
    let changed =
        rt::__private::fields::write_into_slot(bytes.0.as_mut_vec(), pos, replaced, &written);
    if changed {
        slot.set_field(0, Value::Bytes(bytes));
    }
    Ok(changed)
}

/// For `check()`: the path below `link` of the slot field `index` was read from, with how many
/// bytes the slot holds where it was read and how many it is written as now, when they
/// differ (`normalize()` would write it back).
pub(crate) fn slot_mismatch(
    schema: &Schema,
    plan: &Plan,
    link: &Link,
    index: usize,
) -> Option<(Vec<&'static str>, (usize, usize))> {
    let Slotted {
        bytes,
        pos,
        replaced,
        value,
        ..
    } = slotted(schema, plan, link, index)?;
    let field = &schema.types[link.ty()].fields[index];
    let written = crate::write::field_bytes(schema, link, field, &value).ok()?;
    let found = rt::__private::fields::slot_mismatch(&bytes.0, pos, replaced, &written)?;
    let path = schema.slot_path(link.ty(), field)?;
    Some((
        path.into_iter().map(crate::intern::interned).collect(),
        found,
    ))
}

/// A value read from a slot, and what writing it back needs.
struct Slotted {
    /// The slot.
    slot: Link,
    /// The slot's bytes.
    bytes: rt::RawBytes,
    /// Where in them the value was read.
    pos: i64,
    /// Which of them it was read from.
    replaced: Replaced,
    /// The value.
    value: Value,
}

/// Field `index` of `link` as read from its slot, when the slot and the bytes the value was
/// read from can be told.
fn slotted(schema: &Schema, plan: &Plan, link: &Link, index: usize) -> Option<Slotted> {
    let field = &schema.types[link.ty()].fields[index];
    let (Some(_), Stream::Of(Expr::Attr(slot, _)), Some(pos)) = (
        schema.slot_path(link.ty(), field),
        &field.stream,
        &field.position,
    ) else {
        return None;
    };
    let scope = Scope::of(schema, link.clone(), &[]);
    let (Ok(Val::Struct(slot)), Ok(pos)) = (scope.eval(slot), scope.int(pos)) else {
        return None;
    };
    let value = link.node().fields.borrow()[index]
        .clone()
        .filter(Value::is_held)?;
    let Some(Value::Bytes(bytes)) = slot.node().fields.borrow()[0].clone() else {
        return None;
    };
    let replaced = replaced(schema, plan, field, &value, &bytes.0, pos)?;
    Some(Slotted {
        slot,
        bytes,
        pos,
        replaced,
        value,
    })
}

/// Which bytes of its slot (`old`) `value`, of `field`, was read from at `pos` (by the case a
/// switch holds).
fn replaced(
    schema: &Schema,
    plan: &Plan,
    field: &Field,
    value: &Value,
    old: &[u8],
    pos: i64,
) -> Option<Replaced> {
    let ty = match (&field.ty, value) {
        (FieldType::Switch(switch), Value::Case(name, _)) if field.repeat == Repeat::None => {
            choice::case_named(schema, &CaseNames::default(), switch, name)?
        }
        (ty, _) => ty,
    };
    Some(match schema.slot_span(field, ty)? {
        SlotSpan::ToEnd => Replaced::ToEnd,
        SlotSpan::Terminated(byte) => Replaced::Terminated(byte),
        SlotSpan::Size(size) => Replaced::Size(size),
        SlotSpan::AsRead(ty) => crate::read::read_again(schema, plan, ty, old, pos)?,
    })
}

/// The values of the root read from the end of the file (see `Schema::from_file_end`),
/// written back into the unclaimed bytes that hold them as the generated code's
/// `normalize()` does (`write`), or compared with them as its `check()` does: the
/// unclaimed bytes that differ.
pub(crate) fn values_at_end(
    interpreter: &Interpreter,
    value: &Value,
    write: bool,
) -> rt::Result<Vec<rt::Mismatch>> {
    let Value::Struct(root) = value else {
        return Ok(Vec::new());
    };
    let schema = interpreter.schema();
    let def = &schema.types[root.ty];
    let ends: Vec<(usize, u64)> = (def.fields.iter().enumerate())
        .filter_map(|(i, f)| Some((i, schema.from_file_end(root.ty, f)?)))
        .collect();
    if ends.is_empty() {
        return Ok(Vec::new());
    }
    let file_len = crate::write::write_into(schema, value, rt::Writer::new())
        .and_then(rt::Writer::into_bytes)
        .map_or(0, |bytes| bytes.len() as u64);
    let link = Link::new(root.clone(), None);
    let mut found = Vec::new();
    for (index, from_end) in ends {
        let field = &def.fields[index];
        let held = root.fields.borrow()[index].clone();
        let present =
            held.filter(|v| !matches!(v, Value::Absent | Value::Failed { .. } | Value::Cycle(_)));
        let (Some(at), Some(held)) = (file_len.checked_sub(from_end), present) else {
            continue;
        };
        let bytes = crate::write::own_bytes(schema, &link, field, &held)
            .map_err(|e| e.in_path(field.id.clone()));
        let bytes = match (bytes, write) {
            (Ok(Some(bytes)), _) => bytes,
            (Err(e), true) => return Err(e),
            _ => continue,
        };
        let mut gaps = root.unclaimed.borrow_mut();
        let Some(gaps) = gaps.as_mut() else { continue };
        if write {
            rt::__private::fields::write_into_gaps(gaps, at, &bytes);
        } else if let Some((index, len)) = rt::__private::fields::gaps_mismatch(gaps, at, &bytes) {
            found.push(rt::Mismatch {
                path: format!("{}[{index}].bytes", crate::value::UNCLAIMED),
                stored: len as i128,
                computed: len as i128,
            });
        }
    }
    Ok(found)
}
