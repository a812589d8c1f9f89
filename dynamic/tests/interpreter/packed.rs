//! Lists of plain elements (numbers, fixed strings, structures of them), which the interpreter
//! keeps as the bytes it read: their documents, the expressions that use their elements,
//! their writing back, and edits of them, as for any other list.

use crate::common::interpreter;
use serde_json::json;
use skelcodec_dynamic::{Int, Value};

const FRAMES: &str = r#"
meta: {id: frames, endian: le, encoding: ASCII}
seq:
  - {id: count, type: u1}
  - {id: frames, type: frame, repeat: expr, repeat-expr: count}
  - {id: marks, type: u2be, repeat: expr, repeat-expr: count}
  - {id: extra, type: u1, if: "frames[1].tag == 'ok' and marks[0] == 0x0102"}
  - {id: tail, size: 'frames[1].rot[2]'}
  - {id: words, type: u2, repeat: eos}
types:
  frame:
    seq:
      - {id: time, type: f4}
      - {id: rot, type: s2, repeat: expr, repeat-expr: 3}
      - {id: tag, type: str, size: 2}
"#;

fn frame(time: f32, rot: [i16; 3], tag: &[u8; 2]) -> Vec<u8> {
    let mut bytes = time.to_le_bytes().to_vec();
    rot.iter().for_each(|r| bytes.extend(r.to_le_bytes()));
    bytes.extend(tag);
    bytes
}

fn frames_file() -> Vec<u8> {
    let mut bytes = vec![2];
    bytes.extend(frame(0.5, [1, -2, 3], b"no"));
    bytes.extend(frame(1.25, [-4, 5, 2], b"ok"));
    bytes.extend([0x01, 0x02, 0x03, 0x04]);
    bytes.extend([7, 0xaa, 0xbb, 0x34, 0x12, 0x78, 0x56]);
    bytes
}

fn frames_document() -> serde_json::Value {
    json!({
        "count": 2,
        "frames": [
            {"time": 0.5, "rot": [1, -2, 3], "tag": {"text": "no"}},
            {"time": 1.25, "rot": [-4, 5, 2], "tag": {"text": "ok"}},
        ],
        "marks": [0x0102, 0x0304],
        "extra": 7,
        "tail": "aabb",
        "words": [0x1234, 0x5678],
    })
}

#[test]
fn their_documents_show_every_element_and_expressions_see_them() {
    let interpreter = interpreter(FRAMES);
    let value = interpreter.read(&frames_file()).expect("the file reads");
    let document = serde_json::to_value(interpreter.document(&value)).expect("a document");
    // `extra` and `tail` are read as the elements of the lists before them say.
    assert_eq!(document, frames_document());
    let Value::Struct(root) = &value else {
        panic!("the root is a structure");
    };
    let fields = root.fields.borrow();
    for (index, name) in [(1, "frames"), (2, "marks"), (5, "words")] {
        assert!(
            matches!(fields[index], Some(Value::Packed(_))),
            "{name} is kept as its bytes"
        );
    }
}

#[test]
fn they_are_written_back_and_encoded_from_their_documents() {
    let interpreter = interpreter(FRAMES);
    let bytes = frames_file();
    let value = interpreter.read(&bytes).expect("the file reads");
    assert_eq!(interpreter.write(&value).expect("it writes"), bytes);
    let from_document = interpreter
        .value_of(&frames_document())
        .expect("the document is a value");
    assert_eq!(interpreter.write(&from_document).expect("it writes"), bytes);
}

#[test]
fn an_edited_element_is_written_and_reads_back_edited() {
    let interpreter = interpreter(FRAMES);
    let mut document = frames_document();
    document["frames"][0]["time"] = json!(2.0);
    document["words"] = json!([1, 2, 3]);
    let value = interpreter.value_of(&document).expect("a value");
    let bytes = interpreter.write(&value).expect("it writes");
    let back = interpreter.read(&bytes).expect("it reads back");
    let back = serde_json::to_value(interpreter.document(&back)).expect("a document");
    assert_eq!(back, document);
    assert_eq!(bytes[1..5], 2.0f32.to_le_bytes());
}

#[test]
fn a_count_that_no_longer_matches_its_list_is_refused() {
    let interpreter = interpreter(FRAMES);
    let value = interpreter.read(&frames_file()).expect("the file reads");
    let Value::Struct(root) = &value else {
        panic!("the root is a structure");
    };
    root.fields.borrow_mut()[0] = Some(Value::Int(Int::Unsigned(3)));
    let error = interpreter
        .write(&value)
        .expect_err("the count is 3, the lists 2");
    assert!(
        error.to_string().contains("frames"),
        "the error names the list: {error}"
    );
}

#[test]
fn a_list_whose_last_element_is_cut_short_fails_where_it_is() {
    let interpreter = interpreter(FRAMES);
    let mut bytes = frames_file();
    bytes.push(0x99);
    let error = interpreter
        .read(&bytes)
        .expect_err("an odd byte is half a word");
    let message = error.to_string();
    assert!(message.contains("words"), "{message}");
    assert_eq!(error.offset(), bytes.len() as u64 - 1, "{message}");
}

#[test]
fn a_long_list_across_the_file_and_one_in_decoded_bytes_read_as_any_other() {
    let schema = "
meta: {id: long, endian: le}
seq:
  - {id: skip, size: 65530}
  - {id: count, type: u4}
  - {id: numbers, type: u4, repeat: expr, repeat-expr: count}
  - {id: hidden, size: 8, process: xor(0xff), type: pairs}
types:
  pairs:
    seq:
      - {id: pairs, type: u2, repeat: eos}
";
    let interpreter = interpreter(schema);
    let mut bytes = vec![0; 65530];
    bytes.extend(20_000u32.to_le_bytes());
    (0..20_000u32).for_each(|n| bytes.extend((n * 3).to_le_bytes()));
    bytes.extend([1u8, 0, 2, 0, 3, 0, 4, 0].map(|b| b ^ 0xff));
    let value = interpreter.read(&bytes).expect("the file reads");
    let document = serde_json::to_value(interpreter.document(&value)).expect("a document");
    let numbers = document["numbers"].as_array().expect("a list");
    assert_eq!(numbers.len(), 20_000);
    assert_eq!(
        (numbers[0].clone(), numbers[19_999].clone()),
        (json!(0), json!(59_997))
    );
    assert_eq!(document["hidden"]["value"]["pairs"], json!([1, 2, 3, 4]));
    assert_eq!(interpreter.write(&value).expect("it writes"), bytes);
}
