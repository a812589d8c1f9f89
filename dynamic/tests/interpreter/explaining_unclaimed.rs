//! The bytes no field claims, in the field map (`Interpreter::explain`): a row for each run,
//! between fields and after the last one, with its range and its first bytes.

use crate::common::interpreter;
use serde_json::json;
use skelcodec_dynamic::{FieldSpan, UNCLAIMED};

/// The spans as (path, start, end, value) rows.
fn rows(spans: &[FieldSpan]) -> Vec<(&str, u64, u64, Option<serde_json::Value>)> {
    spans
        .iter()
        .map(|s| (s.path.as_str(), s.start, s.end, s.value.clone()))
        .collect()
}

/// A byte, a block whose size claims 3 bytes of which it reads 1, and a byte read by position
/// past a gap.
const SCHEMA: &str = "
meta: {id: gappy}
seq:
  - {id: first, type: u1}
  - {id: block, type: one, size: 3}
instances:
  placed: {pos: 8, type: u1}
types:
  one:
    seq: [{id: b, type: u1}]
";

#[test]
fn gaps_and_trailing_bytes_are_rows_of_their_own() {
    let file = b"\x01\x02\xee\xee\xaa\xbb\xcc\xdd\x09\xff\xfe";
    let explained = interpreter(SCHEMA).explain(file);
    assert!(explained.error.is_none(), "{:?}", explained.error);
    assert_eq!(
        rows(&explained.spans),
        vec![
            ("first", 0, 1, Some(json!(1))),
            // The block's size claims its 3 bytes, those its type does not read included.
            ("block", 1, 4, None),
            ("block.b", 1, 2, Some(json!(2))),
            ("block._unread", 2, 4, Some(json!("eeee"))),
            (UNCLAIMED, 4, 8, Some(json!("aabbccdd"))),
            ("placed", 8, 9, Some(json!(9))),
            (UNCLAIMED, 9, 11, Some(json!("fffe"))),
        ]
    );
    assert_eq!(explained.spans[4].ty, "bytes");
}

#[test]
fn a_long_run_shows_its_first_bytes() {
    let mut file = b"\x01\x02\x00\x00".to_vec();
    file.extend([0xab; 4]);
    file.push(9);
    file.extend([0x55; 100]);
    let explained = interpreter(SCHEMA).explain(&file);
    let last = explained.spans.last().expect("spans");
    assert_eq!(
        (last.path.as_str(), last.start, last.end),
        (UNCLAIMED, 9, 109)
    );
    assert_eq!(last.value, Some(json!(format!("{}…", "55".repeat(16)))));
}

#[test]
fn a_file_whose_every_byte_is_claimed_has_none_and_a_failed_read_shows_none() {
    let whole = interpreter(SCHEMA).explain(b"\x01\x02\0\0\0\0\0\0\x09");
    let unclaimed: Vec<_> = (whole.spans.iter())
        .filter(|s| s.path == UNCLAIMED)
        .map(|s| (s.start, s.end))
        .collect();
    assert_eq!(unclaimed, [(4, 8)], "only the gap before `placed`");
    let claimed =
        interpreter("meta: {id: whole}\nseq: [{id: all, size-eos: true}]").explain(b"abc");
    assert!(
        claimed.spans.iter().all(|s| s.path != UNCLAIMED),
        "{:#?}",
        claimed.spans
    );
    // The block cut short: the bytes after `first` are not known to be unclaimed.
    let failed = interpreter(SCHEMA).explain(b"\x01\x02\0");
    assert!(failed.error.is_some());
    assert!(
        failed.spans.iter().all(|s| s.path != UNCLAIMED),
        "{:#?}",
        failed.spans
    );
}
