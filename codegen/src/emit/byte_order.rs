//! The byte order a type chooses with `meta/endian` `switch-on`: computed at the start of its
//! reader and of its writer, from the same values, so an edit that changes the selector
//! changes the order the value is written in, as a reader would then read it.

use proc_macro2::TokenStream;
use quote::quote;

use crate::sanitization::is_be_ident;
use crate::typeck::ir;

/// `let _is_be_ = …;`, or `error(selector)` (a `return`) when no case matches.
pub fn choose_byte_order(
    order: &ir::ByteOrder,
    error: impl Fn(TokenStream) -> TokenStream,
) -> TokenStream {
    let is_be = is_be_ident();
    let arms = order
        .cases
        .iter()
        .map(|(test, big)| quote!(if #test { #big } else));
    let fallback = match &order.otherwise {
        ir::Otherwise::Default(big) => quote!({ #big }),
        ir::Otherwise::Refuse(selector) => {
            let error = error(quote!(::std::format!("{:?}", #selector)));
            quote!({ #error })
        }
    };
    quote!(let #is_be: bool = #(#arms)* #fallback;)
}
