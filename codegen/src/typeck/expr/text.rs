//! Strings, byte arrays and lists in expressions: their properties and methods.

use proc_macro2::TokenStream;
use quote::quote;

use super::*;

/// A property computed from the value of `ty` (`text.length`, `n.to_s`, `list.max`): how to
/// compute it and its type. Text's `to_i`, which can fail, is `resolve::parse_int`.
pub(super) type Property = fn(TokenStream) -> (TokenStream, Ty);

pub(super) fn value_property(attr: &str, ty: &Ty) -> Option<Property> {
    let text = matches!(ty, Ty::Str | Ty::StrLit);
    let ints = matches!(ty, Ty::Array(e) | Ty::ListLit(e) if **e == Ty::Int);
    let floats = matches!(ty, Ty::Array(e) | Ty::ListLit(e) if **e == Ty::Float);
    let texts = matches!(ty, Ty::Array(e) if **e == Ty::Str);
    let literal_texts = matches!(ty, Ty::ListLit(e) | Ty::Array(e) if **e == Ty::StrLit);
    Some(match attr {
        // Views, computed strings and either of them (`Cow`) all have a length.
        "length" if text || *ty == Ty::Bytes => |v| (quote!((#v.len() as i64)), Ty::Int),
        "size" if *ty == Ty::Bytes => |v| (quote!((#v.len() as i64)), Ty::Int),
        "to_s" if *ty == Ty::Int => |v| (quote!(rt::bytes::decimal(#v)), Ty::Str),
        "to_i" if *ty == Ty::Float => |v| (quote!((#v as i64)), Ty::Int),
        "to_i" if matches!(ty, Ty::Enum(_)) => |v| (quote!(#v.raw()), Ty::Int),
        "to_i" if *ty == Ty::Bool => |v| (quote!(i64::from(#v)), Ty::Int),
        "reverse" if text => |v| {
            (
                quote!(rt::bytes::reverse_text(rt::bytes::view(&#v))),
                Ty::Str,
            )
        },
        "min" if ints => |v| {
            (
                quote!(#v.iter().map(|x| *x as i64).min().unwrap_or(0)),
                Ty::Int,
            )
        },
        "max" if ints => |v| {
            (
                quote!(#v.iter().map(|x| *x as i64).max().unwrap_or(0)),
                Ty::Int,
            )
        },
        "min" if floats => |v| {
            let least = quote!(#v.iter().map(|x| *x as f64).reduce(f64::min).unwrap_or(0.0));
            (least, Ty::Float)
        },
        "max" if floats => |v| {
            let most = quote!(#v.iter().map(|x| *x as f64).reduce(f64::max).unwrap_or(0.0));
            (most, Ty::Float)
        },
        // Strings order by their bytes, as Kaitai compares them.
        "min" if texts => |v| {
            let least = quote!(#v.iter().map(|x| x.text_bytes()).min().unwrap_or_default());
            (quote!(#least.to_vec()), Ty::Str)
        },
        "max" if texts => |v| {
            let most = quote!(#v.iter().map(|x| x.text_bytes()).max().unwrap_or_default());
            (quote!(#most.to_vec()), Ty::Str)
        },
        "min" if literal_texts => |v| {
            let least = quote!(#v.iter().min().copied().unwrap_or_default());
            (quote!(#least.to_vec()), Ty::Str)
        },
        "max" if literal_texts => |v| {
            let most = quote!(#v.iter().max().copied().unwrap_or_default());
            (quote!(#most.to_vec()), Ty::Str)
        },
        "min" if *ty == Ty::Bytes => |v| {
            (
                quote!(rt::bytes::view(&#v).iter().min().map_or(0i64, |b| i64::from(*b))),
                Ty::Int,
            )
        },
        "max" if *ty == Ty::Bytes => |v| {
            (
                quote!(rt::bytes::view(&#v).iter().max().map_or(0i64, |b| i64::from(*b))),
                Ty::Int,
            )
        },
        _ => return None,
    })
}
