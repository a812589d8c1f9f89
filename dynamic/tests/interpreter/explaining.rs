//! The field map of a read (`Interpreter::explain`), on a file made by hand: each field,
//! element and case where the bytes put it; a failed read mapped up to the failure.

use crate::common::interpreter;
use serde_json::json;
use skelcodec_dynamic::{FieldSpan, Stream};

const SCHEMA: &str = "
meta: {id: tagged, endian: be, encoding: ASCII}
seq:
  - {id: magic, contents: TG}
  - {id: count, type: u1}
  - {id: items, type: item, repeat: expr, repeat-expr: count}
types:
  item:
    seq:
      - {id: tag, type: u1}
      - id: body
        type:
          switch-on: tag
          cases:
            1: u2
            2: strz
";

/// The spans as (path, start, end, value) rows.
fn rows(spans: &[FieldSpan]) -> Vec<(&str, u64, u64, Option<serde_json::Value>)> {
    spans
        .iter()
        .map(|s| (s.path.as_str(), s.start, s.end, s.value.clone()))
        .collect()
}

#[test]
fn every_field_element_and_case_has_its_byte_range() {
    // `TG`, 2 items: tag 1 with the u2 0x0102, tag 2 with the text "ok" and its NUL.
    let bytes = b"TG\x02\x01\x01\x02\x02ok\x00";
    let explained = interpreter(SCHEMA).explain(bytes);
    assert!(explained.error.is_none());
    assert_eq!(
        rows(&explained.spans),
        vec![
            ("magic", 0, 2, Some(json!("5447"))),
            ("count", 2, 3, Some(json!(2))),
            ("items", 3, 10, None),
            ("items[0]", 3, 6, None),
            ("items[0].tag", 3, 4, Some(json!(1))),
            ("items[0].body", 4, 6, None),
            ("items[0].body.u2", 4, 6, Some(json!(0x0102))),
            ("items[1]", 6, 10, None),
            ("items[1].tag", 6, 7, Some(json!(2))),
            ("items[1].body", 7, 10, None),
            ("items[1].body.text", 7, 10, Some(json!("ok"))),
        ]
    );
    assert_eq!(explained.spans[4].ty, "u1");
    assert_eq!(explained.spans[6].ty, "u2be");
}

#[test]
fn a_framed_value_shows_kaitais_value_over_the_bytes_it_is_stored_in() {
    let schema = "
meta: {id: framed, encoding: ASCII}
seq:
  - {id: name, size: 5, pad-right: 0x20, type: str}
  - {id: tag, terminator: 0x3b}
";
    assert_eq!(
        rows(&spans_of(schema, b"ab   xy;")),
        vec![
            ("name", 0, 5, Some(json!("ab"))),
            ("tag", 5, 8, Some(json!("7879"))),
        ]
    );
}

#[test]
fn a_failed_read_is_mapped_up_to_the_failure_with_its_partial_tree() {
    // The second item's number is cut short.
    let bytes = b"TG\x02\x01\x01\x02\x01\x05";
    let explained = interpreter(SCHEMA).explain(bytes);
    let error = explained.error.expect("the read fails");
    assert_eq!(
        (error.offset(), error.path().as_str()),
        (7, "items[1].body.u2")
    );
    let last = explained.spans.last().expect("spans");
    assert_eq!(
        (last.path.as_str(), last.start, last.end),
        ("items[1].tag", 6, 7)
    );
    assert_eq!(
        explained.tree,
        Some(json!({"count": 2, "items": [{"tag": 1, "body": {"u2": 258}}]}))
    );
}

/// The span at `path`.
#[track_caller]
fn span<'a>(spans: &'a [FieldSpan], path: &str) -> &'a FieldSpan {
    let found = spans.iter().find(|s| s.path == path);
    found.unwrap_or_else(|| panic!("no span at {path} in {spans:#?}"))
}

/// A byte range, and a bit range where the span has one.
type Ranges = (u64, u64, Option<(u64, u64)>);

/// A span's byte range and bit range.
fn ranges(span: &FieldSpan) -> Ranges {
    let bits = span.bits.map(|b| (b.start_bit, b.end_bit));
    (span.start, span.end, bits)
}

/// The spans of `bytes` read whole with `schema`.
#[track_caller]
fn spans_of(schema: &str, bytes: &[u8]) -> Vec<FieldSpan> {
    let explained = interpreter(schema).explain(bytes);
    assert!(explained.error.is_none(), "{:?}", explained.error);
    explained.spans
}

/// The ranges and the value of the span at `path`.
#[track_caller]
fn seen(spans: &[FieldSpan], path: &str) -> (Ranges, Option<serde_json::Value>) {
    let span = span(spans, path);
    (ranges(span), span.value.clone())
}

#[test]
fn bit_fields_have_their_bit_ranges_in_big_endian_bit_order() {
    let schema = "
meta: {id: bits, endian: le}
seq:
  - {id: flags, type: b3}
  - {id: kind, type: b5}
  - {id: wide, type: b12}
  - {id: tail, type: u1}
";
    // flags takes the 3 high bits of byte 0 (101), kind its 5 low ones (00011); wide the
    // 12 bits 0xABC of bytes 1 and 2; the 4 bits left of byte 2 are dropped before tail.
    let bytes = [0b101_00011, 0xab, 0xc0, 0x07];
    let spans = &spans_of(schema, &bytes);
    assert_eq!(seen(spans, "flags"), ((0, 1, Some((0, 3))), Some(json!(5))));
    assert_eq!(seen(spans, "kind"), ((0, 1, Some((3, 8))), Some(json!(3))));
    assert_eq!(
        seen(spans, "wide"),
        ((1, 3, Some((8, 20))), Some(json!(0xabc)))
    );
    // A byte-aligned field starts at the next whole byte and has no bit range.
    assert_eq!(seen(spans, "tail"), ((3, 4, None), Some(json!(7))));
}

