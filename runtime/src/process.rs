//! Kaitai `process`: values stored transformed (xor, rotated, zlib-compressed, or by a
//! processor the schema names), and values framed inside bytes they do not fill (`pad-right`
//! or a terminator within a size).
//!
//! Such a value is a [`Decoded`]: the value read from the decoded bytes, what the value did not
//! consume, and the bytes exactly as stored. Writing stores those bytes again while they still
//! decode to what the value writes (an untouched zlib stream is not recompressed, padding and
//! garbage after a terminator survive); after an edit the new bytes are encoded and framed.

use std::any::Any;
use std::borrow::Cow;
use std::io::Read as _;
use std::ops::{Deref, DerefMut};

use serde::{Deserialize, Serialize};

use crate::bytes::RawBytes;
use crate::error::{ErrorKind, Result};
use crate::reader::Reader;
use crate::strings::Text;
use crate::writer::Writer;

/// A reversible transformation of stored bytes. Schemas name custom ones
/// (`process: my_fx(7, true)` is `MyFx::new(7, true)`, a type of the crate that expands the
/// codec); the built-in ones are [`Xor`], [`Rotate`] and [`Zlib`].
pub trait Process {
    /// The bytes a value is read from, given the bytes as stored.
    fn decode<'d>(&self, stored: &'d [u8]) -> std::result::Result<Cow<'d, [u8]>, String>;
    /// The bytes to store for `data`: `decode(encode(data)) == data`.
    fn encode<'d>(&self, data: &'d [u8]) -> std::result::Result<Cow<'d, [u8]>, String>;
}

/// Bytes stored as they are: the processor of a value that is only framed (`pad-right`, or a
/// terminator within a size).
#[derive(Debug, Clone, Copy, Default)]
pub struct Unchanged;

impl Process for Unchanged {
    fn decode<'d>(&self, stored: &'d [u8]) -> std::result::Result<Cow<'d, [u8]>, String> {
        Ok(Cow::Borrowed(stored))
    }
    fn encode<'d>(&self, data: &'d [u8]) -> std::result::Result<Cow<'d, [u8]>, String> {
        Ok(Cow::Borrowed(data))
    }
}

/// Text in an encoding Kaitai does not know (its label): reading or writing it fails, as
/// Kaitai's runtimes raise `UnknownEncodingError` where such text is read.
#[derive(Debug, Clone, Copy)]
pub struct UnknownEncoding(pub &'static str);

impl Process for UnknownEncoding {
    fn decode<'d>(&self, _: &'d [u8]) -> std::result::Result<Cow<'d, [u8]>, String> {
        Err(crate::messages::unknown_encoding(self.0))
    }
    fn encode<'d>(&self, _: &'d [u8]) -> std::result::Result<Cow<'d, [u8]>, String> {
        Err(crate::messages::unknown_encoding(self.0))
    }
}

/// `xor(key)`: every byte xored with the key's bytes in turn (an integer key is one byte, as in
/// Kaitai). An empty key changes nothing.
#[derive(Debug, Clone)]
pub struct Xor {
    key: Vec<u8>,
}

/// What `xor` takes as its key: an integer (its low byte) or bytes.
pub trait XorKey {
    /// The key's bytes.
    fn key_bytes(self) -> Vec<u8>;
}

impl XorKey for i64 {
    fn key_bytes(self) -> Vec<u8> {
        vec![self as u8]
    }
}

impl XorKey for &[u8] {
    fn key_bytes(self) -> Vec<u8> {
        self.to_vec()
    }
}

impl XorKey for Vec<u8> {
    fn key_bytes(self) -> Vec<u8> {
        self
    }
}

impl Xor {
    /// The processor of `xor(key)`.
    pub fn new(key: impl XorKey) -> Self {
        Xor {
            key: key.key_bytes(),
        }
    }

