//! Strings that keep every byte, including garbage after the terminator.
//!
//! Every string has one document, whatever its bytes hold: `{"text": …}`, with `rest` (hex)
//! when bytes follow its terminator and `stored` (hex) when the text and rest do not give the
//! bytes as stored. A plain JSON string is read as `{"text": …}`.

use std::borrow::Cow;
use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::bytes::{ByteBuf, from_hex, to_hex};
use crate::error::{Error, ErrorKind, Result};
use crate::pad::pad_to_multiple;

/// A string stored in exactly N bytes (e.g. a 24-byte name). `text()` is the bytes before the first NUL (all N bytes when there is none).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct FixedStr<const N: usize>([u8; N]);

/// A string whose byte length is decided at read time (by a size field, a terminator or alignment), kept byte for byte, including the terminator and any padding.
#[derive(Clone, PartialEq, Eq, Hash, Default)]
pub struct VarStr(ByteBuf);

#[inline]
fn text_bytes(raw: &[u8]) -> &[u8] {
    match raw.iter().position(|&b| b == 0) {
        Some(i) => raw.get(..i).unwrap_or(raw),
        None => raw,
    }
}

#[inline]
fn after_terminator(raw: &[u8]) -> &[u8] {
    match raw.iter().position(|&b| b == 0) {
        Some(i) => raw.get(i + 1..).unwrap_or_default(),
        None => &[],
    }
}

/// Writes `text` over `buf` in place. Bytes that followed the old terminator stay at their
/// positions unless the new text or its NUL covers them, so stale data survives an edit;
/// leftover bytes of the old text are zeroed so they do not become fake garbage.
/// The caller guarantees `text.len() <= buf.len()`.
fn overwrite_text(buf: &mut [u8], text: &[u8]) {
    let old_end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    for (i, b) in buf.iter_mut().enumerate() {
        if let Some(&c) = text.get(i) {
            *b = c;
        } else if i < old_end || i == text.len() {
            *b = 0;
        }
    }
}

#[cold]
#[inline(never)]
fn encode_error(msg: String) -> Error {
    Error::new(0, ErrorKind::Encode(msg))
}

fn check_no_nul(text: &str) -> Result<()> {
    if text.as_bytes().contains(&0) {
        Err(encode_error(format!("string {text:?} contains a NUL byte")))
    } else {
        Ok(())
    }
}

impl<const N: usize> FixedStr<N> {
    /// Wraps the raw bytes as read.
    #[inline]
    pub const fn from_raw(raw: [u8; N]) -> Self {
        FixedStr(raw)
    }

    /// All N bytes.
    #[inline]
    pub fn as_bytes(&self) -> &[u8; N] {
        &self.0
    }

    /// The bytes before the first NUL.
    #[inline]
    pub fn text_bytes(&self) -> &[u8] {
        text_bytes(&self.0)
    }

    /// The text, with invalid UTF-8 replaced.
    pub fn text(&self) -> Cow<'_, str> {
        String::from_utf8_lossy(self.text_bytes())
    }

    /// Bytes after the terminator (garbage in real files), empty when there is no NUL.
    pub fn after_terminator(&self) -> &[u8] {
        after_terminator(&self.0)
    }

    /// Replaces the text, keeping the bytes after the terminator where they still fit (so
    /// editing a name of equal length changes only the text bytes). Encode error when the
    /// text and its NUL do not fit in N bytes (a text of exactly N bytes is stored without
    /// NUL), or when the text contains a NUL.
    pub fn set_text(&mut self, text: &str) -> Result<()> {
        check_no_nul(text)?;
        if text.len() > N {
            return Err(encode_error(format!(
                "string of {} bytes does not fit in {N} bytes",
                text.len()
            )));
        }
        overwrite_text(&mut self.0, text.as_bytes());
        Ok(())
    }

    /// The text followed by zeros; same limits as [`FixedStr::set_text`].
    pub fn from_text(text: &str) -> Result<Self> {
        let mut s = Self::default();
        s.set_text(text)?;
        Ok(s)
    }
}

impl<const N: usize> Default for FixedStr<N> {
    fn default() -> Self {
        FixedStr([0; N])
    }
}

impl<const N: usize> fmt::Debug for FixedStr<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        debug_str(f, "FixedStr", &self.0)
    }
}

impl VarStr {
    /// Wraps the raw bytes as read.
    #[inline]
    pub fn from_raw(raw: impl Into<ByteBuf>) -> Self {
        VarStr(raw.into())
    }