#[test]
fn bit_fields_in_little_endian_bit_order_and_a_type_that_starts_inside_a_byte() {
    let schema = "
meta: {id: bits, endian: le, bit-endian: le}
seq:
  - {id: flags, type: b3}
  - {id: pair, type: two}
  - {id: tail, type: u1}
types:
  two:
    seq: [{id: x, type: b2}, {id: y, type: b4}]
";
    // 0xd5 = 1101_0101: flags takes the 3 low bits (101), x the next 2 (10), y the 3 high
    // bits (110) and then bit 0 of 0x33 (1) as its top bit: 0b1110.
    let bytes = [0xd5, 0x33, 0x10];
    let spans = &spans_of(schema, &bytes);
    assert_eq!(seen(spans, "flags"), ((0, 1, Some((0, 3))), Some(json!(5))));
    // The structure starts where its first bit field does, inside byte 0.
    assert_eq!(ranges(span(spans, "pair")), (0, 2, Some((3, 9))));
    assert_eq!(
        seen(spans, "pair.x"),
        ((0, 1, Some((3, 5))), Some(json!(2)))
    );
    assert_eq!(
        seen(spans, "pair.y"),
        ((0, 2, Some((5, 9))), Some(json!(14)))
    );
    assert_eq!(seen(spans, "tail"), ((2, 3, None), Some(json!(0x10))));
}

#[test]
fn values_in_decoded_bytes_name_their_stream_and_where_it_is_stored() {
    let schema = "
meta: {id: packed, endian: le}
seq:
  - {id: len, type: u1}
  - {id: outer, size: len, process: xor(0xff), type: wrap}
  - {id: plain, size: 2, type: one}
types:
  wrap:
    seq:
      - {id: first, type: u1}
      - {id: inner, size: 2, process: xor(0x0f), type: one}
  one:
    seq: [{id: v, type: u2}]
";
    // `outer` decodes to 05 3b 1d (each byte xor 0xff), whose last two bytes decode to
    // 34 12 (xor 0x0f); `plain` is 78 56 in a substream of the file.
    let bytes = [0x03, 0xfa, 0xc4, 0xe2, 0x78, 0x56];
    let spans = &spans_of(schema, &bytes);
    let outer = Stream {
        path: "outer".into(),
        stored_start: 1,
        stored_end: 4,
        stored_in: None,
    };
    let inner = Stream {
        path: "outer.inner".into(),
        stored_start: 1,
        stored_end: 3,
        stored_in: Some("outer".into()),
    };
    let at = |path| {
        let s = span(spans, path);
        (s.start, s.end, s.stream.clone(), s.value.clone())
    };
    assert_eq!(at("outer"), (1, 4, None, None));
    assert_eq!(
        at("outer.first"),
        (0, 1, Some(outer.clone()), Some(json!(5)))
    );
    assert_eq!(at("outer.inner"), (1, 3, Some(outer), None));
    assert_eq!(
        at("outer.inner.v"),
        (0, 2, Some(inner), Some(json!(0x1234)))
    );
    // A substream of the file, not decoded: file offsets.
    assert_eq!(at("plain.v"), (4, 6, None, Some(json!(0x5678))));
}

#[test]
fn instances_are_mapped_where_they_are_read() {
    let schema = "
meta: {id: placed, endian: le}
seq:
  - {id: ofs, type: u1}
  - {id: len, type: u1}
  - {id: body, size: len, process: xor(0xff), type: body}
instances:
  raw_at: {pos: 0, size: 2}
  at_ofs: {pos: ofs, type: u2}
  far: {pos: 200, type: u2}
  in_body: {io: body._io, pos: 1, type: u1}
types:
  body:
    seq: [{id: b, type: u1}]
";
    // `body` decodes to 09 2a; `at_ofs` reads f6 d5 at offset 2 (`ofs`).
    let bytes = [0x02, 0x02, 0xf6, 0xd5];
    let spans = &spans_of(schema, &bytes);
    let at = |path| {
        let s = span(spans, path);
        (s.start, s.end, s.stream.as_ref().map(|s| s.path.clone()))
    };
    assert_eq!(at("raw_at"), (0, 2, None));
    assert_eq!(span(spans, "raw_at").value, Some(json!("0202")));
    // A look-ahead, read only when an expression needs it, is mapped all the same.
    assert_eq!(at("at_ofs"), (2, 4, None));
    assert_eq!(span(spans, "at_ofs").value, Some(json!(0xd5f6)));
    assert_eq!(span(spans, "at_ofs").ty, "u2le");
    // Past the end it reads nothing, and is not mapped.
    assert!(spans.iter().all(|s| s.path != "far"));
    // In another value's decoded stream: offsets in it.
    assert_eq!(at("in_body"), (1, 2, Some("body".into())));
    assert_eq!(span(spans, "in_body").value, Some(json!(0x2a)));
    assert_eq!(at("body.b"), (0, 1, Some("body".into())));
}
