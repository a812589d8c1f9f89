//! Bit fields: their Rust types, how one is read and written, and the padding fields that keep
//! the bits a byte-aligned field drops (see `rt::bits`).

use proc_macro2::TokenStream;
use quote::quote;

use crate::model::Schema;
use crate::sanitization::enum_ident;

/// The Rust type of a bit field: `bool` for `b1`, the smallest unsigned integer that holds
/// `width` bits, or its enum.
pub fn bits_type(schema: &Schema, width: u8, enum_idx: Option<usize>) -> TokenStream {
    match (enum_idx, width) {
        (Some(idx), _) => {
            let name = enum_ident(&schema.enums[idx]);
            quote!(#name)
        }
        (None, 1) => quote!(bool),
        (None, 2..=8) => quote!(u8),
        (None, 9..=16) => quote!(u16),
        (None, 17..=32) => quote!(u32),
        (None, _) => quote!(u64),
    }
}

/// A `Result` expression reading one bit field.
pub fn read_bits(
    schema: &Schema,
    width: u8,
    big_endian: bool,
    enum_idx: Option<usize>,
) -> TokenStream {
    let width = u32::from(width);
    let read = match big_endian {
        true => quote!(r.read_bits_be(#width)),
        false => quote!(r.read_bits_le(#width)),
    };
    let ty = bits_type(schema, width as u8, enum_idx);
    match (enum_idx, width) {
        (Some(_), _) => quote!(#read.map(|v| #ty::from_raw(v as i64))),
        (None, 1) => quote!(#read.map(|v| v != 0)),
        // The value has at most as many bits as its type.
        (None, _) => quote!(#read.map(|v| v as #ty)),
    }
}

/// Statements writing the bit field at `access`; `wrap` adds the path to errors.
pub fn write_bits(
    schema: &Schema,
    width: u8,
    big_endian: bool,
    enum_idx: Option<usize>,
    access: &TokenStream,
    wrap: &TokenStream,
) -> TokenStream {
    let width = u32::from(width);
    let value = match enum_idx {
        // A negative raw value fits in no bit field: `write_bits` refuses `u64::MAX`.
        Some(_) => quote!(u64::try_from(#access.raw()).unwrap_or(u64::MAX)),
        None => {
            let ty = bits_type(schema, width as u8, None);
            quote!(rt::bits::bits_of::<#ty>(#access))
        }
    };
    match big_endian {
        true => quote!(w.write_bits_be(#width, #value)#wrap?;),
        false => quote!(w.write_bits_le(#width, #value)#wrap?;),
    }
}
