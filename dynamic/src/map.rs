//! The field map of a read: every field and element with its byte range, path, type and value,
//! recorded as the reader completes it (`explain`), so that a read that fails still shows
//! what it read up to the failure.

use std::rc::Rc;

use skelcodec_codegen::model::{FieldType, Schema};

use crate::serialize::Document;
use crate::streams::{Place, Stream, Streams};
use crate::value::{Link, Struct, Value};

/// One field, element or case read.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct FieldSpan {
    /// Its path, as documents and error messages name it (`records[0].text`).
    pub path: String,
    /// Where it starts: a byte offset in the file, or in the decoded stream `stream` names.
    pub start: u64,
    /// Where it ends (exclusive): for bits, the end of the byte holding its last bit.
    pub end: u64,
    /// Its bit range, for a bit field and for a value that starts or ends inside a byte.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub bits: Option<BitRange>,
    /// Its type, as the schema writes it (`u4le`, `str`, a type's name).
    #[serde(rename = "type")]
    pub ty: String,
    /// Its value as documents show it; none for structures, lists and cases, whose parts
    /// follow.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<serde_json::Value>,
    /// The decoded stream it was read from (`process`, an encoding), when not the file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stream: Option<Stream>,
}

/// Where a value's bits are, counted from the start of its stream (8 per byte) in the order
/// its bit order reads them: in big-endian bit order from the most significant bit of each
/// byte, in little-endian from the least significant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct BitRange {
    /// Its first bit.
    pub start_bit: u64,
    /// The bit after its last.
    pub end_bit: u64,
}

/// Where a value was read: where the reader stood before and after it.
pub(crate) type Range = (Place, Place);

/// A look-ahead instance to map once the whole file is read (see
/// `read::map_look_aheads`): its path and order in the map, its structure and its index.
pub(crate) struct Deferred {
    pub path: String,
    pub order: usize,
    pub link: Link,
    pub index: usize,
}

/// What a trial read recorded in the map (see [`FieldMap::take_since`]).
#[derive(Default)]
pub(crate) struct Recorded {
    spans: Vec<(usize, FieldSpan)>,
    deferred: Vec<Deferred>,
}

/// The map being recorded: the path of the value being read, and the spans completed.
#[derive(Default)]
pub(crate) struct FieldMap {
    /// The path being read: its segments, each with the number of segments entered before it
    /// and of spans completed before it.
    path: Vec<(String, usize, usize)>,
    entered: usize,
    /// The spans completed, each with the number of segments entered before it.
    spans: Vec<(usize, FieldSpan)>,
    /// The root value, shown as far as it was read when the read fails.
    pub root: Option<Rc<Struct>>,
    /// The buffers of decoded bytes read, to tell where a reader stands.
    pub streams: Streams,
    /// The look-ahead instances to map once the file is read.
    pub deferred: Vec<Deferred>,
}

impl FieldMap {
    /// Enters a field (`name`), an element (`[3]`) or a case.
    pub fn enter(&mut self, segment: String) {
        self.path.push((segment, self.entered, self.spans.len()));
        self.entered += 1;
    }

    /// Takes a place in the map for `segment` of the path being read, whose span is
    /// recorded later ([`FieldMap::record`]): its path and order.
    pub fn reserve(&mut self, segment: String) -> (String, usize) {
        self.enter(segment);
        let path = self.rendered();
        let order = self.path.pop().map_or(0, |(_, order, _)| order);
        (path, order)
    }

    /// Where the map stands, to take back what a trial read records ([`FieldMap::take_since`]).
    pub fn mark(&self) -> (usize, usize) {
        (self.spans.len(), self.deferred.len())
    }

    /// Takes out what was recorded since `mark`: a trial read's (`-scan`, `-solve`), put back
    /// ([`FieldMap::put_back`]) only when it is the trial kept.
    pub fn take_since(&mut self, (spans, deferred): (usize, usize)) -> Recorded {
        Recorded {
            spans: self.spans.split_off(spans.min(self.spans.len())),
            deferred: (self.deferred).split_off(deferred.min(self.deferred.len())),
        }
    }

    /// Puts back what [`FieldMap::take_since`] took.
    pub fn put_back(&mut self, recorded: Recorded) {
        self.spans.extend(recorded.spans);
        self.deferred.extend(recorded.deferred);
    }

    /// The spans recorded, in document order (a value before its parts).
    pub fn into_spans(mut self) -> Vec<FieldSpan> {
        self.spans.sort_by_key(|(order, _)| *order);
        self.spans.into_iter().map(|(_, span)| span).collect()
    }

