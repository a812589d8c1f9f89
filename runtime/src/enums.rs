//! How a document names a value of a schema's enum: by its name (`clump`), or by its number,
//! which becomes the named variant where the schema names it. A name the enum does not have is
//! refused with the names it has.

use std::fmt;

use serde::Deserializer;
use serde::de::{Error, Visitor};

/// An enum of a schema, as the generated code defines it.
pub trait SchemaEnum: Sized {
    /// The names of its values, as documents write them.
    const NAMES: &'static [&'static str];
    /// The value of a name, when the enum has it.
    fn from_name(name: &str) -> Option<Self>;
    /// The variant for a stored number (named or not).
    fn from_number(raw: i64) -> Self;
}

/// Reads a value of `E` from a document: a name of it, or a number.
pub fn deserialize<'de, E: SchemaEnum, D: Deserializer<'de>>(d: D) -> Result<E, D::Error> {
    match name_or_number(E::NAMES, d)? {
        NameOrNumber::Name(i) => E::from_name(E::NAMES[i])
            .ok_or_else(|| D::Error::unknown_variant(E::NAMES[i], E::NAMES)),
        NameOrNumber::Number(raw) => Ok(E::from_number(raw)),
    }
}

/// A value of an enum in a document, as [`name_or_number`] reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameOrNumber {
    /// One of its names: the index among them.
    Name(usize),
    /// A number, named or not.
    Number(i64),
}

/// Reads a value of an enum whose names are `names` from a document: a name of it, or a
/// number. The generated enums and the interpreter read them so, with the same errors.
pub fn name_or_number<'de, D: Deserializer<'de>>(
    names: &'static [&'static str],
    d: D,
) -> Result<NameOrNumber, D::Error> {
    d.deserialize_any(Names(names))
}

/// The visitor of [`name_or_number`].
struct Names(&'static [&'static str]);

impl Visitor<'_> for Names {
    type Value = NameOrNumber;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "one of the names {} or a number", self.0.join(", "))
    }

    fn visit_i64<X: Error>(self, raw: i64) -> Result<NameOrNumber, X> {
        Ok(NameOrNumber::Number(raw))
    }

    fn visit_u64<X: Error>(self, raw: u64) -> Result<NameOrNumber, X> {
        i64::try_from(raw)
            .map(NameOrNumber::Number)
            .map_err(|_| X::custom(format!("{raw} is past the numbers an enum holds")))
    }

    fn visit_str<X: Error>(self, name: &str) -> Result<NameOrNumber, X> {
        (self.0.iter().position(|n| *n == name))
            .map(NameOrNumber::Name)
            .ok_or_else(|| X::unknown_variant(name, self.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq)]
    enum Kind {
        Clump,
        Frame,
        Unknown(i64),
    }

    impl SchemaEnum for Kind {
        const NAMES: &'static [&'static str] = &["clump", "frame"];
        fn from_name(name: &str) -> Option<Self> {
            match name {
                "clump" => Some(Kind::Clump),
                "frame" => Some(Kind::Frame),
                _ => None,
            }
        }
        fn from_number(raw: i64) -> Self {
            match raw {
                16 => Kind::Clump,
                14 => Kind::Frame,
                other => Kind::Unknown(other),
            }
        }
    }

    fn read(json: &str) -> Result<Kind, String> {
        deserialize(&mut serde_json::Deserializer::from_str(json)).map_err(|e| e.to_string())
    }

    #[test]
    fn names_and_numbers_read_and_other_names_are_refused_with_the_names() {
        assert_eq!(read("\"frame\""), Ok(Kind::Frame));
        assert_eq!(read("16"), Ok(Kind::Clump));
        assert_eq!(read("7"), Ok(Kind::Unknown(7)));
        let error = read("\"rot_comp\"").unwrap_err();
        assert!(
            error.contains("unknown variant `rot_comp`, expected `clump` or `frame`"),
            "{error}"
        );
        let error = read("true").unwrap_err();
        assert!(
            error.contains("expected one of the names clump, frame or a number"),
            "{error}"
        );
    }
}