    /// All bytes, including terminator and padding.
    #[inline]
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }

    /// Gives back the raw bytes.
    #[inline]
    pub fn into_raw(self) -> Vec<u8> {
        self.0.into_vec()
    }

    /// The bytes before the first NUL.
    #[inline]
    pub fn text_bytes(&self) -> &[u8] {
        text_bytes(&self.0)
    }

    /// The text, with invalid UTF-8 replaced.
    pub fn text(&self) -> Cow<'_, str> {
        String::from_utf8_lossy(self.text_bytes())
    }

    /// Bytes after the terminator (padding or garbage), empty when there is no NUL.
    pub fn after_terminator(&self) -> &[u8] {
        after_terminator(&self.0)
    }

    /// Raw length in bytes.
    #[inline]
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are no raw bytes at all.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Replaces the text keeping the raw length and the after-terminator bytes when the new
    /// text fits in the same length; otherwise text + NUL, zero-padded up to a multiple of
    /// `align` (1 = no padding). A text with no room for a NUL only fits when the old bytes
    /// had no NUL either, so a terminated string stays terminated.
    pub fn set_text(&mut self, text: &str, align: usize) {
        let had_nul = self.0.contains(&0);
        let fits = text.len() < self.0.len() || (text.len() == self.0.len() && !had_nul);
        if fits {
            overwrite_text(&mut self.0, text.as_bytes());
        } else {
            *self = Self::from_text(text, align);
        }
    }

    /// The text, a NUL, and zeros up to a multiple of `align`.
    pub fn from_text(text: &str, align: usize) -> Self {
        let len = text.len() + 1;
        let mut raw = Vec::with_capacity(len + pad_to_multiple(len, align));
        raw.extend_from_slice(text.as_bytes());
        raw.resize(len + pad_to_multiple(len, align), 0);
        VarStr(raw.into())
    }
}

impl fmt::Debug for VarStr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        debug_str(f, "VarStr", &self.0)
    }
}

fn debug_str(f: &mut fmt::Formatter<'_>, name: &str, raw: &[u8]) -> fmt::Result {
    let text = String::from_utf8_lossy(text_bytes(raw));
    let after = after_terminator(raw);
    if after.is_empty() {
        write!(f, "{name}({text:?})")
    } else {
        write!(f, "{name}({text:?}, after: {})", to_hex(after))
    }
}

/// What of a string's bytes its text stands for, which decides its document.
#[derive(Clone, Copy)]
enum Kind {
    /// [`FixedStr`] of this many bytes: text, NUL, what follows, zeros to the end.
    Fixed(usize),
    /// [`VarStr`]: text, NUL, what follows.
    Var,
    /// [`Text`]: every byte is text.
    Text,
}

/// The document of every string, whatever its bytes hold: its `text`, with `rest` (hex) when
/// bytes follow the terminator (a fixed string's trailing zeros aside), and `stored` (hex) when
/// writing the text and rest would not give the bytes as stored (text that is not UTF-8, a
/// string without its terminator).
#[derive(Serialize)]
struct StrDocument<'a> {
    text: Cow<'a, str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rest: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stored: Option<String>,
}

impl Kind {
    /// The text's bytes and the bytes after the terminator, trailing zeros of a fixed string
    /// left out; `None` for the rest when there is no terminator.
    fn split(self, raw: &[u8]) -> (&[u8], Option<&[u8]>) {
        if let Kind::Text = self {
            return (raw, None);
        }
        let Some(nul) = raw.iter().position(|&b| b == 0) else {
            return (raw, None);
        };
        let mut rest = raw.get(nul + 1..).unwrap_or_default();
        if let Kind::Fixed(_) = self {
            let kept = rest.iter().rposition(|&b| b != 0).map_or(0, |i| i + 1);
            rest = rest.get(..kept).unwrap_or(rest);
        }
        (raw.get(..nul).unwrap_or(raw), Some(rest))
    }

