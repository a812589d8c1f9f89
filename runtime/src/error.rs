//! Decode and encode errors with an absolute offset and a field path.

use std::fmt;

/// One step of a field path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathSegment {
    /// A named field of a structure.
    Field(&'static str),
    /// An element of a repeated field.
    Index(usize),
    /// A path found at run time (`chunks[0].body`), as a document spells it.
    Rendered(String),
}

/// The `valid` rules, as Kaitai names the errors that break them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ValidationRule {
    /// `eq`: `ValidationNotEqualError`.
    NotEqual,
    /// `min`: `ValidationLessThanError`.
    LessThan,
    /// `max`: `ValidationGreaterThanError`.
    GreaterThan,
    /// `any-of`: `ValidationNotAnyOfError`.
    NotAnyOf,
    /// `in-enum`: `ValidationNotInEnumError`.
    NotInEnum,
    /// `expr`: `ValidationExprError`.
    Expr,
}

impl ValidationRule {
    /// The name of Kaitai's exception for a value that breaks this rule.
    pub fn kaitai_name(self) -> &'static str {
        match self {
            ValidationRule::NotEqual => "ValidationNotEqualError",
            ValidationRule::LessThan => "ValidationLessThanError",
            ValidationRule::GreaterThan => "ValidationGreaterThanError",
            ValidationRule::NotAnyOf => "ValidationNotAnyOfError",
            ValidationRule::NotInEnum => "ValidationNotInEnumError",
            ValidationRule::Expr => "ValidationExprError",
        }
    }
}

/// What went wrong, independent of where. New kinds may come in any release: match the ones
/// to treat apart, and [`ErrorKind::is_encode`] for reading against writing.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input ended before a read could complete.
    #[error("expected {needed} more bytes, {available} remain")]
    UnexpectedEof {
        /// Bytes the read needed.
        needed: u64,
        /// Bytes that were left.
        available: u64,
    },
    /// A fixed magic or `contents` field did not match.
    #[error("expected bytes {expected:02x?}, found {found:02x?}")]
    BadContents {
        /// The bytes the schema requires.
        expected: Vec<u8>,
        /// The bytes in the input.
        found: Vec<u8>,
    },
    /// A switch value matched none of the known cases.
    #[error("no case for {value}; expected one of {expected}")]
    UnknownCase {
        /// The value that was read.
        value: String,
        /// A human-readable list of the accepted values.
        expected: String,
    },
    /// No case of a `meta/endian` switch matched its selector.
    #[error("no byte order for {value}: the `meta/endian` switch has no case for it")]
    UndecidedEndianness {
        /// The selector's value.
        value: String,
    },
    /// A repeat count cannot possibly fit in the remaining input.
    #[error("count {count} of {elem_size}-byte elements exceeds the {remaining} bytes that remain")]
    CountTooLarge {
        /// The element count that was read.
        count: u64,
        /// The size of one element in bytes.
        elem_size: u64,
        /// Bytes left in the input.
        remaining: u64,
    },
    /// A value broke a `valid` rule of its schema.
    #[error("{message}")]
    Validation {
        /// Which rule.
        rule: ValidationRule,
        /// What was expected and what was found.
        message: String,
    },
    /// A value read by position is the one being read around it (the same type at the same
    /// position of the same stream): a cycle, which reading does not follow.
    #[error("the same value as the one being read around it at byte {offset} (a cycle)")]
    Cycle {
        /// Where that value starts.
        offset: u64,
    },
    /// Any other violation of the format.
    #[error("{0}")]
    Invalid(String),
    /// A value could not be written in the format.
    #[error("cannot encode: {0}")]
    Encode(String),
    /// A field is absent where its `if` condition holds, or present where it does not: the
    /// reader of the written file would not find it, or would find what is not there.
    #[error(
        "cannot encode: {}",
        match present {
            true => "present, but its `if` condition does not hold",
            false => "missing, but its `if` condition holds",
        }
    )]
    ConditionMismatch {
        /// Whether the value holds the field.
        present: bool,
    },
    /// A switch's value holds another case than the one its selector calls for.
    #[error(
        "cannot encode: `{selector}` calls for the case `{called}`, but the value holds `{held}`"
    )]
    CaseMismatch {
        /// The selector, as the schema writes it (`frame_type`).
        selector: Box<str>,
        /// The case the selector calls for.
        called: Box<str>,
        /// The case the value holds.
        held: Box<str>,
    },
    /// A switch's selector matches none of its cases, so no value can be written for it.
    #[error("cannot encode: the selector matches no case")]
    NoCaseMatches,
    /// A value keeps an argument it was read with (`-keep`) which is not the one it is
    /// written with: read back, it would have the new one.
    #[error(
        "cannot encode: this value keeps the argument {read} it was read with, but is written with {written}: set it to the new one"
    )]
    KeptArgumentChanged {
        /// The argument as read, as `Debug` shows it.
        read: String,
        /// The argument it is written with, as `Debug` shows it.
        written: String,
    },
}

