//! Switch values in expressions: `.as<type>` casts, a switch of one case, a switch of integers.

use crate::sanitization::case_ident;
use proc_macro2::TokenStream;
use quote::quote;

use super::*;
use crate::repr::stored_value;
use crate::typeck::value_types::{is_integer_switch, switch_field};

impl<'s> Scope<'s> {
    /// Whether `place`, the value of `field` (a switch field of type `owner`), holds its case
    /// `variant` (see `Node::Holds`).
    pub(super) fn holds_variant(
        &self,
        place: Place<'s>,
        owner: usize,
        field: &Field,
        variant: usize,
    ) -> TokenStream {
        let enum_name = switch_enum_ident(self.cx.schema, owner, field);
        let ident = match &field.ty {
            FieldType::Switch(switch) => {
                case_ident(&switch_variants(self.cx.schema, switch).variants[variant].name)
            }
            _ => unreachable!("only a switch field holds a case"),
        };
        let tokens = &place.tokens;
        match place.optional {
            true => quote!(matches!(#tokens, ::core::option::Option::Some(#enum_name::#ident(..)))),
            false => quote!(matches!(&#tokens, #enum_name::#ident(..))),
        }
    }

    /// Case `variant` of `base`, the value of `field`, a switch field of type `owner` (see
    /// `Node::Case`): absent when the value holds another case.
    pub(super) fn case_place(
        &self,
        base: Place<'s>,
        owner: usize,
        field: &'s Field,
        variant: usize,
    ) -> Place<'s> {
        let FieldType::Switch(switch) = &field.ty else {
            unreachable!("a case is one of a switch field")
        };
        let variant = &switch_variants(self.cx.schema, switch).variants[variant];
        let enum_name = switch_enum_ident(self.cx.schema, owner, field);
        let ident = case_ident(&variant.name);
        let tokens = &base.tokens;
        let case = stored_value(field, quote!(case));
        let extract = |case: TokenStream| {
            quote!(match &#tokens {
                #enum_name::#ident(case) => ::core::option::Option::Some(#case),
                #[allow(unreachable_patterns)]
                _ => ::core::option::Option::None,
            })
        };
        match variant.ty {
            FieldType::User { ty, .. } => Place {
                tokens: extract(case),
                ty: Ty::User(*ty),
                field: None,
                optional: true,
                element: false,
                by_ref: false,
                decoded: None,
            },
            ty => Place::computed(
                extract(content_view(ty, case)),
                Ty::Opt(Box::new(element_ty(ty))),
            ),
        }
    }
}

/// The value of a switch of integers (see `value_types::is_integer_switch`) at `tokens`, as an
/// integer; when it matched no case ([`FieldType::Nothing`]) 0, like any absent number.
pub(super) fn integer_switch(
    schema: &Schema,
    switch: &Switch,
    tokens: &TokenStream,
) -> Option<TokenStream> {
    if !is_integer_switch(schema, switch) {
        return None;
    }
    let (owner, field) = switch_field(schema, switch)?;
    let variants = switch_variants(schema, switch).variants;
    let enum_name = switch_enum_ident(schema, owner, field);
    let arms = variants.iter().map(|v| {
        let ident = case_ident(&v.name);
        match v.ty {
            FieldType::Nothing => quote!(#enum_name::#ident(()) => 0i64),
            _ => quote!(#enum_name::#ident(number) => *number as i64),
        }
    });
    Some(quote!(match &#tokens { #(#arms,)* }))
}

/// True when the switch value at `tokens` matched no case: `Some` for a switch that can.
pub(super) fn matched_nothing(
    schema: &Schema,
    switch: &Switch,
    tokens: &TokenStream,
) -> Option<TokenStream> {
    let (owner, field) = switch_field(schema, switch)?;
    let variants = switch_variants(schema, switch).variants;
    let nothing = case_ident(&variants.iter().find(|v| *v.ty == FieldType::Nothing)?.name);
    let enum_name = switch_enum_ident(schema, owner, field);
    Some(quote!(::core::matches!(#tokens, #enum_name::#nothing(_))))
}
