//! Values read from another value's stream (`io: chunk.data_slot._io`, RIFF's idiom), written
//! back into it by `normalize()`. Such a value is kept as read and never written itself: the
//! bytes of the value whose stream it was read from are written instead, so an edit of it was
//! refused. Where that value is a *slot* (a type that reads nothing, keeping its substream's
//! bytes: `slot: {}`), `normalize()` writes the edited value into the slot's bytes at its
//! position, in place of the bytes it was read from: all of them to the end of the stream when
//! it reads to its end, up to and with its terminator when it is terminated, its size when it
//! has a fixed one. The sizes that measure the slot then follow as any derived size does.

use skelcodec_codegen::expr::Expr;
use skelcodec_codegen::model::{Field, FieldType, Repeat, Schema, SlotSpan, Stream};
use skelcodec_runtime as rt;
use skelcodec_runtime::fields::Replaced;

use crate::choice::{self, CaseNames};
use crate::eval::Scope;
use crate::value::{Link, Val, Value};

/// Writes the value of field `index` of `link` into the slot it was read from; true when the
/// slot's bytes changed. Nothing is done where the slot or the bytes the value replaces cannot
/// be told.
pub(crate) fn write_back(schema: &Schema, link: &Link, index: usize) -> rt::Result<bool> {
    let field = &schema.types[link.ty()].fields[index];
    let (Some(_), Stream::Of(Expr::Attr(slot, _)), Some(pos)) = (
        schema.slot_path(link.ty(), field),
        &field.stream,
        &field.position,
    ) else {
        return Ok(false);
    };
    let scope = Scope::of(schema, link.clone(), &[]);
    let (Ok(Val::Struct(slot)), Ok(pos)) = (scope.eval(slot), scope.int(pos)) else {
        return Ok(false);
    };
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
    let Some(Value::Bytes(mut bytes)) = slot.node().fields.borrow()[0].clone() else {
        return Ok(false);
    };
    let Some(replaced) = replaced(schema, field, &value) else {
        return Ok(false);
    };
    let written = crate::write::field_bytes(schema, link, field, &value)?;
    let changed = rt::fields::write_into_slot(&mut bytes.0, pos, replaced, &written);
    if changed {
        slot.set_field(0, Value::Bytes(bytes));
    }
    Ok(changed)
}

/// Which bytes of its slot `value`, of `field`, was read from (by the case a switch holds).
fn replaced(schema: &Schema, field: &Field, value: &Value) -> Option<Replaced> {
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
    })
}
