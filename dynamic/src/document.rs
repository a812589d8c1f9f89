//! Values from their documents: what the generated codec's `Deserialize` accepts for the same
//! schema, the interpreter accepts, as the same value (a misspelt key is an error, an absent
//! optional field is absent, an enum is its name or its number), and refuses the rest with the
//! path of the place in the document.

use std::rc::Rc;

use serde::de::{DeserializeOwned, Error as _, Unexpected};
use serde_json::Value as Json;
use skelcodec_codegen::model::*;
use skelcodec_codegen::names::document_key;
use skelcodec_runtime as rt;

use crate::value::{COMPONENTS, Int, Io, Keys, Struct, UNCLAIMED, Value};

/// Why a document is not a value of the schema: where, and what is wrong there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocumentError {
    /// Where in the document (`header.entries[3].name`; empty for the root).
    pub path: String,
    /// What is wrong there.
    pub message: String,
}

impl std::fmt::Display for DocumentError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.path.is_empty() {
            true => f.write_str(&self.message),
            false => write!(f, "{}: {}", self.path, self.message),
        }
    }
}

impl std::error::Error for DocumentError {}

/// An error at a place below the one being parsed; its path is completed on the way up.
struct Refused {
    /// The path's segments, innermost first.
    segments: Vec<Segment>,
    message: String,
}

enum Segment {
    Key(Rc<str>),
    Index(usize),
}

type Parsed<T> = Result<T, Refused>;

fn refuse<T>(message: impl Into<String>) -> Parsed<T> {
    Err(Refused {
        segments: Vec::new(),
        message: message.into(),
    })
}

trait Within<T> {
    fn in_key(self, key: &Rc<str>) -> Parsed<T>;
    fn at_index(self, index: usize) -> Parsed<T>;
}

impl<T> Within<T> for Parsed<T> {
    fn in_key(self, key: &Rc<str>) -> Parsed<T> {
        self.map_err(|mut e| {
            e.segments.push(Segment::Key(key.clone()));
            e
        })
    }

    fn at_index(self, index: usize) -> Parsed<T> {
        self.map_err(|mut e| {
            e.segments.push(Segment::Index(index));
            e
        })
    }
}

/// The value of the schema's root type a document holds; `keys` are each type's document
/// keys of its fields.
pub(crate) fn value_of(
    schema: &Schema,
    keys: &[Keys],
    document: &Json,
) -> Result<Value, DocumentError> {
    let parser = Parser { schema, keys };
    parser
        .structure(0, document)
        .map(Value::Struct)
        .map_err(|e| {
            let mut path = String::new();
            for segment in e.segments.iter().rev() {
                match segment {
                    Segment::Key(key) if path.is_empty() => path.push_str(key),
                    Segment::Key(key) => {
                        path.push('.');
                        path.push_str(key);
                    }
                    Segment::Index(i) => path.push_str(&format!("[{i}]")),
                }
            }
            DocumentError {
                path,
                message: e.message,
            }
        })
}

struct Parser<'s> {
    schema: &'s Schema,
    keys: &'s [Keys],
}

