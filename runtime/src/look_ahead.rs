//! Values a reader finds at a position without consuming them (Kaitai's `pos` instances of an
//! integer type): kept with the value they belong to for programs to read, never written and
//! left out of documents.

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
}
