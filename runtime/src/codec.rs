//! The interface every generated root type implements, and the round-trip report built on it.

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::check::Mismatch;
use crate::error::{Error, ErrorKind, Result};
use crate::writer::Writer;

/// The most bytes [`Codec::to_bytes`] reserves before writing.
pub const MAX_PREALLOCATION: usize = 1 << 28;

/// A whole file format: a generated root type that reads from and writes to bytes.
pub trait Codec:
    Sized + Clone + PartialEq + std::fmt::Debug + Serialize + DeserializeOwned
{
    /// The schema id (`meta/id`).
    const FORMAT: &'static str;
    /// Byte strings a file of this format starts with (`meta/-magic`).
    const MAGIC: &'static [&'static [u8]];
    /// File extensions without the dot (`meta/file-extension`).
    const EXTENSIONS: &'static [&'static str];
    /// True when the reader decides something from the data that a writer cannot check
    /// beforehand (a look-ahead, a remembered or scanned field, a condition, count or size computed from `_io`): [`Codec::to_bytes`] then reads
    /// its output back and refuses bytes that would decode to another value.
    const VERIFY_WRITES: bool = false;

    /// Decodes a whole file.
    fn read(bytes: &[u8]) -> Result<Self>;
    /// Decodes a whole file given to the value, which keeps it: byte fields are views of it,
    /// not copies.
    fn read_owned(bytes: Vec<u8>) -> Result<Self> {
        Self::read(&bytes)
    }
    /// Encodes, writing every stored field verbatim.
    fn write(&self, w: &mut Writer) -> Result<()>;
    /// The number of bytes [`Codec::write`] produces.
    fn encoded_len(&self) -> usize;
    /// Derived fields (sizes, counts, offsets) whose stored value disagrees with the content.
    fn check(&self) -> Vec<Mismatch>;
    /// Recomputes every derived field from the content.
    fn normalize(&mut self) -> Result<()>;

    /// Encodes into a new buffer of exactly the right size (grown as it is written past
    /// [`MAX_PREALLOCATION`]).
    fn to_bytes(&self) -> Result<Vec<u8>> {
        // The length is a hint: a value built by hand may claim more than memory holds.
        let mut w = Writer::with_capacity(self.encoded_len().min(MAX_PREALLOCATION));
        self.write(&mut w)?;
        let bytes = w.into_bytes()?;
        if Self::VERIFY_WRITES {
            verify_reads_back(self, &bytes)?;
        }
        Ok(bytes)
    }

    /// True when `bytes` starts with one of the format's magic strings.
    fn matches_magic(bytes: &[u8]) -> bool {
        Self::MAGIC.iter().any(|m| bytes.starts_with(m))
    }
}

/// Refuses `bytes` unless they decode to `value`, naming the first field that would differ.
fn verify_reads_back<C: Codec>(value: &C, bytes: &[u8]) -> Result<()> {
    match C::read(bytes) {
        Ok(back) if back == *value => Ok(()),
        back => reads_back_as(
            &serde_json::to_value(value).unwrap_or_default(),
            back.map(|back| serde_json::to_value(&back).unwrap_or_default()),
        ),
    }
}

/// Refuses bytes written for a value whose document is `expected` unless they read back as a
/// value of that document (`back`: the document of what they read as, or the reader's error),
/// naming the first field that would differ.
pub fn reads_back_as(expected: &serde_json::Value, back: Result<serde_json::Value>) -> Result<()> {
    let (offset, path, message) = match back {
        // `==` fails on NaN floats; their serialized forms (null) compare equal.
        Ok(found) if crate::process::same_values(&found, expected) => return Ok(()),
        // Where the value would be written is not known here: the bytes are right, their
        // reading is not.
        Ok(found) => (
            0,
            differing_path(expected, &found),
            "this value would read back as another: the reader decides it from the data (a \
             look-ahead, a remembered or scanned field, something computed from `_io`), \
             and the data says otherwise"
                .to_owned(),
        ),
        Err(e) => (
            e.offset(),
            e.path(),
            format!("the bytes would not read back: {}", e.kind()),
        ),
    };
    Err(Error::new(offset, ErrorKind::Encode(message)).in_path(path))
}

