//! Laying placed blocks out again (`-layout`): the blocks read by position packed one after
//! another after the root's sequential bytes, which is where `normalize()` moves them and what
//! `check()` compares their stored offsets with.

use crate::error::{Error, ErrorKind, Result};
use crate::fields::Gap;

/// A block read by position: where it is stored, and how long it is now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Block {
    /// Its stored position in bytes.
    pub stored: i128,
    /// Its encoded length.
    pub len: u64,
}

/// Where every block goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Laid {
    /// The new position of each block, in the order the blocks were given.
    pub offsets: Vec<i128>,
    /// Zero bytes the alignment puts between blocks, to be written as unclaimed bytes.
    pub padding: Vec<Gap>,
}

/// Where laid-out blocks begin.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Start {
    /// Right after the root's sequential bytes, which end here.
    Fields(u64),
    /// Where the first non-empty block is stored, when that lies after the root's sequential
    /// bytes (which end here): the room between stays, as zeros. Blocks stored nowhere yet
    /// (offsets 0) start after the fields.
    Stored(u64),
}

/// Packs `blocks` one after another from `start`, each at a multiple of `align`. With
/// `keep_stored_order` they keep the order of their stored positions (ties in the order
/// given), so a file whose blocks are already packed keeps every offset; otherwise they go in
/// the order given. An empty block occupies nothing: it keeps its stored position when that
/// lies inside the new file and is moved to the end otherwise.
pub fn lay_out(blocks: &[Block], start: Start, align: u64, keep_stored_order: bool) -> Laid {
    let (fields_end, start) = match start {
        Start::Fields(end) => (end, end),
        Start::Stored(end) => (end, stored_start(blocks, end)),
    };
    let align = u128::from(align.max(1));
    let align_up = |at: u128| at.div_ceil(align).saturating_mul(align);
    let mut order: Vec<usize> = (0..blocks.len()).filter(|&i| blocks[i].len > 0).collect();
    if keep_stored_order {
        order.sort_by_key(|&i| blocks[i].stored);
    }
    let mut offsets = vec![0i128; blocks.len()];
    let mut padding = Vec::new();
    if start > fields_end {
        padding.push(Gap {
            offset: fields_end,
            bytes: crate::RawBytes::new(vec![0; usize::try_from(start - fields_end).unwrap_or(0)]),
        });
    }
    let mut cursor = u128::from(start);
    for i in order {
        let at = align_up(cursor);
        if at > cursor {
            // Less than `align` bytes, which the schema bounds.
            let len = usize::try_from(at - cursor).unwrap_or(0);
            padding.push(Gap {
                offset: u64::try_from(cursor).unwrap_or(u64::MAX),
                bytes: crate::RawBytes::new(vec![0; len]),
            });
        }
        offsets[i] = i128::try_from(at).unwrap_or(i128::MAX);
        cursor = at.saturating_add(u128::from(blocks[i].len));
    }
    let end = i128::try_from(cursor).unwrap_or(i128::MAX);
    let fallback = i128::try_from(align_up(cursor)).unwrap_or(i128::MAX);
    for (i, block) in blocks.iter().enumerate().filter(|(_, b)| b.len == 0) {
        offsets[i] = if (0..=end).contains(&block.stored) {
            block.stored
        } else {
            fallback
        };
    }
    Laid { offsets, padding }
}

/// Where blocks laid out from [`Start::Stored`] begin.
fn stored_start(blocks: &[Block], fields_end: u64) -> u64 {
    let first = (blocks.iter())
        .filter(|block| block.len > 0)
        .map(|block| block.stored)
        .min();
    match first.and_then(|at| u64::try_from(at).ok()) {
        Some(at) if at > fields_end => at,
        _ => fields_end,
    }
}

/// A new position `at` as the field that stores it counts it (`pos` is `field * unit`).
pub fn stored_offset<T: TryFrom<i128>>(at: i128, unit: u64) -> Result<T> {
    T::try_from(at / i128::from(unit.max(1))).map_err(|_| {
        Error::new(
            0,
            ErrorKind::Encode(format!(
                "the block would start at byte {at}, beyond what the {} storing its offset can hold",
                std::any::type_name::<T>()
            )),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(stored: i128, len: u64) -> Block {
        Block { stored, len }
    }

    #[test]
    fn packed_blocks_keep_their_offsets() {
        let blocks = [block(20, 8), block(28, 12), block(40, 4)];
        let laid = lay_out(&blocks, Start::Fields(20), 1, true);
        assert_eq!(laid.offsets, vec![20, 28, 40]);
        assert!(laid.padding.is_empty());
    }

    #[test]
    fn a_grown_block_moves_the_blocks_stored_after_it() {
        // Listed table-first, stored blob-first: the stored order wins.
        let blocks = [block(40, 16), block(20, 24)];
        assert_eq!(
            lay_out(&blocks, Start::Fields(20), 1, true).offsets,
            vec![44, 20]
        );
        assert_eq!(
            lay_out(&blocks, Start::Fields(20), 1, false).offsets,
            vec![20, 36]
        );
    }

    #[test]
    fn a_stored_start_keeps_the_room_before_the_first_block() {
        let block = |stored, len| Block { stored, len };
        // Room after a 200-byte directory: the first block stored at 4096 starts there.
        let blocks = [block(4096 + 2048, 10), block(4096, 2048), block(0, 0)];
        assert_eq!(stored_start(&blocks, 200), 4096);
        let laid = lay_out(&blocks, Start::Stored(200), 2048, true);
        assert_eq!(laid.offsets[..2], [4096 + 2048, 4096]);
        // The room is written as zeros.
        assert_eq!(laid.padding[0].offset, 200);
        assert_eq!(laid.padding[0].bytes.0, vec![0; 4096 - 200]);
        // A directory grown past the first block, or blocks stored nowhere: after the fields.
        assert_eq!(stored_start(&blocks, 5000), 5000);
        assert_eq!(stored_start(&[block(0, 10), block(4096, 1)], 200), 200);
        assert_eq!(stored_start(&[], 200), 200);
    }

    #[test]
    fn alignment_leaves_zero_padding_between_blocks() {
        let blocks = [block(0, 3), block(0, 5)];
        let laid = lay_out(&blocks, Start::Fields(9), 4, false);
        assert_eq!(laid.offsets, vec![12, 16]);
        let gaps: Vec<(u64, usize)> = laid
            .padding
            .iter()
            .map(|g| (g.offset, g.bytes.0.len()))
            .collect();
        assert_eq!(gaps, vec![(9, 3), (15, 1)]);
        assert!(
            laid.padding
                .iter()
                .all(|g| g.bytes.0.iter().all(|&b| b == 0))
        );
    }

    #[test]
    fn empty_blocks_stay_inside_the_file_or_move_to_its_end() {
        let blocks = [block(0, 0), block(96, 10), block(1 << 31, 0), block(-5, 0)];
        assert_eq!(
            lay_out(&blocks, Start::Fields(96), 1, true).offsets,
            vec![0, 96, 106, 106]
        );
    }

    #[test]
    fn an_offset_that_does_not_fit_its_field_is_an_error() {
        assert_eq!(stored_offset::<u8>(512, 2).ok(), None);
        assert_eq!(stored_offset::<u8>(510, 2).ok(), Some(255));
    }
}