impl Parser<'_> {
    /// A value of type `ty`: a map of its fields' keys, none unknown.
    fn structure(&self, ty: usize, document: &Json) -> Parsed<Rc<Struct>> {
        let def = &self.schema.types[ty];
        let keys = &self.keys[ty];
        let Json::Object(map) = document else {
            return invalid_type(document, &format!("a map of the fields of `{}`", def.id));
        };
        let keeps_unclaimed = self.schema.keeps_unclaimed(ty);
        let kept: Vec<(&Param, String)> = (def.params.iter())
            .filter(|p| p.kept)
            .map(|p| (p, document_key(&p.id)))
            .collect();
        let known = |k: &str| {
            keys.iter().flatten().any(|key| **key == *k)
                || kept.iter().any(|(_, key)| key == k)
                || (keeps_unclaimed && k == UNCLAIMED)
        };
        if let Some(unknown) = map.keys().find(|k| !known(k)) {
            let known: Vec<&str> = (kept.iter().map(|(_, k)| k.as_str()))
                .chain(keys.iter().flatten().map(|k| &**k))
                .collect();
            let known = crate::intern::interned_list(&known);
            return refuse(SerdeError::unknown_field(unknown, known).to_string());
        }
        let fields = def
            .fields
            .iter()
            .zip(keys.iter())
            .map(|(field, key)| {
                let Some(key) = key else {
                    // Not in documents: it stores nothing (`contents`).
                    return Ok(Some(Value::Unit));
                };
                let value = match map.get(&**key) {
                    None if field.is_kept_tail() => Value::Bytes(rt::RawBytes::default()),
                    None if field.may_be_absent() => Value::Absent,
                    None => return refuse(format!("missing field `{key}`")),
                    Some(value) => self.field(field, value).in_key(key)?,
                };
                Ok(Some(value))
            })
            .collect::<Parsed<Vec<_>>>()?;
        let args = kept
            .iter()
            .map(|(param, key)| match map.get(key) {
                None => refuse(format!("missing field `{key}`")),
                Some(arg) => self.arg(param, arg).in_key(&Rc::from(key.as_str())),
            })
            .collect::<Parsed<Vec<_>>>()?;
        let value = Struct::new(
            ty,
            fields,
            Vec::new(),
            keys.clone(),
            (Io::default(), 0, false),
        );
        value.keep_args(args);
        if keeps_unclaimed {
            let gaps = match map.get(UNCLAIMED) {
                None => Vec::new(),
                Some(gaps) => deserialize(gaps).in_key(&Rc::from(UNCLAIMED))?,
            };
            value.unclaimed.replace(Some(gaps));
        }
        Ok(Rc::new(value))
    }

    /// The argument a value keeps for its kept parameter `param`: a number, boolean or enum
    /// value, as the generated value's field.
    fn arg(&self, param: &Param, document: &Json) -> Parsed<Value> {
        match param.ty {
            ParamType::Bool => deserialize::<bool>(document).map(Value::Bool),
            ParamType::Enum(def) => enum_of(self.schema, def, document),
            _ => deserialize::<i64>(document).map(|n| Value::Int(Int::Signed(n))),
        }
    }

    /// The value of a field: its condition, its repetition, its values.
    fn field(&self, field: &Field, document: &Json) -> Parsed<Value> {
        if field.is_presence_flag() {
            return match document {
                Json::Null | Json::Bool(false) => Ok(Value::Absent),
                Json::Bool(true) => Ok(Value::Present),
                other => invalid_type(other, "a boolean"),
            };
        }
        if document.is_null() && field.may_be_absent() {
            return Ok(Value::Absent);
        }
        if field.parse_instance
            && let Some(value) = instance_state(document)?
        {
            return Ok(value);
        }
        match (&field.ty, field.switches_whole_list()) {
            (FieldType::Switch(switch), true) => {
                let (name, inner) = self.case(document)?;
                let ty = choice_type(self.schema, switch, &name)?;
                let list = self.repeated(field, &ty, inner).in_key(&name)?;
                Ok(Value::Case(name, Box::new(list)))
            }
            (ty, _) => self.repeated(field, ty, document),
        }
    }

    fn repeated(&self, field: &Field, ty: &FieldType, document: &Json) -> Parsed<Value> {
        if field.repeat == Repeat::None {
            return self.sized(field, ty, document);
        }
        let items = list(document)?;
        items
            .iter()
            .enumerate()
            .map(|(i, item)| self.sized(field, ty, item).at_index(i))
            .collect::<Parsed<_>>()
            .map(Value::List)
    }

    /// One value as the field stores it: a switch's case, a decoded value with its bytes.
    fn sized(&self, field: &Field, ty: &FieldType, document: &Json) -> Parsed<Value> {
        if let FieldType::Switch(switch) = ty {
            let (name, inner) = self.case(document)?;
            let ty = choice_type(self.schema, switch, &name)?;
            let value = self.sized(field, &ty, inner).in_key(&name)?;
            return Ok(Value::Case(name, Box::new(value)));
        }
        if field.decode.is_none() {
            return self.one(ty, document);
        }
        // As `rt::Decoded` deserializes: a decoded text as a string is, any other value in a
        // map with its bytes when the document has them.
        if let FieldType::Str { .. } = ty {
            let decoded: rt::Decoded<rt::Text> = deserialize(document)?;
            return Ok(Value::Decoded(Box::new(rt::Decoded {
                value: Value::Text(decoded.value),
                rest: decoded.rest,
                stored: decoded.stored,
            })));
        }
        let Json::Object(map) = document else {
            return invalid_type(document, "a map with `value` (and `rest`, `stored`)");
        };
        let key = |k: &str| Rc::<str>::from(k);
        let value = match map.get("value") {
            Some(value) => self.one(ty, value).in_key(&key("value"))?,
            None => return refuse(SerdeError::missing_field("value").to_string()),
        };
        let bytes = |name: &str| match map.get(name) {
            None => Ok(rt::RawBytes::default()),
            Some(b) => deserialize::<rt::RawBytes>(b).in_key(&key(name)),
        };
        Ok(Value::Decoded(Box::new(rt::Decoded {
            value,
            rest: bytes("rest")?,
            stored: bytes("stored")?,
        })))
    }

    /// The one case a switch's value holds: a map of its name to its value.
    fn case<'d>(&self, document: &'d Json) -> Parsed<(Rc<str>, &'d Json)> {
        match document {
            Json::Object(map) if map.len() == 1 => match map.iter().next() {
                Some((name, value)) => Ok((Rc::from(name.as_str()), value)),
                None => refuse("a map of one case's name to its value"),
            },
            other => invalid_type(other, "a map of one case's name to its value"),
        }
    }

    /// One value of `ty`.
    fn one(&self, ty: &FieldType, document: &Json) -> Parsed<Value> {
        match ty {
            FieldType::Number(scalar) => scalar_of(*scalar, document),
            FieldType::Quat(scalar) | FieldType::Vec3(scalar) => {
                let count = if matches!(ty, FieldType::Quat(_)) {
                    4
                } else {
                    3
                };
                let Json::Object(map) = document else {
                    return invalid_type(document, "a map");
                };
                COMPONENTS[..count]
                    .iter()
                    .map(|name| match map.get(*name) {
                        Some(c) => scalar_of(*scalar, c).in_key(&Rc::from(*name)),
                        None => refuse(format!("missing field `{name}`")),
                    })
                    .collect::<Parsed<_>>()
                    .map(Value::Vector)
            }
            FieldType::Enum { enum_idx, .. } => enum_of(self.schema, *enum_idx, document),
            FieldType::Vlq => integer(document, 4, false).map(Value::Int),
            FieldType::Remembered { ty, .. } => {
                integer(document, ty.bytes, ty.signed).map(Value::Int)
            }
            FieldType::Str {
                size: Size::Const(n),
                align,
                ..
            } if *align <= 1 => rt::strings::fixed_str_bytes(document, *n)
                .map(Value::FixedStr)
                .or_else(|e| refuse(e.to_string())),
            FieldType::Str { terminated, .. } => match terminated {
                true => deserialize(document).map(Value::VarStr),
                false => deserialize(document).map(Value::Text),
            },
            FieldType::Bytes { .. } => deserialize(document).map(Value::Bytes),
            FieldType::Bits {
                width, enum_idx, ..
            } => match (enum_idx, width) {
                (Some(def), _) => enum_of(self.schema, *def, document),
                (None, 1) => deserialize(document).map(Value::Bool),
                // Held in the smallest unsigned integer that has the bits.
                (None, _) => {
                    let bytes = (u32::from(*width).next_power_of_two().max(8) / 8) as u8;
                    integer(document, bytes, false).map(Value::Int)
                }
            },
            FieldType::BitPadding => integer(document, 1, false).map(Value::Int),
            FieldType::Contents(_) | FieldType::Nothing => match document {
                Json::Null => Ok(Value::Unit),
                other => invalid_type(other, "null"),
            },
            FieldType::Array { elem, len } => {
                let items = list(document)?;
                if items.len() != *len {
                    let expected = format!("an array of length {len}");
                    return refuse(
                        SerdeError::invalid_length(items.len(), &&*expected).to_string(),
                    );
                }
                items
                    .iter()
                    .enumerate()
                    .map(|(i, item)| self.one(elem, item).at_index(i))
                    .collect::<Parsed<_>>()
                    .map(Value::List)
            }
            FieldType::User { ty, .. } => self.structure(*ty, document).map(Value::Struct),
            FieldType::Switch(switch) => {
                let (name, inner) = self.case(document)?;
                let ty = choice_type(self.schema, switch, &name)?;
                let value = self.one(&ty, inner).in_key(&name)?;
                Ok(Value::Case(name, Box::new(value)))
            }
        }
    }
}

