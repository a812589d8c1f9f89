//! Opaque byte blobs and hex helpers.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Raw bytes kept as read: unknown or stale data. Serializes as a lowercase hex string.
#[derive(Clone, PartialEq, Eq, Hash, Default)]
pub struct RawBytes(pub ByteBuf);

/// Bytes that are a view of the file a value was read from, shared with it, until they are
/// changed: then they are the value's own (copied once). A few bytes ([`ByteBuf::INLINE`] at
/// most) are held inline instead, copied, which costs less than counting a reference to the
/// file and allocates nothing. Reads as `[u8]`; changes through its `Vec`-like methods or
/// `as_mut_vec`.
#[derive(Clone)]
pub struct ByteBuf(Repr);

#[derive(Clone)]
enum Repr {
    Owned(Vec<u8>),
    /// The first `len` of `bytes`.
    Inline {
        len: u8,
        bytes: [u8; ByteBuf::INLINE],
    },
    /// `len` bytes of `input` from `start`.
    Shared {
        input: std::sync::Arc<crate::on_demand::Input>,
        start: usize,
        len: usize,
    },
}

impl ByteBuf {
    /// The most bytes held inline, in the room a view takes.
    pub const INLINE: usize = 30;

    /// A copy of `bytes`: inline when they are few, else in a `Vec`.
    pub fn copied(bytes: &[u8]) -> Self {
        match u8::try_from(bytes.len()) {
            Ok(len) if bytes.len() <= Self::INLINE => {
                let mut inline = [0; Self::INLINE];
                inline[..bytes.len()].copy_from_slice(bytes);
                ByteBuf(Repr::Inline { len, bytes: inline })
            }
            _ => ByteBuf(Repr::Owned(bytes.to_vec())),
        }
    }

    /// A view of `len` bytes of `input` from `start`: nothing copied. Out of range, the
    /// bytes that lie in it.
    pub(crate) fn shared(
        input: std::sync::Arc<crate::on_demand::Input>,
        start: usize,
        len: usize,
    ) -> Self {
        let start = start.min(input.bytes().len());
        let len = len.min(input.bytes().len() - start);
        ByteBuf(Repr::Shared { input, start, len })
    }

    /// The bytes.
    pub fn as_slice(&self) -> &[u8] {
        match &self.0 {
            Repr::Owned(bytes) => bytes,
            Repr::Inline { len, bytes } => &bytes[..usize::from(*len)],
            Repr::Shared { input, start, len } => &input.bytes()[*start..*start + *len],
        }
    }

    /// The bytes as a `Vec` of the value's own, copied from the file the first time.
    pub fn as_mut_vec(&mut self) -> &mut Vec<u8> {
        if !matches!(self.0, Repr::Owned(_)) {
            self.0 = Repr::Owned(self.as_slice().to_vec());
        }
        match &mut self.0 {
            Repr::Owned(bytes) => bytes,
            Repr::Inline { .. } | Repr::Shared { .. } => unreachable!("made owned above"),
        }
    }

    /// The bytes as a `Vec`, copied unless they are already the value's own.
    pub fn into_vec(self) -> Vec<u8> {
        match self.0 {
            Repr::Owned(bytes) => bytes,
            Repr::Inline { .. } | Repr::Shared { .. } => self.as_slice().to_vec(),
        }
    }

    /// Whether the bytes are a view of the file they were read from (not copied).
    pub fn is_shared(&self) -> bool {
        matches!(self.0, Repr::Shared { .. })
    }

    /// Appends a byte.
    pub fn push(&mut self, byte: u8) {
        self.as_mut_vec().push(byte);
    }

    /// Appends bytes.
    pub fn extend_from_slice(&mut self, bytes: &[u8]) {
        self.as_mut_vec().extend_from_slice(bytes);
    }

    /// Makes it `len` bytes long, adding `value` bytes or dropping the last ones.
    pub fn resize(&mut self, len: usize, value: u8) {
        self.as_mut_vec().resize(len, value);
    }

    /// Keeps the first `len` bytes.
    pub fn truncate(&mut self, len: usize) {
        self.as_mut_vec().truncate(len);
    }

    /// Drops every byte.
    pub fn clear(&mut self) {
        self.0 = Repr::Owned(Vec::new());
    }
}

impl Default for ByteBuf {
    fn default() -> Self {
        ByteBuf(Repr::Owned(Vec::new()))
    }
}

impl std::ops::Deref for ByteBuf {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        self.as_slice()
    }
}

