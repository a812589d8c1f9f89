//! The values a read is reading by position, innermost last (see [`crate::Reader::visit`]):
//! a stack whose first few entries live inline, so that a read that never nests deeper
//! allocates nothing for them (every whole-file read visits its root value).

use std::any::TypeId;

use crate::stream_id::StreamId;

/// What identifies the type of a value read by position, for cycles: the same type at the same
/// position of the same stream is the same value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TypeKey {
    /// A Rust type (generated code's), by its `TypeId` and that of its boxed form: a boxed
    /// value (of a recursive type) is the same value as the one it holds.
    Rust {
        /// The type's.
        ty: TypeId,
        /// `Box<ty>`'s.
        boxed: TypeId,
    },
    /// A type an interpreter names, whose values are all of one Rust type.
    Named(&'static str),
}

impl TypeKey {
    /// The key of the Rust type `T`.
    pub(crate) fn of<T: ?Sized + 'static>() -> Self {
        TypeKey::Rust {
            ty: TypeId::of::<T>(),
            boxed: TypeId::of::<Box<T>>(),
        }
    }

    /// Whether values of the two types are the same value where they are read at the same
    /// place: the same type, or one the other boxed.
    pub(crate) fn same(&self, other: &TypeKey) -> bool {
        match (self, other) {
            (TypeKey::Rust { ty, boxed }, TypeKey::Rust { ty: t, boxed: b }) => {
                ty == t || boxed == t || ty == b
            }
            (TypeKey::Named(a), TypeKey::Named(b)) => a == b,
            _ => false,
        }
    }
}

impl Default for TypeKey {
    fn default() -> Self {
        TypeKey::Named("")
    }
}

/// A value being read by position: its type, its stream and its position there.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(crate) struct Visit {
    pub(crate) stream: StreamId,
    pub(crate) pos: usize,
    pub(crate) ty: TypeKey,
}

impl Visit {
    /// Whether the two are the same value: positions first, which mostly differ, then types.
    fn same(&self, other: &Visit) -> bool {
        self.pos == other.pos && self.stream == other.stream && self.ty.same(&other.ty)
    }
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
        let same = |v: &Visit| v.same(visit);
        self.inline[..self.len.min(INLINE)].iter().any(same) || self.more.iter().any(same)
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
    use crate::stream_id::Buffer;

    fn at(pos: usize) -> Visit {
        Visit {
            stream: StreamId::new(Buffer::FILE, 0, 100),
            pos,
            ty: TypeKey::Named("T"),
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
        assert!(!visits.contains(&Visit {
            ty: TypeKey::Named("U"),
            ..at(3)
        }));
        assert!(!visits.contains(&Visit {
            stream: StreamId::new(Buffer::FILE, 1, 100),
            ..at(3)
        }));
    }

    #[test]
    fn a_boxed_value_is_the_value_it_holds() {
        struct Node;
        let (node, boxed) = (TypeKey::of::<Node>(), TypeKey::of::<Box<Node>>());
        assert!(node.same(&boxed) && boxed.same(&node) && node.same(&node));
        assert!(!node.same(&TypeKey::of::<u32>()));
        assert!(!node.same(&TypeKey::of::<Box<Box<Node>>>()));
        assert!(!node.same(&TypeKey::Named("Node")));
    }
}
