//! The interpreter's writer on small schemas and files made by hand: files written back byte
//! for byte, documents encoded, and edits that would not read back refused with their path.

use crate::common::interpreter;
use serde_json::json;
use skelcodec_dynamic::Interpreter;

/// Encodes a document, or says why not (the error's path and message).
fn encode(interpreter: &Interpreter, document: serde_json::Value) -> Result<Vec<u8>, String> {
    let value = interpreter
        .value_of(&document)
        .map_err(|e| format!("document: {e}"))?;
    interpreter.write(&value).map_err(|e| e.to_string())
}

const RECORDS: &str = "
meta: {id: records, endian: le, encoding: ASCII}
seq:
  - {id: count, type: u2}
  - {id: records, type: record, repeat: expr, repeat-expr: count}
  - {id: kind, type: u1}
  - id: body
    type:
      switch-on: kind
      cases:
        1: words
        2: strz
types:
  record:
    seq:
      - {id: len, type: u1}
      - {id: name, type: str, size: len}
      - {id: flag, type: u1, if: len > 2}
  words:
    seq:
      - {id: items, type: u2, repeat: eos}
";

fn records_file() -> Vec<u8> {
    let mut bytes = vec![2, 0];
    bytes.extend([3, b'a', b'b', b'c', 7]);
    bytes.extend([1, b'z']);
    bytes.extend([1, 0x34, 0x12, 0x78, 0x56]);
    bytes
}

#[test]
fn a_file_is_written_back_byte_for_byte_and_from_its_document() {
    let interpreter = interpreter(RECORDS);
    let bytes = records_file();
    let value = interpreter.read(&bytes).expect("the file reads");
    assert_eq!(interpreter.write(&value).expect("it writes"), bytes);
    let document = serde_json::to_value(interpreter.document(&value)).expect("a document");
    assert_eq!(
        document,
        json!({
            "count": 2,
            "records": [
                {"len": 3, "name": {"text": "abc"}, "flag": 7},
                {"len": 1, "name": {"text": "z"}, "flag": null}
            ],
            "kind": 1,
            "body": {"words": {"items": [0x1234, 0x5678]}},
        })
    );
    assert_eq!(encode(&interpreter, document), Ok(bytes));
}

#[test]
fn an_edited_document_is_written_when_it_reads_back_as_edited() {
    let interpreter = interpreter(RECORDS);
    let document = json!({
        "count": 1,
        "records": [{"len": 2, "name": "hi"}],
        "kind": 2,
        "body": {"text": "end"},
    });
    assert_eq!(
        encode(&interpreter, document),
        Ok(vec![1, 0, 2, b'h', b'i', 2, b'e', b'n', b'd', 0])
    );
}

#[test]
fn edits_the_reader_would_read_otherwise_are_refused_with_their_path() {
    let interpreter = interpreter(RECORDS);
    let base = json!({
        "count": 2,
        "records": [{"len": 3, "name": "abc", "flag": 7}, {"len": 1, "name": "z"}],
        "kind": 1,
        "body": {"words": {"items": [1]}},
    });
    let edited = |edit: &dyn Fn(&mut serde_json::Value)| {
        let mut document = base.clone();
        edit(&mut document);
        encode(&interpreter, document).expect_err("refused")
    };
    // A list longer than its count.
    let error = edited(&|d| d["count"] = json!(1));
    assert!(
        error.contains("records") && error.contains("the count is 1 but the list has 2"),
        "{error}"
    );
    // A name longer than its size.
    let error = edited(&|d| d["records"][1]["name"] = json!("zz"));
    assert!(
        error.contains("records[1].name") && error.contains("the size is 1"),
        "{error}"
    );
    // A field whose condition no longer holds.
    let error = edited(&|d| d["records"][0] = json!({"len": 2, "name": "ab", "flag": 7}));
    assert!(
        error.contains("records[0].flag") && error.contains("condition does not hold"),
        "{error}"
    );
    // A case the selector does not call for.
    let error = edited(&|d| d["kind"] = json!(2));
    assert!(
        error.contains("body") && error.contains("calls for the case `text`"),
        "{error}"
    );
    // A value that does not fit its field, and a misspelt key: refused before writing.
    let error = edited(&|d| d["records"][0]["flag"] = json!(256));
    assert!(
        error.starts_with("document: records[0].flag: invalid value: integer `256`, expected u8"),
        "{error}"
    );
    let error = edited(&|d| d["kinds"] = json!(1));
    assert!(error.contains("unknown field `kinds`"), "{error}");
}

