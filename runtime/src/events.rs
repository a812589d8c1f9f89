//! A value as the events of its JSON form (`{`, a key, a scalar's text, `}`), reported as it
//! is serialized: what `decode --summary` and `decode --path` consume, so that they hold
//! neither the document's text nor its tree, and need no second thread to read it back.

use serde::ser::{self, Serialize};

/// What a value's JSON form is made of, in order. Enum variants arrive as serde_json writes
/// them: a unit variant as its name, the others as a map of one key.
pub trait Events {
    /// A number, boolean or null, as its compact JSON text (`0.7071068`).
    fn scalar(&mut self, json: &str);
    /// A string, as it is (a byte string is its hex digits): not copied, however long.
    fn string(&mut self, text: &str);
    /// A map starts; its entries follow as a key, then the value.
    fn begin_map(&mut self);
    /// The key of the next entry of the innermost map.
    fn key(&mut self, key: &str);
    /// A list starts; its elements follow. `len` is their number, when the value says.
    fn begin_seq(&mut self, len: Option<usize>);
    /// The innermost map or list ends.
    fn end(&mut self);
}

/// Hands `text` to `out` as a JSON string, in pieces: quoted, and escaped as serde_json
/// escapes it, without making the whole text.
pub fn escaped(text: &str, out: &mut dyn FnMut(&str)) {
    out("\"");
    let mut plain = 0;
    for (at, byte) in text.bytes().enumerate() {
        let escape: std::borrow::Cow<str> = match byte {
            b'"' => "\\\"".into(),
            b'\\' => "\\\\".into(),
            b'\n' => "\\n".into(),
            b'\r' => "\\r".into(),
            b'\t' => "\\t".into(),
            0x08 => "\\b".into(),
            0x0c => "\\f".into(),
            0..0x20 => format!("\\u{byte:04x}").into(),
            _ => continue,
        };
        out(&text[plain..at]);
        out(&escape);
        plain = at + 1;
    }
    out(&text[plain..]);
    out("\"");
}

/// Why a value has no JSON form (a map key that is not a string or a number).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct EventError(String);

impl ser::Error for EventError {
    fn custom<T: std::fmt::Display>(message: T) -> Self {
        EventError(message.to_string())
    }
}

/// Reports the events of `value`'s JSON form to `events`.
pub fn serialize_into<T: Serialize + ?Sized>(
    value: &T,
    events: &mut dyn Events,
) -> Result<(), EventError> {
    value.serialize(&mut Emitter {
        events,
        text: Vec::new(),
    })
}

/// The serializer behind [`serialize_into`]; `text` is reused for each scalar's JSON text.
struct Emitter<'e> {
    events: &'e mut dyn Events,
    text: Vec<u8>,
}

impl Emitter<'_> {
    fn scalar<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), EventError> {
        self.text.clear();
        serde_json::to_writer(&mut self.text, value).map_err(ser::Error::custom)?;
        // serde_json writes UTF-8.
        self.events
            .scalar(std::str::from_utf8(&self.text).unwrap_or_default());
        Ok(())
    }

    /// The map of one key that holds a variant's content.
    fn variant(&mut self, variant: &str) {
        self.events.begin_map();
        self.events.key(variant);
    }
}

macro_rules! scalars {
    ($($method:ident: $ty:ty),* $(,)?) => {
        $(fn $method(self, v: $ty) -> Result<(), EventError> {
            self.scalar(&v)
        })*
    };
}

impl ser::Serializer for &mut Emitter<'_> {
    type Ok = ();
    type Error = EventError;
    type SerializeSeq = Self;
    type SerializeTuple = Self;
    type SerializeTupleStruct = Self;
    type SerializeTupleVariant = Self;
    type SerializeMap = Self;
    type SerializeStruct = Self;
    type SerializeStructVariant = Self;

    scalars! {
        serialize_bool: bool, serialize_i8: i8, serialize_i16: i16, serialize_i32: i32,
        serialize_i64: i64, serialize_i128: i128, serialize_u8: u8, serialize_u16: u16,
        serialize_u32: u32, serialize_u64: u64, serialize_u128: u128, serialize_f32: f32,
        serialize_f64: f64,
    }

    fn serialize_char(self, v: char) -> Result<(), EventError> {
        self.events.string(v.encode_utf8(&mut [0; 4]));
        Ok(())
    }

    fn serialize_str(self, v: &str) -> Result<(), EventError> {
        self.events.string(v);
        Ok(())
    }

    fn serialize_bytes(self, v: &[u8]) -> Result<(), EventError> {
        // As serde_json writes bytes: a list of numbers.
        self.events.begin_seq(Some(v.len()));
        for byte in v {
            self.scalar(byte)?;
        }
        self.events.end();
        Ok(())
    }

    fn serialize_none(self) -> Result<(), EventError> {
        self.scalar(&())
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), EventError> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<(), EventError> {
        self.scalar(&())
    }

    fn serialize_unit_struct(self, _: &'static str) -> Result<(), EventError> {
        self.scalar(&())
    }

    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<(), EventError> {
        self.events.string(variant);
        Ok(())
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), EventError> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), EventError> {
        self.variant(variant);
        value.serialize(&mut *self)?;
        self.events.end();
        Ok(())
    }

    fn serialize_seq(self, len: Option<usize>) -> Result<Self, EventError> {
        self.events.begin_seq(len);
        Ok(self)
    }

    fn serialize_tuple(self, len: usize) -> Result<Self, EventError> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<Self, EventError> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self, EventError> {
        self.variant(variant);
        self.serialize_seq(Some(len))
    }

    fn serialize_map(self, _: Option<usize>) -> Result<Self, EventError> {
        self.events.begin_map();
        Ok(self)
    }

    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self, EventError> {
        self.serialize_map(None)
    }

    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Self, EventError> {
        self.variant(variant);
        self.serialize_map(None)
    }
}

