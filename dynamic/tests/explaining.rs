//! The field map of a read (`Interpreter::explain`), on a file made by hand: each field,
//! element and case where the bytes put it; a failed read mapped up to the failure.

mod common;

use common::interpreter;
use serde_json::json;
use skelcodec_dynamic::FieldSpan;

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
