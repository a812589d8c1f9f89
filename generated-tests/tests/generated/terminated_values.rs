//! Byte arrays and text with a terminator or padding hold Kaitai's value: the bytes before the
//! terminator (with it under `include`), padding stripped. The terminator, padding and what
//! follows them are kept and written back as read; an edited value is framed anew. The
//! generated code and the interpreter.

mod terminated_values {
    skelcodec_macros::codec!("tests/schemas/terminated_values.ksy");
}

use serde_json::json;
use skelcodec_generated_tests::{checked, interpreted_check, interpreter};
use terminated_values::TerminatedValues;

const SCHEMA: &str = "tests/schemas/terminated_values.ksy";

/// `ab\0`, a 6-byte note `GNU\0xy`, `ef` padded to 5, `gh\n`, `ij` padded to 5, `k;` (its
/// terminator included), `a \0` padded to 6 with spaces, then 1 (present when expressions
/// see Kaitai's values).
const FILE: &[u8] = b"ab\0\x06GNU\0xyef   gh\nij   k;a \0   \x01";

/// Each value as Kaitai holds it, with the bytes it is stored in.
fn kaitai_values() -> serde_json::Value {
    json!({
        "name": {"value": "6162", "stored": "616200"},
        "len_note": 6,
        "note": {"value": "474e55", "stored": "474e55007879"},
        "label": {"value": "6566", "stored": "6566202020"},
        "line": {"text": "gh", "stored": "67680a"},
        "title": {"text": "ij", "stored": "696a202020"},
        "kept": {"value": "6b3b", "stored": "6b3b"},
        "both": {"value": "6120", "stored": "612000202020"},
        "as_kaitai_reads": 1,
    })
}

#[test]
fn values_end_at_their_terminator_and_before_their_padding() {
    let value = TerminatedValues::read(FILE).unwrap();
    assert_eq!(value.note.value, b"GNU");
    assert_eq!(value.both.value, b"a ");
    assert_eq!(serde_json::to_value(&value).unwrap(), kaitai_values());
    assert_eq!(value.to_bytes().unwrap(), FILE);

    let interpreter = interpreter(SCHEMA);
    let read = interpreter.read(FILE).expect("the interpreter reads it");
    let document = serde_json::to_value(interpreter.document(&read)).unwrap();
    assert_eq!(document, kaitai_values());
    assert_eq!(interpreter.write(&read).unwrap(), FILE);
}

#[test]
fn an_edited_value_is_framed_anew_and_its_size_follows() {
    // `note` grows to 7 bytes: its terminator follows, its size is 8, and what followed the
    // old terminator (`xy`) goes with the old bytes.
    let mut document = kaitai_values();
    document["note"] = json!({"value": "4c494e555845", "stored": "474e55007879"});
    document["line"] = json!({"text": "hello"});
    // The note is no longer `GNU`: the flag that says so goes.
    document["as_kaitai_reads"] = json!(null);
    let mut value: TerminatedValues = serde_json::from_value(document.clone()).unwrap();
    // The new note with its terminator takes 7 bytes; the line, given without the bytes it is
    // stored in, is stored anew when written, which disagrees with nothing.
    let found = [
        "len_note: stored 6, computed 7",
        "note.stored: stored 6, computed 7",
    ];
    assert_eq!(checked(&value), found);
    value.normalize().unwrap();
    let written = value.to_bytes().unwrap();
    let expected = b"ab\0\x07LINUXE\0ef   hello\nij   k;a \0   ";
    assert_eq!(written, expected);
    let back = TerminatedValues::read(&written).unwrap();
    assert_eq!(back.note.value.0, b"LINUXE");
    assert_eq!(back.line.value.text(), "hello");

    let interpreter = interpreter(SCHEMA);
    let edited = interpreter
        .value_of(&document)
        .expect("the document is a value");
    assert_eq!(interpreted_check(&interpreter, &edited), found);
    interpreter.normalize(&edited).unwrap();
    assert_eq!(interpreter.write(&edited).unwrap(), expected);
}

#[test]
fn a_value_holding_its_terminator_is_refused_with_its_path() {
    let mut value = TerminatedValues::read(FILE).unwrap();
    value.name.value.0 = b"a\0b".to_vec().into();
    let error = value.to_bytes().unwrap_err().to_string();
    assert!(error.contains("name"), "{error}");
    assert!(error.contains("would not read back"), "{error}");
}

#[test]
fn an_edit_within_a_fixed_size_is_written_without_normalize() {
    // The label and the title grow within their 5 bytes (the flag that checks the old ones
    // goes), their old stored bytes still in the document; the note keeps its bytes. Both
    // back ends write it and read it back as edited, the bytes stored anew.
    let mut document = kaitai_values();
    document["label"]["value"] = json!("656667");
    document["title"]["text"] = json!("xyz");
    document["as_kaitai_reads"] = json!(null);
    let expected = b"ab\0\x06GNU\0xyefg  gh\nxyz  k;a \0   ";
    let value: TerminatedValues = serde_json::from_value(document.clone()).unwrap();
    assert_eq!(value.to_bytes().unwrap(), expected);
    let interpreter = interpreter(SCHEMA);
    let edited = interpreter
        .value_of(&document)
        .expect("the document is a value");
    assert_eq!(interpreter.write(&edited).unwrap(), expected);
    let back = interpreter.read(expected).unwrap();
    let back_document = serde_json::to_value(interpreter.document(&back)).unwrap();
    document["label"]["stored"] = json!("6566672020");
    document["title"]["stored"] = json!("78797a2020");
    assert_eq!(back_document, document);
}
