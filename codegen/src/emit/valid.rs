//! `valid`: the reader refuses a value outside the rule, and the writer refuses to write one.
//! The rule is an expression over `_`, checked for each present value: the value of a single
//! field, each element of a list, nothing when a conditional field is absent (as in Kaitai).

use proc_macro2::TokenStream;
use quote::quote;

use super::expr::{ExprError, Scope};
use crate::model::{Field, FieldType, Repeat, Schema, ValidKind};
use crate::sanitization::enum_ident;

/// Statements checking the `valid` rules of `field`, whose value is at `access`: for each value
/// that breaks one, `refuse(kind, expected, found, index)` (the rule, what it expects in words,
/// a `Debug` value, and the element's index in a list) returns the error. An error when a rule
/// cannot be compiled in `scope` (a writer's rule that needs the input stream).
pub fn valid_check(
    schema: &Schema,
    field: &Field,
    access: &TokenStream,
    scope: &Scope,
    refuse: impl Fn(ValidKind, &str, TokenStream, Option<TokenStream>) -> TokenStream,
) -> Result<TokenStream, ExprError> {
    if field.valid.is_empty() {
        return Ok(quote!());
    }
    let list = field.repeat != Repeat::None || matches!(field.ty, FieldType::Array { .. });
    let element = match &field.ty {
        FieldType::Array { elem, .. } => elem.as_ref(),
        ty => ty,
    };
    let scope = match list {
        true => scope.with_index(quote!(index)),
        false => scope.clone(),
    };
    let index = list.then(|| quote!(index));
    let mut checks = Vec::new();
    for valid in &field.valid {
        let holds = match valid.kind {
            ValidKind::InEnum => in_enum(schema, element)?,
            _ => scope
                .with_element_of(super::decode::stored_value(field, quote!(item)), element)
                .bool(&valid.rule)?,
        };
        let refuse = refuse(valid.kind, &valid.expected, quote!(item), index.clone());
        checks.push(quote!(if !#holds { #refuse }));
    }
    let (binding, checks) = if list {
        let each = quote!(for (index, item) in list.iter().enumerate() { #(#checks)* });
        (quote!(list), each)
    } else {
        (quote!(item), quote!(#(#checks)*))
    };
    Ok(if field.cond.is_some() {
        quote!(if let ::core::option::Option::Some(#binding) = &#access { #checks })
    } else {
        quote!({ let #binding = &#access; #checks })
    })
}

/// `in-enum`: the value `item` (a reference to an enum value) is one its enum names.
fn in_enum(schema: &Schema, element: &FieldType) -> Result<TokenStream, ExprError> {
    match element {
        FieldType::Enum { enum_idx, .. }
        | FieldType::Bits {
            enum_idx: Some(enum_idx),
            ..
        } => {
            let name = enum_ident(&schema.enums[*enum_idx]);
            Ok(quote!(!::core::matches!(item, #name::Unknown(_))))
        }
        _ => Err(ExprError::Invalid(
            "`in-enum` applies to values of an enum".into(),
        )),
    }
}

/// The name of the runtime's rule for `kind`, as generated code spells it.
pub fn rule_path(kind: ValidKind) -> TokenStream {
    let rule = match kind {
        ValidKind::Eq => quote!(NotEqual),
        ValidKind::Min => quote!(LessThan),
        ValidKind::Max => quote!(GreaterThan),
        ValidKind::AnyOf => quote!(NotAnyOf),
        ValidKind::InEnum => quote!(NotInEnum),
        ValidKind::Expr => quote!(Expr),
    };
    quote!(rt::error::ValidationRule::#rule)
}
