//! Values read from a slot: Kaitai's idiom for reading a chunk's content from its own stream
//! (`io: chunk.data_slot._io`, where `data_slot`'s type reads nothing and keeps its
//! substream's bytes). Such a value is kept as read and never written itself; `normalize()`
//! writes it back into the slot's bytes, in place of the bytes it was read from, which these
//! predicates find.

use super::*;
use crate::expr::Expr;

/// Which bytes of its slot a value was read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SlotSpan {
    /// From its position to the end: it reads to the end of its stream.
    ToEnd,
    /// Up to and with the first of this byte: a terminated value.
    Terminated(u8),
    /// This many bytes: a value of a fixed size.
    Size(usize),
    /// As many bytes as a value of this type (one that needs no arguments) read again there
    /// takes: the old bytes say how long the old value was.
    AsRead(usize),
}

impl Schema {
    /// Of a field of the root read at a position counted back from the end of the file (`pos:
    /// _io.size - 769`: PCX's palette, ID3v1's tag): that count. Such a field is kept as read
    /// (a writer has no stream); its bytes are the file's unclaimed bytes, into which
    /// `normalize()` writes it back.
    pub fn from_file_end(&self, ty: usize, field: &Field) -> Option<u64> {
        let in_file = matches!(field.stream, Stream::Own | Stream::Root);
        if !self.keeps_unclaimed(ty) || !field.kept_as_read || !in_file {
            return None;
        }
        let Expr::Binary(crate::expr::BinOp::Sub, size, back) = field.position.as_ref()? else {
            return None;
        };
        let (Expr::Attr(io, attr), Expr::Int(back)) = (size.as_ref(), back.as_ref()) else {
            return None;
        };
        let io_size = matches!(io.as_ref(), Expr::Name(name) if name == "_io") && attr == "size";
        io_size.then(|| u64::try_from(*back).ok()).flatten()
    }

    /// For a field of `owner` read from a slot's stream: the fields leading to the slot from
    /// `owner` (`["chunk", "data_slot"]`; a step may be conditional). `None` for any other
    /// field, for a path through a list or a value read on its own, and for an owner with
    /// parameters (written back where they are not known).
    pub fn slot_path<'f>(&self, owner: usize, field: &'f Field) -> Option<Vec<&'f str>> {
        if !field.kept_as_read || !self.types[owner].params.is_empty() {
            return None;
        }
        let Stream::Of(Expr::Attr(slot, io)) = &field.stream else {
            return None;
        };
        let names = slot.names()?;
        let mut ty = owner;
        for name in &names {
            let step = self.types[ty].fields.iter().find(|f| f.id == *name)?;
            ty = match &step.ty {
                FieldType::User { ty, .. }
                    if !step.parse_instance
                        && step.repeat == Repeat::None
                        && step.decode.is_none() =>
                {
                    *ty
                }
                _ => return None,
            };
        }
        let slot = &self.types[ty];
        let is_slot = io == "_io" && slot.fields.len() == 1 && slot.fields[0].id == UNREAD;
        is_slot.then_some(names)
    }

    /// The fields of type `ty` read from a slot, in the order to write them back: a value
    /// whose slot is held by another such value comes before it (RIFF's subchunks, read from
    /// a slot of the chunk data, itself read from the chunk's slot).
    pub fn slotted_fields(&self, ty: usize) -> Vec<usize> {
        let fields = &self.types[ty].fields;
        let paths: Vec<(usize, Vec<&str>)> = (0..fields.len())
            .filter_map(|i| Some((i, self.slot_path(ty, &fields[i])?)))
            .collect();
        let holds_a_slot = |i: usize| {
            let id = fields[i].id.as_str();
            paths.iter().any(|(_, path)| path.first() == Some(&id))
        };
        let (outer, inner): (Vec<usize>, Vec<usize>) = paths
            .iter()
            .map(|(i, _)| *i)
            .partition(|&i| holds_a_slot(i));
        inner.into_iter().chain(outer).collect()
    }

    /// Which bytes of its slot a value of `field` of type `ty` (the field's, or the case a
    /// switch holds) was read from, when they can be told.
    pub fn slot_span(&self, field: &Field, ty: &FieldType) -> Option<SlotSpan> {
        match field.repeat {
            Repeat::Eos => return Some(SlotSpan::ToEnd),
            Repeat::None => {}
            _ => return None,
        }
        match ty {
            FieldType::Str {
                size:
                    Size::Terminator {
                        byte,
                        consume: true,
                        ..
                    },
                ..
            }
            | FieldType::Bytes {
                size:
                    Size::Terminator {
                        byte,
                        consume: true,
                        ..
                    },
                ..
            } => Some(SlotSpan::Terminated(*byte)),
            ty if self.reads_to_end(ty, 0) => Some(SlotSpan::ToEnd),
            ty => self.fixed_size_of(ty).map(SlotSpan::Size).or(match ty {
                FieldType::User { ty, args }
                    if args.is_empty() && self.types[*ty].params.is_empty() =>
                {
                    Some(SlotSpan::AsRead(*ty))
                }
                _ => None,
            }),
        }
    }

    /// True when every value of `ty` reads to the end of its stream: its last field read in
    /// sequence does.
    fn reads_to_end(&self, ty: &FieldType, depth: usize) -> bool {
        match ty {
            _ if depth > 32 => false,
            FieldType::Bytes {
                size: Size::Eos, ..
            }
            | FieldType::Str {
                size: Size::Eos, ..
            } => true,
            FieldType::Switch(switch) => switch
                .cases
                .iter()
                .map(|c| &c.ty)
                .chain(switch.default.as_deref())
                .all(|case| self.reads_to_end(case, depth + 1)),
            FieldType::User { ty, .. } => {
                let last = self.types[*ty]
                    .fields
                    .iter()
                    .rfind(|f| f.position.is_none() && f.id != UNREAD);
                last.is_some_and(|f| {
                    f.repeat == Repeat::Eos
                        || f.substream == Some(Size::Eos)
                        || (f.repeat == Repeat::None && self.reads_to_end(&f.ty, depth + 1))
                })
            }
            _ => false,
        }
    }
}