    fn apply(&self, data: &[u8]) -> Vec<u8> {
        if self.key.is_empty() {
            return data.to_vec();
        }
        data.iter()
            .zip(self.key.iter().cycle())
            .map(|(b, k)| b ^ k)
            .collect()
    }
}

impl Process for Xor {
    fn decode<'d>(&self, stored: &'d [u8]) -> std::result::Result<Cow<'d, [u8]>, String> {
        Ok(Cow::Owned(self.apply(stored)))
    }
    fn encode<'d>(&self, data: &'d [u8]) -> std::result::Result<Cow<'d, [u8]>, String> {
        Ok(Cow::Owned(self.apply(data)))
    }
}

/// `rol(n)` and `ror(n)`: every byte rotated by `n` bits (modulo 8).
#[derive(Debug, Clone, Copy)]
pub struct Rotate {
    /// The left rotation that decodes.
    left: u32,
}

impl Rotate {
    /// `rol(n)`: decoding rotates each byte left by `n` bits.
    pub fn left(n: i64) -> Self {
        Rotate {
            left: n.rem_euclid(8) as u32,
        }
    }

    /// `ror(n)`: decoding rotates each byte right by `n` bits.
    pub fn right(n: i64) -> Self {
        Rotate {
            left: (8 - n.rem_euclid(8)) as u32 % 8,
        }
    }

    fn rotated(data: &[u8], left: u32) -> Vec<u8> {
        data.iter().map(|b| b.rotate_left(left)).collect()
    }
}

impl Process for Rotate {
    fn decode<'d>(&self, stored: &'d [u8]) -> std::result::Result<Cow<'d, [u8]>, String> {
        Ok(Cow::Owned(Self::rotated(stored, self.left)))
    }
    fn encode<'d>(&self, data: &'d [u8]) -> std::result::Result<Cow<'d, [u8]>, String> {
        Ok(Cow::Owned(Self::rotated(data, (8 - self.left) % 8)))
    }
}

/// `zlib`: a zlib stream (RFC 1950), by flate2. Decoding stops at [`Zlib::limit`] bytes, so
/// a small hostile stream cannot expand into unbounded memory.
#[derive(Debug, Clone, Copy, Default)]
pub struct Zlib;

/// The most bytes one zlib field may decode to, whatever its stored size: 256 MiB.
pub const ZLIB_MAX: u64 = 256 << 20;

impl Zlib {
    /// The most bytes `stored` may decode to: zlib's highest ratio (1032:1) plus 64 KiB, so
    /// that no honest stream is refused and decoding work stays proportional to the input;
    /// never more than [`ZLIB_MAX`].
    pub fn limit(stored: usize) -> u64 {
        (stored as u64)
            .saturating_mul(1032)
            .saturating_add(64 << 10)
            .min(ZLIB_MAX)
    }
}

impl Zlib {
    fn decode_within(stored: &[u8], limit: u64) -> std::result::Result<Vec<u8>, String> {
        let mut out = Vec::new();
        flate2::read::ZlibDecoder::new(stored)
            .take(limit + 1)
            .read_to_end(&mut out)
            .map_err(|e| format!("bad zlib data: {e}"))?;
        if out.len() as u64 > limit {
            return Err(format!(
                "zlib data of {} bytes expands past {limit} bytes, the most it may decode to",
                stored.len()
            ));
        }
        Ok(out)
    }
}

impl Process for Zlib {
    fn decode<'d>(&self, stored: &'d [u8]) -> std::result::Result<Cow<'d, [u8]>, String> {
        Self::decode_within(stored, Self::limit(stored.len())).map(Cow::Owned)
    }

    fn encode<'d>(&self, data: &'d [u8]) -> std::result::Result<Cow<'d, [u8]>, String> {
        use std::io::Write as _;
        let mut encoder =
            flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        encoder
            .write_all(data)
            .and_then(|()| encoder.finish())
            .map(Cow::Owned)
            .map_err(|e| format!("zlib compression failed: {e}"))
    }
}

