//! The values `explain` shows: text in every encoding the runtime supports, floats as
//! `decode` prints them, and the elements of fixed arrays (`repeat-expr` with a literal
//! count), which have rows of their own.

use crate::common::interpreter;
use serde_json::json;
use skelcodec_dynamic::FieldSpan;
use skelcodec_runtime::encoding::Encoding;

/// Texts to store, the first one an encoding can hold being used: each beyond ASCII where the
/// encoding allows, so that its bytes are not UTF-8's.
const SAMPLES: &[&str] = &[
    "café",
    "Привет",
    "こんにちは",
    "中文",
    "안녕",
    "שלום",
    "ไทย",
    "abc",
];

/// The first sample `encoding` stores, with its bytes.
fn sample(encoding: Encoding) -> (&'static str, Vec<u8>) {
    SAMPLES
        .iter()
        .find_map(|text| {
            let bytes = encoding.encode(text).ok()?;
            (encoding.decode(&bytes) == *text).then(|| (*text, bytes.into_owned()))
        })
        .unwrap_or_else(|| panic!("{}: no sample encodes", encoding.name()))
}

/// The value of the span at `path`.
#[track_caller]
fn value_at(spans: &[FieldSpan], path: &str) -> Option<serde_json::Value> {
    let found = spans.iter().find(|s| s.path == path);
    found
        .unwrap_or_else(|| panic!("no span at {path} in {spans:#?}"))
        .value
        .clone()
}

#[test]
fn text_in_every_encoding_shows_its_value() {
    for &encoding in Encoding::ALL {
        let (text, bytes) = sample(encoding);
        let n = bytes.len();
        // The same text twice: a field of its own, then a list of two.
        let schema = format!(
            "
meta: {{id: text, encoding: {name}}}
seq:
  - {{id: one, type: str, size: {n}}}
  - {{id: two, type: str, size: {n}, repeat: expr, repeat-expr: 2}}
",
            name = encoding.name()
        );
        let file = bytes.repeat(3);
        let explained = interpreter(&schema).explain(&file);
        let name = encoding.name();
        assert!(explained.error.is_none(), "{name}: {:?}", explained.error);
        for path in ["one", "two[0]", "two[1]"] {
            assert_eq!(
                value_at(&explained.spans, path),
                Some(json!(text)),
                "{name}: {path}"
            );
        }
    }
}

#[test]
fn each_element_of_a_fixed_array_has_its_row() {
    let schema = "
meta: {id: arrays, endian: le, encoding: ASCII}
seq:
  - {id: bytes, type: u1, repeat: expr, repeat-expr: 3}
  - {id: names, type: str, size: 2, repeat: expr, repeat-expr: 2}
";
    let explained = interpreter(schema).explain(b"\x01\x02\x03abcd");
    assert!(explained.error.is_none(), "{:?}", explained.error);
    let rows: Vec<(&str, u64, u64, Option<serde_json::Value>)> = (explained.spans.iter())
        .map(|s| (s.path.as_str(), s.start, s.end, s.value.clone()))
        .collect();
    assert_eq!(
        rows,
        vec![
            ("bytes", 0, 3, None),
            ("bytes[0]", 0, 1, Some(json!(1))),
            ("bytes[1]", 1, 2, Some(json!(2))),
            ("bytes[2]", 2, 3, Some(json!(3))),
            ("names", 3, 7, None),
            ("names[0]", 3, 5, Some(json!("ab"))),
            ("names[1]", 5, 7, Some(json!("cd"))),
        ]
    );
}

#[test]
fn a_float_shows_as_decode_prints_it() {
    let schema = "
meta: {id: floats, endian: le}
seq:
  - {id: single, type: f4}
  - {id: double, type: f8}
";
    let mut file = 0.1f32.to_le_bytes().to_vec();
    file.extend(0.1f64.to_le_bytes());
    let explained = interpreter(schema).explain(&file);
    // Not 0.10000000149011612, the f64 the f4 widens to.
    assert_eq!(value_at(&explained.spans, "single"), Some(json!(0.1)));
    assert_eq!(value_at(&explained.spans, "double"), Some(json!(0.1)));
}
