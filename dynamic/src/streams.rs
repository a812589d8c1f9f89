//! Where a reader stands, for a field map: in the file, or in a stream of decoded bytes named
//! by the value whose stored bytes they are. Readers over decoded bytes have a base that is
//! the decoded value's place in the file (for errors), so offsets in those bytes are found by
//! address instead: each buffer being read is registered with where its first byte stands.

use std::rc::Rc;

use skelcodec_runtime::Reader;

/// A stream of decoded bytes (`process`, an encoding) that values are read from: their
/// offsets are in it, not in the file.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Stream {
    /// The path of the value whose stored bytes decode to it (`packed`, `blocks[2]`).
    pub path: String,
    /// Where its stored bytes start: a file offset, or an offset in the decoded stream
    /// `stored_in` names.
    pub stored_start: u64,
    /// Where its stored bytes end (exclusive).
    pub stored_end: u64,
    /// The decoded stream its stored bytes are in, when they are not in the file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stored_in: Option<String>,
}

/// Where something stands: in the file (no stream) or a decoded stream, at an offset.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Origin {
    pub stream: Option<Rc<Stream>>,
    pub offset: u64,
}

/// Where a reader stands: its byte, and the bits of the byte before it that bit fields have
/// not used yet (so that a bit field's start is `8 * byte - pending`).
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Place {
    pub at: Origin,
    pub pending: u8,
}

impl Place {
    /// The position in bits, in its stream.
    pub fn bit(&self) -> u64 {
        (8 * self.at.offset).saturating_sub(u64::from(self.pending))
    }
}

/// The buffers of decoded bytes known, each with where its first byte stands.
#[derive(Default)]
pub(crate) struct Streams {
    /// Buffers being read now, innermost last: their address range.
    live: Vec<((usize, usize), Origin)>,
    /// Copies of decoded streams kept in values (`_io`), read again by values read by
    /// position in them; kept alive here so that their addresses are not reused.
    copies: Vec<(Rc<[u8]>, Origin)>,
}

/// The address range of `bytes`.
fn range(bytes: &[u8]) -> (usize, usize) {
    let range = bytes.as_ptr_range();
    (range.start as usize, range.end as usize)
}

impl Streams {
    /// Where `r` stands, given the file.
    pub fn place(&self, file: &[u8], r: &Reader<'_>) -> Place {
        let mut at = self.origin(file, r.data()).unwrap_or_else(|| unknown(r));
        at.offset += r.pos() as u64;
        let pending = (8 * r.pos() as u64).saturating_sub(r.bit_pos());
        Place {
            at,
            pending: u8::try_from(pending).unwrap_or(0),
        }
    }

    /// Where the first byte of `bytes` stands: in the file, or in a buffer being read.
    pub fn origin(&self, file: &[u8], bytes: &[u8]) -> Option<Origin> {
        let (start, end) = range(bytes);
        let within = |(from, to): (usize, usize)| from <= start && end <= to;
        if within(range(file)) {
            return Some(Origin {
                stream: None,
                offset: (start - range(file).0) as u64,
            });
        }
        let ((from, _), origin) = self.live.iter().rev().find(|(r, _)| within(*r))?;
        Some(Origin {
            stream: origin.stream.clone(),
            offset: origin.offset + (start - from) as u64,
        })
    }

    /// Registers `bytes`, about to be read, as standing at `origin`.
    pub fn enter(&mut self, bytes: &[u8], origin: Origin) {
        self.live.push((range(bytes), origin));
    }

    /// Forgets the buffer registered last: it is read.
    pub fn leave(&mut self) {
        self.live.pop();
    }

    /// Keeps where `copy`, a copy of `bytes` kept in values, stands (once per copy).
    pub fn keep_copy(&mut self, file: &[u8], bytes: &[u8], copy: &Rc<[u8]>) {
        if self.copies.iter().any(|(c, _)| Rc::ptr_eq(c, copy)) {
            return;
        }
        if let Some(origin) = self.origin(file, bytes) {
            self.copies.push((copy.clone(), origin));
        }
    }

    /// Where a copy kept by [`Streams::keep_copy`] stands.
    pub fn copy_origin(&self, copy: &Rc<[u8]>) -> Option<Origin> {
        (self.copies.iter())
            .find(|(c, _)| Rc::ptr_eq(c, copy))
            .map(|(_, origin)| origin.clone())
    }
}

/// Where a reader over bytes of no known buffer stands: an unnamed stream, at the place in
/// the file the reader reports for its data (never expected: every buffer read is known).
fn unknown(r: &Reader<'_>) -> Origin {
    let at = r.error_offset();
    Origin {
        stream: Some(Rc::new(Stream {
            path: String::new(),
            stored_start: at,
            stored_end: at,
            stored_in: None,
        })),
        offset: 0,
    }
}