/// How a whole compressed stream is inflated: raw deflate (RFC 1951) or zlib (RFC 1950).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Deflate {
    /// Raw deflate, without a header: a gzip member's or a ZIP entry's compressed data.
    Raw,
    /// A zlib stream (`process: zlib`).
    Zlib,
}

impl Deflate {
    /// What the whole of `stored` inflates to: `None` unless it is one stream of this kind
    /// that ends where `stored` ends, and inflates to at most `limit` bytes.
    pub fn inflate_whole(self, stored: &[u8], limit: u64) -> Option<Vec<u8>> {
        fn whole<D: std::io::Read>(
            mut decoder: D,
            consumed: impl Fn(&D) -> u64,
            len: usize,
            limit: u64,
        ) -> Option<Vec<u8>> {
            let mut out = Vec::new();
            let read = (&mut decoder).take(limit + 1).read_to_end(&mut out);
            let ended = read.is_ok() && out.len() as u64 <= limit;
            (ended && consumed(&decoder) == len as u64).then_some(out)
        }
        match self {
            Deflate::Raw => whole(
                flate2::bufread::DeflateDecoder::new(stored),
                flate2::bufread::DeflateDecoder::total_in,
                stored.len(),
                limit,
            ),
            Deflate::Zlib => whole(
                flate2::bufread::ZlibDecoder::new(stored),
                flate2::bufread::ZlibDecoder::total_in,
                stored.len(),
                limit,
            ),
        }
    }
}

/// `inflated(bytes)` of `-derived` (`crc32(inflated(body))`: gzip's trailer, a deflated ZIP
/// entry's CRC): what the raw deflate stream `stored` inflates to. It must be one stream,
/// whole, and inflate to at most [`Zlib::limit`] bytes (zlib's highest ratio, at most
/// [`ZLIB_MAX`]); otherwise the derivation has no value, an error `normalize()` refuses with.
pub fn inflated(stored: &[u8]) -> Result<Vec<u8>> {
    let limit = Zlib::limit(stored.len());
    Deflate::Raw.inflate_whole(stored, limit).ok_or_else(|| {
        crate::Error::new(
            0,
            ErrorKind::Invalid(format!(
                "`inflated(…)`: these {} bytes are not one whole raw deflate stream that inflates to at most {limit} bytes, so what is derived from them cannot be computed",
                stored.len()
            )),
        )
    })
}

/// A value read from decoded bytes, kept with the bytes as stored. Its document is
/// `{"value": …, "rest": hex, "stored": hex}`, but a decoded text's is a string's
/// (`{"text": …, "stored": hex}`, see [`crate::strings`]), so that every string has one shape.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Decoded<T> {
    /// The value.
    pub value: T,
    /// Decoded bytes the value did not read (kept so that they are written back).
    pub rest: RawBytes,
    /// The bytes as stored: written back while they still decode to the value and `rest`.
    /// Empty in a document that only gives the value: the value is then encoded.
    pub stored: RawBytes,
}

impl<T: Serialize + 'static> Serialize for Decoded<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap as _;
        if let Some(text) = (&self.value as &dyn Any).downcast_ref::<Text>() {
            return crate::strings::decoded_document(text, &self.rest, &self.stored).serialize(s);
        }
        let rest = !self.rest.is_empty();
        let mut map = s.serialize_map(Some(2 + usize::from(rest)))?;
        map.serialize_entry("value", &self.value)?;
        if rest {
            map.serialize_entry("rest", &self.rest)?;
        }
        map.serialize_entry("stored", &self.stored)?;
        map.end()
    }
}

impl<'de, T: Deserialize<'de> + 'static> Deserialize<'de> for Decoded<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        d.deserialize_any(DecodedVisitor(std::marker::PhantomData))
    }
}