impl ser::SerializeMap for &mut Emitter<'_> {
    type Ok = ();
    type Error = EventError;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), EventError> {
        // serde_json's rule: string keys, and numbers and booleans written as strings.
        match serde_json::to_value(key).map_err(ser::Error::custom)? {
            serde_json::Value::String(key) => self.events.key(&key),
            serde_json::Value::Number(n) => self.events.key(&n.to_string()),
            serde_json::Value::Bool(b) => self.events.key(&b.to_string()),
            other => {
                return Err(EventError(format!(
                    "a map key must be a string, not {other}"
                )));
            }
        }
        Ok(())
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), EventError> {
        value.serialize(&mut **self)
    }

    fn end(self) -> Result<(), EventError> {
        self.events.end();
        Ok(())
    }
}

/// The compound values serde builds element by element: lists of every kind, and structures
/// (maps with a key per field). Each ends with `$ends` ends: a variant's content is closed
/// with the map of one key around it.
macro_rules! compounds {
    ($($kind:ident ends $ends:literal, fn $method:ident(&mut $this:ident, $($arg:ident: $ty:ty),*) $body:block)*) => {$(
        impl ser::$kind for &mut Emitter<'_> {
            type Ok = ();
            type Error = EventError;

            fn $method<T: Serialize + ?Sized>(&mut $this, $($arg: $ty),*) -> Result<(), EventError> $body

            fn end(self) -> Result<(), EventError> {
                for _ in 0..$ends {
                    self.events.end();
                }
                Ok(())
            }
        }
    )*};
}

compounds! {
    SerializeSeq ends 1, fn serialize_element(&mut self, value: &T) { value.serialize(&mut **self) }
    SerializeTuple ends 1, fn serialize_element(&mut self, value: &T) { value.serialize(&mut **self) }
    SerializeTupleStruct ends 1, fn serialize_field(&mut self, value: &T) { value.serialize(&mut **self) }
    SerializeTupleVariant ends 2, fn serialize_field(&mut self, value: &T) { value.serialize(&mut **self) }
    SerializeStruct ends 1, fn serialize_field(&mut self, key: &'static str, value: &T) {
        self.events.key(key);
        value.serialize(&mut **self)
    }
    SerializeStructVariant ends 2, fn serialize_field(&mut self, key: &'static str, value: &T) {
        self.events.key(key);
        value.serialize(&mut **self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The compact JSON text the events describe, written back.
    #[derive(Default)]
    struct Text {
        out: String,
        /// Per open map or list: its closing bracket, and whether an entry was written.
        open: Vec<(char, bool)>,
    }

    impl Text {
        /// A comma before every entry of a container but its first; a map's value follows
        /// its key without one.
        fn element(&mut self) {
            if self.out.ends_with(':') {
                return;
            }
            if let Some((_, written)) = self.open.last_mut()
                && std::mem::replace(written, true)
            {
                self.out.push(',');
            }
        }

        fn open(&mut self, opening: char, closing: char) {
            self.element();
            self.out.push(opening);
            self.open.push((closing, false));
        }
    }

    impl Events for Text {
        fn scalar(&mut self, json: &str) {
            self.element();
            self.out.push_str(json);
        }
        fn string(&mut self, text: &str) {
            self.element();
            escaped(text, &mut |piece| self.out.push_str(piece));
        }
        fn begin_map(&mut self) {
            self.open('{', '}');
        }
        fn key(&mut self, key: &str) {
            self.element();
            escaped(key, &mut |piece| self.out.push_str(piece));
            self.out.push(':');
        }
        fn begin_seq(&mut self, _: Option<usize>) {
            self.open('[', ']');
        }
        fn end(&mut self) {
            let (closing, _) = self.open.pop().unwrap();
            self.out.push(closing);
        }
    }

    #[derive(serde::Serialize)]
    enum Shape {
        Unit,
        New(u8),
        Pair(u8, i8),
        Named { a: f32 },
    }

    #[derive(serde::Serialize)]
    struct Sample {
        shapes: Vec<Shape>,
        name: &'static str,
        missing: Option<u8>,
        map: std::collections::BTreeMap<u16, bool>,
        bytes: serde_bytes_like::Bytes,
        float: f32,
    }

    mod serde_bytes_like {
        /// Bytes that serialize through `serialize_bytes`.
        pub struct Bytes(pub Vec<u8>);
        impl serde::Serialize for Bytes {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_bytes(&self.0)
            }
        }
    }

    #[test]
    fn the_events_of_a_value_spell_its_compact_json() {
        let sample = Sample {
            shapes: vec![
                Shape::Unit,
                Shape::New(7),
                Shape::Pair(1, -2),
                Shape::Named { a: 0.5 },
            ],
            name: "a \"quoted\" [name]\\ with\n\t\u{1}\u{7f}é and 🦀",
            missing: None,
            map: [(3, true), (10, false)].into_iter().collect(),
            bytes: serde_bytes_like::Bytes(vec![1, 255]),
            float: std::f32::consts::FRAC_1_SQRT_2,
        };
        let mut text = Text::default();
        serialize_into(&sample, &mut text).unwrap();
        assert_eq!(text.out, serde_json::to_string(&sample).unwrap());
        assert!(
            text.out.contains("0.70710677"),
            "an f32 keeps its own digits"
        );
    }
}
