//! How schema values are held in Rust: the forms that both the expression compiler
//! ([`crate::typeck`]) and the generator (`emit`) spell, so that they agree, and that the
//! interpreter (`skelcodec-dynamic`) follows for its documents (switch variants).

pub mod scalar;
pub mod sizes;

use proc_macro2::TokenStream;
use quote::{ToTokens as _, quote};

use crate::model::{Decode, Field, Param, ParamType, Process, Schema};
use crate::sanitization::{enum_ident, struct_ident};

/// An `Option` expression of `value`, spelled with its full path.
pub fn option_tokens(value: Option<impl quote::ToTokens>) -> TokenStream {
    match value {
        Some(v) => quote!(::core::option::Option::Some(#v)),
        None => quote!(::core::option::Option::None),
    }
}

/// The processor every value of `decode` shares, when its arguments are none (an encoding,
/// zlib, no processing): an `impl rt::process::Process` expression that holds anywhere.
pub fn constant_processor(decode: &Decode) -> Option<TokenStream> {
    Some(match &decode.process {
        None => quote!(rt::process::Unchanged),
        Some(Process::Zlib) => quote!(rt::process::Zlib),
        Some(Process::Encoding(encoding)) => {
            let variant = quote::format_ident!("{}", encoding.variant_name());
            quote!(rt::encoding::Encoding::#variant)
        }
        Some(Process::UnknownEncoding(label)) => quote!(rt::process::UnknownEncoding(#label)),
        Some(Process::Xor(_) | Process::Rol(_) | Process::Ror(_) | Process::Custom { .. }) => {
            return None;
        }
    })
}

/// The `rt::process::Frame` of `decode`; `size` is its size (an `Option<i64>` expression).
pub fn frame_tokens(decode: &Decode, size: TokenStream) -> TokenStream {
    let skelcodec_runtime::process::Frame {
        terminator,
        include,
        pad_right,
        unit,
        ..
    } = decode.frame(None);
    let terminator = option_tokens(terminator);
    let pad_right = option_tokens(pad_right);
    quote!(rt::process::Frame {
        terminator: #terminator,
        include: #include,
        pad_right: #pad_right,
        size: #size,
        unit: #unit,
    })
}

/// One stored value of `field` reached through `tokens` (a reference to it): a decoded value
/// is reached through its `rt::Decoded`, whose own fields must not shadow the value's.
pub fn stored_value(field: &Field, tokens: TokenStream) -> TokenStream {
    match field.decode {
        Some(_) => quote!((&#tokens.value)),
        None => tokens,
    }
}

/// The Rust type a parameter is passed as, behind its reference or slice (`u8` for bytes,
/// the element type for lists).
pub fn param_value_type(schema: &Schema, p: &Param) -> TokenStream {
    match p.ty {
        ParamType::Int(_) | ParamType::IntList => quote!(i64),
        ParamType::Bool => quote!(bool),
        ParamType::Enum(idx) => enum_ident(&schema.enums[idx]).into_token_stream(),
        ParamType::Str | ParamType::Bytes => quote!(u8),
        ParamType::User(ty) | ParamType::OptUser(ty) | ParamType::UserList(ty) => {
            struct_ident(&schema.types[ty]).into_token_stream()
        }
        ParamType::Io => quote!(rt::Stream),
        ParamType::AnyStruct | ParamType::AnyStructList => quote!(dyn ::core::any::Any),
        ParamType::StrList => quote!([u8]),
        ParamType::IoList => quote!(rt::Stream),
    }
}