impl ErrorKind {
    /// Whether a value cannot be written as it is (it would not read back as itself), rather
    /// than input that cannot be read.
    pub fn is_encode(&self) -> bool {
        matches!(
            self,
            ErrorKind::Encode(_)
                | ErrorKind::ConditionMismatch { .. }
                | ErrorKind::CaseMismatch { .. }
                | ErrorKind::NoCaseMatches
                | ErrorKind::KeptArgumentChanged { .. }
        )
    }
}

/// A decode or encode failure: where (absolute byte offset, field path) and what was expected.
#[derive(Clone, PartialEq)]
pub struct Error {
    offset: u64,
    /// Innermost first, because segments are added while the error unwinds outwards and
    /// pushing is cheaper than inserting at the front.
    path: Vec<PathSegment>,
    kind: ErrorKind,
}

impl Error {
    /// An error at an absolute byte offset, with an empty path.
    #[cold]
    #[inline(never)]
    pub fn new(offset: u64, kind: ErrorKind) -> Self {
        Error {
            offset,
            path: Vec::new(),
            kind,
        }
    }

    /// The absolute byte offset where the failing read or write began.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }

    /// Prepend a field name to the path as the error propagates outwards (generated code calls this in map_err).
    #[cold]
    #[inline(never)]
    pub fn in_field(mut self, name: &'static str) -> Self {
        self.path.push(PathSegment::Field(name));
        self
    }

    /// Prepend an element index.
    #[cold]
    #[inline(never)]
    pub fn at_index(mut self, index: usize) -> Self {
        self.path.push(PathSegment::Index(index));
        self
    }

    /// Prepend a path found at run time, such as where two documents differ.
    #[cold]
    #[inline(never)]
    pub fn in_path(mut self, path: String) -> Self {
        if !path.is_empty() {
            self.path.push(PathSegment::Rendered(path));
        }
        self
    }

    /// True when no field name has been added yet.
    pub fn has_no_path(&self) -> bool {
        self.path.is_empty()
    }

    /// The path rendered outermost-first like `animations[17].objects[3].frames` ("" for the root).
    pub fn path(&self) -> String {
        render_path(self.path.iter().rev())
    }
}

/// As [`Display`](fmt::Display) shows it, outermost field first: what `main` returning a
/// `Result` prints (`Error: at byte 12, chunks[0].body: …`).
impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "at byte {}: {}", self.offset, self.kind)
        } else {
            write!(f, "at byte {}, {}: {}", self.offset, self.path(), self.kind)
        }
    }
}

impl std::error::Error for Error {}

/// An error as [`Display`](fmt::Display) showed it (`at byte 12, chunks[0].body: …`), as a
/// document gives a failed instance back: the offset and path as shown, what went wrong as
/// its text. It shows as it was shown.
impl std::str::FromStr for Error {
    type Err = String;

    fn from_str(shown: &str) -> std::result::Result<Self, String> {
        let malformed =
            || format!("expected `at byte N: …` or `at byte N, PATH: …`, found {shown:?}");
        let rest = shown.strip_prefix("at byte ").ok_or_else(malformed)?;
        let digits = rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        let offset = rest[..digits].parse().map_err(|_| malformed())?;
        let rest = &rest[digits..];
        let (path, message) = match rest.strip_prefix(", ") {
            Some(located) => located.split_once(": ").ok_or_else(malformed)?,
            None => ("", rest.strip_prefix(": ").ok_or_else(malformed)?),
        };
        Ok(Error::new(offset, ErrorKind::Invalid(message.to_owned())).in_path(path.to_owned()))
    }
}

