//! Strings, byte arrays and lists in expressions: the Rust of their properties.

use proc_macro2::TokenStream;
use quote::quote;

use super::*;
use crate::typeck::typed::Property;

/// The Rust of `property` (see `resolve::value_property`) of `value`, of type `ty`.
pub(super) fn property_tokens(property: Property, ty: &Ty, v: TokenStream) -> TokenStream {
    let list_of = |elem: Ty| matches!(ty, Ty::Array(e) | Ty::ListLit(e) if **e == elem);
    let (best, least_float) = match property {
        Property::Min => (quote!(min), quote!(f64::min)),
        Property::Max => (quote!(max), quote!(f64::max)),
        // Views, computed strings and either of them (`Cow`) all have a length.
        Property::Length => return quote!((#v.len() as i64)),
        Property::Decimal => return quote!(rt::bytes::decimal(#v)),
        Property::ToInt => {
            return match ty {
                Ty::Enum(_) => quote!(#v.raw()),
                Ty::Bool => quote!(i64::from(#v)),
                _ => quote!((#v as i64)),
            };
        }
        Property::Reverse => return quote!(rt::bytes::reverse_text(rt::bytes::view(&#v))),
    };
    match ty {
        _ if list_of(Ty::Int) => quote!(#v.iter().map(|x| *x as i64).#best().unwrap_or(0)),
        _ if list_of(Ty::Float) => {
            quote!(#v.iter().map(|x| *x as f64).reduce(#least_float).unwrap_or(0.0))
        }
        // Strings order by their bytes, as Kaitai compares them.
        Ty::Array(e) if **e == Ty::Str => {
            quote!(#v.iter().map(|x| x.text_bytes()).#best().unwrap_or_default().to_vec())
        }
        Ty::Bytes => {
            quote!(rt::bytes::view(&#v).iter().#best().map_or(0i64, |b| i64::from(*b)))
        }
        // A list of string literals.
        _ => quote!(#v.iter().#best().copied().unwrap_or_default().to_vec()),
    }
}
