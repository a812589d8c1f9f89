//! Opaque byte blobs and hex helpers.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Raw bytes kept as read: unknown or stale data. Serializes as a lowercase hex string.
#[derive(Clone, PartialEq, Eq, Hash, Default)]
pub struct RawBytes(pub Vec<u8>);

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
        from_hex(&s).map(RawBytes).map_err(serde::de::Error::custom)
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

/// `text.to_i(radix)`: the integer a whole string spells in `radix` (2 to 36), with an optional
/// sign. Expressions cannot fail: text that is not such a number, or a radix out of range,
/// gives 0.
pub fn parse_int(text: &[u8], radix: i64) -> i64 {
    let Ok(radix) = u32::try_from(radix) else {
        return 0;
    };
    if !(2..=36).contains(&radix) {
        return 0;
    }
    std::str::from_utf8(text)
        .ok()
        .and_then(|t| i64::from_str_radix(t, radix).ok())
        .unwrap_or(0)
}

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
    fn string_operations_of_expressions() {
        assert_eq!(concat(b"ab".as_slice(), &b"cd".to_vec()), b"abcd");
        assert_eq!(decimal(-42), b"-42");
        assert_eq!(parse_int(b"-072", 10), -72);
        assert_eq!(parse_int(b"1010110", 2), 86);
        assert_eq!(parse_int(b"47cf", 16), 0x47cf);
        assert_eq!(parse_int(b"12a", 10), 0, "not a whole number");
        assert_eq!(parse_int(b"1", 99), 0, "radix out of range");
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
        let b = RawBytes(vec![1, 2, 255]);
        assert_eq!(serde_json::to_string(&b).unwrap(), r#""0102ff""#);
        assert_eq!(serde_json::from_str::<RawBytes>(r#""0102ff""#).unwrap(), b);
        assert_eq!(format!("{b:?}"), "RawBytes(3 bytes: 0102ff)");
        let long = RawBytes(vec![0xaa; 20]);
        assert_eq!(
            format!("{long:?}"),
            format!("RawBytes(20 bytes: {}…)", "aa".repeat(16))
        );
    }
}
