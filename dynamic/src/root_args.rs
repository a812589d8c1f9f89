//! The arguments of the root type's parameters: given by the caller by name, as text, else
//! the schema's `-default`, as the generated code's `read_with(bytes, …)` and `read(bytes)`
//! take them. A parameter with neither fails the read, named.

use skelcodec_codegen::model::{IntType, Param, ParamType, Schema};

use crate::eval::Scope;
use crate::value::{Int, Io, Keys, Link, Struct, Val};

/// Why an argument given for a root parameter is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArgumentError {
    /// The parameter it was given for, as named by the caller.
    pub param: String,
    /// What is wrong with it.
    pub message: String,
}

impl std::fmt::Display for ArgumentError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "parameter `{}`: {}", self.param, self.message)
    }
}

impl std::error::Error for ArgumentError {}

/// The value of each of the root type's parameters, in their order: given, or its default;
/// `None` for one with neither.
#[derive(Debug, Clone, Default)]
pub(crate) struct RootArgs(Vec<Option<Arg>>);

/// A root argument: a value linked to no other, which an interpreter shared between threads
/// can hold (an expression's [`Val`] may hold a structure).
#[derive(Debug, Clone, PartialEq)]
enum Arg {
    Int(i64),
    Float(f64),
    Bool(bool),
    Enum(usize, i64),
    Str(Vec<u8>),
    Bytes(Vec<u8>),
    Ints(Vec<i64>),
}

impl Arg {
    /// The value as a parameter of type `ty` holds it, when it is linked to no other: an
    /// enum parameter given an integer holds that enum's value.
    fn of(ty: ParamType, value: Val) -> Option<Arg> {
        Some(match (ty, value) {
            (ParamType::Enum(def), Val::Int(raw) | Val::Enum(_, raw)) => Arg::Enum(def, raw),
            (_, Val::Int(n)) => Arg::Int(n),
            (_, Val::Float(x)) => Arg::Float(x),
            (_, Val::Bool(b)) => Arg::Bool(b),
            (_, Val::Enum(def, raw)) => Arg::Enum(def, raw),
            (_, Val::Str(text)) => Arg::Str(text),
            (_, Val::Bytes(bytes)) => Arg::Bytes(bytes),
            (_, Val::List(items)) => Arg::Ints(
                (items.into_iter())
                    .map(|item| match item {
                        Val::Int(n) => Some(n),
                        _ => None,
                    })
                    .collect::<Option<_>>()?,
            ),
            _ => return None,
        })
    }

    /// The value expressions see.
    fn val(&self) -> Val {
        match self {
            Arg::Int(n) => Val::Int(*n),
            Arg::Float(x) => Val::Float(*x),
            Arg::Bool(b) => Val::Bool(*b),
            Arg::Enum(def, raw) => Val::Enum(*def, *raw),
            Arg::Str(text) => Val::Str(text.clone()),
            Arg::Bytes(bytes) => Val::Bytes(bytes.clone()),
            Arg::Ints(items) => Val::List(items.iter().map(|n| Val::Int(*n)).collect()),
        }
    }
}

impl RootArgs {
    /// The root type's defaults (`-default`), evaluated in the scope of an empty root value as
    /// the generated code evaluates them without one.
    pub fn defaults(schema: &Schema, keys: &[Keys]) -> Self {
        let root = &schema.types[0];
        let node = Struct::new(
            0,
            vec![None; root.fields.len()],
            Vec::new(),
            keys[0].clone(),
            (Io::default(), 0, false),
        );
        let scope = Scope::writing(schema, Link::new(std::rc::Rc::new(node), None));
        let default = |param: &Param| Arg::of(param.ty, scope.eval(param.default.as_ref()?).ok()?);
        RootArgs(root.params.iter().map(default).collect())
    }

    /// Gives parameter `name` the value `text` stands for (see [`parse`]).
    pub fn give(&mut self, schema: &Schema, name: &str, text: &str) -> Result<(), ArgumentError> {
        let params = &schema.types[0].params;
        let refuse = |message: String| ArgumentError {
            param: name.to_owned(),
            message,
        };
        let Some(index) = params.iter().position(|p| p.id == name) else {
            let names: Vec<&str> = params.iter().map(|p| p.id.as_str()).collect();
            return Err(refuse(match names.is_empty() {
                true => "the root type has no parameters".to_owned(),
                false => format!("the root type has none such (it has {})", names.join(", ")),
            }));
        };
        self.0[index] = Some(parse(schema, params[index].ty, text).map_err(refuse)?);
        Ok(())
    }

    /// Every parameter's value; an error naming the first that has none.
    pub fn values(&self, schema: &Schema) -> Result<Vec<Val>, String> {
        (self.0.iter().zip(&schema.types[0].params))
            .map(|(value, param)| {
                value.as_ref().map(Arg::val).ok_or_else(|| {
                    let why = match textual(schema, param.ty) {
                        true => "none was given, and it has no `-default`",
                        false => {
                            "it has no `-default`, and a structure or a stream cannot be given: read the file with a schema that imports this one"
                        }
                    };
                    format!("the root type's parameter `{}` has no value: {why}", param.id)
                })
            })
            .collect()
    }
}

