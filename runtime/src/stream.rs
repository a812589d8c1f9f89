//! The stream a value was read from, kept with the value when the schema reads from it again
//! later (Kaitai's `io: field._io`, `io: _parent._io`): an instance of another type reads at a
//! position of it.

use crate::error::{ErrorKind, Result};
use crate::reader::Reader;
pub use crate::stream_id::{Buffer, StreamId};

/// Where a value's stream is: a range of the file, or bytes that exist only decoded (a
/// `process`ed substream), which are kept.
#[derive(Clone, Default)]
enum Source {
    /// Not read from a file (built by a program or from a document).
    #[default]
    None,
    /// `len` bytes of the file at absolute offset `start`.
    File { start: usize, len: usize },
    /// Decoded bytes; `start` is where their value starts in the file, for error offsets.
    /// `buffer` numbers the copy, so that every reader made from it reads one stream.
    Decoded {
        start: u64,
        bytes: Box<[u8]>,
        buffer: Buffer,
    },
}

/// The stream a value was read from, and the position its reading ended at (`_io.pos`).
///
/// It is not content: it equals every other `Stream` (as [`crate::LookAhead`] does), is never
/// written and is left out of documents. A stream of the file costs two integers; only a
/// decoded one copies its bytes.
#[derive(Clone, Default)]
pub struct Stream {
    source: Source,
    end: usize,
}

/// The stream of no value, which reads nothing.
static NO_STREAM: Stream = Stream {
    source: Source::None,
    end: 0,
};

impl Stream {
    /// The stream of a value that is not there, or was not read from a file: reading from it
    /// is an error. Writers pass it where a type takes a stream, which only readers read from.
    pub fn none() -> &'static Stream {
        &NO_STREAM
    }

    /// The stream `r` reads, at its current position.
    pub fn of(r: &Reader<'_>) -> Stream {
        let id = r.stream_id();
        let source = match id.buffer().is_file() {
            true => Source::File {
                start: id.start() as usize,
                len: r.size(),
            },
            false => Source::Decoded {
                start: r.error_offset(),
                bytes: r.data().into(),
                buffer: Buffer::fresh(),
            },
        };
        Stream {
            source,
            end: r.pos(),
        }
    }

    /// A reader at the start of this stream; `r` is any reader of the same file.
    pub fn reader<'b>(&'b self, r: &Reader<'b>) -> Result<Reader<'b>> {
        match &self.source {
            Source::File { start, len } => r.whole_file().region(*start, *len),
            Source::Decoded {
                start,
                bytes,
                buffer,
            } => Ok(r.decoded_in(*buffer, bytes, *start)),
            Source::None => Err(r.error(ErrorKind::Invalid(
                "the value is absent or was not read from a file, so it has no stream to read from"
                    .into(),
            ))),
        }
    }

    /// Bytes in the stream (`_io.size`).
    pub fn size(&self) -> usize {
        match &self.source {
            Source::None => 0,
            Source::File { len, .. } => *len,
            Source::Decoded { bytes, .. } => bytes.len(),
        }
    }

    /// Where reading the value ended (`_io.pos`).
    pub fn pos(&self) -> usize {
        self.end
    }

    /// Whether reading the value ended at the end of the stream (`_io.eof`).
    pub fn is_eof(&self) -> bool {
        self.end >= self.size()
    }
}

impl PartialEq for Stream {
    /// Always equal: where a value was read from is not part of it.
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl std::fmt::Debug for Stream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Stream({} bytes)", self.size())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_substream_of_the_file_reads_again_from_the_file() {
        let file = [1u8, 2, 3, 4, 5, 6];
        let mut r = Reader::new(&file);
        r.read_u8().unwrap();
        let mut sub = r.sub(3).unwrap();
        sub.read_u8().unwrap();
        let stream = Stream::of(&sub);
        assert_eq!(
            (stream.size(), stream.pos(), stream.is_eof()),
            (3, 1, false)
        );
        let mut again = stream.reader(&r).unwrap();
        assert_eq!(again.absolute_pos(), 1);
        assert_eq!(again.bytes(3).unwrap(), &[2, 3, 4]);
        assert!(again.read_u8().is_err());
    }

    #[test]
    fn decoded_bytes_are_kept() {
        let file = [9u8, 9];
        let mut r = Reader::new(&file);
        r.read_u8().unwrap();
        let decoded = vec![7u8, 8];
        let stream = Stream::of(&r.detached(&decoded));
        drop(decoded);
        let mut again = stream.reader(&r).unwrap();
        assert_eq!(
            (again.absolute_pos(), again.read_u16_be().unwrap()),
            (1, 0x0708)
        );
    }

    #[test]
    fn a_value_built_by_a_program_has_no_stream() {
        let file = [0u8];
        let err = Stream::default().reader(&Reader::new(&file)).unwrap_err();
        assert!(err.to_string().contains("no stream"), "{err}");
        assert!(Stream::none().reader(&Reader::new(&file)).is_err());
        assert_eq!(Stream::default(), Stream::of(&Reader::new(&file)));
    }
}
