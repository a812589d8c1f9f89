//! The words of the expression language's errors, written once: the checker reports them when
//! it compiles a schema and the interpreter when it evaluates one at run time, so that a schema
//! fails with the same text whichever back end runs it.

use std::fmt::{self, Display};

/// A kind of value, as a message names it ("expected an integer").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// An integer.
    Integer,
    /// A floating-point number.
    Float,
    /// `true` or `false`.
    Boolean,
    /// Text.
    String,
    /// A run of bytes.
    Bytes,
    /// A value of an enum.
    EnumValue,
    /// A value of a user type.
    Structure,
    /// A list of values.
    List,
}

impl Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Kind::Integer => "an integer",
            Kind::Float => "a float",
            Kind::Boolean => "a boolean",
            Kind::String => "a string",
            Kind::Bytes => "bytes",
            Kind::EnumValue => "an enum value",
            Kind::Structure => "a structure",
            Kind::List => "a list",
        })
    }
}

/// An expression of the wrong kind where one of `kind` is needed.
pub fn expected(kind: Kind, found: impl Display) -> String {
    format!("expected {kind}, found {found}")
}

/// An arithmetic operator (`op`, as written: `+`) given operands that are not numbers.
pub fn needs_numbers(op: &str, left: impl Display, right: impl Display) -> String {
    format!("`{op}` needs numbers, found {left} and {right}")
}

/// An operator that only integers have (`%`, `<<`, `&`) given floats.
pub fn needs_integers(op: &str) -> String {
    format!("`{op}` needs integers")
}

/// An integer literal beyond what 64 bits hold, signed or not.
pub fn too_wide(n: i128) -> String {
    format!("{n} does not fit in 64 bits")
}

/// A comparison of values that do not compare.
pub fn cannot_compare(left: impl Display, right: impl Display) -> String {
    format!("cannot compare {left} with {right}")
}

/// A field used while reading before it is read.
pub fn not_read_yet(name: &str) -> String {
    format!(
        "`{name}` is not read yet at this point: an expression can only use fields that come before it"
    )
}

/// A switch's case named `name` where the switch has none of that name.
pub fn no_such_case(name: &str) -> String {
    format!("the switch has no case `{name}`")
}

/// Text in an encoding Kaitai does not know, by its label.
pub fn unknown_encoding(label: &str) -> String {
    format!("unknown encoding `{label}`")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_kinds_with_their_article() {
        assert_eq!(
            expected(Kind::Integer, Kind::List),
            "expected an integer, found a list"
        );
        assert_eq!(
            needs_numbers("+", Kind::String, Kind::EnumValue),
            "`+` needs numbers, found a string and an enum value"
        );
        assert_eq!(
            too_wide(1 << 64),
            "18446744073709551616 does not fit in 64 bits"
        );
    }
}
