//! The types expressions see of stored values: a field's, one element's, and what a stored
//! value is as a value (a number of any width an `i64` or `f64`, a switch of integers an
//! integer). Target-neutral: the resolver types places with them, and a back end holds the
//! values as they say.

use super::typed::{ExprError, Ty, describe, invalid, unsupported};
use crate::model::{Field, FieldType, ParamType, Repeat, Scalar, Schema, Switch};

/// The expression type of a field's value.
pub fn field_ty(field: &Field) -> Ty {
    let one = element_ty(&field.ty);
    match &field.repeat {
        Repeat::None => one,
        // A repeated switch is one case holding the whole list, unless each element chooses
        // its own.
        _ if field.switches_whole_list() => one,
        _ => Ty::Array(Box::new(one)),
    }
}

/// The field type of a field's one stored value: none for a list (a repeated field, a
/// fixed-size array).
pub fn one_value(field: &Field) -> Option<&FieldType> {
    match &field.ty {
        FieldType::Array { .. } => None,
        ty => (field.repeat == Repeat::None).then_some(ty),
    }
}

/// The type one stored value of type `ty` has in expressions, as `_` of `repeat-until` or of
/// a `valid` rule sees it: [`stored_value_ty`] where it is not the element's own, and the
/// bytes `contents` fixes.
pub fn element_value_ty(schema: &Schema, ty: &FieldType) -> Ty {
    match ty {
        FieldType::Contents(_) => Ty::Bytes,
        ty => stored_value_ty(schema, ty).unwrap_or_else(|| element_ty(ty)),
    }
}

/// The expression type of one element of a field type.
pub fn element_ty(ty: &FieldType) -> Ty {
    match ty {
        FieldType::Number(Scalar::Int(_)) | FieldType::Remembered { .. } | FieldType::Vlq => {
            Ty::Int
        }
        FieldType::Number(_) => Ty::Float,
        FieldType::Enum { enum_idx, .. }
        | FieldType::Bits {
            enum_idx: Some(enum_idx),
            ..
        } => Ty::Enum(*enum_idx),
        FieldType::Bits { width: 1, .. } => Ty::Bool,
        FieldType::Bits { .. } | FieldType::BitPadding => Ty::Int,
        // Nothing has no field an expression could use.
        FieldType::Quat(_) | FieldType::Vec3(_) | FieldType::Nothing => Ty::Composite,
        FieldType::Str { .. } => Ty::Str,
        FieldType::Bytes { .. } | FieldType::Contents(_) => Ty::Bytes,
        FieldType::User { ty, .. } => Ty::User(*ty),
        FieldType::Switch(_) => Ty::Switch,
        FieldType::Array { elem, .. } => Ty::Array(Box::new(element_ty(elem))),
    }
}

/// The type one stored value of type `ty` has as a value, where it is not [`element_ty`]'s:
/// an integer of any width or encoding an integer, a float or fixed-point number a float, a
/// switch of integers an integer.
pub fn stored_value_ty(schema: &Schema, ty: &FieldType) -> Option<Ty> {
    match ty {
        FieldType::Number(Scalar::Int(_))
        | FieldType::Remembered { .. }
        | FieldType::Vlq
        | FieldType::BitPadding
        | FieldType::Bits {
            width: 2..,
            enum_idx: None,
            ..
        } => Some(Ty::Int),
        FieldType::Number(Scalar::Float(_) | Scalar::Fixed { .. }) => Some(Ty::Float),
        FieldType::Switch(switch) if is_integer_switch(schema, switch) => Some(Ty::Int),
        _ => None,
    }
}

/// True for a switch whose every case is an integer, which is an integer in expressions as in
/// Kaitai (when it matched no case it reads as 0, like any absent number), unless one case
/// holds the whole list or a decoded case holds its stored bytes too.
pub fn is_integer_switch(schema: &Schema, switch: &Switch) -> bool {
    let Some((_, field)) = switch_field(schema, switch) else {
        return false;
    };
    if field.switches_whole_list() || field.decode.is_some() {
        return false;
    }
    let cases = switch.cases.iter().map(|c| &c.ty);
    cases
        .chain(switch.default.as_deref())
        .all(|ty| matches!(ty, FieldType::Number(Scalar::Int(_)) | FieldType::Nothing))
}