/// A parse instance that failed or is a cycle, as `rt::Instance` deserializes one:
/// `{"_error": …}` (with `"_bytes"` when it holds some), `{"_cycle": offset}`; `None` for a
/// value (Kaitai names cannot start with `_`, so a value never has these keys).
fn instance_state(document: &Json) -> Parsed<Option<Value>> {
    let Json::Object(map) = document else {
        return Ok(None);
    };
    let held = match (
        map.len(),
        map.get("_error"),
        map.get("_bytes"),
        map.get("_cycle"),
    ) {
        (1, _, _, Some(offset)) => {
            return match offset.as_u64() {
                Some(offset) => Ok(Some(Value::Cycle(offset))),
                None => refuse("`_cycle` must be a byte offset"),
            };
        }
        (1, Some(_), None, _) => None,
        (2, Some(_), Some(bytes), _) => Some(deserialize::<rt::RawBytes>(bytes)?),
        _ => return Ok(None),
    };
    match map.get("_error").and_then(Json::as_str) {
        Some(message) => Ok(Some(Value::Failed {
            message: message.into(),
            held: held.map(Box::new),
        })),
        None => refuse("`_error` must be a string"),
    }
}

/// The type of the case `name` of a switch.
fn choice_type(schema: &Schema, switch: &Switch, name: &str) -> Parsed<FieldType> {
    let names = crate::choice::CaseNames::default();
    match crate::choice::case_named(schema, &names, switch, name) {
        Some(ty) => Ok(ty.clone()),
        None => {
            let variants = skelcodec_codegen::model::switch_variants(schema, switch);
            let known: Vec<&str> = (variants.variants.iter())
                .map(|v| v.name.as_str())
                .collect();
            let known = crate::intern::interned_list(&known);
            refuse(SerdeError::unknown_variant(name, known).to_string())
        }
    }
}