/// Result with [`Error`] as the default error type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Renders segments given outermost-first. Shared by [`Error::path`], the checker and the
/// interpreter's, so that all report paths in the same notation.
pub fn render_path<'a>(segments: impl Iterator<Item = &'a PathSegment>) -> String {
    use fmt::Write;
    let mut out = String::new();
    for segment in segments {
        match segment {
            PathSegment::Field(name) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(name);
            }
            PathSegment::Rendered(path) => {
                if !out.is_empty() && !path.starts_with('[') {
                    out.push('.');
                }
                out.push_str(path);
            }
            PathSegment::Index(i) => {
                // Writing to a String cannot fail.
                let _ = write!(out, "[{i}]");
            }
        }
    }
    out
}

/// Adds a field path to the error of a `Result` as it propagates out of a field's reader or
/// writer: generated code reads `r.array::<4>().map(u32::from_le_bytes).in_field("count")?`.
pub trait ResultExt<T> {
    /// Prepends the field name to the error's path.
    fn in_field(self, name: &'static str) -> Result<T>;
    /// Prepends an element index to the error's path.
    fn at_index(self, index: usize) -> Result<T>;
}

impl<T> ResultExt<T> for Result<T> {
    #[inline]
    fn in_field(self, name: &'static str) -> Result<T> {
        self.map_err(|e| e.in_field(name))
    }

    #[inline]
    fn at_index(self, index: usize) -> Result<T> {
        self.map_err(|e| e.at_index(index))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_renders_outermost_first() {
        let err = Error::new(42, ErrorKind::Invalid("bad".into()))
            .in_field("frames")
            .at_index(3)
            .in_field("objects")
            .at_index(17)
            .in_field("animations");
        assert_eq!(err.path(), "animations[17].objects[3].frames");
        assert_eq!(
            err.to_string(),
            "at byte 42, animations[17].objects[3].frames: bad"
        );
        // What `main` returning the error prints reads the same.
        assert_eq!(
            format!("{err:?}"),
            "at byte 42, animations[17].objects[3].frames: bad"
        );
    }

    #[test]
    fn root_error_has_empty_path() {
        let err = Error::new(
            7,
            ErrorKind::UnexpectedEof {
                needed: 4,
                available: 1,
            },
        );
        assert_eq!(err.path(), "");
        assert_eq!(err.offset(), 7);
        assert_eq!(
            err.to_string(),
            "at byte 7: expected 4 more bytes, 1 remain"
        );
    }

    #[test]
    fn leading_index_and_consecutive_indices() {
        let err = Error::new(0, ErrorKind::Invalid(String::new()))
            .at_index(2)
            .at_index(1)
            .in_field("grid");
        assert_eq!(err.path(), "grid[1][2]");
        let err = Error::new(0, ErrorKind::Invalid(String::new())).at_index(5);
        assert_eq!(err.path(), "[5]");
    }

    #[test]
    fn write_rules_are_encode_errors_with_their_data() {
        let missing = ErrorKind::ConditionMismatch { present: false };
        assert_eq!(
            missing.to_string(),
            "cannot encode: missing, but its `if` condition holds"
        );
        let case = ErrorKind::CaseMismatch {
            selector: "kind".into(),
            called: "leaf".into(),
            held: "node".into(),
        };
        assert_eq!(
            case.to_string(),
            "cannot encode: `kind` calls for the case `leaf`, but the value holds `node`"
        );
        assert!(
            [missing, case, ErrorKind::NoCaseMatches]
                .iter()
                .all(ErrorKind::is_encode)
        );
        let eof = ErrorKind::UnexpectedEof {
            needed: 1,
            available: 0,
        };
        assert!(!eof.is_encode());
    }

    #[test]
    fn an_error_stays_small_enough_to_return_by_value() {
        // Every read returns `Result<_, Error>`: a larger error makes every result larger.
        // 88 bytes: the offset, the path and the largest kind (two `Vec`s or `String`s).
        assert!(
            std::mem::size_of::<Error>() <= 88,
            "{}",
            std::mem::size_of::<Error>()
        );
    }

    #[test]
    fn bad_contents_message_is_hex() {
        let kind = ErrorKind::BadContents {
            expected: vec![0x4d, 0x5a],
            found: vec![0x00, 0xff],
        };
        assert_eq!(kind.to_string(), "expected bytes [4d, 5a], found [00, ff]");
    }
}
