//! `check` and `normalize` of a value read with a schema at run time, as the generated code's
//! methods do: every derived field (declared with `-derived`, or inferred from its use as a
//! size or count) is compared with, or recomputed from, the value as it would be written, and
//! `-fill: index` padding with the bytes it should hold. (Checksums are the writer's: see
//! `Interpreter::check`.) Sizes are measured by writing the
//! value once without the writer's checks, which leaves each structure's span where it is
//! written.

use skelcodec_codegen::model::{FieldType, Scalar, Schema};
use skelcodec_runtime::{self as rt, Error, ErrorKind, Mismatch};

use crate::eval::Scope;
use crate::value::{Int, Link, Value};

/// How often a value is measured again: a recomputed `vlq` may change its own size.
const MEASURES: usize = 4;

/// The derived fields of `value`, here and below, whose stored value disagrees with the
/// content.
pub(crate) fn check(schema: &Schema, value: &Value) -> rt::Result<Vec<Mismatch>> {
    refuse_layout(schema)?;
    crate::write::measure(schema, value)?;
    let mut found = Vec::new();
    visit(schema, value, None, &mut Vec::new(), &mut found, false)?;
    Ok(found)
}

/// Recomputes every derived field of `value` from its content; returns those that changed,
/// with their stored and recomputed values.
pub(crate) fn normalize(schema: &Schema, value: &Value) -> rt::Result<Vec<Mismatch>> {
    refuse_layout(schema)?;
    let mut changed: Vec<Mismatch> = Vec::new();
    for _ in 0..MEASURES {
        crate::write::measure(schema, value)?;
        let mut found = Vec::new();
        visit(schema, value, None, &mut Vec::new(), &mut found, true)?;
        if found.is_empty() {
            return Ok(changed);
        }
        for mismatch in found {
            match changed.iter_mut().find(|m| m.path == mismatch.path) {
                Some(seen) => seen.computed = mismatch.computed,
                None => changed.push(mismatch),
            }
        }
    }
    Err(Error::new(
        0,
        ErrorKind::Invalid(format!(
            "the derived fields do not settle after {MEASURES} measures"
        )),
    ))
}

/// Offsets laid out by `-layout` follow every size below them: only the generated code moves
/// blocks yet.
fn refuse_layout(schema: &Schema) -> rt::Result<()> {
    match schema.layout {
        Some(_) => Err(Error::new(
            0,
            ErrorKind::Invalid(
                "offsets laid out by `-layout` are checked and recomputed by the generated code only, not yet with the schema at run time".into(),
            ),
        )),
        None => Ok(()),
    }
}

/// The path segments to a value: field names and indexes.
enum Step {
    Field(&'static str),
    Index(usize),
}

fn path_of(steps: &[Step], last: &str) -> String {
    let mut path = String::new();
    for step in steps {
        match step {
            Step::Field(name) => {
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(name);
            }
            Step::Index(i) => path.push_str(&format!("[{i}]")),
        }
    }
    if !path.is_empty() {
        path.push('.');
    }
    path + last
}

/// Visits the structures in `value`, innermost first, recording in `found` each derived field
/// that disagrees with the content, and with `set` recomputing it.
fn visit(
    schema: &Schema,
    value: &Value,
    parent: Option<&Link>,
    steps: &mut Vec<Step>,
    found: &mut Vec<Mismatch>,
    set: bool,
) -> rt::Result<()> {
    match value {
        Value::Struct(node) => {
            let link = Link::new(node.clone(), parent.cloned());
            let def = &schema.types[node.ty];
            {
                let fields = node.fields.borrow();
                for (field, held) in def.fields.iter().zip(fields.iter()) {
                    if let Some(held) = held {
                        steps.push(Step::Field(crate::intern::interned(&field.id)));
                        visit(schema, held, Some(&link), steps, found, set)?;
                        steps.pop();
                    }
                }
            }
            recompute(schema, &link, steps, found, set)
        }
        Value::List(items) => items.iter().enumerate().try_for_each(|(i, item)| {
            steps.push(Step::Index(i));
            let visited = visit(schema, item, parent, steps, found, set);
            steps.pop();
            visited
        }),
        Value::Case(name, inner) => {
            steps.push(Step::Field(crate::intern::interned(name)));
            let visited = visit(schema, inner, parent, steps, found, set);
            steps.pop();
            visited
        }
        Value::Decoded(decoded) => visit(schema, &decoded.value, parent, steps, found, set),
        // Packed lists hold plain values, which have nothing derived.
        _ => Ok(()),
    }
}

/// Compares (and with `set` recomputes) the derived fields and index fills of the structure
/// `link`.
fn recompute(
    schema: &Schema,
    link: &Link,
    steps: &[Step],
    found: &mut Vec<Mismatch>,
    set: bool,
) -> rt::Result<()> {
    let def = &schema.types[link.ty()];
    let scope = Scope::of(schema, link.clone(), &[]);
    for (index, field) in def.fields.iter().enumerate() {
        let path = || path_of(steps, &field.id);
        let refused =
            |message: String| Error::new(0, ErrorKind::Invalid(format!("{}: {message}", path())));
        let stored = link.node().fields.borrow()[index].clone();
        if let Some(derived) = &field.derived {
            let computed = scope.int(derived).map_err(refused)?;
            let stored = match stored {
                Some(Value::Int(n)) => n.as_i128(),
                _ => continue,
            };
            if stored == i128::from(computed) {
                continue;
            }
            found.push(Mismatch {
                path: path(),
                stored,
                computed: computed.into(),
            });
            if set {
                let held = stored_int(&field.ty, computed)
                    .ok_or_else(|| refused(format!("{computed} does not fit the field")))?;
                link.set_field(index, Value::Int(held));
            }
        } else if field.fill_index
            && let Some(Value::Bytes(mut pad)) = stored
            && let Some((at, expected)) = rt::fields::index_fill_mismatch(&pad.0)
        {
            found.push(Mismatch {
                path: path(),
                stored: at.into(),
                computed: expected.into(),
            });
            if set {
                rt::fields::fill_with_index(&mut pad.0);
                link.set_field(index, Value::Bytes(pad));
            }
        }
    }
    Ok(())
}

/// `value` as a field of type `ty` holds it, when it fits.
fn stored_int(ty: &FieldType, value: i64) -> Option<Int> {
    match ty {
        FieldType::Number(Scalar::Int(int)) => Int::fitting(value.into(), *int),
        FieldType::Vlq => u32::try_from(value).ok().map(|n| Int::Unsigned(n.into())),
        _ => None,
    }
}
