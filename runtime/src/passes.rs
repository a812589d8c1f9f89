//! The passes of `normalize()`: both back ends recompute derived fields pass after pass until
//! one changes nothing (a recomputed `vlq` may change its own size, which a size recomputed
//! before it measured), with the same limit and the same error when they never settle.

use crate::{Error, ErrorKind, Result};

/// Runs `pass` until it changes nothing (it sets its `bool` when it changes anything), at most
/// `passes` times; more is an error: the derived fields never settle.
pub fn until_settled(passes: usize, mut pass: impl FnMut(&mut bool) -> Result<()>) -> Result<()> {
    for _ in 0..passes {
        let mut changed = false;
        pass(&mut changed)?;
        if !changed {
            return Ok(());
        }
    }
    Err(Error::new(
        0,
        ErrorKind::Invalid(format!(
            "the derived fields do not settle after {passes} measures"
        )),
    ))
}

/// Sets `place` to `new`, noting in `changed` whether that changed it.
#[inline]
pub fn set<T: PartialEq>(place: &mut T, new: T, changed: &mut bool) {
    if *place != new {
        *place = new;
        *changed = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passes_stop_at_the_first_that_changes_nothing() {
        let (mut value, mut runs) = (0, 0);
        until_settled(8, |changed| {
            runs += 1;
            let next = (value + 1).min(3);
            set(&mut value, next, changed);
            Ok(())
        })
        .unwrap();
        assert_eq!((value, runs), (3, 4));
    }

    #[test]
    fn passes_that_never_settle_are_an_error() {
        let error = until_settled(2, |changed| {
            *changed = true;
            Ok(())
        })
        .unwrap_err();
        assert!(error.to_string().contains("do not settle after 2 measures"));
    }
}
