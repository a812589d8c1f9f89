//! The values a read is reading by position, innermost last (see [`crate::Reader::visit`]):
//! a stack whose first few entries live inline, so that a read that never nests deeper
//! allocates nothing for them (every whole-file read visits its root value).

/// A value being read by position: its type, its stream (where its bytes are and how many)
/// and its position there.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(crate) struct Visit {
    // Compared in this order: positions first, which mostly differ, then names.
    pub(crate) stream: (usize, usize),
    pub(crate) pos: usize,
    /// The type's name, which identifies it within one codec.
    pub(crate) ty: &'static str,
}

/// How many visits a stack holds before it allocates.
const INLINE: usize = 4;

/// A stack of [`Visit`]s: the first [`INLINE`] in place, the others in a `Vec`.
#[derive(Debug, Default)]
pub(crate) struct Visits {
    inline: [Visit; INLINE],
    more: Vec<Visit>,
    len: usize,
}

impl Visits {
    /// Whether `visit` is on the stack.
    pub(crate) fn contains(&self, visit: &Visit) -> bool {
        self.inline[..self.len.min(INLINE)].contains(visit) || self.more.contains(visit)
    }

    pub(crate) fn push(&mut self, visit: Visit) {
        match self.inline.get_mut(self.len) {
            Some(slot) => *slot = visit,
            None => self.more.push(visit),
        }
        self.len += 1;
    }

    /// How many values are being read by position, the root's whole-file read included.
    pub(crate) fn depth(&self) -> usize {
        self.len
    }

    /// Removes the innermost visit (none when the stack is empty).
    pub(crate) fn pop(&mut self) {
        if self.len > INLINE {
            self.more.pop();
        }
        self.len = self.len.saturating_sub(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(pos: usize) -> Visit {
        Visit {
            stream: (0, 100),
            pos,
            ty: "T",
        }
    }

    #[test]
    fn a_stack_deeper_than_its_inline_part_keeps_every_visit_in_order() {
        let mut visits = Visits::default();
        for pos in 0..INLINE * 2 {
            visits.push(at(pos));
        }
        assert!((0..INLINE * 2).all(|pos| visits.contains(&at(pos))));
        for top in (0..INLINE * 2).rev() {
            visits.pop();
            assert!(!visits.contains(&at(top)), "{top} is popped");
            assert!(
                (0..top).all(|pos| visits.contains(&at(pos))),
                "below {top} stay"
            );
        }
        visits.pop(); // popping an empty stack leaves it empty
        visits.push(at(7));
        assert!(visits.contains(&at(7)) && !visits.contains(&at(0)));
    }

    #[test]
    fn visits_differ_by_type_as_well_as_by_place() {
        let mut visits = Visits::default();
        visits.push(at(3));
        assert!(!visits.contains(&Visit { ty: "U", ..at(3) }));
        assert!(!visits.contains(&Visit {
            stream: (1, 100),
            ..at(3)
        }));
    }
}