    /// Leaves what was entered last; when it was read, records it.
    pub fn leave(&mut self, schema: &Schema, range: Range, ty: &FieldType, read: Option<&Value>) {
        let path = self.rendered();
        let Some((_, order, parts)) = self.path.pop() else {
            return;
        };
        let Some(value) = read else {
            return;
        };
        let first = first_bit(&range.0, self.spans.get(parts..).unwrap_or_default());
        let span = span(schema, path, (first, range), ty, value);
        self.spans.push((order, span));
    }

    /// Records the span of a value read at `range`, whose place `reserve` took.
    pub fn record(
        &mut self,
        schema: &Schema,
        (path, order): (String, usize),
        range: Range,
        (ty, value): (&FieldType, &Value),
    ) {
        let first = range.0.bit();
        let span = span(schema, path, (first, range), ty, value);
        self.spans.push((order, span));
    }

    /// The path being read, as documents name it.
    pub fn rendered(&self) -> String {
        let mut path = String::new();
        for (segment, ..) in &self.path {
            if !path.is_empty() && !segment.starts_with('[') {
                path.push('.');
            }
            path.push_str(segment);
        }
        path
    }
}

/// The first bit of a value read from `start`: a byte-aligned value drops the bits left in
/// the byte before it (`start.pending`), unless its first part is a bit field that continues
/// that byte — then its parts (`parts`, in the same stream, not read by position before it)
/// tell.
fn first_bit(start: &Place, parts: &[(usize, FieldSpan)]) -> u64 {
    let aligned = 8 * start.at.offset;
    if start.pending == 0 {
        return aligned;
    }
    let stream = start.at.stream.as_deref();
    (parts.iter())
        .filter(|(_, part)| part.stream.as_ref() == stream)
        .map(|(_, part)| part.bits.map_or(8 * part.start, |b| b.start_bit))
        .filter(|bit| (start.bit()..=aligned).contains(bit))
        .min()
        .unwrap_or(aligned)
}

/// The span of `value`, of type `ty`, read at `range`; a value that is not a bit field starts
/// at `first` (see [`first_bit`]).
fn span(
    schema: &Schema,
    path: String,
    (first, (start, end)): (u64, Range),
    ty: &FieldType,
    value: &Value,
) -> FieldSpan {
    let is_bits = matches!(ty, FieldType::Bits { .. } | FieldType::BitPadding);
    let start_bit = if is_bits { start.bit() } else { first };
    let end_bit = end.bit().max(start_bit);
    let bits = (is_bits || !start_bit.is_multiple_of(8) || !end_bit.is_multiple_of(8))
        .then_some(BitRange { start_bit, end_bit });
    FieldSpan {
        path,
        start: start_bit / 8,
        end: end_bit.div_ceil(8),
        bits,
        ty: ty.as_written(schema),
        value: shown(schema, ty, value),
        stream: start.at.stream.as_deref().cloned(),
    }
}

/// A value as the map shows it: none for values whose parts follow.
fn shown(schema: &Schema, ty: &FieldType, value: &Value) -> Option<serde_json::Value> {
    // A decoded string or byte array shows the value it holds (its bytes as stored are the
    // span's range).
    let mut value = value;
    while let Value::Decoded(decoded) = value {
        value = &decoded.value;
    }
    let leaf = !matches!(
        value,
        Value::Struct(_) | Value::List(_) | Value::Packed(_) | Value::Case(..) | Value::Decoded(_)
    );
    // A string shows Kaitai's value, its text (documents add the bytes around it).
    let text = match value {
        Value::Text(text) => Some(text.text()),
        Value::VarStr(text) => Some(text.text()),
        Value::FixedStr(raw) => Some(skelcodec_runtime::strings::FixedStrRef(raw).text()),
        _ => None,
    };
    if let Some(text) = text {
        return Some(serde_json::Value::String(text.into_owned()));
    }
    match (ty, value) {
        // Not in documents: shown as the bytes it is.
        (FieldType::Contents(bytes), Value::Unit) => Some(serde_json::Value::String(
            skelcodec_runtime::bytes::to_hex(bytes),
        )),
        _ => leaf
            .then(|| as_printed(&Document { schema, value }))
            .flatten(),
    }
}

/// A value as `decode` prints it: one that holds an `f4` through its text, since a tree built
/// directly holds it as the `f64` it widens to (`0.10000000149011612` where the file's value
/// is `0.1`); any other directly, which is faster.
fn as_printed(document: &Document<'_>) -> Option<serde_json::Value> {
    if !holds_f32(document.value) {
        return serde_json::to_value(document).ok();
    }
    let text = serde_json::to_string(document).ok()?;
    serde_json::from_str(&text).ok()
}

/// Whether `value` is or holds an `f4` (a quaternion or vector of them).
fn holds_f32(value: &Value) -> bool {
    match value {
        Value::F32(_) => true,
        Value::Vector(components) => components.iter().any(holds_f32),
        _ => false,
    }
}