impl std::ops::DerefMut for ByteBuf {
    fn deref_mut(&mut self) -> &mut [u8] {
        self.as_mut_vec()
    }
}

impl From<Vec<u8>> for ByteBuf {
    fn from(bytes: Vec<u8>) -> Self {
        ByteBuf(Repr::Owned(bytes))
    }
}

impl From<&[u8]> for ByteBuf {
    fn from(bytes: &[u8]) -> Self {
        ByteBuf::copied(bytes)
    }
}

impl<const N: usize> From<[u8; N]> for ByteBuf {
    fn from(bytes: [u8; N]) -> Self {
        ByteBuf::copied(&bytes)
    }
}

impl From<ByteBuf> for Vec<u8> {
    fn from(bytes: ByteBuf) -> Self {
        bytes.into_vec()
    }
}

impl PartialEq for ByteBuf {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for ByteBuf {}

/// Comparisons of a byte type with the ways bytes are written in code (`b"GNU"`, a slice, a
/// `Vec`), through its `AsRef<[u8]>`.
macro_rules! compares_as_slice {
    ($bytes:ty) => {
        impl PartialEq<Vec<u8>> for $bytes {
            fn eq(&self, other: &Vec<u8>) -> bool {
                AsRef::<[u8]>::as_ref(self) == other.as_slice()
            }
        }

        impl PartialEq<[u8]> for $bytes {
            fn eq(&self, other: &[u8]) -> bool {
                AsRef::<[u8]>::as_ref(self) == other
            }
        }

        impl PartialEq<&[u8]> for $bytes {
            fn eq(&self, other: &&[u8]) -> bool {
                AsRef::<[u8]>::as_ref(self) == *other
            }
        }

        impl<const N: usize> PartialEq<[u8; N]> for $bytes {
            fn eq(&self, other: &[u8; N]) -> bool {
                AsRef::<[u8]>::as_ref(self) == other
            }
        }

        impl<const N: usize> PartialEq<&[u8; N]> for $bytes {
            fn eq(&self, other: &&[u8; N]) -> bool {
                AsRef::<[u8]>::as_ref(self) == *other
            }
        }
    };
}

compares_as_slice!(ByteBuf);
compares_as_slice!(RawBytes);

impl std::hash::Hash for ByteBuf {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state);
    }
}

impl fmt::Debug for ByteBuf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.as_slice().fmt(f)
    }
}

impl AsRef<[u8]> for ByteBuf {
    fn as_ref(&self) -> &[u8] {
        self.as_slice()
    }
}

impl RawBytes {
    /// Bytes of the value's own.
    pub fn new(bytes: Vec<u8>) -> Self {
        RawBytes(ByteBuf::from(bytes))
    }
}

impl From<Vec<u8>> for RawBytes {
    fn from(bytes: Vec<u8>) -> Self {
        RawBytes::new(bytes)
    }
}

impl From<&[u8]> for RawBytes {
    fn from(bytes: &[u8]) -> Self {
        RawBytes(ByteBuf::copied(bytes))
    }
}

/// The bytes themselves, without `.0`: `raw.len()`, `&raw[..4]`, `raw == b"GNU"`.
impl std::ops::Deref for RawBytes {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        self.0.as_slice()
    }
}

impl std::ops::DerefMut for RawBytes {
    fn deref_mut(&mut self) -> &mut [u8] {
        self.0.as_mut_vec()
    }
}

impl AsRef<[u8]> for RawBytes {
    fn as_ref(&self) -> &[u8] {
        self.0.as_slice()
    }
}

impl RawBytes {
    /// True when there are no bytes.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Debug for RawBytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let head = self.0.get(..16).unwrap_or(&self.0);
        let more = if self.0.len() > 16 { "…" } else { "" };
        write!(
            f,
            "RawBytes({} bytes: {}{more})",
            self.0.len(),
            to_hex(head)
        )
    }
}

impl Serialize for RawBytes {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&to_hex(&self.0))
    }
}

impl<'de> Deserialize<'de> for RawBytes {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = String::deserialize(deserializer)?;
        from_hex(&s)
            .map(RawBytes::new)
            .map_err(serde::de::Error::custom)
    }
}

/// The value Kaitai reads from the bytes of a string or byte array: up to the first
/// `terminator` (which only `include` keeps) when there is one; otherwise the bytes with trailing
/// `pad_right` bytes stripped. The field itself keeps every byte (padding, terminator, what
/// follows it), so that writing it back reproduces the input.
#[inline]
pub fn content(raw: &[u8], pad_right: Option<u8>, terminator: Option<u8>, include: bool) -> &[u8] {
    content_in_units(raw, pad_right, terminator, include, 1)
}

