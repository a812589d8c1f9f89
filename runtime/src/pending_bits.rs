//! The bits of a partly used byte that readers and writers of bit fields carry between two
//! operations (see [`crate::bits`]); apart from them, so that readers and writers need not
//! import the bit-field operations built on them.

/// Bits of a partly used byte: fewer than 8 between two operations.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PendingBits {
    /// The bits, in the low `len` bits.
    pub(crate) bits: u64,
    /// How many.
    pub(crate) len: u32,
    /// Their bit order: big-endian bits were taken from the top of their byte.
    pub(crate) big_endian: bool,
}

impl PendingBits {
    /// True when no bit is pending.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}
