//! Numbers, quaternions and vectors: their Rust types and their byte conversions.

use proc_macro2::TokenStream;
use quote::quote;

use crate::model::{ByteOrder, IntType, Scalar};

/// The Rust integer type of a stored integer.
pub fn int_type(i: IntType) -> TokenStream {
    match (i.bytes, i.signed) {
        (1, false) => quote!(u8),
        (2, false) => quote!(u16),
        (4, false) => quote!(u32),
        (8, false) => quote!(u64),
        (1, true) => quote!(i8),
        (2, true) => quote!(i16),
        (4, true) => quote!(i32),
        _ => quote!(i64),
    }
}

/// The Rust type of a stored number.
pub fn scalar_type(s: Scalar) -> TokenStream {
    match s {
        Scalar::Int(i) => int_type(i),
        Scalar::Float(f) if f.bytes == 4 => quote!(f32),
        Scalar::Float(_) => quote!(f64),
        Scalar::Fixed { raw, div } => {
            let raw = int_type(raw);
            quote!(rt::Fixed<#raw, #div>)
        }
    }
}

fn order(s: Scalar) -> ByteOrder {
    match s {
        Scalar::Int(i) | Scalar::Fixed { raw: i, .. } => i.order,
        Scalar::Float(f) => f.order,
    }
}

/// `convert(be, le)` in the byte order of `s`: for a chosen order, whichever the local
/// `_is_be` of the reader or writer picks.
fn in_order(s: Scalar, convert: impl Fn(&str) -> TokenStream) -> TokenStream {
    match order(s) {
        ByteOrder::Big => convert("be"),
        ByteOrder::Little => convert("le"),
        ByteOrder::Chosen => {
            let (be, le) = (convert("be"), convert("le"));
            let is_be = crate::sanitization::is_be_ident();
            quote!(if #is_be { #be } else { #le })
        }
    }
}

/// Decodes a number from the byte array `bytes` (of exactly its size).
pub fn decode(s: Scalar, bytes: TokenStream) -> TokenStream {
    in_order(s, |order| {
        let from = quote::format_ident!("from_{order}_bytes");
        match s {
            Scalar::Fixed { raw, .. } => {
                let raw = int_type(raw);
                quote!(rt::Fixed::from_raw(#raw::#from(#bytes)))
            }
            _ => {
                let ty = scalar_type(s);
                quote!(#ty::#from(#bytes))
            }
        }
    })
}

/// Encodes the number `value` to its byte array.
pub fn encode(s: Scalar, value: TokenStream) -> TokenStream {
    in_order(s, |order| {
        let to = quote::format_ident!("to_{order}_bytes");
        match s {
            Scalar::Fixed { .. } => quote!(#value.raw().#to()),
            _ => quote!(#value.#to()),
        }
    })
}

/// The component names of a quaternion or vector.
pub fn components(quat: bool) -> &'static [&'static str] {
    if quat {
        &["x", "y", "z", "w"]
    } else {
        &["x", "y", "z"]
    }
}