/// Reads a [`Decoded`]: a map of its value, rest and stored bytes, or a string's document
/// for a decoded text.
struct DecodedVisitor<T>(std::marker::PhantomData<T>);

impl<T: 'static> DecodedVisitor<T> {
    /// `text` as the value, when the value is a text.
    fn text<E: serde::de::Error>(text: String) -> std::result::Result<T, E> {
        let text: Box<dyn Any> = Box::new(Text::from(text.as_str()));
        text.downcast::<T>()
            .map(|value| *value)
            .map_err(|_| E::custom("a decoded value's map holds `value`, not `text`"))
    }
}

impl<'de, T: Deserialize<'de> + 'static> serde::de::Visitor<'de> for DecodedVisitor<T> {
    type Value = Decoded<T>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a map with `value` (and `rest`, `stored`), or a string's `text`")
    }

    fn visit_str<E: serde::de::Error>(self, text: &str) -> std::result::Result<Self::Value, E> {
        Ok(Decoded {
            value: Self::text(text.to_owned())?,
            rest: RawBytes::default(),
            stored: RawBytes::default(),
        })
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(
        self,
        mut map: A,
    ) -> std::result::Result<Self::Value, A::Error> {
        use serde::de::Error as _;
        let (mut value, mut rest, mut stored) = (None, None, None);
        while let Some(key) = map.next_key::<Cow<'de, str>>()? {
            let repeated = match &*key {
                "value" => value.replace(map.next_value::<T>()?).is_some(),
                "text" => value.replace(Self::text(map.next_value()?)?).is_some(),
                "rest" => rest.replace(map.next_value::<RawBytes>()?).is_some(),
                "stored" => stored.replace(map.next_value::<RawBytes>()?).is_some(),
                other => return Err(A::Error::unknown_field(other, &DECODED_KEYS)),
            };
            if repeated {
                return Err(A::Error::custom(format!("`{key}` given twice")));
            }
        }
        Ok(Decoded {
            value: value.ok_or_else(|| A::Error::missing_field("value"))?,
            rest: rest.unwrap_or_default(),
            stored: stored.unwrap_or_default(),
        })
    }
}

/// The keys of a decoded value's document.
const DECODED_KEYS: [&str; 3] = ["value", "rest", "stored"];

/// Whether two documents hold the same values, the bytes their decoded values were stored as
/// aside: what is compared when a value written is read back, since stored bytes follow the
/// value (an edited value is stored anew).
pub fn same_values(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value;
    let ((a, rest_a), (b, rest_b)) = (without_stored(a), without_stored(b));
    rest_a == rest_b
        && match (a, b) {
            (Value::Object(x), Value::Object(y)) => {
                x.len() == y.len()
                    && x.iter()
                        .all(|(k, v)| y.get(k).is_some_and(|w| same_values(v, w)))
            }
            (Value::Array(x), Value::Array(y)) => {
                x.len() == y.len() && x.iter().zip(y).all(|(v, w)| same_values(v, w))
            }
            _ => a == b,
        }
}

/// A decoded value's document as its value and rest; any other as itself.
fn without_stored(
    document: &serde_json::Value,
) -> (&serde_json::Value, Option<&serde_json::Value>) {
    match document {
        serde_json::Value::Object(map) if is_decoded_map(map) => (&map["value"], map.get("rest")),
        serde_json::Value::Object(map) if is_string_map(map) => (&map["text"], map.get("rest")),
        other => (other, None),
    }
}

/// Whether a document's map is a decoded value (see [`Decoded`]): it has a `value`, and no key
/// but `value`, `rest` and `stored` (a structure whose fields all have such names looks alike).
pub fn is_decoded_map(map: &serde_json::Map<String, serde_json::Value>) -> bool {
    map.contains_key("value") && map.keys().all(|k| DECODED_KEYS.contains(&k.as_str()))
}