/// The value of a parameter of type `ty` written as `text`: an integer in decimal or `0x`
/// hexadecimal, within its type's range; `true` or `false`; an enum's value by name or
/// number; a string's text as it is; bytes as hexadecimal digits (`cafe01`); a list of
/// integers separated by commas. A parameter of a structure or a stream has no text.
fn parse(schema: &Schema, ty: ParamType, text: &str) -> Result<Arg, String> {
    match ty {
        ParamType::Int(int) => parse_int(text, Some(int)).map(Arg::Int),
        ParamType::Bool => match text {
            "true" => Ok(Arg::Bool(true)),
            "false" => Ok(Arg::Bool(false)),
            _ => Err(format!("expected `true` or `false`, found `{text}`")),
        },
        ParamType::Enum(def) => {
            let enum_def = &schema.enums[def];
            match enum_def.variants.iter().find(|v| v.id == text) {
                Some(variant) => Ok(Arg::Enum(def, variant.value)),
                None => parse_int(text, None)
                    .map(|raw| Arg::Enum(def, raw))
                    .map_err(|_| {
                        let names: Vec<&str> =
                            enum_def.variants.iter().map(|v| v.id.as_str()).collect();
                        format!(
                            "expected a value of enum `{}` ({}) or an integer, found `{text}`",
                            enum_def.id,
                            names.join(", ")
                        )
                    }),
            }
        }
        ParamType::Str => Ok(Arg::Str(text.as_bytes().to_vec())),
        ParamType::Bytes => parse_hex(text).map(Arg::Bytes),
        ParamType::IntList => (text.split(',').filter(|item| !item.trim().is_empty()))
            .map(|item| parse_int(item.trim(), None))
            .collect::<Result<_, _>>()
            .map(Arg::Ints),
        _ => Err(UNTEXTUAL.to_owned()),
    }
}

/// Whether a parameter of type `ty` can be given as text: not a structure or a stream.
fn textual(schema: &Schema, ty: ParamType) -> bool {
    parse(schema, ty, "").map_or_else(|why| why != UNTEXTUAL, |_| true)
}

/// Why a parameter of a structure or a stream is given no text.
const UNTEXTUAL: &str =
    "only a number, a boolean, an enum, a string, bytes or a list of integers can be given as text";

/// An integer in decimal or `0x` hexadecimal, optionally negative; within `int`'s range when
/// one is given (a `u8` above `i64::MAX` kept as its bits, as expressions hold it).
fn parse_int(text: &str, int: Option<IntType>) -> Result<i64, String> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let magnitude = match digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        Some(hex) => i128::from_str_radix(hex, 16),
        None => digits.parse::<i128>(),
    }
    .map_err(|_| format!("expected an integer, found `{text}`"))?;
    let value = if negative { -magnitude } else { magnitude };
    let fits = match int {
        Some(int) => Int::fitting(value, int).map(Int::as_i128),
        None => i64::try_from(value).ok().map(i128::from),
    };
    match fits {
        Some(value) => Ok(value as i64),
        None => Err(format!(
            "{text} does not fit {}",
            int.map_or_else(
                || "a 64-bit integer".to_owned(),
                |int| format!("a {}{}", if int.signed { 's' } else { 'u' }, int.bytes)
            )
        )),
    }
}

/// Bytes written as pairs of hexadecimal digits.
fn parse_hex(text: &str) -> Result<Vec<u8>, String> {
    let digits = text.as_bytes();
    if !digits.len().is_multiple_of(2) {
        return Err(format!(
            "expected bytes as pairs of hexadecimal digits, found `{text}`"
        ));
    }
    (digits.chunks(2))
        .map(|pair| {
            std::str::from_utf8(pair)
                .ok()
                .and_then(|pair| u8::from_str_radix(pair, 16).ok())
                .ok_or_else(|| {
                    format!("expected bytes as pairs of hexadecimal digits, found `{text}`")
                })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use skelcodec_codegen::model::ByteOrder;

    fn int(bytes: u8, signed: bool) -> IntType {
        IntType {
            bytes,
            signed,
            order: ByteOrder::Little,
        }
    }

    #[test]
    fn an_integer_is_decimal_or_hexadecimal_within_its_type() {
        assert_eq!(parse_int("200", Some(int(1, false))), Ok(200));
        assert_eq!(parse_int("0xff", Some(int(1, false))), Ok(255));
        assert_eq!(parse_int("-128", Some(int(1, true))), Ok(-128));
        assert!(parse_int("256", Some(int(1, false))).is_err());
        assert!(parse_int("-1", Some(int(2, false))).is_err());
        assert!(parse_int("ten", None).is_err());
        // A u8's top half is held as the bits of an i64, as expressions hold it.
        assert_eq!(parse_int("0xffffffffffffffff", Some(int(8, false))), Ok(-1));
    }

    #[test]
    fn bytes_are_pairs_of_hexadecimal_digits() {
        assert_eq!(parse_hex("cafe01"), Ok(vec![0xca, 0xfe, 0x01]));
        assert_eq!(parse_hex(""), Ok(vec![]));
        assert!(parse_hex("abc").is_err());
        assert!(parse_hex("zz").is_err());
    }
}