    fn document(self, raw: &[u8]) -> StrDocument<'_> {
        let (text, rest) = self.split(raw);
        // Without a terminator, only a fixed string's or a text's bytes are its text alone.
        let terminated = rest.is_some() || !matches!(self, Kind::Var);
        let implied = terminated && std::str::from_utf8(text).is_ok();
        StrDocument {
            text: String::from_utf8_lossy(text),
            rest: rest.filter(|r| !r.is_empty()).map(to_hex),
            stored: (!implied).then(|| to_hex(raw)),
        }
    }

    /// The bytes a document gives: `stored` while it still reads as the document's text and
    /// rest, else the text and rest written anew (an edit wins over the bytes it changed).
    fn bytes(self, document: ParsedStr) -> Result<Vec<u8>, String> {
        let ParsedStr { text, rest, stored } = document;
        if let Some(stored) = stored {
            let stored = from_hex(&stored)?;
            let kept = self.document(&stored);
            let same = text.as_deref().is_none_or(|t| t == kept.text)
                && rest.as_deref().unwrap_or_default() == kept.rest.as_deref().unwrap_or_default();
            if same {
                return self.check_len(stored);
            }
        }
        let Some(text) = text else {
            return Err("a string's map needs `text` (or `stored` alone)".into());
        };
        let mut raw = text.into_bytes();
        match self {
            Kind::Text if rest.is_some() => {
                return Err("a text has no `rest`: every byte of it is text".into());
            }
            Kind::Text => return Ok(raw),
            _ if raw.contains(&0) => {
                let text = String::from_utf8_lossy(&raw);
                return Err(format!("string text {text:?} contains a NUL byte"));
            }
            Kind::Fixed(n) if raw.len() == n && rest.is_none() => return Ok(raw),
            _ => {}
        }
        raw.push(0);
        raw.extend_from_slice(&from_hex(rest.as_deref().unwrap_or_default())?);
        if let Kind::Fixed(n) = self {
            if raw.len() > n {
                return Err(format!(
                    "string needs {} bytes but the field holds {n}",
                    raw.len()
                ));
            }
            raw.resize(n, 0);
        }
        Ok(raw)
    }

    /// `raw`, when it is a whole fixed string's.
    fn check_len(self, raw: Vec<u8>) -> Result<Vec<u8>, String> {
        match self {
            Kind::Fixed(n) if raw.len() != n => Err(format!(
                "stored string has {} bytes, expected {n}",
                raw.len()
            )),
            _ => Ok(raw),
        }
    }

    fn deserialize<'de, D: Deserializer<'de>>(self, deserializer: D) -> Result<Vec<u8>, D::Error> {
        let document = deserializer.deserialize_any(StrVisitor)?;
        self.bytes(document).map_err(serde::de::Error::custom)
    }
}

/// The document of a text decoded from bytes in another encoding or frame (what
/// `Decoded<Text>` serializes as): the bytes as stored are kept, since writing the text could
/// store it otherwise.
pub fn decoded_document<'a>(text: &'a Text, rest: &[u8], stored: &[u8]) -> impl Serialize + 'a {
    StrDocument {
        text: text.text(),
        rest: (!rest.is_empty()).then(|| to_hex(rest)),
        stored: (!stored.is_empty()).then(|| to_hex(stored)),
    }
}

/// A string's document as read: a plain string is its text.
#[derive(Default)]
struct ParsedStr {
    text: Option<String>,
    rest: Option<String>,
    stored: Option<String>,
}

/// Reads a [`ParsedStr`], saying what a string's document may be where it is something else
/// (a number for a name).
struct StrVisitor;

impl<'de> serde::de::Visitor<'de> for StrVisitor {
    type Value = ParsedStr;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string, or {\"text\": a string, \"rest\": hex, \"stored\": hex}")
    }

    fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Self::Value, E> {
        self.visit_string(text.to_owned())
    }

    fn visit_string<E>(self, text: String) -> Result<Self::Value, E> {
        Ok(ParsedStr {
            text: Some(text),
            ..ParsedStr::default()
        })
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        use serde::de::Error as _;
        const KEYS: &[&str] = &["text", "rest", "stored"];
        let mut parsed = ParsedStr::default();
        while let Some(key) = map.next_key::<Cow<'de, str>>()? {
            let slot = match &*key {
                "text" => &mut parsed.text,
                "rest" => &mut parsed.rest,
                // `{"raw": hex}`: the bytes alone, as earlier versions' documents gave them.
                "stored" | "raw" => &mut parsed.stored,
                other => return Err(A::Error::unknown_field(other, KEYS)),
            };
            if slot.replace(map.next_value::<String>()?).is_some() {
                return Err(A::Error::custom(format!("`{key}` given twice")));
            }
        }
        Ok(parsed)
    }
}

impl<const N: usize> Serialize for FixedStr<N> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Kind::Fixed(N).document(&self.0).serialize(serializer)
    }
}

