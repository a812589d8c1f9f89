//! Blocks read by position whose offset follows where they are placed: the compiler infers it
//! where the offset's one use is the block's `pos`. When an edit makes such a block disagree
//! with bytes it overlaps (it grew into the next block, or its offset was set into other data)
//! or leaves bytes that nothing covers, `normalize()` writes the value twice
//! ([`crate::__private::settle::settle`]): once to plan, where each such block that no longer
//! fits where its offset says moves to the end of the file (in the order written), and once
//! with the planned offsets and zeros in every byte left uncovered; the value is then read
//! again from those bytes. Only blocks of the file's own stream move, and only those nothing
//! else is placed relative to; a block is known by the address of its offset field while the
//! value is written (`key`), which both writes share.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::canvas::Canvas;
use crate::error::{Error, ErrorKind, Result};

/// The planned position in the file of each relocated block, by the key of its offset field.
pub type Moves = BTreeMap<usize, u64>;

/// How a writer treats relocatable blocks.
#[derive(Debug, Clone, Default)]
pub(crate) enum Mode {
    /// Where their offsets say.
    #[default]
    AsStored,
    /// Set aside, to be placed by [`plan`].
    Planning,
    /// Where the plan moved them, with zeros in the bytes nothing covers.
    Moving(Arc<Moves>),
}

/// A relocatable block set aside while planning.
#[derive(Debug, Clone)]
pub(crate) struct Deferred {
    pub at: usize,
    pub bytes: Vec<u8>,
    pub field: &'static str,
    pub key: usize,
    pub unit: u64,
    /// The block is bytes a sequential value holds, read again (see
    /// [`crate::fields::write_at_following`]).
    pub follows: bool,
}

/// What a writer knows of relocation.
#[derive(Debug, Clone, Default)]
pub(crate) struct State {
    pub mode: Mode,
    /// The relocatable blocks set aside while planning, with those of the blocks it placed.
    pub deferred: Vec<Deferred>,
    /// Writing in a substream (a sized value, an imported root): its positions are not the
    /// file's, so its blocks do not move.
    pub bounded: bool,
    /// Something was placed relative to a stream that starts in this writer's bytes: they
    /// cannot move without it.
    pub anchored: bool,
}

impl State {
    /// The state of a writer for a block (or a substream) of a writer in this state.
    pub(crate) fn nested(&self, bounded: bool) -> State {
        State {
            mode: self.mode.clone(),
            bounded,
            ..State::default()
        }
    }

    /// Takes over the deferred blocks of a block placed by this writer.
    pub(crate) fn adopt(&mut self, block: State) {
        self.deferred.extend(block.deferred);
        self.anchored |= block.anchored;
    }

    /// Where the plan moved the block whose offset field is `key`.
    pub(crate) fn moved(&self, key: usize) -> Option<u64> {
        match &self.mode {
            Mode::Moving(moves) => moves.get(&key).copied(),
            _ => None,
        }
    }
}

