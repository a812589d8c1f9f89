//! `valid`: the reader refuses a value outside the rule, and the writer refuses to write one.
//! The rule is an expression over `_`, checked for each present value: the value of a single
//! field, each element of a list, nothing when a conditional field is absent (as in Kaitai).

use proc_macro2::TokenStream;
use quote::quote;

use super::expr::{ExprError, Scope};
use crate::model::{Field, FieldType, Repeat};

/// Statements checking the `valid` rule of `field`, whose value is at `access`: for each value
/// that breaks it, `refuse(rule, found, index)` (the rule's text, a `Debug` value, and the
/// element's index in a list) returns the error. An error when the rule cannot be compiled
/// in `scope` (a writer's rule that needs the input stream).
pub fn valid_check(
    field: &Field,
    access: &TokenStream,
    scope: &Scope,
    refuse: impl Fn(&str, TokenStream, Option<TokenStream>) -> TokenStream,
) -> Result<TokenStream, ExprError> {
    let Some((rule, expected)) = &field.valid else {
        return Ok(quote!());
    };
    let list = field.repeat != Repeat::None || matches!(field.ty, FieldType::Array { .. });
    let element = match &field.ty {
        FieldType::Array { elem, .. } => elem.as_ref(),
        ty => ty,
    };
    let scope = match list {
        true => scope.with_index(quote!(index)),
        false => scope.clone(),
    };
    let holds = scope.with_element_of(quote!(item), element).bool(rule)?;
    let check = |index| {
        let refuse = refuse(expected, quote!(item), index);
        quote!(if !#holds { #refuse })
    };
    let (binding, checks) = if list {
        let check = check(Some(quote!(index)));
        let each = quote!(for (index, item) in list.iter().enumerate() { #check });
        (quote!(list), each)
    } else {
        (quote!(item), check(None))
    };
    Ok(if field.cond.is_some() {
        quote!(if let ::core::option::Option::Some(#binding) = &#access { #checks })
    } else {
        quote!({ let #binding = &#access; #checks })
    })
}
