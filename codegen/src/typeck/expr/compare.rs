//! Comparisons: numbers, enums, strings and byte arrays, lists against literals, values that
//! may be absent.

use proc_macro2::TokenStream;
use quote::quote;

use super::place::{Absent, when_present};
use super::*;

/// `a op b`; `can_fail`: either can fail (see `Scope::can_fail`).
pub(super) fn comparison(
    op: BinOp,
    (a, ta): (TokenStream, Ty),
    (b, tb): (TokenStream, Ty),
    can_fail: bool,
) -> Compiled {
    let (a, b) = match (&ta, &tb) {
        (Ty::Int, Ty::Int) | (Ty::Float, Ty::Float) | (Ty::Bool, Ty::Bool) => (a, b),
        (Ty::Int, Ty::Float) => (quote!((#a as f64)), b),
        (Ty::Float, Ty::Int) => (a, quote!((#b as f64))),
        (Ty::Enum(x), Ty::Enum(y)) if x == y => (a, b),
        // As in Kaitai: an enum value is compared with its `to_i`.
        (Ty::Enum(_), Ty::Int) | (Ty::Int, Ty::Enum(_)) => {
            let message = messages::cannot_compare(describe(&ta), describe(&tb));
            return invalid(format!("{message}: compare the enum value's `to_i`"));
        }
        (Ty::Str | Ty::StrLit, Ty::Str | Ty::StrLit) | (Ty::Bytes, Ty::Bytes) => {
            // Views and computed strings compare as slices; a literal already is one.
            let slice = |t, ty: &Ty| match ty {
                Ty::StrLit => t,
                _ => quote!(rt::bytes::view(&#t)),
            };
            (slice(a, &ta), slice(b, &tb))
        }
        (Ty::Opt(_), _) | (_, Ty::Opt(_)) => {
            return optional_comparison(op, (a, ta), (b, tb), can_fail);
        }
        (Ty::Bytes | Ty::Array(_) | Ty::ListLit(_), _) => {
            return list_comparison(op, (a, ta), (b, tb));
        }
        _ => {
            return invalid(messages::cannot_compare(describe(&ta), describe(&tb)));
        }
    };
    // Strings and byte arrays are ordered byte by byte, as Kaitai orders them.
    let ordered = !matches!(ta, Ty::Bool | Ty::Enum(_)) && !matches!(tb, Ty::Bool | Ty::Enum(_));
    let tokens = match op {
        BinOp::Eq => quote!((#a == #b)),
        BinOp::Ne => quote!((#a != #b)),
        _ if !ordered => {
            return invalid("only numbers, strings and byte arrays can be ordered with < <= > >=");
        }
        BinOp::Lt => quote!((#a < #b)),
        BinOp::Le => quote!((#a <= #b)),
        BinOp::Gt => quote!((#a > #b)),
        _ => quote!((#a >= #b)),
    };
    Ok((tokens, Ty::Bool))
}

/// `==` and `!=` with a value that may be absent: an absent value equals nothing.
pub(super) fn optional_comparison(
    op: BinOp,
    (a, ta): (TokenStream, Ty),
    (b, tb): (TokenStream, Ty),
    can_fail: bool,
) -> Compiled {
    let Ty::Opt(inner) = ta else {
        return optional_comparison(op.mirrored(), (b, tb), (a, ta), can_fail);
    };
    let (holds, _) = comparison(op, (quote!(present), *inner), (b, tb), can_fail)?;
    let absent = op == BinOp::Ne;
    let absent = Absent::Value(quote!(#absent));
    Ok((when_present(&a, &holds, absent, can_fail), Ty::Bool))
}

/// A list literal: integers (`[1i64, 2i64]`) or strings (`[b"a".as_slice(), …]`).
pub(super) fn list_literal(scope: &Scope, items: &[Expr]) -> Compiled {
    let compiled = items
        .iter()
        .map(|item| scope.compile(item))
        .collect::<Result<Vec<_>, _>>()?;
    // Byte-array literals (`[[0x00, 0x00], [0x4e, 0xba]]`): a list of byte arrays.
    if !items.is_empty() && items.iter().all(super::is_byte_literal) {
        let arrays = compiled
            .iter()
            .map(|(tokens, _)| quote!(rt::bytes::from_ints(&#tokens)));
        return Ok((quote!([#(#arrays),*]), Ty::ListLit(Box::new(Ty::Bytes))));
    }
    // Structures of any types: a `struct[]`, of references to them.
    let structures: Vec<(&TokenStream, usize)> = compiled
        .iter()
        .filter_map(|(tokens, ty)| match ty {
            Ty::User(have) => Some((tokens, *have)),
            _ => None,
        })
        .collect();
    if !compiled.is_empty() && structures.len() == compiled.len() {
        let items = structures.into_iter().map(|(tokens, have)| {
            let name = crate::sanitization::struct_ident(&scope.schema.types[have]);
            quote!({
                let value: &#name = &#tokens;
                value as &dyn ::core::any::Any
            })
        });
        return Ok((quote!([#(#items),*]), Ty::ListLit(Box::new(Ty::AnyStruct))));
    }
    let elem = match compiled.first().map(|(_, ty)| ty) {
        None | Some(Ty::Int) => Ty::Int,
        Some(Ty::StrLit) => Ty::StrLit,
        Some(Ty::Float) => Ty::Float,
        Some(Ty::Io) => Ty::Io,
        Some(other) => {
            return unsupported(format!(
                "a list literal holds integers, floats, strings, byte arrays, streams or structures, not {}",
                describe(other)
            ));
        }
    };
    if compiled.iter().any(|(_, ty)| *ty != elem) {
        return invalid("the elements of a list literal must all have the same type");
    }
    // An empty list is one of integers, spelled with its type: `[]` alone has none in Rust.
    if compiled.is_empty() {
        return Ok((quote!([0i64; 0]), Ty::ListLit(Box::new(elem))));
    }
    let tokens = compiled.iter().map(|(t, _)| t);
    Ok((quote!([#(#tokens),*]), Ty::ListLit(Box::new(elem))))
}

/// `==` and `!=` between a list value and a list literal, or between two byte arrays.
pub(super) fn list_comparison(
    op: BinOp,
    (a, ta): (TokenStream, Ty),
    (b, tb): (TokenStream, Ty),
) -> Compiled {
    let equal = match (&ta, &tb) {
        (Ty::ListLit(_), _) if !matches!(tb, Ty::ListLit(_)) => {
            return list_comparison(op.mirrored(), (b, tb), (a, ta));
        }
        // Ordered against a byte-array literal: compared as bytes.
        (Ty::Bytes, Ty::ListLit(elem))
            if **elem == Ty::Int && !matches!(op, BinOp::Eq | BinOp::Ne) =>
        {
            let literal = quote!(rt::bytes::from_ints(&#b));
            return comparison(op, (a, ta), (literal, Ty::Bytes), false);
        }
        (Ty::Bytes, Ty::ListLit(elem)) if **elem == Ty::Int => {
            quote!(rt::arith::ints_match(#a.iter().map(|x| i64::from(*x)), &#b))
        }
        (Ty::Array(x), Ty::ListLit(y)) if **x == Ty::Int && **y == Ty::Int => {
            quote!(rt::arith::ints_match(#a.iter().map(|x| *x as i64), &#b))
        }
        (Ty::Array(x), Ty::ListLit(y)) if **x == Ty::Str && **y == Ty::StrLit => quote!(
            (#a.len() == #b.len() && #a.iter().zip(#b.iter()).all(|(x, y)| x.text_bytes() == *y))
        ),
        _ => {
            return invalid(messages::cannot_compare(describe(&ta), describe(&tb)));
        }
    };
    match op {
        BinOp::Eq => Ok((equal, Ty::Bool)),
        BinOp::Ne => Ok((quote!((!#equal)), Ty::Bool)),
        _ => invalid("lists and byte arrays compare with == and != only"),
    }
}