/// Whether a document's map is a string's (see [`crate::strings`]): it has a `text`, and no key
/// but `text`, `rest` and `stored`.
pub fn is_string_map(map: &serde_json::Map<String, serde_json::Value>) -> bool {
    map.contains_key("text") && map.keys().all(|k| STRING_KEYS.contains(&k.as_str()))
}

/// The keys of a string's document.
const STRING_KEYS: [&str; 3] = ["text", "rest", "stored"];

impl<T> Deref for Decoded<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.value
    }
}

/// Lists of decoded values are passed to a parameter that takes a list of values (`block[]`).
impl<T> std::borrow::Borrow<T> for Decoded<T> {
    fn borrow(&self) -> &T {
        &self.value
    }
}

impl<T> DerefMut for Decoded<T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.value
    }
}

/// Reading: the bytes a value is read from, given its stored content. Errors name the field's
/// position.
pub fn decode<'d>(
    r: &Reader<'_>,
    process: &impl Process,
    content: &'d [u8],
) -> Result<Cow<'d, [u8]>> {
    let decoded = process
        .decode(content)
        .map_err(|message| r.error(ErrorKind::Invalid(message)))?;
    if let Cow::Owned(bytes) = &decoded {
        r.charge(bytes.len() as u64)?;
    }
    Ok(decoded)
}

/// Reading: a value read by `read` from the decoded content of `stored`, kept with `stored`
/// and with the decoded bytes it did not read.
pub fn read_decoded<T>(
    r: &Reader<'_>,
    stored: RawBytes,
    process: &impl Process,
    frame: Frame,
    read: impl FnOnce(&mut Reader<'_>) -> Result<T>,
) -> Result<Decoded<T>> {
    let data = decode(r, process, frame.content(&stored.0))?;
    // `r` stands after the stored bytes; the decoded ones stand for the value, which starts
    // where they do.
    let start = r.absolute_pos().saturating_sub(stored.0.len() as u64);
    let mut sub = r.detached_at(&data, start);
    let value = read(&mut sub)?;
    let rest = RawBytes::new(sub.rest().to_vec());
    Ok(Decoded {
        value,
        rest,
        stored,
    })
}

/// How a value's content sits in the bytes stored for it, to frame new content after an edit.
#[derive(Debug, Clone, Copy)]
pub struct Frame {
    /// `terminator`: written after the content unless the content includes it.
    pub terminator: Option<u8>,
    /// `include`: the content ends with its terminator.
    pub include: bool,
    /// `pad-right`: fills the rest of a sized frame.
    pub pad_right: Option<u8>,
    /// The frame's size when the schema fixes it (or the writer computes it): new content is
    /// padded to it.
    pub size: Option<i64>,
    /// Bytes of the terminator: the code unit of the text's encoding (2 for UTF-16).
    pub unit: usize,
}

impl Frame {
    /// The content of bytes so framed, as the reader cuts it out.
    pub fn content(self, bytes: &[u8]) -> &[u8] {
        crate::bytes::content_in_units(
            bytes,
            self.pad_right,
            self.terminator,
            self.include,
            self.unit,
        )
    }
}

/// Writing: the bytes to store for a value whose decoded bytes are `data`. The bytes as stored
/// when their content still decodes to `data`, else `data`
/// encoded and framed: terminated, then padded up to the frame's size.
pub fn stored_bytes<'s>(
    w: &Writer,
    process: &impl Process,
    data: &[u8],
    stored: &'s [u8],
    frame: Frame,
) -> Result<Cow<'s, [u8]>> {
    framed(process, data, stored, frame).map_err(|message| crate::fields::encode_error(w, message))
}

