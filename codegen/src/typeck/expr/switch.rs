//! Switch values in expressions: `.as<type>` casts, a switch of one case, a switch of integers.

use proc_macro2::TokenStream;
use quote::quote;

use super::*;
use crate::repr::stored_value;
use crate::typeck::resolve::{cast_variant, held_variant, no_case, sole_variant};
use crate::typeck::value_types::{is_integer_switch, switch_field};

impl<'s> Scope<'s> {
    /// `value.as<target>`: a number converted, a switch value taken as the case that holds
    /// `target` (absent when it holds another), or a value already of that type.
    pub(super) fn cast_place(&self, base: Place<'s>, target: &str) -> Result<Place<'s>, ExprError> {
        if base.optional {
            return self.through_optional(base, |scope, present| scope.cast_place(present, target));
        }
        if let Some(number) = NumberType::named(target) {
            let (value, ty) = self.value(base);
            let tokens = match (&ty, number) {
                (Ty::Int, NumberType::Int(_)) => value,
                (Ty::Float, NumberType::Int(_)) => quote!((#value as i64)),
                (Ty::Int | Ty::Float, NumberType::F4) => quote!(((#value as f32) as f64)),
                (Ty::Int | Ty::Float, NumberType::F8) => quote!((#value as f64)),
                _ => return invalid(format!("cannot convert {} to `{target}`", describe(&ty))),
            };
            let ty = match number {
                NumberType::Int(_) => Ty::Int,
                NumberType::F4 | NumberType::F8 => Ty::Float,
            };
            return Ok(Place::computed(tokens, ty));
        }
        match (target, &base.ty) {
            ("bytes", Ty::Bytes) | ("str", Ty::Str | Ty::StrLit) => Ok(base),
            ("bytes", Ty::ListLit(elem)) if **elem == Ty::Int => {
                let (list, _) = self.value(base);
                Ok(Place::computed(
                    quote!(rt::bytes::from_ints(&#list)),
                    Ty::Bytes,
                ))
            }
            // A list of integers as a typed list (`[1, 2].as<u2[]>`).
            (list, Ty::ListLit(elem) | Ty::Array(elem))
                if **elem == Ty::Int
                    && list.strip_suffix("[]").is_some_and(|e| {
                        matches!(NumberType::named(e), Some(NumberType::Int(_)))
                    }) =>
            {
                Ok(base)
            }
            (_, Ty::Switch) => self.switch_case(base, target),
            // A `struct` parameter is the type asked for, or absent.
            (_, Ty::AnyStruct) => {
                let Some(ty) = self.schema.resolve_type(self.ty, target) else {
                    return invalid(format!("`{target}` is not a type of this schema"));
                };
                let name = crate::sanitization::struct_ident(&self.schema.types[ty]);
                let (value, _) = self.value(base);
                Ok(Place::computed(
                    quote!(#value.downcast_ref::<#name>()),
                    Ty::Opt(Box::new(Ty::User(ty))),
                ))
            }
            (_, Ty::User(ty)) if self.schema.resolve_type(self.ty, target) == Some(*ty) => Ok(base),
            (_, ty) => invalid(format!("cannot take {} as `{target}`", describe(ty))),
        }
    }

    /// The case of a switch value the scope reached itself that holds `target` (see
    /// `resolve::cast_variant`), absent when the value holds another case.
    pub(super) fn switch_case(
        &self,
        base: Place<'s>,
        target: &str,
    ) -> Result<Place<'s>, ExprError> {
        let Some((owner, field)) = self.switch_of(&base) else {
            return no_case(target);
        };
        let case = cast_variant(self.schema, self.ty, field, target)?;
        Ok(self.case_place(base, owner, field, case.variant))
    }

    /// The value of a switch the scope reached itself whose only case is a user type (see
    /// `resolve::sole_variant`), as that type; the value itself otherwise.
    pub(super) fn sole_case(&self, base: Place<'s>) -> Result<Place<'s>, ExprError> {
        let Some((owner, field)) = self.switch_of(&base).filter(|_| !base.optional) else {
            return Ok(base);
        };
        match sole_variant(self.schema, field)? {
            Some(case) => Ok(self.case_place(base, owner, field, case.variant)),
            None => Ok(base),
        }
    }

    /// The switch field `base` is, or is an element of, and the type holding it.
    fn switch_of(&self, base: &Place<'s>) -> Option<(usize, &'s Field)> {
        match &base.field?.ty {
            FieldType::Switch(switch) => switch_field(self.schema, switch),
            _ => None,
        }
    }

    /// Whether the switch value `value`, which the scope reached itself, holds the case
    /// `case` (see `resolve::places::holds`).
    pub(super) fn holds(&self, value: &Expr, case: &str) -> Compiled {
        let place = self.place(value)?;
        let field = place.field.filter(|_| !place.element);
        let variant = held_variant(field, self.schema, case)?;
        let switch = match field.map(|f| &f.ty) {
            Some(FieldType::Switch(switch)) => switch_field(self.schema, switch),
            _ => None,
        };
        let Some((owner, field)) = switch else {
            return invalid("only a switch value holds a case");
        };
        Ok((self.holds_variant(place, owner, field, variant), Ty::Bool))
    }

    /// Whether `place`, the value of `field` (a switch field of type `owner`), holds its case
    /// `variant` (see `Node::Holds`).
    pub(super) fn holds_variant(
        &self,
        place: Place<'s>,
        owner: usize,
        field: &Field,
        variant: usize,
    ) -> TokenStream {
        let enum_name = switch_enum_ident(self.schema, owner, field);
        let ident = match &field.ty {
            FieldType::Switch(switch) => switch_variants(self.schema, switch).variants[variant]
                .ident
                .clone(),
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
        let variant = &switch_variants(self.schema, switch).variants[variant];
        let enum_name = switch_enum_ident(self.schema, owner, field);
        let ident = &variant.ident;
        let tokens = &base.tokens;
        let case = stored_value(field, quote!(case));
        let extract = |case: TokenStream| {
            quote!(match &#tokens {
                #enum_name::#ident(case) => ::core::option::Option::Some(#case),
                #[allow(unreachable_patterns)]
                _ => ::core::option::Option::None,
            })
        };
        // The case's arguments, given where the switch's value is read: what an instance of
        // the case reaches through `_parent` (`_parent._parent.as<foo>.flag`).
        let args = |exprs| {
            base.args.as_ref().map(|given| Arguments {
                scope: given.scope.clone(),
                exprs,
            })
        };
        match variant.ty {
            FieldType::User {
                ty, args: exprs, ..
            } => Place {
                tokens: extract(case),
                ty: Ty::User(*ty),
                field: None,
                optional: true,
                element: false,
                by_ref: false,
                args: args(exprs),
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
        let ident = &v.ident;
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
    let nothing = &variants.iter().find(|v| *v.ty == FieldType::Nothing)?.ident;
    let enum_name = switch_enum_ident(schema, owner, field);
    Some(quote!(::core::matches!(#tokens, #enum_name::#nothing(_))))
}
