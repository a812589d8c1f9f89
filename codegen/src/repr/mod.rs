//! How schema values are held in Rust: the forms that both the expression compiler
//! ([`crate::typeck`]) and the generator ([`crate::emit`]) spell, so that they agree.

pub mod scalar;
pub mod sizes;
pub mod switch;

use proc_macro2::TokenStream;
use quote::quote;

use crate::model::Field;

/// An `Option` expression of `value`, spelled with its full path.
pub fn option_tokens(value: Option<impl quote::ToTokens>) -> TokenStream {
    match value {
        Some(v) => quote!(::core::option::Option::Some(#v)),
        None => quote!(::core::option::Option::None),
    }
}

/// One stored value of `field` reached through `tokens` (a reference to it): a decoded value
/// is reached through its `rt::Decoded`, whose own fields must not shadow the value's.
pub fn stored_value(field: &Field, tokens: TokenStream) -> TokenStream {
    match field.decode {
        Some(_) => quote!((&#tokens.value)),
        None => tokens,
    }
}
