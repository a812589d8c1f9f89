//! Values read from another value's stream (`io: chunk.data_slot._io`, RIFF's idiom), written
//! back into it by `normalize()`. Such a value is kept as read and never written itself: the
//! bytes of the value whose stream it was read from are written instead, so an edit of it was
//! refused. Where that value is a *slot* (a type that reads nothing, keeping its substream's
//! bytes: `slot: {}`), `normalize()` writes the edited value into the slot's bytes at its
//! position, in place of the bytes it was read from: all of them to the end of the stream when
//! it reads to its end, up to and with its terminator when it is terminated, its size when it
//! has a fixed one. The sizes that measure the slot then follow as any derived size does.

use skelcodec_codegen::expr::Expr;
use skelcodec_codegen::model::{FieldType, Repeat, Schema, Size, Stream, UNREAD};
use skelcodec_runtime as rt;

use crate::choice::{self, CaseNames};
use crate::eval::Scope;
use crate::value::{Link, Val, Value};

/// The fields of `link`'s type read from a slot, in the order to write them back: a value
/// whose slot is held by another such value comes before it.
pub(crate) fn slotted_fields(schema: &Schema, ty: usize) -> Vec<usize> {
    let fields = &schema.types[ty].fields;
    let slotted: Vec<usize> = (0..fields.len())
        .filter(|&i| slot_path(&fields[i].stream).is_some())
        .collect();
    let (inner, outer): (Vec<usize>, Vec<usize>) = slotted.iter().partition(|&&i| {
        let first = slot_path(&fields[i].stream).and_then(first_name);
        slotted
            .iter()
            .any(|&j| Some(fields[j].id.as_str()) == first)
    });
    inner.into_iter().chain(outer).collect()
}

/// Writes the value of field `index` of `link` into the slot it was read from; true when the
/// slot's bytes changed. Nothing is done where the slot or the bytes the value replaces cannot
/// be told.
pub(crate) fn write_back(schema: &Schema, link: &Link, index: usize) -> rt::Result<bool> {
    let field = &schema.types[link.ty()].fields[index];
    let (Some(target), Some(pos)) = (slot_path(&field.stream), &field.position) else {
        return Ok(false);
    };
    let scope = Scope::of(schema, link.clone(), &[]);
    let (Ok(Val::Struct(slot)), Ok(pos)) = (scope.eval(target), scope.int(pos)) else {
        return Ok(false);
    };
    let slot_def = &schema.types[slot.ty()];
    if slot_def.fields.len() != 1 || slot_def.fields[0].id != UNREAD {
        return Ok(false);
    }
    let value = match link.node().fields.borrow()[index].clone() {
        Some(value)
            if !matches!(
                value,
                Value::Absent | Value::Failed { .. } | Value::Cycle(_)
            ) =>
        {
            value
        }
        _ => return Ok(false),
    };
    let Some(Value::Bytes(old)) = slot.node().fields.borrow()[0].clone() else {
        return Ok(false);
    };
    let Some(start) = usize::try_from(pos).ok().filter(|&p| p <= old.0.len()) else {
        return Ok(false);
    };
    let Some(end) = replaced_end(schema, field, &value, &old.0, start) else {
        return Ok(false);
    };
    let bytes = crate::write::field_bytes(schema, link, field, &value)?;
    let mut new = old.0[..start].to_vec();
    new.extend(bytes);
    new.extend_from_slice(&old.0[end..]);
    if new == old.0 {
        return Ok(false);
    }
    slot.set_field(0, Value::Bytes(rt::RawBytes(new)));
    Ok(true)
}

/// `x` of a stream `x._io`.
fn slot_path(stream: &Stream) -> Option<&Expr> {
    match stream {
        Stream::Of(Expr::Attr(slot, io)) if io == "_io" => Some(slot),
        _ => None,
    }
}

/// The first name of a path (`chunk` of `chunk.data_slot`).
fn first_name(path: &Expr) -> Option<&str> {
    match path {
        Expr::Name(name) => Some(name),
        Expr::Attr(base, _) => first_name(base),
        _ => None,
    }
}

/// Where the bytes the value of `field` was read from end in the slot's bytes `old`, from
/// `start`: at the end when it reads to the end, after its terminator, or after its fixed
/// size.
fn replaced_end(
    schema: &Schema,
    field: &skelcodec_codegen::model::Field,
    value: &Value,
    old: &[u8],
    start: usize,
) -> Option<usize> {
    if field.repeat == Repeat::Eos || value_reads_to_end(schema, &field.ty, value, 0) {
        return Some(old.len());
    }
    if field.repeat != Repeat::None {
        return None;
    }
    match &field.ty {
        FieldType::Str {
            size:
                Size::Terminator {
                    byte,
                    consume: true,
                    ..
                },
            ..
        }
        | FieldType::Bytes {
            size:
                Size::Terminator {
                    byte,
                    consume: true,
                    ..
                },
            ..
        } => old[start..]
            .iter()
            .position(|b| b == byte)
            .map(|at| start + at + 1),
        _ => schema
            .static_field_size(field)
            .map(|size| start + size)
            .filter(|&end| end <= old.len()),
    }
}

/// True when a value of `ty` (`value`, for a switch's case) reads to the end of its stream:
/// its last field read in sequence does.
fn value_reads_to_end(schema: &Schema, ty: &FieldType, value: &Value, depth: usize) -> bool {
    if depth > 32 {
        return false;
    }
    match (ty, value) {
        (
            FieldType::Bytes {
                size: Size::Eos, ..
            }
            | FieldType::Str {
                size: Size::Eos, ..
            },
            _,
        ) => true,
        (FieldType::Switch(switch), Value::Case(name, inner)) => {
            let names = CaseNames::default();
            choice::case_named(schema, &names, switch, name)
                .is_some_and(|case| value_reads_to_end(schema, case, inner, depth + 1))
        }
        (FieldType::User { ty, .. }, Value::Struct(node)) => {
            let def = &schema.types[*ty];
            let fields = node.fields.borrow();
            let last = def
                .fields
                .iter()
                .zip(fields.iter())
                .rfind(|(f, _)| f.position.is_none() && f.id != UNREAD);
            last.is_some_and(|(f, held)| {
                f.repeat == Repeat::Eos
                    || f.substream == Some(Size::Eos)
                    || held.as_ref().is_some_and(|held| {
                        f.repeat == Repeat::None
                            && value_reads_to_end(schema, &f.ty, held, depth + 1)
                    })
            })
        }
        _ => false,
    }
}
