//! A growable byte sink for encoders.

use crate::error::{Error, ErrorKind, Result};

/// A growable byte sink.
///
/// Values read from a position (Kaitai `pos` instances) are written as placed blocks: they are
/// kept aside and laid over the sequential bytes by [`Writer::into_bytes`], so that the
/// sequential part is never disturbed by where a block lands.
#[derive(Debug, Default, Clone)]
pub struct Writer {
    buf: Vec<u8>,
    placed: Vec<(usize, Vec<u8>)>,
}

/// Generates fixed-size primitive writers.
macro_rules! write_primitives {
    ($($name:ident => $ty:ty, $to:ident;)*) => {
        $(
            #[doc = concat!("Writes a `", stringify!($ty), "` (`", stringify!($to), "`).")]
            #[inline]
            pub fn $name(&mut self, v: $ty) {
                self.buf.extend_from_slice(&v.$to());
            }
        )*
    };
}

impl Writer {
    /// An empty writer.
    pub fn new() -> Self {
        Writer::default()
    }

    /// An empty writer with room for `n` bytes.
    pub fn with_capacity(n: usize) -> Self {
        Writer {
            buf: Vec::with_capacity(n),
            placed: Vec::new(),
        }
    }

    /// Number of bytes written so far.
    #[inline]
    pub fn pos(&self) -> usize {
        self.buf.len()
    }

    /// Appends bytes.
    #[inline]
    pub fn bytes(&mut self, b: &[u8]) {
        self.buf.extend_from_slice(b);
    }

    /// Appends `n` copies of `byte`.
    #[inline]
    pub fn fill(&mut self, byte: u8, n: usize) {
        self.buf.resize(self.buf.len() + n, byte);
    }

    /// The bytes written: the sequential bytes with every placed block laid over them, in the
    /// order they were placed; bytes no block or sequential write covers are zero.
    pub fn into_bytes(self) -> Vec<u8> {
        let mut out = self.buf;
        for (at, block) in self.placed {
            let end = at + block.len();
            if out.len() < end {
                out.resize(end, 0);
            }
            out[at..end].copy_from_slice(&block);
        }
        out
    }

    /// Places `block` at absolute position `at`, with the blocks placed while producing it.
    pub fn place(&mut self, at: usize, block: Writer) {
        self.placed.push((at, block.buf));
        self.placed.extend(block.placed);
    }

    /// The byte ranges the output will cover: the sequential bytes and every placed block,
    /// sorted and merged.
    pub fn coverage(&self) -> Vec<std::ops::Range<usize>> {
        let mut ranges: Vec<_> = std::iter::once(0..self.buf.len())
            .chain(self.placed.iter().map(|(at, b)| *at..at + b.len()))
            .filter(|r| !r.is_empty())
            .collect();
        ranges.sort_by_key(|r| r.start);
        let mut merged: Vec<std::ops::Range<usize>> = Vec::new();
        for r in ranges {
            match merged.last_mut() {
                Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
                _ => merged.push(r),
            }
        }
        merged
    }

    /// The bytes written so far.
    pub fn as_slice(&self) -> &[u8] {
        &self.buf
    }

    /// Mutable access to the reserved tail, for bulk element encoding: grows by n zero bytes and returns them.
    #[inline]
    pub fn reserve_slice(&mut self, n: usize) -> &mut [u8] {
        let start = self.buf.len();
        self.buf.resize(start + n, 0);
        self.buf.get_mut(start..).unwrap_or_default()
    }

    /// Overwrites bytes already written at `at` (for back-patching); Encode error if out of range.
    pub fn patch(&mut self, at: usize, b: &[u8]) -> Result<()> {
        let len = self.buf.len();
        match at
            .checked_add(b.len())
            .and_then(|end| self.buf.get_mut(at..end))
        {
            Some(dst) => {
                dst.copy_from_slice(b);
                Ok(())
            }
            None => Err(patch_error(at, b.len(), len)),
        }
    }

    /// Writes one byte.
    #[inline]
    pub fn write_u8(&mut self, v: u8) {
        self.buf.push(v);
    }

    /// Writes one signed byte.
    #[inline]
    pub fn write_i8(&mut self, v: i8) {
        self.buf.push(v as u8);
    }

    write_primitives! {
        write_u16_le => u16, to_le_bytes;
        write_u16_be => u16, to_be_bytes;
        write_i16_le => i16, to_le_bytes;
        write_i16_be => i16, to_be_bytes;
        write_u32_le => u32, to_le_bytes;
        write_u32_be => u32, to_be_bytes;
        write_i32_le => i32, to_le_bytes;
        write_i32_be => i32, to_be_bytes;
        write_u64_le => u64, to_le_bytes;
        write_u64_be => u64, to_be_bytes;
        write_i64_le => i64, to_le_bytes;
        write_i64_be => i64, to_be_bytes;
        write_f32_le => f32, to_le_bytes;
        write_f32_be => f32, to_be_bytes;
        write_f64_le => f64, to_le_bytes;
        write_f64_be => f64, to_be_bytes;
    }

    /// Writes a .NET BinaryWriter 7-bit encoded length (1 to 5 bytes).
    pub fn write_7bit_u32(&mut self, mut v: u32) {
        while v >= 0x80 {
            self.buf.push((v as u8) | 0x80);
            v >>= 7;
        }
        self.buf.push(v as u8);
    }
}

#[cold]
#[inline(never)]
fn patch_error(at: usize, n: usize, len: usize) -> Error {
    Error::new(
        at as u64,
        ErrorKind::Encode(format!(
            "cannot patch {n} bytes at {at}: only {len} bytes have been written"
        )),
    )
}