/// The path of the first place where two serialized values differ (`""` for the root).
fn differing_path(a: &serde_json::Value, b: &serde_json::Value) -> String {
    use serde_json::Value;
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => x
            .iter()
            .find(|(key, left)| y.get(*key) != Some(*left))
            .map(|(key, left)| {
                let inner = y
                    .get(key)
                    .map_or(String::new(), |right| differing_path(left, right));
                join_path(key.clone(), inner)
            })
            .unwrap_or_default(),
        (Value::Array(x), Value::Array(y)) => match x.iter().zip(y).position(|(l, r)| l != r) {
            Some(i) => join_path(format!("[{i}]"), differing_path(&x[i], &y[i])),
            None => String::new(),
        },
        _ => String::new(),
    }
}

/// `name` followed by the path below it.
fn join_path(name: String, inner: String) -> String {
    match inner.chars().next() {
        None => name,
        Some('[') => format!("{name}{inner}"),
        Some(_) => format!("{name}.{inner}"),
    }
}

/// The outcome of decoding and re-encoding one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RoundTrip {
    /// The re-encoded bytes equal the input.
    Exact,
    /// They differ; where first, and in which field of the input.
    Differs {
        /// First differing byte offset (or the shorter length).
        offset: usize,
        /// Field path of the input at that offset.
        field: String,
        /// Input length.
        input_len: usize,
        /// Output length.
        output_len: usize,
    },
}

/// Decodes `bytes`, re-encodes them and compares.
pub fn round_trip<C: Codec>(bytes: &[u8]) -> Result<RoundTrip> {
    let value = C::read(bytes)?;
    let output = value.to_bytes()?;
    Ok(match first_difference(bytes, &output) {
        None => RoundTrip::Exact,
        Some(offset) => RoundTrip::Differs {
            offset,
            field: field_at::<C>(bytes, offset),
            input_len: bytes.len(),
            output_len: output.len(),
        },
    })
}

/// The first offset at which `a` and `b` differ, including a length difference.
pub fn first_difference(a: &[u8], b: &[u8]) -> Option<usize> {
    a.iter()
        .zip(b)
        .position(|(x, y)| x != y)
        .or_else(|| (a.len() != b.len()).then_some(a.len().min(b.len())))
}

/// The field path of the field holding byte `offset` of `bytes`. Reading the input cut short at
/// `offset + 1` fails exactly in the field that needs that byte, so its error path names it.
pub fn field_at<C: Codec>(bytes: &[u8], offset: usize) -> String {
    let cut = bytes.get(..offset + 1).unwrap_or(bytes);
    match C::read(cut) {
        Err(e) if !e.path().is_empty() => e.path(),
        _ => "(trailing bytes)".to_owned(),
    }
}

/// The checksums of `value` that disagree with the bytes they cover, each named by the path
/// of its field (what `check()` adds for a schema with checksums); none when the value cannot
/// be written (its writer says why).
pub fn checksum_mismatches<C: Codec>(value: &C) -> Vec<Mismatch> {
    let mut w = Writer::new();
    match value.write(&mut w) {
        Ok(()) => w.into_checksum_mismatches(field_at::<C>),
        Err(_) => Vec::new(),
    }
}

/// Writes `value` with every checksum recomputed and reads it back (the last step of
/// `normalize()` for a schema with checksums: they cover bytes, which only the writer has).
pub fn recompute_checksums<C: Codec>(value: &mut C) -> Result<()> {
    let mut w = Writer::recomputing_checksums();
    value.write(&mut w)?;
    *value = C::read(&w.into_bytes()?)?;
    Ok(())
}

/// The length of the file `value` is written as (with the bytes no field claims), when it
/// can be written.
pub fn written_len<C: Codec>(value: &C) -> Option<u64> {
    let mut w = Writer::new();
    value.write(&mut w).ok()?;
    w.into_bytes().ok().map(|bytes| bytes.len() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn differences() {
        assert_eq!(first_difference(b"abc", b"abc"), None);
        assert_eq!(first_difference(b"abc", b"abd"), Some(2));
        assert_eq!(first_difference(b"abc", b"ab"), Some(2));
    }
}
