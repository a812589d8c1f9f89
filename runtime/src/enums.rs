//! How a document names a value of a schema's enum: by its name (`clump`), or by its number,
//! which becomes the named variant where the schema names it. A name the enum does not have is
//! refused with the names it has.

use std::fmt;
use std::marker::PhantomData;

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
    d.deserialize_any(NameOrNumber(PhantomData))
}

struct NameOrNumber<E>(PhantomData<E>);

impl<E: SchemaEnum> Visitor<'_> for NameOrNumber<E> {
    type Value = E;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "one of the names {} or a number", E::NAMES.join(", "))
    }

    fn visit_i64<X: Error>(self, raw: i64) -> Result<E, X> {
        Ok(E::from_number(raw))
    }

    fn visit_u64<X: Error>(self, raw: u64) -> Result<E, X> {
        i64::try_from(raw)
            .map(E::from_number)
            .map_err(|_| X::custom(format!("{raw} is past the numbers an enum holds")))
    }

    fn visit_str<X: Error>(self, name: &str) -> Result<E, X> {
        E::from_name(name).ok_or_else(|| X::unknown_variant(name, E::NAMES))
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
