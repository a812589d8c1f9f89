//! The documents of values read with a schema known only at run time: each value serializes
//! exactly as the generated codec's Rust value of the same schema does (the same runtime types
//! for strings and bytes, the same keys, the same shapes of lists, options and switch cases),
//! so that both back ends produce one document.

use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};
use skelcodec_codegen::model::Schema;
use skelcodec_codegen::names::document_key;
use skelcodec_runtime as rt;

use crate::value::{COMPONENTS, Int, Struct, UNCLAIMED, Value};

/// A value with the schema it is a value of, which its document needs (enum names).
pub struct Document<'a> {
    /// The schema.
    pub schema: &'a Schema,
    /// The value.
    pub value: &'a Value,
}

impl Serialize for Document<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        With(self.schema, self.value).serialize(s)
    }
}

/// A value and its schema, serialized.
struct With<'a, T: ?Sized>(&'a Schema, &'a T);

impl Serialize for With<'_, Value> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let schema = self.0;
        match self.1 {
            Value::Int(Int::Signed(v)) => s.serialize_i64(*v),
            Value::Int(Int::Unsigned(v)) => s.serialize_u64(*v),
            Value::F32(v) => s.serialize_f32(*v),
            Value::F64(v) => s.serialize_f64(*v),
            // As `rt::Fixed` serializes: the number it is worth.
            Value::Fixed { raw, div } => s.serialize_f64(raw.as_i128() as f64 / f64::from(*div)),
            // As `rt::Quat` and `rt::Vec3` serialize.
            Value::Vector(components) => {
                let mut map = s.serialize_map(Some(components.len()))?;
                for (name, value) in COMPONENTS.iter().zip(components) {
                    map.serialize_entry(name, &With(schema, value))?;
                }
                map.end()
            }
            Value::Bool(v) => s.serialize_bool(*v),
            Value::Enum { def, raw } => {
                // A value the enum names is its name; any other its number (`Unknown`).
                match schema.enums[*def].variants.iter().find(|v| v.value == *raw) {
                    Some(variant) => s.serialize_str(&variant.id),
                    None => s.serialize_i64(*raw),
                }
            }
            Value::FixedStr(raw) => rt::strings::FixedStrRef(raw).serialize(s),
            Value::VarStr(v) => v.serialize(s),
            Value::Text(v) => v.serialize(s),
            Value::Bytes(v) => v.serialize(s),
            Value::Unit | Value::Absent => s.serialize_none(),
            Value::Present => s.serialize_bool(true),
            Value::Struct(st) => With(schema, &**st).serialize(s),
            Value::List(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(&With(schema, item))?;
                }
                seq.end()
            }
            Value::Packed(packed) => {
                let mut seq = s.serialize_seq(Some(packed.len()))?;
                for index in 0..packed.len() {
                    seq.serialize_element(&With(schema, &packed.element(index)))?;
                }
                seq.end()
            }
            Value::Case(name, value) => {
                let mut map = s.serialize_map(Some(1))?;
                map.serialize_entry(&**name, &With(schema, &**value))?;
                map.end()
            }
            // As `rt::Decoded` serializes: a decoded text as a string, the rest only when
            // there is one.
            Value::Decoded(decoded) => match &decoded.value {
                Value::Text(text) => {
                    rt::strings::decoded_document(text, &decoded.rest, &decoded.stored).serialize(s)
                }
                value => {
                    let rest = !decoded.rest.is_empty();
                    let mut map = s.serialize_map(Some(2 + usize::from(rest)))?;
                    map.serialize_entry("value", &With(schema, value))?;
                    if rest {
                        map.serialize_entry("rest", &decoded.rest)?;
                    }
                    map.serialize_entry("stored", &decoded.stored)?;
                    map.end()
                }
            },
            // As `rt::Instance` serializes a failure and a cycle.
            Value::Failed { message, held } => {
                let mut map = s.serialize_map(Some(1 + usize::from(held.is_some())))?;
                map.serialize_entry("_error", message)?;
                if let Some(held) = held {
                    map.serialize_entry("_bytes", held)?;
                }
                map.end()
            }
            Value::Cycle(offset) => {
                let mut map = s.serialize_map(Some(1))?;
                map.serialize_entry("_cycle", offset)?;
                map.end()
            }
        }
    }
}

impl Serialize for With<'_, Struct> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (schema, st) = (self.0, self.1);
        let fields = st.fields.borrow();
        let def = &schema.types[st.ty];
        let shown: Vec<(&str, &Value)> = def
            .fields
            .iter()
            .zip(st.keys.iter())
            .zip(fields.iter())
            .filter_map(|((field, key), value)| {
                let (key, value) = (key.as_deref()?, value.as_ref()?);
                // Most files end with their value: documents leave the empty rest out.
                let empty_tail =
                    field.is_kept_tail() && matches!(value, Value::Bytes(b) if b.is_empty());
                (!empty_tail).then_some((key, value))
            })
            .collect();
        // The arguments of kept parameters come first, as the generated value's fields do.
        let args = st.args();
        let kept: Vec<String> = (def.params.iter())
            .filter(|p| p.kept)
            .map(|p| document_key(&p.id))
            .collect();
        let unclaimed = st.unclaimed.borrow();
        let len = args.len() + shown.len() + usize::from(unclaimed.is_some());
        let mut map = s.serialize_map(Some(len))?;
        for (key, value) in kept.iter().zip(args.iter()) {
            map.serialize_entry(key, &With(schema, value))?;
        }
        for (key, value) in shown {
            map.serialize_entry(key, &With(schema, value))?;
        }
        if let Some(gaps) = &*unclaimed {
            map.serialize_entry(UNCLAIMED, gaps)?;
        }
        map.end()
    }
}
