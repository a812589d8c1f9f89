//! Values a reader finds at a position without consuming them (Kaitai's `pos` instances of an
//! integer type): kept with the value they belong to for programs to read, never written and
//! left out of documents.

use std::cell::Cell;

use serde::{Deserialize, Serialize};

/// An integer read at a position while reading (-1 past the end). The bytes it was read from
/// belong to other fields, which decide it: it is never written, and it is not part of the
/// value's content, so it equals every other `LookAhead` and an edit of it changes nothing.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct LookAhead(pub i64);

impl LookAhead {
    /// The value as read.
    pub fn get(self) -> i64 {
        self.0
    }
}

/// The look-ahead held in `cell`, read by `read` the first time it is asked for: a reader
/// evaluates an instance once, where it first needs it, as Kaitai does.
pub fn once(cell: &Cell<Option<i64>>, read: impl FnOnce() -> i64) -> i64 {
    match cell.get() {
        Some(value) => value,
        None => {
            let value = read();
            cell.set(Some(value));
            value
        }
    }
}

impl PartialEq for LookAhead {
    /// Always equal: the value is what the bytes around it say, not content of its own.
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::LookAhead;

    #[test]
    fn look_aheads_do_not_make_values_differ() {
        assert_eq!(LookAhead(1), LookAhead(-1));
        assert_eq!(LookAhead(7).get(), 7);
    }

    #[test]
    fn a_look_ahead_is_read_once() {
        let cell = std::cell::Cell::new(None);
        assert_eq!(super::once(&cell, || 5), 5);
        assert_eq!(super::once(&cell, || 6), 5, "the first value is kept");
    }
}