/// The field that holds `switch`, and the type that declares it.
pub fn switch_field<'s>(schema: &'s Schema, switch: &Switch) -> Option<(usize, &'s Field)> {
    schema.types.iter().enumerate().find_map(|(owner, def)| {
        let field = def
            .fields
            .iter()
            .find(|f| matches!(&f.ty, FieldType::Switch(s) if std::ptr::eq(s, switch)))?;
        Some((owner, field))
    })
}

/// The type of the value a place holds, of type `ty` (a field's or an element's, see
/// [`field_ty`]): `one` is the field type of its one stored value (none for a list or a
/// computed value), and it `may_be_absent`. An absent number, enum value or float reads as
/// 0, so that version gates can build on fields that older versions lack (`version >= 6 and
/// revision >= 2`); anything else that may be absent is [`Ty::Opt`].
pub fn place_value_ty(schema: &Schema, ty: Ty, one: Option<&FieldType>, may_be_absent: bool) -> Ty {
    let present = one
        .and_then(|one| stored_value_ty(schema, one))
        .unwrap_or(ty);
    match present {
        Ty::Int | Ty::Float | Ty::Enum(_) if one.is_some() => present,
        present if may_be_absent => Ty::Opt(Box::new(present)),
        present => present,
    }
}

/// The type a parameter's value has in expressions.
pub fn param_value_ty(ty: ParamType) -> Ty {
    match ty {
        ParamType::Int(_) => Ty::Int,
        ParamType::Bool => Ty::Bool,
        ParamType::Enum(idx) => Ty::Enum(idx),
        ParamType::Str => Ty::Str,
        ParamType::Bytes => Ty::Bytes,
        ParamType::User(ty) => Ty::User(ty),
        ParamType::OptUser(ty) => Ty::Opt(Box::new(Ty::User(ty))),
        ParamType::IntList => Ty::Array(Box::new(Ty::Int)),
        ParamType::UserList(ty) => Ty::Array(Box::new(Ty::User(ty))),
        ParamType::Io => Ty::Io,
        ParamType::AnyStruct => Ty::AnyStruct,
        ParamType::AnyStructList => Ty::Array(Box::new(Ty::AnyStruct)),
        ParamType::StrList => Ty::Array(Box::new(Ty::StrLit)),
        ParamType::IoList => Ty::Array(Box::new(Ty::Io)),
    }
}

/// The type of an element of a list whose value has type `list`: `field` is the field the
/// list is, when it is one (a repeated field or a fixed-size array), whose elements are
/// stored values (absent past the end, but numbers, which read as 0).
pub fn item_ty(schema: &Schema, list: &Ty, field: Option<&Field>) -> Result<Ty, ExprError> {
    let elem = match list {
        Ty::Bytes => return Ok(Ty::Int),
        Ty::ListLit(elem) if matches!(**elem, Ty::Int | Ty::Float) => return Ok((**elem).clone()),
        Ty::ListLit(elem) | Ty::Array(elem) => (**elem).clone(),
        // A switch holding lists is a list in Kaitai.
        Ty::Switch => return unsupported("indexing a switch value is not supported yet"),
        other => {
            return invalid(format!(
                "indexing {} is not supported (lists and byte arrays are)",
                describe(other)
            ));
        }
    };
    Ok(match (elem, field) {
        (ty @ (Ty::Int | Ty::Bool), _) => ty,
        (ty, Some(field)) => {
            let one = match &field.ty {
                FieldType::Array { elem, .. } => elem,
                ty => ty,
            };
            place_value_ty(schema, ty, Some(one), true)
        }
        (ty @ (Ty::User(_) | Ty::AnyStruct | Ty::Io), None) => Ty::Opt(Box::new(ty)),
        (Ty::Bytes, None) => Ty::Bytes,
        (Ty::StrLit | Ty::Str, None) => Ty::StrLit,
        (other, None) => {
            return unsupported(format!(
                "indexing a list of {} is not supported yet",
                describe(&other)
            ));
        }
    })
}
