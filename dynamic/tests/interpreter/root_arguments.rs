//! A root type with parameters: its arguments given by name, else its `-default`s; a read
//! that needs one with neither fails, naming it.

use serde_json::json;

use crate::common::interpreter;

const SCHEMA: &str = "
meta: {id: framed, endian: le}
params:
  - {id: len_body, type: u1}
  - {id: has_tail, type: bool, -default: false}
  - {id: kind, type: u2, enum: kind, -default: kind::plain}
  - {id: magic, type: bytes, -default: '[0x4d]'}
seq:
  - {id: head, contents: [0x4d]}
  - {id: body, size: len_body}
  - {id: tail, type: u1, if: has_tail}
  - {id: wide, type: u2, if: kind == kind::wide}
enums:
  kind: {1: plain, 2: wide}
";

#[test]
fn arguments_given_by_name_steer_the_read_and_the_write() {
    let interpreter = interpreter(SCHEMA)
        .with_argument("len_body", "2")
        .and_then(|i| i.with_argument("has_tail", "true"))
        .and_then(|i| i.with_argument("kind", "wide"))
        .unwrap_or_else(|e| panic!("{e}"));
    let file = b"Mab\x07\x01\x02";
    let value = interpreter.read(file).unwrap();
    assert_eq!(
        serde_json::to_value(interpreter.document(&value)).unwrap(),
        json!({"body": "6162", "tail": 7, "wide": 0x201})
    );
    assert_eq!(interpreter.write(&value).unwrap(), file);
    // Encoded from a document, the value has the same arguments.
    let edited = interpreter
        .value_of(&json!({"body": "7a7a", "tail": 8, "wide": 3}))
        .unwrap();
    assert_eq!(interpreter.write(&edited).unwrap(), b"Mzz\x08\x03\x00");
}

#[test]
fn a_parameter_not_given_has_its_default() {
    let interpreter = interpreter(SCHEMA)
        .with_argument("len_body", "0x1")
        .unwrap();
    let value = interpreter.read(b"Mz").unwrap();
    assert_eq!(
        serde_json::to_value(interpreter.document(&value)).unwrap(),
        json!({"body": "7a", "tail": null, "wide": null})
    );
    // An enum parameter is also given by number.
    let wide = interpreter.with_argument("kind", "2").unwrap();
    assert!(wide.read(b"Mz").is_err(), "a wide one needs two more bytes");
}

#[test]
fn a_read_that_needs_a_parameter_without_a_value_fails_naming_it() {
    let interpreter = interpreter(SCHEMA);
    let error = interpreter.read(b"Mz").unwrap_err();
    assert!(error.to_string().contains("`len_body`"), "{error}");
    assert_eq!(error.offset(), 0);
    let explained = interpreter.explain(b"Mz");
    assert!(
        explained
            .error
            .is_some_and(|e| e.to_string().contains("`len_body`"))
    );
    let refused = interpreter.value_of(&json!({"body": "7a"})).unwrap_err();
    assert!(refused.message.contains("`len_body`"), "{refused}");
}

#[test]
fn an_argument_is_refused_naming_the_parameter_and_what_it_takes() {
    let refused = |name: &str, text: &str| {
        interpreter(SCHEMA)
            .with_argument(name, text)
            .map(drop)
            .unwrap_err()
            .to_string()
    };
    let message = refused("len_body", "256");
    assert!(
        message.contains("`len_body`") && message.contains("u1"),
        "{message}"
    );
    let message = refused("has_tail", "yes");
    assert!(message.contains("`true` or `false`"), "{message}");
    let message = refused("kind", "huge");
    assert!(message.contains("plain, wide"), "{message}");
    let message = refused("magic", "4");
    assert!(message.contains("hexadecimal"), "{message}");
    let message = refused("size", "1");
    assert!(
        message.contains("len_body, has_tail, kind, magic"),
        "{message}"
    );
}

#[test]
fn a_parameter_of_a_structure_is_named_as_one_that_cannot_be_given() {
    let interpreter = interpreter(
        "
meta: {id: holder, endian: le}
params:
  - {id: header, type: header}
seq:
  - {id: body, size: header.len}
types:
  header:
    seq:
      - {id: len, type: u1}
",
    );
    let error = interpreter.read(b"ab").unwrap_err().to_string();
    assert!(
        error.contains("`header`") && error.contains("cannot be given"),
        "{error}"
    );
    let refused = interpreter
        .with_argument("header", "1")
        .map(drop)
        .unwrap_err();
    assert!(
        refused.message.contains("can be given as text"),
        "{refused}"
    );
}