#[test]
fn what_no_check_can_see_is_refused_by_reading_the_output_back() {
    // The reader stops the list where the stream ends: a terminator edited into an element
    // would end it early, which only reading shows.
    let interpreter = interpreter(
        "
meta: {id: positions, endian: le}
seq:
  - {id: a, type: u1}
  - {id: b, type: u1, if: _io.pos < 2}
  - {id: rest, type: u1, repeat: eos}
",
    );
    let bytes = [1, 2, 3, 4];
    let value = interpreter.read(&bytes).expect("the file reads");
    assert_eq!(interpreter.write(&value).expect("it writes"), bytes);
    // Without `b`, the reader would read the byte after `a` as `b` again.
    let error = encode(&interpreter, json!({"a": 1, "rest": [3, 4]})).expect_err("refused");
    assert!(
        error.contains("would read back as another") && error.contains('b'),
        "{error}"
    );
}

#[test]
fn values_read_by_position_are_placed_back_and_unclaimed_bytes_kept() {
    let interpreter = interpreter(
        "
meta: {id: table, endian: le}
seq:
  - {id: ofs, type: u1}
instances:
  body: {pos: ofs, size: 2}
  broken: {pos: 100, size: 2}
",
    );
    // `body` at 4; bytes 1..4 belong to no field; `broken` is past the end.
    let bytes = [4, 0xaa, 0xbb, 0xcc, 1, 2];
    let value = interpreter.read(&bytes).expect("the file reads");
    let document = serde_json::to_value(interpreter.document(&value)).expect("a document");
    assert_eq!(document["body"], json!("0102"));
    assert_eq!(
        document["unclaimed"],
        json!([{"offset": 1, "bytes": "aabbcc"}])
    );
    // A parse instance's failure is its own, kept in the document.
    assert!(document["broken"]["_error"].is_string(), "{document}");
    assert_eq!(interpreter.write(&value).expect("it writes"), bytes);
    assert_eq!(encode(&interpreter, document.clone()), Ok(bytes.to_vec()));
    // Edited where it was read, the rest kept.
    let mut edited = document;
    edited["body"] = json!("0304");
    assert_eq!(
        encode(&interpreter, edited),
        Ok(vec![4, 0xaa, 0xbb, 0xcc, 3, 4])
    );
}

#[test]
fn a_kept_argument_is_in_the_document_and_an_edit_that_changes_it_is_refused() {
    let interpreter = interpreter(
        "
meta: {id: groups}
seq:
  - id: groups
    type: 'group(_index != 0 ? groups[_index - 1].total : 0)'
    repeat: until
    repeat-until: not _.has_next
types:
  group:
    params:
      - {id: before, type: u8}
    seq:
      - {id: b, type: u1}
    instances:
      has_next: {value: (b & 0x80) != 0}
      total: {value: before + (b & 0x7f)}
",
    );
    let bytes = [0x81, 0x82, 0x03];
    let value = interpreter.read(&bytes).expect("the file reads");
    let document = serde_json::to_value(interpreter.document(&value)).expect("a document");
    assert_eq!(
        document,
        json!({"groups": [
            {"before": 0, "b": 0x81},
            {"before": 1, "b": 0x82},
            {"before": 3, "b": 3},
        ]})
    );
    assert_eq!(encode(&interpreter, document.clone()), Ok(bytes.to_vec()));
    let mut edited = document;
    edited["groups"][0]["b"] = json!(0x85);
    let refused = encode(&interpreter, edited).expect_err("group 1 was read with 1, not 5");
    assert!(
        refused.contains("groups.1.before") || refused.contains("groups[1].before"),
        "{refused}"
    );
}