/// [`content`] of text whose code units are `unit` bytes long (2 for UTF-16): its terminator is
/// `unit` bytes equal to `terminator`, found only at a multiple of `unit`.
pub fn content_in_units(
    raw: &[u8],
    pad_right: Option<u8>,
    terminator: Option<u8>,
    include: bool,
    unit: usize,
) -> &[u8] {
    let unit = unit.max(1);
    let found = terminator.and_then(|t| find_terminator(raw, t, unit));
    if let Some(end) = found {
        let end = if include { end + unit } else { end };
        return raw.get(..end).unwrap_or(raw);
    }
    match pad_right {
        Some(pad) => {
            let end = raw.iter().rposition(|&b| b != pad).map_or(0, |i| i + 1);
            raw.get(..end).unwrap_or(raw)
        }
        None => raw,
    }
}

/// The bytes of a string or byte-array value in an expression, whether it is a view of a
/// field (`&[u8]`) or computed (`Vec<u8>`).
#[inline]
pub fn view<T: AsRef<[u8]> + ?Sized>(value: &T) -> &[u8] {
    value.as_ref()
}

/// `a + b` of two strings.
pub fn concat(a: &(impl AsRef<[u8]> + ?Sized), b: &(impl AsRef<[u8]> + ?Sized)) -> Vec<u8> {
    [a.as_ref(), b.as_ref()].concat()
}

/// `n.to_s`: the decimal text of an integer.
pub fn decimal(n: i64) -> Vec<u8> {
    n.to_string().into_bytes()
}

/// `text.to_i(radix)`: the integer a string spells in `radix` (2 to 36), with an optional sign
/// and, as Kaitai's Python runtime allows, ASCII whitespace around it. Anything else (empty
/// text, a space, a radix out of range) is no number, which Kaitai raises too.
pub fn parse_int(text: &[u8], radix: i64) -> Result<i64, NotANumber> {
    let number = u32::try_from(radix)
        .ok()
        .filter(|radix| (2..=36).contains(radix))
        .and_then(|radix| {
            let text = std::str::from_utf8(text.trim_ascii()).ok()?;
            i64::from_str_radix(text, radix).ok()
        });
    number.ok_or_else(|| NotANumber {
        text: String::from_utf8_lossy(text).into_owned(),
        radix,
    })
}

/// Text that `to_i` cannot read as a number: an expression's failure, as Kaitai's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotANumber {
    text: String,
    radix: i64,
}

impl NotANumber {
    /// The failure where a reader or writer stands at `offset`.
    #[cold]
    pub fn at(self, offset: usize) -> crate::Error {
        crate::Error::new(
            offset as u64,
            crate::ErrorKind::Invalid(format!("`to_i`: {self}")),
        )
    }
}

impl fmt::Display for NotANumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} is not a number in base {}", self.text, self.radix)
    }
}

impl std::error::Error for NotANumber {}

/// `text.reverse`: the characters in reverse order (invalid UTF-8 replaced).
pub fn reverse_text(text: &[u8]) -> Vec<u8> {
    String::from_utf8_lossy(text)
        .chars()
        .rev()
        .collect::<String>()
        .into_bytes()
}

/// `text.substring(from, to)`: characters `from` up to, not including, `to`, both clamped to
/// the text (invalid UTF-8 replaced).
pub fn substring(text: &[u8], from: i64, to: i64) -> Vec<u8> {
    let text = String::from_utf8_lossy(text);
    let from = usize::try_from(from).unwrap_or(0);
    let to = usize::try_from(to).unwrap_or(0);
    text.chars()
        .skip(from)
        .take(to.saturating_sub(from))
        .collect::<String>()
        .into_bytes()
}

/// A list literal of integers taken as a byte array (`[0x50, 0x4b]`): each is kept modulo 256,
/// as Kaitai's byte-array literals hold bytes.
pub fn from_ints(items: &[i64]) -> Vec<u8> {
    items.iter().map(|&n| n as u8).collect()
}

/// Lowercase hex, two digits per byte, no separators.
pub fn to_hex(b: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(b.len() * 2);
    for &byte in b {
        out.push(char::from(DIGITS[usize::from(byte >> 4)]));
        out.push(char::from(DIGITS[usize::from(byte & 0x0f)]));
    }
    out
}

