//! What a site needs of an expression: a stream for `io:`, a list for `-for-each`. Each check
//! is made here, on the resolved tree, with the error a schema gets when it fails; a back end
//! renders what is decided.

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
