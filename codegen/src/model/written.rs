//! A field's type as a schema writes it, for people: `explain`'s type column and the docs of
//! generated fields that the schema does not document.

use super::{ByteOrder, FieldType, IntType, Scalar, Schema};

impl FieldType {
    /// The type as the schema writes it (`u4le`, `strz`, `u1 enum colour`, a user type's id).
    pub fn as_written(&self, schema: &Schema) -> String {
        let endian = |big: bool| if big { "be" } else { "le" };
        let int = |i: &IntType| {
            let order = match (i.bytes, i.order) {
                (1, _) | (_, ByteOrder::Chosen) => "",
                (_, ByteOrder::Big) => "be",
                (_, ByteOrder::Little) => "le",
            };
            format!("{}{}{order}", if i.signed { 's' } else { 'u' }, i.bytes)
        };
        let scalar = |s: &Scalar| match s {
            Scalar::Int(i) => int(i),
            Scalar::Float(f) => format!("f{}", f.bytes),
            Scalar::Fixed { raw, div } => format!("{} / {div}", int(raw)),
        };
        match self {
            FieldType::Number(s) => scalar(s),
            FieldType::Quat(s) => format!("quat of {}", scalar(s)),
            FieldType::Vec3(s) => format!("vec3 of {}", scalar(s)),
            FieldType::Enum { enum_idx, raw } => {
                format!("{} enum {}", int(raw), schema.enums[*enum_idx].id)
            }
            FieldType::Bits {
                width, big_endian, ..
            } => format!("b{width}{}", endian(*big_endian)),
            FieldType::BitPadding => "bit padding".into(),
            FieldType::Str { terminated, .. } => if *terminated { "strz" } else { "str" }.into(),
            FieldType::Bytes { .. } => "bytes".into(),
            FieldType::Contents(_) => "contents".into(),
            FieldType::User { ty, .. } => schema.types[*ty].id.clone(),
            FieldType::Switch(_) => "switch".into(),
            FieldType::Array { elem, len } => format!("{} × {len}", elem.as_written(schema)),
            FieldType::Vlq => "vlq".into(),
            FieldType::Remembered { ty, .. } => format!("{} remembered", int(ty)),
            other => format!("{other:?}").chars().take(40).collect(),
        }
    }
}
