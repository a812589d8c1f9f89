//! What a site needs of an expression: a stream for `io:`, a list for `-for-each`, the value a
//! switch matches on and its case keys. Each check is made here, on the resolved tree, with
//! the error a schema gets when it fails; a back end renders what is decided.

use super::{Reach, resolve};
use crate::expr::Expr;
use crate::typeck::typed::*;

/// `e`, which must be a stream (`io:`, the `_io` of a value).
pub fn stream<R: Reach>(scope: &R, e: &Expr) -> Result<Typed, ExprError> {
    let value = resolve(scope, e)?;
    match value.ty {
        Ty::Io => Ok(value),
        other => invalid(format!(
            "expected a stream (`_io` of a value), found {}",
            describe(&other)
        )),
    }
}

/// The list a `-for-each` field follows, which must be a list read earlier, and the type of
/// its elements.
pub fn list<R: Reach>(scope: &R, e: &Expr) -> Result<(Typed, Ty), ExprError> {
    let list = resolve(scope, e)?;
    match &list.ty {
        Ty::Array(elem) => {
            let elem = (**elem).clone();
            Ok((list, elem))
        }
        _ => invalid("`-for-each` takes a list read earlier"),
    }
}

/// How a switch matches the value it switches on (see [`selector`]).
#[derive(Debug, Clone)]
pub enum Selector {
    /// As it is: a number, boolean or enum value.
    Value(Typed),
    /// A string or byte array, by its bytes.
    Bytes(Typed),
    /// A string that may be absent (`list.last.magic`), by its bytes, or as the empty string
    /// where it is absent.
    TextOrEmpty(Typed),
}

impl Selector {
    /// The type of the value matched: a string that may be absent is matched as a string.
    pub fn ty(&self) -> Ty {
        match self {
            Selector::Value(value) | Selector::Bytes(value) => value.ty.clone(),
            Selector::TextOrEmpty(_) => Ty::Str,
        }
    }
}

/// The value a switch matches on, `on`, and how it is matched.
pub fn selector<R: Reach>(scope: &R, on: &Expr) -> Result<Selector, ExprError> {
    let value = resolve(scope, on)?;
    Ok(match &value.ty {
        Ty::Opt(inner) if inner.is_text() => Selector::TextOrEmpty(value),
        Ty::Str | Ty::StrLit | Ty::Bytes => Selector::Bytes(value),
        _ => Selector::Value(value),
    })
}

/// What a switch's case key matches (see [`case_key`]).
#[derive(Debug, Clone)]
pub enum CaseKey {
    /// These bytes: a string literal's, or a byte-array literal's (an element that is no
    /// byte reads as 0).
    Bytes(Vec<u8>),
    /// This value: an integer, boolean or enum literal.
    Value(Typed),
}

/// The case key `key` of a switch (an integer, string, boolean, enum or byte-array literal).
pub fn case_key<R: Reach>(scope: &R, key: &Expr) -> Result<CaseKey, ExprError> {
    Ok(match key {
        Expr::Str(s) => CaseKey::Bytes(s.as_bytes().to_vec()),
        Expr::List(items) => CaseKey::Bytes(
            items
                .iter()
                .map(|item| match item {
                    Expr::Int(n) => u8::try_from(*n).unwrap_or_default(),
                    _ => 0,
                })
                .collect(),
        ),
        other => CaseKey::Value(resolve(scope, other)?),
    })
}
