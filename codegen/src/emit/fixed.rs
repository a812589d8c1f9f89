//! Fixed-size values decoded from and encoded into byte arrays at constant offsets: the bulk
//! path for arrays of key frames, with one bounds check per array.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::model::{Fixed, FixedKind, Schema};
use crate::repr::scalar;
use crate::sanitization::{field_ident, struct_ident};

/// An expression decoding a value of layout `fixed` from `b: &[u8; N]` at byte `offset`.
pub fn decode_at(schema: &Schema, fixed: &Fixed, offset: usize) -> TokenStream {
    match &fixed.kind {
        FixedKind::Number(s) => scalar::decode(*s, quote!(rt::fields::bytes_at(b, #offset))),
        FixedKind::Quat(s) | FixedKind::Vec3(s) => {
            let quat = matches!(fixed.kind, FixedKind::Quat(_));
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
        FixedKind::Str => quote!(rt::FixedStr::from_raw(rt::fields::bytes_at(b, #offset))),
        FixedKind::User(ty) => {
            let name = struct_ident(&schema.types[*ty]);
            quote!(#name::decode(&rt::fields::bytes_at(b, #offset)))
        }
        FixedKind::Array(elem, len) => {
            let items = (0..*len).map(|i| decode_at(schema, elem, offset + i * elem.size));
            quote!([#(#items),*])
        }
        FixedKind::Nothing => quote!(()),
    }
}

/// Statements encoding `value` (a place of layout `fixed`) into `b: &mut [u8; N]` at
/// `offset`.
pub fn encode_at(fixed: &Fixed, value: TokenStream, offset: usize) -> TokenStream {
    let end = offset + fixed.size;
    match &fixed.kind {
        FixedKind::Number(s) => {
            let bytes = scalar::encode(*s, value);
            quote!(b[#offset..#end].copy_from_slice(&#bytes);)
        }
        FixedKind::Quat(s) | FixedKind::Vec3(s) => {
            let quat = matches!(fixed.kind, FixedKind::Quat(_));
            let parts = scalar::components(quat).iter().enumerate().map(|(i, c)| {
                let name = format_ident!("{c}");
                let at = offset + i * s.size();
                let to = at + s.size();
                let bytes = scalar::encode(*s, quote!(#value.#name));
                quote!(b[#at..#to].copy_from_slice(&#bytes);)
            });
            quote!(#(#parts)*)
        }
        FixedKind::Str => quote!(b[#offset..#end].copy_from_slice(#value.as_bytes());),
        FixedKind::Array(elem, len) => {
            let items =
                (0..*len).map(|i| encode_at(elem, quote!(#value[#i]), offset + i * elem.size));
            quote!(#(#items)*)
        }
        FixedKind::User(_) => {
            let inner = fixed.size;
            quote!(#value.encode(rt::fields::array_mut::<#inner, _>(b, #offset));)
        }
        FixedKind::Nothing => quote!(),
    }
}

/// The `decode`/`encode` pair and `SIZE` of a type of fixed layout, whose fields have the
/// layouts `layouts`.
pub fn fixed_impl(schema: &Schema, ty: usize, layouts: &[Fixed]) -> TokenStream {
    let def = &schema.types[ty];
    let mut offset = 0;
    let mut decoders = Vec::new();
    let mut encoders = Vec::new();
    for (field, fixed) in def.fields.iter().zip(layouts) {
        let ident = field_ident(&field.id);
        let value = decode_at(schema, fixed, offset);
        decoders.push(quote!(#ident: #value));
        encoders.push(encode_at(fixed, quote!(self.#ident), offset));
        offset += fixed.size;
    }
    let size = offset;
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
