//! `valid`: the reader refuses a value outside the rule, and the writer refuses to write one.
//! The rule is an expression over `_`, checked for each present value: the value of a single
//! field, each element of a list, nothing when a conditional field is absent (as in Kaitai).

use proc_macro2::TokenStream;
use quote::quote;

use crate::model::{Field, FieldType, Repeat, ValidKind};

/// Statements checking the `valid` rules of `field`, whose value is at `access`, given whether
/// each holds (`holds`, from [`crate::typeck::expr::Scope::valid_rules`]): for each value that
/// breaks one, `refuse(kind, expected, found, index)` (the rule, what it expects in words, a
/// `Debug` value, and the element's index in a list) returns the error.
pub fn valid_check(
    field: &Field,
    holds: &[TokenStream],
    access: &TokenStream,
    refuse: impl Fn(ValidKind, &str, TokenStream, Option<TokenStream>) -> TokenStream,
) -> TokenStream {
    if field.valid.is_empty() {
        return quote!();
    }
    let list = field.repeat != Repeat::None || matches!(field.ty, FieldType::Array { .. });
    let index = list.then(|| quote!(index));
    let checks = field.valid.iter().zip(holds).map(|(valid, holds)| {
        let refuse = refuse(valid.kind, &valid.expected, quote!(item), index.clone());
        quote!(if !#holds { #refuse })
    });
    let (binding, checks) = if list {
        let each = quote!(for (index, item) in list.iter().enumerate() { #(#checks)* });
        (quote!(list), each)
    } else {
        (quote!(item), quote!(#(#checks)*))
    };
    if field.cond.is_some() {
        quote!(if let ::core::option::Option::Some(#binding) = &#access { #checks })
    } else {
        quote!({ let #binding = &#access; #checks })
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
