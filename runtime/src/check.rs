//! Consistency checks for derived fields.

use std::fmt;

use crate::error::{PathSegment, render_path};

/// A derived field (size, count, offset) whose stored value disagrees with the value computed from the content.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Mismatch {
    /// Where the field is, in the same notation as [`crate::Error::path`].
    pub path: String,
    /// The value in the file.
    pub stored: i128,
    /// The value the content implies.
    pub computed: i128,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Only bytes (see `Checker::bytes_differ`) differ at the same length.
        match self.stored == self.computed {
            true => write!(
                f,
                "{}: its {} bytes differ from those the values read from them are written as",
                self.path, self.stored
            ),
            false => write!(
                f,
                "{}: stored {}, computed {}",
                self.path, self.stored, self.computed
            ),
        }
    }
}

/// Collects mismatches while a generated check() walks a value; tracks the current path.
#[derive(Debug, Default)]
pub struct Checker {
    /// Outermost first, since the walk descends.
    path: Vec<PathSegment>,
    found: Vec<Mismatch>,
    /// The values the root computed for the derivations that use `_root` (see
    /// [`Checker::set_rooted`]); `None` for one that has no value.
    rooted: Vec<Option<i64>>,
}

impl Checker {
    /// A checker at the root with nothing found.
    pub fn new() -> Self {
        Self::default()
    }

    /// Keeps the values the root computed for the fields whose derivation uses `_root`, one
    /// per such field of the schema, in order, for the values of their types to compare with.
    pub fn set_rooted(&mut self, rooted: Vec<Option<i64>>) {
        self.rooted = rooted;
    }

    /// The value the root computed for the `k`th field whose derivation uses `_root`; `None`
    /// when it has none, or when the walk did not start at the root.
    pub fn rooted(&self, k: usize) -> Option<i64> {
        self.rooted.get(k).copied().flatten()
    }

    /// Descends into a field.
    #[inline]
    pub fn enter_field(&mut self, name: &'static str) {
        self.path.push(PathSegment::Field(name));
    }

    /// Descends into an element.
    #[inline]
    pub fn enter_index(&mut self, i: usize) {
        self.path.push(PathSegment::Index(i));
    }

    /// Undoes the last `enter_*`.
    #[inline]
    pub fn leave(&mut self) {
        self.path.pop();
    }

    /// Records a mismatch at current path + `field` when stored and computed disagree (see
    /// [`crate::arith::agrees`]).
    #[inline]
    pub fn compare(&mut self, field: &'static str, stored: i128, computed: i128) {
        if !crate::arith::agrees(stored, computed) {
            self.record(&[PathSegment::Field(field)], stored, computed);
        }
    }

    /// Records a mismatch at element `index` of the list `field` at the current path when
    /// stored and computed disagree.
    #[inline]
    pub fn compare_element(
        &mut self,
        field: &'static str,
        index: usize,
        stored: i128,
        computed: i128,
    ) {
        if !crate::arith::agrees(stored, computed) {
            let tail = [PathSegment::Field(field), PathSegment::Index(index)];
            self.record(&tail, stored, computed);
        }
    }

    /// Records bytes at current path + `field` that differ from those the values read from
    /// them are written as (a slot's, see [`crate::fields::slot_mismatch`]; a decoded value's
    /// stored bytes, see [`crate::process::restored`]): how many it holds, and how many the
    /// values write.
    pub fn bytes_differ(&mut self, field: &'static str, (held, written): (usize, usize)) {
        self.record(&[PathSegment::Field(field)], held as i128, written as i128);
    }

    #[cold]
    #[inline(never)]
    fn record(&mut self, tail: &[PathSegment], stored: i128, computed: i128) {
        let path = render_path(self.path.iter().chain(tail));
        self.found.push(Mismatch {
            path,
            stored,
            computed,
        });
    }

    /// The mismatches found, in the order they were recorded.
    pub fn into_mismatches(self) -> Vec<Mismatch> {
        self.found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_only_disagreements_with_path() {
        let mut c = Checker::new();
        c.compare("magic_len", 4, 4);
        c.enter_field("animations");
        c.enter_index(17);
        c.enter_field("objects");
        c.enter_index(3);
        c.compare("frame_count", 10, 12);
        c.leave();
        c.leave();
        c.compare("size", -1, 0);
        c.leave();
        c.leave();
        c.compare("count", 2, 3);
        let found = c.into_mismatches();
        assert_eq!(found.len(), 3);
        assert_eq!(found[0].path, "animations[17].objects[3].frame_count");
        assert_eq!(
            found[0].to_string(),
            "animations[17].objects[3].frame_count: stored 10, computed 12"
        );
        assert_eq!(found[1].path, "animations[17].size");
        assert_eq!(found[2].path, "count");
    }
}
