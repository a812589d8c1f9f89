//! Encoded sizes: `encoded_len()` of every type, and the `_sizeof` of a field in expressions.

use proc_macro2::TokenStream;
use quote::quote;

use crate::model::{Field, FieldType, ReframedSize, Repeat, Schema, Size};
use crate::sanitization::field_ident;

/// A `usize` expression: the bytes `access` (a place holding `field`'s value) encodes to.
pub fn field_len(schema: &Schema, field: &Field, access: &TokenStream) -> TokenStream {
    if let FieldType::Contents(bytes) = &field.ty
        && !field.stores_value()
    {
        let n = bytes.len();
        return quote!(#n);
    }
    if field.cond.is_some() {
        let inner = present_len(schema, field, &quote!(value));
        quote!(#access.as_ref().map_or(0, |value| #inner))
    } else {
        present_len(schema, field, access)
    }
}

/// A `usize` expression: the bytes `access` encodes to, `field`'s value when it is present
/// (all its elements when it is a list).
pub fn present_len(schema: &Schema, field: &Field, access: &TokenStream) -> TokenStream {
    match &field.ty {
        // Each element of a list whose elements choose their case knows its own length.
        FieldType::Switch(_) if field.switches_per_element() => {
            quote!(#access.iter().map(|item| item.encoded_len()).sum::<usize>())
        }
        // A switch value knows its own length, whichever case holds it.
        FieldType::Switch(_) => quote!(#access.encoded_len()),
        ty => values_len(schema, field, ty, access),
    }
}

/// A `usize` expression: the bytes `field`'s value (or list of values) of type `ty` at
/// `access` encodes to, with the terminator that follows each value outside it. A case of a
/// switch whose elements choose their case holds one value.
pub fn values_len(
    schema: &Schema,
    field: &Field,
    ty: &FieldType,
    access: &TokenStream,
) -> TokenStream {
    let delimiter = field.delimiter_len();
    let delimited = |len: TokenStream| match delimiter {
        0 => len,
        n => quote!((#len + #n)),
    };
    let single = field.repeat == Repeat::None || field.switches_per_element();
    // A decoded value takes the bytes it is stored in (text, those it is written as).
    if field.decode.is_some() {
        return match (single, measured_as_written(field, "written_len", access)) {
            (true, Some(len)) => len,
            (true, None) => quote!(#access.stored.0.len()),
            (false, _) => quote!(#access.iter().map(|item| item.stored.0.len()).sum::<usize>()),
        };
    }
    if single {
        return delimited(element_len(schema, ty, access));
    }
    match schema.fixed_size_of(ty) {
        Some(size) => {
            let size = size + delimiter;
            quote!(#access.len() * #size)
        }
        None => {
            let one = delimited(element_len(schema, ty, &quote!(item)));
            quote!(#access.iter().map(|item| #one).sum::<usize>())
        }
    }
}

/// A `usize` expression: the bytes one element of type `ty` at `access` encodes to.
pub fn element_len(schema: &Schema, ty: &FieldType, access: &TokenStream) -> TokenStream {
    if let Some(size) = schema.fixed_size_of(ty) {
        return quote!(#size);
    }
    match ty {
        FieldType::Remembered { .. } | FieldType::BitPadding => quote!(0),
        // Alone, a bit field takes the bytes its bits touch.
        FieldType::Bits { width, .. } => {
            let n = usize::from(*width).div_ceil(8);
            quote!(#n)
        }
        FieldType::Vlq => quote!(rt::fields::vlq_len(#access)),
        FieldType::Nothing => quote!(0usize),
        FieldType::Enum { raw, .. } => {
            let n = usize::from(raw.bytes);
            quote!(#n)
        }
        FieldType::Contents(bytes) => {
            let n = bytes.len();
            quote!(#n)
        }
        FieldType::Str {
            size: Size::Const(n),
            align: 0 | 1,
            ..
        } => quote!(#n),
        FieldType::Str { .. } => quote!(#access.len()),
        FieldType::Bytes { .. } => quote!(#access.0.len()),
        FieldType::User { .. } | FieldType::Switch(_) => quote!(#access.encoded_len()),
        // Numbers, quaternions and vectors have a fixed size (above); arrays do when their
        // elements do.
        FieldType::Number(s) => {
            let n = s.size();
            quote!(#n)
        }
        FieldType::Quat(s) => {
            let n = 4 * s.size();
            quote!(#n)
        }
        FieldType::Vec3(s) => {
            let n = 3 * s.size();
            quote!(#n)
        }
        FieldType::Array { elem, .. } => {
            let one = element_len(schema, elem, &quote!(item));
            quote!(#access.iter().map(|item| #one).sum::<usize>())
        }
    }
}

/// The body of `encoded_len(&self)` for a type with a variable layout.
pub fn encoded_len_body(schema: &Schema, ty: usize) -> TokenStream {
    let def = &schema.types[ty];
    if def
        .fields
        .iter()
        .any(|f| matches!(f.ty, FieldType::Bits { .. }))
    {
        return bit_len_body(schema, ty);
    }
    let mut constant = 0usize;
    let mut parts = Vec::new();
    // Values read by position are placed apart from the sequential bytes.
    for field in def.fields.iter().filter(|f| f.position.is_none()) {
        let single = field.cond.is_none() && field.repeat == Repeat::None;
        match schema.fixed_size_of(&field.ty) {
            Some(size) if single && field.decode.is_none() => {
                constant += size + field.delimiter_len()
            }
            _ if single && matches!(field.ty, FieldType::Remembered { .. }) => {}
            _ if single && matches!(field.ty, FieldType::Contents(_) | FieldType::Enum { .. }) => {
                constant += schema.min_size_of(&field.ty);
            }
            _ => {
                let ident = field_ident(&field.id);
                parts.push(field_len(schema, field, &quote!(self.#ident)));
            }
        }
    }
    if parts.is_empty() {
        return quote!(#constant);
    }
    quote!(#constant #(+ #parts)*)
}

/// `encoded_len` of a type with bit fields: its bits counted in order, each padding field
/// completing the byte, then rounded up to whole bytes.
fn bit_len_body(schema: &Schema, ty: usize) -> TokenStream {
    let def = &schema.types[ty];
    let steps = def
        .fields
        .iter()
        .filter(|f| f.position.is_none())
        .map(|field| {
            let ident = field_ident(&field.id);
            let access = quote!(self.#ident);
            match &field.ty {
                FieldType::BitPadding => quote!(bits = bits.next_multiple_of(8);),
                FieldType::Bits { width, .. } => {
                    let width = usize::from(*width);
                    let count = match (field.cond.is_some(), field.repeat != Repeat::None) {
                        (false, false) => quote!(1),
                        (false, true) => quote!(#access.len()),
                        (true, false) => quote!(usize::from(#access.is_some())),
                        (true, true) => quote!(#access.as_ref().map_or(0, |list| list.len())),
                    };
                    quote!(bits += #width * #count;)
                }
                _ => {
                    let len = field_len(schema, field, &access);
                    quote!(bits += 8 * (#len);)
                }
            }
        });
    quote! {{
        let mut bits = 0usize;
        #(#steps)*
        bits.div_ceil(8)
    }}
}

/// A call of `rt::process::{function}` (`written_len`, `restored`) on the decoded value of
/// `field` at `item` (an `rt::Decoded`), when it is measured as written (see
/// [`Field::is_measured_as_written`]).
pub fn measured_as_written(
    field: &Field,
    function: &str,
    item: &TokenStream,
) -> Option<TokenStream> {
    let decode = field
        .decode
        .as_ref()
        .filter(|_| field.is_measured_as_written())?;
    let processor = super::constant_processor(decode)?;
    let function = quote::format_ident!("{function}");
    let size = match decode.reframed_size() {
        ReframedSize::Fixed(n) => quote!(::core::option::Option::Some(#n)),
        ReframedSize::AsStored => quote!(rt::process::size_as_stored(&#item.stored.0)),
        ReframedSize::Unpadded => quote!(::core::option::Option::None),
    };
    let frame = super::frame_tokens(decode, size);
    let value = match field.ty {
        FieldType::Bytes { .. } => quote!(#item.value.0.as_slice()),
        _ => quote!(#item.value.as_bytes()),
    };
    Some(quote!(rt::process::#function(
        &#processor,
        (#value, &#item.rest.0),
        &#item.stored.0,
        #frame,
    )))
}