impl<'de, const N: usize> Deserialize<'de> for FixedStr<N> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = fixed_str_bytes(deserializer, N)?;
        <[u8; N]>::try_from(raw)
            .map(FixedStr)
            .map_err(|_| serde::de::Error::custom("fixed string has the wrong length"))
    }
}

/// The `len` bytes of a fixed string from its serialized form, as [`FixedStr`] deserializes
/// them: for a size only known at run time (an interpreter's value).
pub fn fixed_str_bytes<'de, D: Deserializer<'de>>(
    deserializer: D,
    len: usize,
) -> Result<Vec<u8>, D::Error> {
    Kind::Fixed(len).deserialize(deserializer)
}

/// The bytes of a [`FixedStr`] whose size is only known at run time (an interpreter's value):
/// serialized and shown (`Debug`) as the [`FixedStr`] of those bytes is.
#[derive(Clone, Copy)]
pub struct FixedStrRef<'a>(pub &'a [u8]);

impl<'a> FixedStrRef<'a> {
    /// The text, with invalid UTF-8 replaced, as [`FixedStr::text`] gives it.
    pub fn text(&self) -> Cow<'a, str> {
        String::from_utf8_lossy(text_bytes(self.0))
    }
}

impl fmt::Debug for FixedStrRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        debug_str(f, "FixedStr", self.0)
    }
}

impl Serialize for FixedStrRef<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Kind::Fixed(self.0.len())
            .document(self.0)
            .serialize(serializer)
    }
}

impl Serialize for VarStr {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Kind::Var.document(&self.0).serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for VarStr {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Kind::Var.deserialize(deserializer).map(VarStr::from_raw)
    }
}

/// A string delimited by its size alone, with no terminator (a length-prefixed name). Every
/// byte is text, NULs included; it serializes as a plain string when it is valid UTF-8.
#[derive(Clone, PartialEq, Eq, Hash, Default)]
pub struct Text(ByteBuf);

impl Text {
    /// Wraps the bytes as read.
    pub fn from_raw(raw: impl Into<ByteBuf>) -> Self {
        Self(raw.into())
    }

    /// The bytes as read.
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }

    /// The text's bytes: all of them.
    pub fn text_bytes(&self) -> &[u8] {
        &self.0
    }

    /// The text, with invalid UTF-8 replaced.
    pub fn text(&self) -> Cow<'_, str> {
        String::from_utf8_lossy(&self.0)
    }

    /// Number of bytes.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Text equals a string when its bytes are that string's (`value.title == "Intro"`).
impl PartialEq<&str> for Text {
    fn eq(&self, other: &&str) -> bool {
        self.0 == other.as_bytes()
    }
}

/// The text, with bytes that are not UTF-8 shown as U+FFFD.
impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text())
    }
}

impl From<&str> for Text {
    fn from(text: &str) -> Self {
        Self(text.as_bytes().into())
    }
}

impl fmt::Debug for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Text({:?})", self.text())
    }
}