/// Parses hex written by [`to_hex`] (upper case accepted too).
pub fn from_hex(s: &str) -> Result<Vec<u8>, String> {
    let pairs = s.as_bytes().chunks_exact(2);
    if !pairs.remainder().is_empty() {
        return Err(format!("hex string has odd length {}", s.len()));
    }
    pairs
        .enumerate()
        .map(|(i, pair)| match pair {
            &[hi, lo] => match (nibble(hi), nibble(lo)) {
                (Some(hi), Some(lo)) => Ok(hi << 4 | lo),
                _ => Err(format!("invalid hex digit near position {}", i * 2)),
            },
            _ => Err("hex pair expected".to_owned()),
        })
        .collect()
}

#[inline]
fn nibble(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    }
}

/// The offset of the first terminator made of `unit` bytes equal to `byte` (e.g. `00 00`
/// for UTF-16), looking only at offsets that are multiples of `unit`; `None` if absent.
/// `unit` 0 is treated as 1. A trailing partial unit is never a terminator.
///
/// Kaitai 0.11 reads `strz` in UTF-16 up to a 2-byte NUL at an even offset, so the `00 00`
/// that straddles two characters in `61 00 00 62` (UTF-16LE "a", "戀") is not a terminator.
pub fn find_terminator(bytes: &[u8], byte: u8, unit: usize) -> Option<usize> {
    let unit = unit.max(1);
    bytes
        .chunks_exact(unit)
        .position(|chunk| chunk.iter().all(|&b| b == byte))
        .map(|index| index * unit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_few_bytes_are_held_inline_in_the_room_of_a_view() {
        assert_eq!(std::mem::size_of::<ByteBuf>(), 32);
        let within = |b: &ByteBuf| {
            let at = b as *const ByteBuf as usize;
            (at..at + 32).contains(&(b.as_ptr() as usize))
        };
        let few = ByteBuf::copied(&[7; ByteBuf::INLINE]);
        assert!(within(&few) && !few.is_shared(), "no allocation, no file");
        assert_eq!(few, [7; ByteBuf::INLINE]);
        let more = ByteBuf::copied(&[7; ByteBuf::INLINE + 1]);
        assert!(!within(&more));
        // A file's few bytes are copied inline too, its longer ones viewed.
        let file = crate::on_demand::Input::owned(b"headPAYLOAD_LONGER_THAN_THIRTY_BYTES".to_vec());
        let state = crate::reader::FileState::new(0).with_input(file.clone());
        let r = crate::Reader::new(file.bytes()).sharing(&state);
        assert!(within(&r.keep(&file.bytes()[..4])));
        assert!(r.keep(&file.bytes()[4..]).is_shared());
        let mut edited = few.clone();
        edited.push(8);
        assert_eq!(edited.len(), ByteBuf::INLINE + 1);
        assert_eq!(
            few.len(),
            ByteBuf::INLINE,
            "the clone it came from unchanged"
        );
    }

    #[test]
    fn a_view_is_shared_until_changed_then_its_own() {
        let file = crate::on_demand::Input::owned(b"headerPAYLOADtail".to_vec());
        let view = ByteBuf::shared(file.clone(), 6, 7);
        assert!(view.is_shared());
        assert_eq!(view, b"PAYLOAD");
        assert_eq!(view.as_ptr(), file.bytes()[6..].as_ptr(), "nothing copied");
        let mut edited = view.clone();
        assert_eq!(
            edited.as_ptr(),
            view.as_ptr(),
            "a clone shares the file too"
        );
        edited.extend_from_slice(b"!");
        assert!(!edited.is_shared());
        assert_eq!(edited, b"PAYLOAD!");
        assert_eq!(view, b"PAYLOAD", "the file and other views unchanged");
        edited[0] = b'p';
        assert_eq!(edited.into_vec(), b"pAYLOAD!".to_vec());
        // Equal, and hashed alike, whether a view or owned.
        let owned = ByteBuf::from(b"PAYLOAD".to_vec());
        assert_eq!(view, owned);
        let state = std::hash::RandomState::new();
        assert_eq!(
            std::hash::BuildHasher::hash_one(&state, &view),
            std::hash::BuildHasher::hash_one(&state, &owned)
        );
        // Out of range, what lies in it.
        assert_eq!(ByteBuf::shared(file.clone(), 13, 99), b"tail");
        assert!(ByteBuf::shared(file, 99, 1).is_empty());
    }

    #[test]
    fn hex_round_trip() {
        let all: Vec<u8> = (0..=255).collect();
        assert_eq!(from_hex(&to_hex(&all)).unwrap(), all);
        assert_eq!(to_hex(&[0x00, 0xab, 0x7f]), "00ab7f");
        assert_eq!(from_hex("ABcd").unwrap(), vec![0xab, 0xcd]);
        assert!(from_hex("abc").is_err());
        assert!(from_hex("zz").is_err());
        assert!(from_hex("é1").is_err());
    }

    #[test]
    fn raw_bytes_read_as_their_bytes() {
        let mut raw = RawBytes::from(b"GNU\0".as_slice());
        assert_eq!(raw.len(), 4);
        assert_eq!(&raw[..3], b"GNU");
        assert!(raw == b"GNU\0" && raw == *b"GNU\0" && raw == b"GNU\0".to_vec());
        raw[3] = b'!';
        assert_eq!(raw, RawBytes::from(b"GNU!".to_vec()));
        assert_eq!(to_hex(&raw), "474e5521");
    }

    #[test]
    fn string_operations_of_expressions() {
        assert_eq!(concat(b"ab".as_slice(), &b"cd".to_vec()), b"abcd");
        assert_eq!(decimal(-42), b"-42");
        assert_eq!(parse_int(b"-072", 10), Ok(-72));
        assert_eq!(parse_int(b"1010110", 2), Ok(86));
        assert_eq!(parse_int(b"47cf", 16), Ok(0x47cf));
        assert_eq!(
            parse_int(b" 12\t", 10),
            Ok(12),
            "whitespace around, as Python's int()"
        );
        let failure = |text: &[u8], radix| parse_int(text, radix).unwrap_err().to_string();
        assert_eq!(failure(b" ", 10), r#"" " is not a number in base 10"#);
        assert_eq!(failure(b"12a", 10), r#""12a" is not a number in base 10"#);
        assert_eq!(failure(b"1", 99), r#""1" is not a number in base 99"#);
        assert_eq!(failure(b"", 10), r#""" is not a number in base 10"#);
        assert_eq!(reverse_text("añb".as_bytes()), "bña".as_bytes());
        assert_eq!(substring(b"0123456789", 2, 5), b"234");
        assert_eq!(substring(b"0123", 3, 1), b"");
        assert_eq!(substring(b"0123", -1, 9), b"0123");
        assert_eq!(from_ints(&[0x41, 0x1ff]), [0x41, 0xff]);
    }

    #[test]
    fn terminated_values_end_at_their_first_terminator() {
        assert_eq!(content(b"foo|", None, Some(b'|'), false), b"foo");
        assert_eq!(content(b"foo|", None, Some(b'|'), true), b"foo|");
        assert_eq!(content(b"foo", None, Some(b'|'), false), b"foo");
        assert_eq!(content(b"|a|", None, Some(b'|'), false), b"");
    }

    #[test]
    fn padding_is_stripped_only_when_no_terminator_ends_the_value() {
        // Kaitai's str_pad_term and str_pad_term_equal.
        let raw = b"str+++3bar+++@++++++";
        assert_eq!(
            content(raw, Some(b'+'), Some(b'@'), false),
            b"str+++3bar+++"
        );
        assert_eq!(content(raw, Some(b'+'), Some(b'+'), false), b"str");
        assert_eq!(
            content(b"str4baz@....", Some(b'.'), Some(b'.'), true),
            b"str4baz@."
        );
        assert_eq!(content(b"ab@@@@", Some(b'@'), None, false), b"ab");
        assert_eq!(content(b"ab++", Some(b'+'), Some(b'@'), false), b"ab");
        assert_eq!(content(b"@@@@", Some(b'@'), None, false), b"");
    }

    #[test]
    fn raw_bytes_serde_and_debug() {
        let b = RawBytes::new(vec![1, 2, 255]);
        assert_eq!(serde_json::to_string(&b).unwrap(), r#""0102ff""#);
        assert_eq!(serde_json::from_str::<RawBytes>(r#""0102ff""#).unwrap(), b);
        assert_eq!(format!("{b:?}"), "RawBytes(3 bytes: 0102ff)");
        let long = RawBytes::new(vec![0xaa; 20]);
        assert_eq!(
            format!("{long:?}"),
            format!("RawBytes(20 bytes: {}…)", "aa".repeat(16))
        );
    }
}
