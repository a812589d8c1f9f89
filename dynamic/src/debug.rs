//! Values as the generated types' `Debug` shows them: what a `valid` error says it found.

use skelcodec_codegen::model::Schema;
use skelcodec_codegen::sanitization::{struct_ident, type_ident};
use skelcodec_runtime as rt;

use crate::value::{Int, Value};

/// `value` as `format!("{:?}")` of the generated code's value shows it.
pub(crate) fn debug(schema: &Schema, value: &Value) -> String {
    match value {
        Value::Int(Int::Signed(n)) => format!("{n:?}"),
        Value::Int(Int::Unsigned(n)) => format!("{n:?}"),
        Value::F32(f) => format!("{f:?}"),
        Value::F64(f) => format!("{f:?}"),
        Value::Fixed { raw, .. } => format!("Fixed({})", raw.as_i128()),
        Value::Vector(components) => {
            let name = if components.len() == 4 {
                "Quat"
            } else {
                "Vec3"
            };
            let shown: Vec<String> = crate::value::COMPONENTS
                .iter()
                .zip(components)
                .map(|(key, value)| format!("{key}: {}", debug(schema, value)))
                .collect();
            format!("{name} {{ {} }}", shown.join(", "))
        }
        Value::Bool(b) => format!("{b:?}"),
        Value::Enum { def, raw } => {
            match schema.enums[*def].variants.iter().find(|v| v.value == *raw) {
                Some(variant) => variant.rust_name.clone(),
                None => format!("Unknown({raw})"),
            }
        }
        Value::FixedStr(raw) => format!("{:?}", rt::strings::FixedStrRef(raw)),
        Value::VarStr(s) => format!("{s:?}"),
        Value::Text(s) => format!("{s:?}"),
        Value::Bytes(b) => format!("{b:?}"),
        Value::Unit => "()".to_owned(),
        Value::Absent => "None".to_owned(),
        Value::Present => "Some(())".to_owned(),
        Value::List(items) => {
            let items: Vec<String> = items.iter().map(|i| debug(schema, i)).collect();
            format!("[{}]", items.join(", "))
        }
        Value::Packed(packed) => debug(schema, &Value::List(packed.elements())),
        Value::Decoded(decoded) => format!(
            "Decoded {{ value: {}, rest: {:?}, stored: {:?} }}",
            debug(schema, &decoded.value),
            decoded.rest,
            decoded.stored
        ),
        Value::Failed { message, .. } => format!("Failed({message:?})"),
        Value::Cycle(offset) => format!("Cycle({offset})"),
        Value::Case(name, inner) => format!("{}({})", type_ident(name), debug(schema, inner)),
        Value::Struct(node) => {
            let def = &schema.types[node.ty];
            let fields = node.fields.borrow();
            let shown: Vec<String> = def
                .fields
                .iter()
                .zip(node.keys.iter())
                .zip(fields.iter())
                .filter_map(|((_, key), value)| Some((key.as_deref()?, value.as_ref()?)))
                .map(|(key, value)| format!("{key}: {}", debug(schema, value)))
                .collect();
            format!("{} {{ {} }}", struct_ident(def), shown.join(", "))
        }
    }
}
