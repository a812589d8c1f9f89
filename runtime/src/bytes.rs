//! Opaque byte blobs and hex helpers.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Raw bytes kept as read: unknown or stale data. Serializes as a lowercase hex string.
#[derive(Clone, PartialEq, Eq, Hash, Default)]
pub struct RawBytes(pub Vec<u8>);

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

/// The bytes of a value read up to `terminator`, as expressions see them: up to the first
/// terminator, which only `include` keeps. The value itself keeps the terminator it consumed,
/// so that writing it back reproduces the input.
#[inline]
pub fn until_terminator(raw: &[u8], terminator: u8, include: bool) -> &[u8] {
    match raw.iter().position(|&b| b == terminator) {
        Some(i) => raw.get(..i + usize::from(include)).unwrap_or(raw),
        None => raw,
    }
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
    fn terminated_values_end_at_their_first_terminator() {
        assert_eq!(until_terminator(b"foo|", b'|', false), b"foo");
        assert_eq!(until_terminator(b"foo|", b'|', true), b"foo|");
        assert_eq!(until_terminator(b"foo", b'|', false), b"foo");
        assert_eq!(until_terminator(b"|a|", b'|', false), b"");
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
