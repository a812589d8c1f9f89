//! The byte order a type chooses with `meta/endian` `switch-on`: computed at the start of its
//! reader and of its writer, from the same values, so an edit that changes the selector
//! changes the order the value is written in, as a reader would then read it.

use proc_macro2::TokenStream;
use quote::quote;

use crate::expr::{BinOp, Expr};
use crate::model::EndianChoice;
use crate::sanitization::is_be_ident;
use crate::typeck::expr::{Scope, expect_valid};

/// `let _is_be_ = …;`, or `error(selector)` (a `return`) when no case matches.
pub fn choose_byte_order(
    scope: &Scope,
    choice: &EndianChoice,
    error: impl Fn(TokenStream) -> TokenStream,
) -> TokenStream {
    let is_be = is_be_ident();
    let arms = choice.cases.iter().map(|case| {
        let big = case.big;
        let equal = Expr::Binary(
            BinOp::Eq,
            Box::new(choice.on.clone()),
            Box::new(case.key.clone()),
        );
        let test = expect_valid(scope.bool(&equal));
        quote!(if #test { #big } else)
    });
    let fallback = match choice.default {
        Some(big) => quote!({ #big }),
        None => {
            let (selector, _) = expect_valid(scope.compile(&choice.on));
            let error = error(quote!(::std::format!("{:?}", #selector)));
            quote!({ #error })
        }
    };
    quote!(let #is_be: bool = #(#arms)* #fallback;)
}