/// The new bytes of a value whose decoded bytes are `value`'s then `rest`, in a frame without
/// padding, once its stored bytes no longer decode to them (it was edited): what the writer
/// writes for it. `None` while they still do, or where the value cannot be encoded (the writer
/// refuses it).
pub fn restored(
    process: &impl Process,
    (value, rest): (&[u8], &[u8]),
    stored: &[u8],
    frame: Frame,
) -> Option<Vec<u8>> {
    let data = match rest.is_empty() {
        true => Cow::Borrowed(value),
        false => Cow::Owned([value, rest].concat()),
    };
    match framed(process, &data, stored, frame) {
        Ok(Cow::Owned(bytes)) => Some(bytes),
        Ok(Cow::Borrowed(_)) | Err(_) => None,
    }
}

/// How many bytes a value is written as (see [`restored`]): its `_sizeof`, its new bytes'
/// once edited.
pub fn written_len(
    process: &impl Process,
    data: (&[u8], &[u8]),
    stored: &[u8],
    frame: Frame,
) -> usize {
    restored(process, data, stored, frame).map_or(stored.len(), |bytes| bytes.len())
}

/// The size of a frame as large as the bytes a value is stored in: none when none are stored
/// (a document gave the value alone), so that new bytes are not padded.
pub fn size_as_stored(stored: &[u8]) -> Option<i64> {
    i64::try_from(stored.len()).ok().filter(|&n| n > 0)
}

