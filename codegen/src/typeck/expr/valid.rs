//! `valid` rules: each is a condition over `_`, the value checked.

use proc_macro2::TokenStream;
use quote::quote;

use super::{ExprError, Scope};
use crate::model::{Field, FieldType, Repeat};
use crate::repr::stored_value;
use crate::sanitization::enum_ident;
use crate::typeck::resolve::uses;

impl Scope<'_> {
    /// For each `valid` rule of `field`, a `bool` expression: whether the value `item` (a
    /// reference to one value; in a list, the element at `index`) keeps the rule.
    pub fn valid_rules(&self, field: &Field) -> Result<Vec<TokenStream>, ExprError> {
        let list = field.repeat != Repeat::None || matches!(field.ty, FieldType::Array { .. });
        let element = match &field.ty {
            FieldType::Array { elem, .. } => elem.as_ref(),
            ty => ty,
        };
        let scope = match list {
            true => self.with_index(quote!(index)),
            false => self.clone(),
        };
        let item = scope.with_element_of(stored_value(field, quote!(item)), element);
        field
            .valid
            .iter()
            .map(|valid| match valid.kind {
                crate::model::ValidKind::InEnum => self.in_enum(element),
                _ => item.bool(&valid.rule),
            })
            .collect()
    }

    /// `in-enum`: the value `item` (a reference to an enum value) is one its enum names.
    fn in_enum(&self, element: &FieldType) -> Result<TokenStream, ExprError> {
        let enum_idx = uses::in_enum(element)?;
        let name = enum_ident(&self.cx.schema.enums[enum_idx]);
        Ok(quote!(!::core::matches!(item, #name::Unknown(_))))
    }
}
