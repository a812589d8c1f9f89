//! Values as the generated types' `Debug` shows them: what a `valid` error says it found.
//! The shapes (`Name { field: … }`, `Variant(…)`, `[…]`) come from the standard library's
//! builders, which `#[derive(Debug)]` expands to, so the two cannot drift apart; only the
//! names (a type's, a case's, an enum value's) come from the schema, made as the generated
//! code makes them (`sanitization`).

use std::fmt;

use skelcodec_codegen::model::Schema;
use skelcodec_codegen::names::{pascal, type_name};
use skelcodec_runtime as rt;

use crate::value::{Int, Value};

/// `value` as `format!("{:?}")` of the generated code's value shows it.
pub(crate) fn debug(schema: &Schema, value: &Value) -> String {
    format!("{:?}", Shown { schema, value })
}

/// A value of `schema`, shown as `Debug` of the generated code's.
struct Shown<'a> {
    schema: &'a Schema,
    value: &'a Value,
}

impl fmt::Debug for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let schema = self.schema;
        let shown = |value| Shown { schema, value };
        match self.value {
            Value::Int(Int::Signed(n)) => n.fmt(f),
            Value::Int(Int::Unsigned(n)) => n.fmt(f),
            Value::F32(v) => v.fmt(f),
            Value::F64(v) => v.fmt(f),
            Value::Fixed { raw, .. } => f.debug_tuple("Fixed").field(&raw.as_i128()).finish(),
            Value::Vector(components) => {
                let name = if components.len() == 4 {
                    "Quat"
                } else {
                    "Vec3"
                };
                let mut s = f.debug_struct(name);
                for (key, value) in crate::value::COMPONENTS.iter().zip(components) {
                    s.field(key, &shown(value));
                }
                s.finish()
            }
            Value::Bool(b) => b.fmt(f),
            Value::Enum { def, raw } => {
                match schema.enums[*def].variants.iter().find(|v| v.value == *raw) {
                    Some(variant) => f.write_str(&variant.rust_name),
                    None => f.debug_tuple("Unknown").field(raw).finish(),
                }
            }
            Value::FixedStr(raw) => rt::strings::FixedStrRef(raw).fmt(f),
            Value::VarStr(s) => s.fmt(f),
            Value::Text(s) => s.fmt(f),
            Value::Bytes(b) => b.fmt(f),
            Value::Unit => ().fmt(f),
            Value::Absent => f.write_str("None"),
            Value::Present => Some(()).fmt(f),
            Value::List(items) => f.debug_list().entries(items.iter().map(shown)).finish(),
            Value::Packed(packed) => {
                let items = packed.elements();
                f.debug_list().entries(items.iter().map(shown)).finish()
            }
            Value::Decoded(decoded) => f
                .debug_struct("Decoded")
                .field("value", &shown(&decoded.value))
                .field("rest", &decoded.rest)
                .field("stored", &decoded.stored)
                .finish(),
            Value::Failed { message, .. } => f.debug_tuple("Failed").field(message).finish(),
            Value::Cycle(offset) => f.debug_tuple("Cycle").field(offset).finish(),
            Value::Case(name, inner) => f.debug_tuple(&pascal(name)).field(&shown(inner)).finish(),
            Value::Struct(node) => {
                let def = &schema.types[node.ty];
                let fields = node.fields.borrow();
                let name = type_name(&def.rust_name);
                let mut s = f.debug_struct(&name);
                for (key, value) in node.keys.iter().zip(fields.iter()) {
                    if let (Some(key), Some(value)) = (key, value) {
                        s.field(key, &shown(value));
                    }
                }
                s.finish()
            }
        }
    }
}