impl Serialize for Text {
    fn serialize<S: serde::Serializer>(
        &self,
        serializer: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        Kind::Text.document(&self.0).serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: serde::Deserializer<'de>>(
        deserializer: D,
    ) -> std::result::Result<Self, D::Error> {
        Kind::Text
            .deserialize(deserializer)
            .map(|raw| Self(raw.into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn json_round_trip<T: Serialize + for<'de> Deserialize<'de>>(v: &T) -> (String, T) {
        let json = serde_json::to_string(v).unwrap();
        let back = serde_json::from_str(&json).unwrap();
        (json, back)
    }

    #[test]
    fn a_string_of_the_wrong_shape_says_what_a_string_may_be() {
        let number = serde_json::from_str::<VarStr>("5").unwrap_err().to_string();
        assert!(
            number.contains("invalid type: integer `5`, expected a string, or {\"text\""),
            "{number}"
        );
        let unknown = serde_json::from_str::<VarStr>(r#"{"txt": "a"}"#)
            .unwrap_err()
            .to_string();
        assert!(
            unknown.contains("unknown field `txt`, expected one of `text`, `rest`, `stored`"),
            "{unknown}"
        );
        let twice = serde_json::from_str::<VarStr>(r#"{"stored": "00", "raw": "00"}"#)
            .unwrap_err()
            .to_string();
        assert!(twice.contains("`raw` given twice"), "{twice}");
        let rest = serde_json::from_str::<Text>(r#"{"text": "a", "rest": "00"}"#)
            .unwrap_err()
            .to_string();
        assert!(rest.contains("a text has no `rest`"), "{rest}");
        let text = serde_json::from_str::<Text>("true")
            .unwrap_err()
            .to_string();
        assert!(
            text.contains("invalid type: boolean `true`, expected a string"),
            "{text}"
        );
    }

    #[test]
    fn text_compares_with_strings_and_displays_as_text() {
        let text = Text::from("idle");
        assert_eq!(text, "idle");
        assert_ne!(text, "idl");
        assert_eq!(Text::from_raw(vec![b'a', 0xff]).to_string(), "a\u{fffd}");
    }

    #[test]
    fn text_round_trips_through_json() {
        for raw in [
            b"idle.ska".to_vec(),
            vec![0xff, 0x00, b'a'],
            Vec::new(),
            b"a\0b".to_vec(),
        ] {
            let text = Text::from_raw(raw.clone());
            let json = serde_json::to_string(&text).unwrap();
            let back: Text = serde_json::from_str(&json).unwrap();
            assert_eq!(back.as_bytes(), &raw[..], "{json}");
        }
        let walk = Text::from("walk");
        assert_eq!(serde_json::to_string(&walk).unwrap(), r#"{"text":"walk"}"#);
        assert_eq!(serde_json::from_str::<Text>(r#""walk""#).unwrap(), walk);
    }

    #[test]
    fn fixed_text_and_after_terminator() {
        let s = FixedStr::<8>::from_raw(*b"abc\0xy\0\0");
        assert_eq!(s.text(), "abc");
        assert_eq!(s.text_bytes(), b"abc");
        assert_eq!(s.after_terminator(), b"xy\0\0");
        let full = FixedStr::<4>::from_raw(*b"abcd");
        assert_eq!(full.text(), "abcd");
        assert_eq!(full.after_terminator(), b"");
        assert_eq!(FixedStr::<4>::default().text(), "");
        assert_eq!(format!("{s:?}"), r#"FixedStr("abc", after: 78790000)"#);
        assert_eq!(format!("{full:?}"), r#"FixedStr("abcd")"#);
    }

    #[test]
    fn fixed_set_text_keeps_garbage() {
        let mut s = FixedStr::<10>::from_raw(*b"name\0junk!");
        s.set_text("lame").unwrap();
        assert_eq!(s.as_bytes(), b"lame\0junk!");
        s.set_text("ab").unwrap();
        assert_eq!(s.as_bytes(), b"ab\0\0\0junk!");
        s.set_text("longer").unwrap();
        assert_eq!(s.as_bytes(), b"longer\0nk!");
        s.set_text("0123456789").unwrap();
        assert_eq!(s.as_bytes(), b"0123456789");
        assert!(s.set_text("0123456789a").is_err());
        assert!(s.set_text("a\0b").is_err());
        assert_eq!(s.as_bytes(), b"0123456789");
        assert_eq!(
            FixedStr::<4>::from_text("hi").unwrap().as_bytes(),
            b"hi\0\0"
        );
        assert!(FixedStr::<2>::from_text("hey").is_err());
    }

    #[test]
    fn var_set_text() {
        let mut s = VarStr::from_raw(b"bone\0\xcd\xcd\xcd".to_vec());
        s.set_text("b2", 4);
        assert_eq!(s.as_bytes(), b"b2\0\0\0\xcd\xcd\xcd");
        s.set_text("longer!", 4);
        assert_eq!(s.as_bytes(), b"longer!\0");
        s.set_text("much longer", 4);
        assert_eq!(s.as_bytes(), b"much longer\0");
        s.set_text("much longer!", 4);
        assert_eq!(s.as_bytes(), b"much longer!\0\0\0\0");
        // Without a terminator, an equal-length text stays unterminated.
        let mut s = VarStr::from_raw(b"abcd".to_vec());
        s.set_text("wxyz", 1);
        assert_eq!(s.as_bytes(), b"wxyz");
        assert_eq!(VarStr::from_text("abc", 1).as_bytes(), b"abc\0");
        assert_eq!(VarStr::from_text("", 4).as_bytes(), b"\0\0\0\0");
        assert_eq!(VarStr::from_text("abcd", 4).len(), 8);
    }

    /// One document shape per string, whatever its bytes hold.
    #[test]
    fn serde_forms() {
        fn json<T: Serialize>(value: &T) -> String {
            serde_json::to_string(value).unwrap()
        }
        let plain = FixedStr::<8>::from_text("root").unwrap();
        assert_eq!(json(&plain), r#"{"text":"root"}"#);
        let junk = FixedStr::<8>::from_raw(*b"root\0x\0\0");
        assert_eq!(json(&junk), r#"{"text":"root","rest":"78"}"#);
        let bad = FixedStr::<4>::from_raw([0xff, 0, 0, 0]);
        assert_eq!(
            json(&bad),
            "{\"text\":\"\u{fffd}\",\"stored\":\"ff000000\"}"
        );
        let full = FixedStr::<4>::from_raw(*b"abcd");
        assert_eq!(json(&full), r#"{"text":"abcd"}"#);

        assert_eq!(json(&VarStr::from_text("hi", 1)), r#"{"text":"hi"}"#);
        assert_eq!(
            json(&VarStr::from_text("hi", 4)),
            r#"{"text":"hi","rest":"00"}"#
        );
        // No terminator: writing the text would add one.
        assert_eq!(
            json(&VarStr::from_raw(b"hi".to_vec())),
            r#"{"text":"hi","stored":"6869"}"#
        );

        // A plain string is a text alone; `stored` is written while it reads as the text.
        let read = |s: &str| serde_json::from_str::<VarStr>(s).map(|v| v.into_raw());
        assert_eq!(read(r#""hi""#).unwrap(), b"hi\0");
        assert_eq!(read(r#"{"text":"hi","stored":"6869"}"#).unwrap(), b"hi");
        assert_eq!(read(r#"{"raw":"6869"}"#).unwrap(), b"hi");
        // An edited text wins over the bytes it was stored as.
        assert_eq!(read(r#"{"text":"ho","stored":"6869"}"#).unwrap(), b"ho\0");
        assert_eq!(
            read(r#"{"text":"hi","rest":"01","stored":"6869"}"#).unwrap(),
            b"hi\0\x01"
        );

        assert!(serde_json::from_str::<FixedStr<3>>(r#""abcd""#).is_err());
        assert!(serde_json::from_str::<FixedStr<3>>(r#"{"stored":"00"}"#).is_err());
        assert!(serde_json::from_str::<FixedStr<3>>(r#"{"text":"a","rest":"0102"}"#).is_err());
        assert!(serde_json::from_str::<VarStr>(r#""a\u0000""#).is_err());
        assert!(serde_json::from_str::<VarStr>(r#"{"stored":"0"}"#).is_err());
        assert!(serde_json::from_str::<VarStr>(r#"{"rest":"00"}"#).is_err());
        let yaml: FixedStr<8> = serde_yaml::from_str("text: root\nrest: '78'\n").unwrap();
        assert_eq!(yaml, junk);
    }

    fn arb_raw() -> impl Strategy<Value = Vec<u8>> {
        // Mostly text-like bytes with NULs and some high bytes, so every form is exercised.
        proptest::collection::vec(
            prop_oneof![4 => b'a'..=b'z', 2 => Just(0u8), 1 => any::<u8>()],
            0..12,
        )
    }

    proptest! {
        #[test]
        fn fixed_str_serde_round_trip(raw in proptest::array::uniform8(prop_oneof![4 => b'a'..=b'z', 2 => Just(0u8), 1 => any::<u8>()])) {
            let s = FixedStr::<8>::from_raw(raw);
            let (json, back) = json_round_trip(&s);
            prop_assert_eq!(back, s, "{}", json);
            let yaml = serde_yaml::to_string(&s).unwrap();
            prop_assert_eq!(serde_yaml::from_str::<FixedStr<8>>(&yaml).unwrap(), s);
        }

        #[test]
        fn var_str_serde_round_trip(raw in arb_raw()) {
            let s = VarStr::from_raw(raw);
            let (json, back) = json_round_trip(&s);
            prop_assert_eq!(&back, &s, "{}", json);
            let yaml = serde_yaml::to_string(&s).unwrap();
            prop_assert_eq!(serde_yaml::from_str::<VarStr>(&yaml).unwrap(), s);
        }

        #[test]
        fn fixed_set_text_touches_only_text_and_old_text(raw in proptest::array::uniform8(any::<u8>()), text in "[a-z]{0,8}") {
            let mut s = FixedStr::<8>::from_raw(raw);
            let old_end = raw.iter().position(|&b| b == 0).unwrap_or(8);
            s.set_text(&text).unwrap();
            prop_assert_eq!(s.text(), text.as_str());
            let kept = (text.len() + 1).max(old_end);
            prop_assert_eq!(s.as_bytes().get(kept..), raw.get(kept..));
        }
    }
}