/// Paints each deferred block, in the order of the offsets they are stored at (ties in the
/// order written), where its offset says, or, where it disagrees with bytes there (the
/// sequential bytes, blocks that do not move, those painted before it: the block before it
/// grew, or its offset was set into other data), at the first place after its offset where it
/// fits, at a multiple of its unit. Blocks that follow each other therefore shift together
/// when one grows, rather than leaving the old place as a hole; `None` when nothing moved and
/// every byte is covered (the value needs no second write).
///
/// A block that is bytes a sequential value holds, read again ([`Deferred::follows`]: a ZIP's
/// local file section, read again by its central directory entry), goes where the file
/// already holds those bytes: the first such place after the end of the following blocks
/// before it, which keeps them in the order of their stored offsets (two entries with the same
/// bytes stay apart). Where none holds them, the value read again differs from the one it is
/// read from (one of them was edited alone), and the plan is refused, naming the block.
pub(crate) fn plan(canvas: &mut Canvas, mut deferred: Vec<Deferred>) -> Result<Option<Moves>> {
    deferred.sort_by_key(|block| block.at); // stable: ties stay in the order written
    let mut moves = Moves::new();
    // Where the following blocks placed so far end.
    let mut followed = 0;
    for block in deferred {
        let unit = usize::try_from(block.unit.max(1)).unwrap_or(usize::MAX);
        let end = |at: usize| at.saturating_add(block.bytes.len());
        // A refused placement leaves the canvas as it was. A following block stays only
        // after those before it: bytes that agree by chance inside them are not its own.
        let in_order = !block.follows || block.at >= followed;
        if in_order
            && canvas
                .paint(block.at, block.bytes.clone(), block.field)
                .is_ok()
        {
            if block.follows {
                followed = end(block.at);
            }
            continue;
        }
        if block.follows {
            let Some(at) = canvas.find_laid(&block.bytes, followed, unit) else {
                return Err(Error::new(
                    block.at as u64,
                    ErrorKind::Encode(format!(
                        "`{}` ({} bytes at {}) is bytes the file holds in sequence, read again, and the file holds no such bytes after the blocks before it: the value read again differs from the one it is read from; edit both alike",
                        block.field,
                        block.bytes.len(),
                        block.at
                    )),
                ));
            };
            followed = end(at);
            moves.insert(block.key, at as u64);
            continue;
        }
        let at = canvas.first_fit(block.at, block.bytes.len(), unit);
        // Only the address space can refuse it there, and then it stays where it was (the
        // second write refuses it there).
        if canvas.paint(at, block.bytes, block.field).is_ok() {
            moves.insert(block.key, at as u64);
        }
    }
    Ok((!moves.is_empty() || canvas.has_holes()).then_some(moves))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deferred(at: usize, bytes: &[u8], key: usize, unit: u64) -> Deferred {
        Deferred {
            at,
            bytes: bytes.to_vec(),
            field: "block",
            key,
            unit,
            follows: false,
        }
    }

    fn following(at: usize, bytes: &[u8], key: usize) -> Deferred {
        Deferred {
            follows: true,
            ..deferred(at, bytes, key, 1)
        }
    }

    #[test]
    fn a_block_read_again_follows_its_bytes_in_the_order_of_the_offsets() {
        // Sequential bytes: the first entry grew from 2 bytes to 3, so the two entries after it
        // (the same bytes twice) moved on by one; the blocks read again by offset follow them.
        let entries = [vec![1, 1, 1], vec![7, 2, 2], vec![7, 2, 2]].concat();
        let mut canvas = Canvas::default();
        canvas.paint(0, entries.clone(), "sections").unwrap();
        let blocks = vec![
            following(0, &[1, 1, 1], 1),
            following(2, &[7, 2, 2], 2),
            following(5, &[7, 2, 2], 3),
        ];
        let moves = plan(&mut canvas, blocks).unwrap().unwrap();
        assert_eq!(moves, Moves::from([(2, 3), (3, 6)]));
        // Shrunk: they follow back, each after the one before it.
        let mut canvas = Canvas::default();
        canvas
            .paint(0, [vec![1], vec![7, 2, 2], vec![7, 2, 2]].concat(), "s")
            .unwrap();
        let blocks = vec![
            following(0, &[1], 1),
            following(2, &[7, 2, 2], 2),
            following(5, &[7, 2, 2], 3),
        ];
        let moves = plan(&mut canvas, blocks).unwrap().unwrap();
        assert_eq!(moves, Moves::from([(2, 1), (3, 4)]));
        // Bytes the file does not hold: the block and the value it is read from differ.
        let mut canvas = Canvas::default();
        canvas.paint(0, entries, "sections").unwrap();
        let refused = plan(&mut canvas, vec![following(2, &[9, 9], 1)]).unwrap_err();
        let message = refused.to_string();
        assert!(message.contains("`block` (2 bytes at 2)"), "{message}");
        assert!(message.contains("edit both alike"), "{message}");
    }

    #[test]
    fn blocks_that_fit_stay_and_nothing_is_planned() {
        let mut canvas = Canvas::default();
        canvas.paint(0, vec![1; 4], "header").unwrap();
        let blocks = vec![deferred(4, &[2, 2], 1, 1), deferred(6, &[3], 2, 1)];
        assert_eq!(plan(&mut canvas, blocks).unwrap(), None);
    }

    #[test]
    fn a_block_that_disagrees_moves_to_the_first_place_after_it_where_it_fits() {
        let mut canvas = Canvas::default();
        canvas.paint(0, vec![1; 4], "header").unwrap();
        // Grown from 2 bytes into the next block, which is written later: that one moves.
        let blocks = vec![deferred(4, &[2, 2, 2], 1, 1), deferred(6, &[3, 3], 2, 1)];
        let moves = plan(&mut canvas, blocks).unwrap().unwrap();
        assert_eq!(moves, Moves::from([(2, 7)]));
        let mut canvas2 = Canvas::default();
        canvas2.paint(0, vec![1; 5], "header").unwrap();
        let moves = plan(&mut canvas2, vec![deferred(2, &[7], 9, 4)])
            .unwrap()
            .unwrap();
        assert_eq!(moves, Moves::from([(9, 8)]));
    }

    #[test]
    fn blocks_that_follow_a_grown_one_shift_with_it_in_stored_order() {
        let mut canvas = Canvas::default();
        canvas.paint(0, vec![1; 4], "header").unwrap();
        // Stored at 4, 6 and 8, written in another order; the one at 4 grew by two bytes, and
        // a fourth block at 20 has room to stay.
        let blocks = vec![
            deferred(8, &[4, 4], 3, 1),
            deferred(4, &[2, 2, 2, 2], 1, 1),
            deferred(20, &[5], 4, 1),
            deferred(6, &[3, 3], 2, 1),
        ];
        let moves = plan(&mut canvas, blocks).unwrap().unwrap();
        assert_eq!(moves, Moves::from([(2, 8), (3, 10)]));
    }

    #[test]
    fn zeros_beyond_the_bytes_written_are_refused_before_allocating() {
        let mut canvas = Canvas::default();
        canvas.paint(0, vec![1; 4], "header").unwrap();
        assert_eq!(
            plan(&mut canvas, vec![deferred(1 << 40, &[2], 1, 1)]).unwrap(),
            Some(Moves::new())
        );
        let refused = canvas.fill_holes().unwrap_err().to_string();
        assert!(
            refused.contains("placing `block` at 1099511627776 would fill bytes 4..1099511627776"),
            "{refused}"
        );
    }

    #[test]
    fn a_hole_alone_asks_for_the_second_write() {
        let mut canvas = Canvas::default();
        canvas.paint(0, vec![1; 4], "header").unwrap();
        let moves = plan(&mut canvas, vec![deferred(10, &[2], 1, 1)])
            .unwrap()
            .unwrap();
        assert!(moves.is_empty());
        canvas.fill_holes().unwrap();
        assert_eq!(
            canvas.into_bytes().unwrap(),
            [1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 2]
        );
    }
}