fn list(document: &Json) -> Parsed<&[Json]> {
    match document {
        Json::Array(items) => Ok(items),
        other => invalid_type(other, "a sequence"),
    }
}

/// A value of a runtime type, as it deserializes itself.
fn deserialize<T: DeserializeOwned>(document: &Json) -> Parsed<T> {
    T::deserialize(document).or_else(|e| refuse(e.to_string()))
}

/// A number stored as `scalar`.
fn scalar_of(scalar: Scalar, document: &Json) -> Parsed<Value> {
    match scalar {
        Scalar::Int(int) => integer(document, int.bytes, int.signed).map(Value::Int),
        Scalar::Float(float) if float.bytes == 4 => deserialize(document).map(Value::F32),
        Scalar::Float(_) => deserialize(document).map(Value::F64),
        // As `rt::Fixed` deserializes: the nearest raw value, which must fit.
        Scalar::Fixed { raw, div } => {
            let v: f64 = deserialize(document)?;
            let scaled = (v * f64::from(div)).round();
            let (min, max) = range(raw.bytes, raw.signed);
            if !(v.is_finite() && scaled >= min as f64 && scaled <= max as f64) {
                let refused = rt::FixedRangeError {
                    value: v,
                    min: min as f64 / f64::from(div),
                    max: max as f64 / f64::from(div),
                };
                return refuse(refused.to_string());
            }
            let raw = match raw.signed {
                true => Int::Signed(scaled as i64),
                false => Int::Unsigned(scaled as u64),
            };
            Ok(Value::Fixed { raw, div })
        }
    }
}