/// [`stored_bytes`], refused with the reason.
fn framed<'s>(
    process: &impl Process,
    data: &[u8],
    stored: &'s [u8],
    frame: Frame,
) -> std::result::Result<Cow<'s, [u8]>, String> {
    // Empty stored bytes are a document's way to give only the value, unless the frame is
    // empty too.
    if !stored.is_empty() || frame.size == Some(0) {
        let unchanged = process
            .decode(frame.content(stored))
            .is_ok_and(|decoded| *decoded == *data);
        if unchanged {
            return Ok(Cow::Borrowed(stored));
        }
    }
    let encoded = process.encode(data)?;
    let mut bytes = encoded.to_vec();
    if let Some(t) = frame.terminator.filter(|_| !frame.include) {
        // A terminator of code units starts at a multiple of their size.
        bytes.resize(bytes.len().next_multiple_of(frame.unit.max(1)), 0);
        bytes.extend(std::iter::repeat_n(t, frame.unit.max(1)));
    }
    if let (Some(size), Some(pad)) = (frame.size, frame.pad_right.or(frame.terminator)) {
        let size = usize::try_from(size).unwrap_or(0);
        if bytes.len() < size {
            bytes.resize(size, pad);
        }
    }
    if frame.content(&bytes) != encoded.as_ref() {
        return Err(
            "the new value's bytes hold its terminator or end with its padding, so it would not read back".into(),
        );
    }
    Ok(Cow::Owned(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A raw deflate stream of `data` (RFC 1951), by flate2's encoder.
    fn deflated(data: &[u8]) -> Vec<u8> {
        use std::io::Write as _;
        let mut e = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    #[test]
    fn inflated_takes_one_whole_raw_deflate_stream() {
        let data = b"hello gzip hello gzip hello gzip".repeat(3);
        let raw = deflated(&data);
        assert_eq!(inflated(&raw).unwrap(), data);
        // Bytes after the stream's last block, a stream cut short, no stream at all.
        assert!(inflated(&[raw.as_slice(), b"x"].concat()).is_err());
        assert!(inflated(&raw[..raw.len() - 1]).is_err());
        let error = inflated(b"not deflate at all").unwrap_err().to_string();
        assert!(
            error.contains("not one whole raw deflate stream"),
            "{error}"
        );
        // Past the limit it is no value either (zlib's highest ratio is what `inflated` allows).
        assert_eq!(
            Deflate::Raw.inflate_whole(&raw, data.len() as u64),
            Some(data.clone())
        );
        assert!(
            Deflate::Raw
                .inflate_whole(&raw, data.len() as u64 - 1)
                .is_none()
        );
        assert_eq!(inflated(&deflated(b"")).unwrap(), b"");
        assert!(Deflate::Zlib.inflate_whole(&raw, 1 << 20).is_none());
    }

    #[test]
    fn xor_with_a_byte_or_a_key_cycles_and_inverts() {
        let x = Xor::new(0xffi64);
        assert_eq!(*x.decode(&[0x00, 0x0f]).unwrap(), [0xff, 0xf0]);
        let x = Xor::new([0xec, 0xbb].as_slice());
        assert_eq!(*x.decode(&[0xec, 0xbb, 0x00]).unwrap(), [0, 0, 0xec]);
        assert_eq!(*x.encode(&[0, 0, 0xec]).unwrap(), [0xec, 0xbb, 0x00]);
        assert_eq!(*Xor::new(Vec::new()).decode(b"ab").unwrap(), *b"ab");
    }

    #[test]
    fn rotations_invert_each_other() {
        // 0b1000_0001 rotated left by 3 is 0b0000_1100.
        assert_eq!(*Rotate::left(3).decode(&[0x81]).unwrap(), [0x0c]);
        assert_eq!(*Rotate::right(3).decode(&[0x0c]).unwrap(), [0x81]);
        assert_eq!(*Rotate::left(11).encode(&[0x0c]).unwrap(), [0x81]);
        assert_eq!(*Rotate::right(-3).decode(&[0x81]).unwrap(), [0x0c]);
        assert_eq!(*Rotate::left(8).decode(&[0x81]).unwrap(), [0x81]);
    }

    #[test]
    fn zlib_round_trips_and_refuses_bombs() {
        let data = b"hello hello hello hello".repeat(10);
        let stored = Zlib.encode(&data).unwrap().into_owned();
        assert_eq!(*Zlib.decode(&stored).unwrap(), *data);
        assert!(Zlib.decode(b"not zlib").is_err());
        // A stream is cut off past its limit, however far it would expand.
        let zeros = Zlib.encode(&vec![0; 1 << 20]).unwrap().into_owned();
        let err = Zlib::decode_within(&zeros, 4096).map(|out| out.len());
        assert!(
            matches!(&err, Err(e) if e.contains("expands past 4096")),
            "{err:?}"
        );
        assert_eq!(Zlib::limit(10), 10 * 1032 + 65536);
        assert_eq!(Zlib::limit(usize::MAX), ZLIB_MAX);
    }

    #[test]
    fn unchanged_bytes_are_stored_again_and_edits_are_framed() {
        let w = Writer::new();
        let frame = Frame {
            terminator: Some(b'@'),
            include: false,
            pad_right: Some(b'+'),
            size: Some(8),
            unit: 1,
        };
        let stored = b"ab@junk+";
        let same = stored_bytes(&w, &Unchanged, b"ab", stored, frame).unwrap();
        assert_eq!(*same, *stored, "garbage after the terminator survives");
        let edited = stored_bytes(&w, &Unchanged, b"xyz", stored, frame).unwrap();
        assert_eq!(*edited, *b"xyz@++++");
        let err = stored_bytes(&w, &Unchanged, b"x@y", stored, frame).unwrap_err();
        assert!(err.to_string().contains("would not read back"), "{err}");
    }

    #[test]
    fn an_untouched_zlib_stream_is_not_recompressed() {
        let w = Writer::new();
        let frame = Frame {
            terminator: None,
            include: false,
            pad_right: None,
            size: None,
            unit: 1,
        };
        // Stored with no compression (level 0): recompressing would change the bytes.
        let mut enc = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::none());
        std::io::Write::write_all(&mut enc, b"abcabcabc").unwrap();
        let stored = enc.finish().unwrap();
        let kept = stored_bytes(&w, &Zlib, b"abcabcabc", &stored, frame).unwrap();
        assert_eq!(*kept, *stored);
        let edited = stored_bytes(&w, &Zlib, b"abc", &stored, frame).unwrap();
        assert_eq!(*Zlib.decode(&edited).unwrap(), *b"abc");
    }
}
