//! What a reader reads, by identity: a range of the file or of a numbered buffer of decoded
//! bytes, never an address. Readers, cycle keys and kept streams all use it.

use std::sync::atomic::{AtomicU64, Ordering};

/// Which bytes a reader reads, told apart by what they are, not by where they lie in memory
/// (an allocation freed and made again at the same address would make two streams one): a
/// range of the file or of one buffer of decoded bytes. Two readers of the same range are
/// readers of the same stream, however each was made (an instance's substream made again).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct StreamId {
    buffer: Buffer,
    start: u64,
    len: u64,
}

impl StreamId {
    /// The `len` bytes at `start` of `buffer`.
    pub fn new(buffer: Buffer, start: u64, len: usize) -> Self {
        StreamId {
            buffer,
            start,
            len: len as u64,
        }
    }

    /// Where the range starts in its buffer.
    pub fn start(self) -> u64 {
        self.start
    }

    /// The buffer the stream is a range of.
    pub fn buffer(self) -> Buffer {
        self.buffer
    }
}

/// The file, or one buffer of decoded bytes (a `process`ed value, a copy of one kept in a
/// value). Buffers are numbered once in the process, not per read: a value keeps its stream
/// across reads (an instance read on demand reads it again with a state of its own).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Buffer(u64);

impl Buffer {
    /// The file a read reads.
    pub const FILE: Buffer = Buffer(0);

    /// A buffer no other is.
    pub fn fresh() -> Buffer {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        Buffer(NEXT.fetch_add(1, Ordering::Relaxed))
    }

    /// Whether it is the file.
    pub fn is_file(self) -> bool {
        self == Buffer::FILE
    }
}