/// The range of an integer of `bytes` bytes.
fn range(bytes: u8, signed: bool) -> (i128, i128) {
    let bits = 8 * u32::from(bytes.min(8));
    match signed {
        true => (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1),
        false => (0, (1i128 << bits) - 1),
    }
}

/// An integer of `bytes` bytes, signed or not, as serde reads one: an integral JSON number in
/// range.
fn integer(document: &Json, bytes: u8, signed: bool) -> Parsed<Int> {
    let name = format!("{}{}", if signed { 'i' } else { 'u' }, 8 * u32::from(bytes));
    let Some(n) = document
        .as_i64()
        .map(i128::from)
        .or_else(|| document.as_u64().map(i128::from))
    else {
        return invalid_type(document, &name);
    };
    let (min, max) = range(bytes, signed);
    if !(min..=max).contains(&n) {
        // `n` came from an `i64` or a `u64`.
        let found = match u64::try_from(n) {
            Ok(n) => Unexpected::Unsigned(n),
            Err(_) => Unexpected::Signed(n as i64),
        };
        return refuse(SerdeError::invalid_value(found, &&*name).to_string());
    }
    Ok(match signed {
        true => Int::Signed(n as i64),
        false => Int::Unsigned(n as u64),
    })
}

/// A value of enum `def`: its name, or any number (one the enum names is that name), read as
/// the generated enums read it (`rt::enums`), with the same errors.
fn enum_of(schema: &Schema, def: usize, document: &Json) -> Parsed<Value> {
    let variants = &schema.enums[def].variants;
    let names: Vec<&str> = variants.iter().map(|v| v.id.as_str()).collect();
    let names = crate::intern::interned_list(&names);
    let raw = match rt::__private::enums::name_or_number(names, document) {
        Ok(rt::__private::enums::NameOrNumber::Name(i)) => variants[i].value,
        Ok(rt::__private::enums::NameOrNumber::Number(raw)) => raw,
        Err(e) => return refuse(e.to_string()),
    };
    Ok(Value::Enum { def, raw })
}

/// The error whose constructors word the messages: serde_json's, which the generated types'
/// `Deserialize` gives for the same documents.
type SerdeError = serde_json::Error;

/// A value that is not the kind `expected`, in serde's words.
fn invalid_type<T>(document: &Json, expected: &str) -> Parsed<T> {
    refuse(SerdeError::invalid_type(unexpected(document), &expected).to_string())
}

/// What a JSON value is, as serde's errors name it (as `serde_json::Value` tells serde).
fn unexpected(document: &Json) -> Unexpected<'_> {
    match document {
        Json::Null => Unexpected::Unit,
        Json::Bool(b) => Unexpected::Bool(*b),
        Json::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(n), _) => Unexpected::Unsigned(n),
            (None, Some(n)) => Unexpected::Signed(n),
            _ => Unexpected::Float(n.as_f64().unwrap_or(f64::NAN)),
        },
        Json::String(s) => Unexpected::Str(s),
        Json::Array(_) => Unexpected::Seq,
        Json::Object(_) => Unexpected::Map,
    }
}
