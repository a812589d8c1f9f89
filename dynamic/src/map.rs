//! The field map of a read: every field and element with its byte range, path, type and value,
//! recorded as the reader completes it (`explain`), so that a read that fails still shows
//! what it read up to the failure.

use std::rc::Rc;

use skelcodec_codegen::model::{ByteOrder, FieldType, IntType, Scalar, Schema};

use crate::serialize::Document;
use crate::value::{Struct, Value};

/// One field, element or case read.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct FieldSpan {
    /// Its path, as documents and error messages name it (`records[0].text`).
    pub path: String,
    /// Where it starts: a byte offset in the file, or in the decoded bytes it was read from.
    pub start: u64,
    /// Where it ends (exclusive).
    pub end: u64,
    /// Its type, as the schema writes it (`u4le`, `str`, a type's name).
    #[serde(rename = "type")]
    pub ty: String,
    /// Its value as documents show it; none for structures, lists and cases, whose parts
    /// follow.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<serde_json::Value>,
    /// True when it was read from decoded bytes (`process`, an encoding): its offsets are
    /// in them, not in the file.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub decoded: bool,
}

/// The map being recorded: the path of the value being read, and the spans completed.
#[derive(Default)]
pub(crate) struct FieldMap {
    /// The path being read: its segments, each with the number of segments entered before it.
    path: Vec<(String, usize)>,
    entered: usize,
    /// The spans completed, each with the number of segments entered before it.
    spans: Vec<(usize, FieldSpan)>,
    /// The root value, shown as far as it was read when the read fails.
    pub root: Option<Rc<Struct>>,
}

impl FieldMap {
    /// Enters a field (`name`), an element (`[3]`) or a case.
    pub fn enter(&mut self, segment: String) {
        self.path.push((segment, self.entered));
        self.entered += 1;
    }

    /// The spans recorded, in document order (a value before its parts).
    pub fn into_spans(mut self) -> Vec<FieldSpan> {
        self.spans.sort_by_key(|(order, _)| *order);
        self.spans.into_iter().map(|(_, span)| span).collect()
    }

    /// Leaves what was entered last; when it was read, records it.
    pub fn leave(
        &mut self,
        schema: &Schema,
        (start, end, decoded): (u64, u64, bool),
        ty: &FieldType,
        read: Option<&Value>,
    ) {
        let path = self.rendered();
        let Some((_, order)) = self.path.pop() else {
            return;
        };
        let Some(value) = read else {
            return;
        };
        let leaf = !matches!(
            value,
            Value::Struct(_)
                | Value::List(_)
                | Value::Packed(_)
                | Value::Case(..)
                | Value::Decoded(_)
        );
        let value = match (ty, value) {
            // Not in documents: shown as the bytes it is.
            (FieldType::Contents(bytes), Value::Unit) => Some(serde_json::Value::String(
                skelcodec_runtime::bytes::to_hex(bytes),
            )),
            _ => leaf
                .then(|| serde_json::to_value(Document { schema, value }).ok())
                .flatten(),
        };
        let span = FieldSpan {
            path,
            start,
            end,
            ty: type_name(schema, ty),
            value,
            decoded,
        };
        self.spans.push((order, span));
    }

    fn rendered(&self) -> String {
        let mut path = String::new();
        for (segment, _) in &self.path {
            if !path.is_empty() && !segment.starts_with('[') {
                path.push('.');
            }
            path.push_str(segment);
        }
        path
    }
}

/// A field's type as the schema writes it.
fn type_name(schema: &Schema, ty: &FieldType) -> String {
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
    match ty {
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
        FieldType::Array { elem, len } => format!("{} × {len}", type_name(schema, elem)),
        FieldType::Vlq => "vlq".into(),
        other => format!("{other:?}").chars().take(40).collect(),
    }
}
