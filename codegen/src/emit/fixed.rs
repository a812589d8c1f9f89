//! Fixed-size values decoded from and encoded into byte arrays at constant offsets: the bulk
//! path for arrays of key frames, with one bounds check per array.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::model::{FieldType, Schema, Size};
use crate::repr::scalar;
use crate::sanitization::{field_ident, struct_ident};

/// An expression decoding a value of `ty` from `b: &[u8; N]` at byte `offset`.
pub fn decode_at(schema: &Schema, ty: &FieldType, offset: usize) -> TokenStream {
    match ty {
        FieldType::Number(s) => scalar::decode(*s, quote!(rt::fields::bytes_at(b, #offset))),
        FieldType::Quat(s) | FieldType::Vec3(s) => {
            let quat = matches!(ty, FieldType::Quat(_));
            let parts = scalar::components(quat).iter().enumerate().map(|(i, c)| {
                let name = format_ident!("{c}");
                let at = offset + i * s.size();
                let value = scalar::decode(*s, quote!(rt::fields::bytes_at(b, #at)));
                quote!(#name: #value)
            });
            let kind = if quat {
                quote!(rt::Quat)
            } else {
                quote!(rt::Vec3)
            };
            quote!(#kind { #(#parts),* })
        }
        FieldType::Str {
            size: Size::Const(_),
            ..
        } => quote!(rt::FixedStr::from_raw(rt::fields::bytes_at(b, #offset))),
        FieldType::User { ty, .. } => {
            let name = struct_ident(&schema.types[*ty]);
            quote!(#name::decode(&rt::fields::bytes_at(b, #offset)))
        }
        FieldType::Array { elem, len } => {
            let size = schema.fixed_size_of(elem).unwrap_or(0);
            let items = (0..*len).map(|i| decode_at(schema, elem, offset + i * size));
            quote!([#(#items),*])
        }
        _ => unreachable!("only fixed-size types are decoded at an offset"),
    }
}

/// Statements encoding `value` (a place of type `ty`) into `b: &mut [u8; N]` at `offset`.
pub fn encode_at(
    schema: &Schema,
    ty: &FieldType,
    value: TokenStream,
    offset: usize,
) -> TokenStream {
    let size = schema
        .fixed_size_of(ty)
        .expect("only fixed-size types are encoded at an offset");
    let end = offset + size;
    match ty {
        FieldType::Number(s) => {
            let bytes = scalar::encode(*s, value);
            quote!(b[#offset..#end].copy_from_slice(&#bytes);)
        }
        FieldType::Quat(s) | FieldType::Vec3(s) => {
            let quat = matches!(ty, FieldType::Quat(_));
            let parts = scalar::components(quat).iter().enumerate().map(|(i, c)| {
                let name = format_ident!("{c}");
                let at = offset + i * s.size();
                let to = at + s.size();
                let bytes = scalar::encode(*s, quote!(#value.#name));
                quote!(b[#at..#to].copy_from_slice(&#bytes);)
            });
            quote!(#(#parts)*)
        }
        FieldType::Str { .. } => quote!(b[#offset..#end].copy_from_slice(#value.as_bytes());),
        FieldType::Array { elem, len } => {
            let size = schema.fixed_size_of(elem).unwrap_or(0);
            let items =
                (0..*len).map(|i| encode_at(schema, elem, quote!(#value[#i]), offset + i * size));
            quote!(#(#items)*)
        }
        FieldType::User { .. } => {
            let inner = schema.fixed_size_of(ty).unwrap_or(0);
            quote!(#value.encode(rt::fields::array_mut::<#inner, _>(b, #offset));)
        }
        _ => unreachable!("only fixed-size types are encoded at an offset"),
    }
}

/// The `decode`/`encode` pair and `SIZE` of a fixed-layout type.
pub fn fixed_impl(schema: &Schema, ty: usize, size: usize) -> TokenStream {
    let def = &schema.types[ty];
    let mut offset = 0;
    let mut decoders = Vec::new();
    let mut encoders = Vec::new();
    for field in &def.fields {
        let ident = field_ident(&field.id);
        let value = decode_at(schema, &field.ty, offset);
        decoders.push(quote!(#ident: #value));
        encoders.push(encode_at(schema, &field.ty, quote!(self.#ident), offset));
        offset += schema.fixed_size_of(&field.ty).unwrap_or(0);
    }
    quote! {
        /// Bytes every value of this type takes.
        pub const SIZE: usize = #size;

        /// Decodes a value from exactly [`Self::SIZE`] bytes.
        #[inline]
        pub fn decode(b: &[u8; #size]) -> Self {
            Self { #(#decoders),* }
        }

        /// Encodes the value into exactly [`Self::SIZE`] bytes.
        #[inline]
        pub fn encode(&self, b: &mut [u8; #size]) {
            #(#encoders)*
        }
    }
}
