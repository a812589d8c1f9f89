//! Strings, byte arrays and lists in expressions: their properties and methods.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use skelcodec_runtime::bytes as rt_bytes;
use skelcodec_runtime::encoding::Encoding;

use super::*;

impl<'s> Scope<'s> {
    /// `f"len={len}"`: the text, with each integer in decimal and each string as it is.
    pub(super) fn fstring(&self, parts: &[Expr]) -> Compiled {
        let mut text = quote!(::std::vec::Vec::<u8>::new());
        for part in parts {
            let (value, ty) = self.compile(part)?;
            let value = match ty {
                Ty::Str | Ty::StrLit => value,
                Ty::Int => quote!(rt::bytes::decimal(#value)),
                other => {
                    return invalid(format!(
                        "an f-string takes integers and strings, not {}",
                        describe(&other)
                    ));
                }
            };
            text = quote!(rt::bytes::concat(&#text, &#value));
        }
        Ok((text, Ty::Str))
    }

    /// `text.to_i(radix)`, which fails for text that is no number: a reader's or writer's
    /// failure at its position, an instance method's own; refused where nothing could report
    /// it (`-derived`, `to-string`, a default).
    pub(super) fn number_of_text(&self, text: &TokenStream, radix: TokenStream) -> Compiled {
        if !self.reports_failure {
            return unsupported(
                "`to_i` of text fails for text that is no number, which is only reported while reading, writing or in a value instance",
            );
        }
        self.can_fail.set(true);
        let number = quote!(rt::bytes::parse_int(rt::bytes::view(&#text), #radix));
        // Code reached through another value runs where the expression is compiled.
        let home = self.home.as_deref().unwrap_or(self);
        let tokens = match home.mode {
            Mode::Read => quote!(#number.map_err(|e| e.at(r.pos()))?),
            Mode::Write => quote!(#number.map_err(|e| e.at(w.pos()))?),
            Mode::Inspect => quote!(#number?),
        };
        Ok((tokens, Ty::Int))
    }

    /// `text.to_i(radix)`, `text.substring(from, to)`, `bytes.to_s(encoding)`.
    pub(super) fn text_method(&self, recv: &Expr, name: &str, args: &[Expr]) -> Compiled {
        let (value, ty) = self.compile(recv)?;
        let text = matches!(ty, Ty::Str | Ty::StrLit);
        match (name, args) {
            ("to_i", [Expr::Int(radix)])
                if let Some(n) = i64::try_from(*radix)
                    .ok()
                    .and_then(|r| literal_number(recv, r)) =>
            {
                Ok((int_literal(n.into())?, Ty::Int))
            }
            ("to_i", [radix]) if text => self.number_of_text(&value, self.int(radix)?),
            ("substring", [from, to]) if text => {
                let (from, to) = (self.int(from)?, self.int(to)?);
                Ok((
                    quote!(rt::bytes::substring(rt::bytes::view(&#value), #from, #to)),
                    Ty::Str,
                ))
            }
            ("to_s", [Expr::Str(label)])
                if ty == Ty::Bytes || ty == Ty::ListLit(Box::new(Ty::Int)) =>
            {
                let value = match ty {
                    Ty::Bytes => value,
                    _ => quote!(rt::bytes::from_ints(&#value)),
                };
                // Kaitai compiles any name and fails when the text is decoded.
                let Some(encoding) = Encoding::for_label(label) else {
                    return unsupported(skelcodec_runtime::__private::messages::unknown_encoding(
                        label,
                    ));
                };
                if crate::keys::text_is_its_bytes(encoding) {
                    // UTF-8 and ASCII text is its bytes.
                    return Ok((value, Ty::Str));
                }
                let variant = format_ident!("{}", encoding.variant_name());
                Ok((
                    quote!(rt::encoding::Encoding::#variant.decode(rt::bytes::view(&#value)).into_owned().into_bytes()),
                    Ty::Str,
                ))
            }
            _ => invalid(format!(
                "`{name}` takes {} of a string{}, found {} with {} argument(s)",
                match name {
                    "to_i" => "a radix",
                    "substring" => "the start and end",
                    _ => "an encoding name",
                },
                if name == "to_s" { " (on bytes)" } else { "" },
                describe(&ty),
                args.len()
            )),
        }
    }
}

/// The number a string literal spells in `radix`, which cannot fail (`"-72".to_i`).
pub(super) fn literal_number(text: &Expr, radix: i64) -> Option<i64> {
    match text {
        Expr::Str(text) => rt_bytes::parse_int(text.as_bytes(), radix).ok(),
        _ => None,
    }
}

/// A property computed from the value of `ty` (`text.length`, `n.to_s`, `list.max`): how to
/// compute it and its type. Text's `to_i`, which can fail, is `Scope::number_of_text`.
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
