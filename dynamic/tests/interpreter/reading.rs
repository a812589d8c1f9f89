//! The interpreter on small schemas and files made by hand: values, documents and errors as
//! the schema and Kaitai's semantics define them.

use crate::common::interpreter;
use serde_json::json;

fn document(source: &str, bytes: &[u8]) -> serde_json::Value {
    let interpreter = interpreter(source);
    let value = interpreter.read(bytes).expect("the file reads");
    serde_json::to_value(interpreter.document(&value)).expect("a document")
}

#[test]
fn numbers_of_every_width_order_and_sign() {
    let schema = "
meta: {id: numbers, endian: le}
seq:
  - {id: a, type: u1}
  - {id: b, type: s2}
  - {id: c, type: u4be}
  - {id: d, type: s8}
  - {id: e, type: u8}
  - {id: f, type: f4}
";
    let mut bytes = vec![0xff, 0xfe, 0xff, 0x12, 0x34, 0x56, 0x78];
    bytes.extend((-3i64).to_le_bytes());
    bytes.extend(u64::MAX.to_le_bytes());
    bytes.extend(1.5f32.to_le_bytes());
    // The empty rest of the file (`_trailing`) is left out of documents.
    assert_eq!(
        document(schema, &bytes),
        json!({"a": 255, "b": -2, "c": 0x12345678, "d": -3, "e": u64::MAX, "f": 1.5})
    );
}

#[test]
fn strings_keep_every_byte_and_show_their_text() {
    let schema = "
meta: {id: strings, encoding: ASCII}
seq:
  - {id: fixed, type: str, size: 4}
  - {id: padded, type: str, size: 4}
  - {id: name, type: strz}
  - {id: rest, size-eos: true}
";
    let bytes = b"abcdhi\0\0xyz\0\x01\x02";
    assert_eq!(
        document(schema, bytes),
        json!({
            "fixed": {"text": "abcd"},
            "padded": {"text": "hi"},
            "name": {"text": "xyz"},
            "rest": "0102"
        })
    );
}

#[test]
fn counts_sizes_switches_and_conditions_come_from_values_read_before() {
    let schema = "
meta: {id: records, endian: be}
seq:
  - {id: count, type: u1}
  - {id: records, type: record, repeat: expr, repeat-expr: count}
types:
  record:
    seq:
      - {id: kind, type: u1, enum: kind}
      - {id: len, type: u1}
      - id: body
        size: body_len
        type:
          switch-on: kind
          cases:
            kind::number: number
            kind::text: text
      - {id: flag, type: u1, if: kind == kind::number}
    instances:
      body_len: {value: len - 1}
  number:
    seq:
      - {id: value, type: u2}
  text:
    seq:
      - {id: value, type: str, size-eos: true, encoding: ASCII}
enums:
  kind: {1: number, 2: text}
";
    let bytes = [2, 1, 3, 0x01, 0x02, 9, 2, 4, b'a', b'b', b'c'];
    assert_eq!(
        document(schema, &bytes),
        json!({
            "count": 2,
            "records": [
                {"kind": "number", "len": 3, "body": {"number": {"value": 0x0102}}, "flag": 9},
                {"kind": "text", "len": 4, "body": {"text": {"value": {"text": "abc"}}}, "flag": null},
            ],
        })
    );
}

#[test]
fn repeat_until_sees_each_element_and_eos_reads_to_the_end() {
    let schema = "
meta: {id: lists}
seq:
  - {id: until_zero, type: u1, repeat: until, repeat-until: _ == 0}
  - {id: rest, type: u1, repeat: eos}
";
    assert_eq!(
        document(schema, &[5, 6, 0, 7, 8]),
        json!({"until_zero": [5, 6, 0], "rest": [7, 8]})
    );
}

#[test]
fn a_failed_read_names_the_offset_and_the_field_path() {
    let schema = "
meta: {id: short, endian: le}
seq:
  - {id: header, type: header}
types:
  header:
    seq:
      - {id: magic, contents: [0x50, 0x4b]}
      - {id: sizes, type: u4, repeat: expr, repeat-expr: 2}
";
    let interpreter = interpreter(schema);
    // Two integers are one array of 8 bytes, read at once, as the generated code reads it.
    let error = interpreter
        .read(b"PK\x01\0\0\0\x02")
        .expect_err("one byte short");
    assert_eq!((error.offset(), error.path().as_str()), (2, "header.sizes"));
    let error = interpreter.read(b"PX").expect_err("wrong magic");
    assert_eq!((error.offset(), error.path().as_str()), (0, "header.magic"));
}

#[test]
fn bit_fields_read_from_the_top_of_each_byte() {
    let schema = "
meta: {id: bits, bit-endian: be}
seq:
  - {id: high, type: b3}
  - {id: low, type: b4}
  - {id: flag, type: b1}
  - {id: after, type: u1}
";
    // 101 0110 1: high, low, flag.
    let found = document(schema, &[0b1010_1101, 7]);
    assert_eq!(
        (
            &found["high"],
            &found["low"],
            &found["flag"],
            &found["after"]
        ),
        (&json!(5), &json!(6), &json!(true), &json!(7))
    );
}

#[test]
fn a_value_outside_its_valid_rule_is_refused_where_the_reader_stands() {
    let schema = "
meta: {id: checked, endian: be}
seq:
  - {id: version, type: u2, valid: {min: 2, max: 5}}
  - {id: kinds, type: u1, repeat: expr, repeat-expr: 3, valid: {any-of: [1, 2]}}
";
    let interpreter = interpreter(schema);
    assert_eq!(
        serde_json::to_value(interpreter.document(&interpreter.read(&[0, 3, 1, 2, 1]).unwrap()))
            .unwrap(),
        json!({"version": 3, "kinds": [1, 2, 1]})
    );
    let error = interpreter
        .read(&[0, 9, 1, 2, 1])
        .expect_err("9 is above 5");
    assert_eq!((error.offset(), error.path().as_str()), (2, "version"));
    assert!(
        matches!(error.kind(), skelcodec_runtime::ErrorKind::Validation { rule, message }
            if *rule == skelcodec_runtime::error::ValidationRule::GreaterThan && message.ends_with("found 9")),
        "{error}"
    );
    let error = interpreter
        .read(&[0, 3, 1, 7, 1])
        .expect_err("7 is none of 1, 2");
    assert_eq!((error.offset(), error.path().as_str()), (5, "kinds[1]"));
}

#[test]
fn a_byte_order_chosen_while_reading_holds_for_the_types_inside() {
    let schema = "
meta: {id: chosen}
seq:
  - {id: indicator, size: 2}
  - {id: main, type: main}
types:
  main:
    meta:
      endian:
        switch-on: _parent.indicator
        cases:
          '[0x49, 0x49]': le
          '[0x4d, 0x4d]': be
    seq:
      - {id: value, type: u2}
      - {id: inner, type: inner}
    types:
      inner:
        seq:
          - {id: value, type: u4}
";
    let expected = |indicator: &str| json!({"indicator": indicator, "main": {"value": 1, "inner": {"value": 2}}});
    assert_eq!(document(schema, b"II\x01\0\x02\0\0\0"), expected("4949"));
    assert_eq!(document(schema, b"MM\0\x01\0\0\0\x02"), expected("4d4d"));
    let error = interpreter(schema)
        .read(b"XX\0\x01\0\0\0\x02")
        .expect_err("no order");
    assert_eq!((error.offset(), error.path().as_str()), (2, "main"));
    assert!(
        matches!(
            error.kind(),
            skelcodec_runtime::ErrorKind::UndecidedEndianness { .. }
        ),
        "{error}"
    );
}

#[test]
fn look_aheads_read_the_integer_at_a_position_or_minus_one_past_the_end() {
    let schema = "
meta: {id: peeks, endian: le}
seq:
  - id: body
    type:
      switch-on: kind
      cases:
        1: one
        2: two
  - {id: tail, type: u1, if: next != -1}
instances:
  kind: {pos: 0, type: u1}
  next: {pos: 2, type: u1}
types:
  one:
    seq:
      - {id: a, type: u1}
      - {id: b, type: u1}
  two:
    seq:
      - {id: a, type: u2}
";
    assert_eq!(
        document(schema, &[1, 9]),
        json!({"body": {"one": {"a": 1, "b": 9}}, "tail": null})
    );
    assert_eq!(
        document(schema, &[2, 0, 7]),
        json!({"body": {"two": {"a": 2}}, "tail": 7})
    );
}

#[test]
fn sizeof_a_field_and_a_value_seen_while_it_is_read() {
    let schema = "
meta: {id: sizes, endian: le}
seq:
  - {id: magic, contents: AB}
  - {id: len, type: u2}
  - {id: body, size: 8 - magic._sizeof - len._sizeof}
  - {id: tag, type: tag}
types:
  tag:
    seq:
      - {id: header, type: header}
      - {id: data, type: data}
  header:
    seq:
      - {id: size, type: u1}
  data:
    seq:
      - {id: bytes, size: _root.tag.header.size}
";
    assert_eq!(
        document(schema, b"AB\x05\0wxyz\x02pq"),
        json!({
            "len": 5,
            "body": "7778797a",
            "tag": {"header": {"size": 2}, "data": {"bytes": "7071"}},
        })
    );
}

#[test]
fn a_count_of_empty_elements_far_beyond_the_file_is_refused() {
    // Each element takes no bytes: 4 billion of them would take the interpreter's memory, not
    // the file's (found by the schema mutants).
    let interpreter = interpreter(
        "
meta: {id: empties, endian: le}
seq:
  - {id: count, type: u4}
  - {id: items, type: empty, repeat: expr, repeat-expr: count}
types:
  empty:
    seq:
      - {id: x, type: u1, if: false}
",
    );
    let error = interpreter
        .read(&u32::MAX.to_le_bytes())
        .expect_err("refused");
    assert_eq!((error.offset(), error.path().as_str()), (4, "items"));
    // A count the file's size allows is read.
    let value = interpreter.read(&3u32.to_le_bytes()).expect("read");
    let document = serde_json::to_value(interpreter.document(&value)).unwrap();
    assert_eq!(
        document,
        json!({"count": 3, "items": [{"x": null}, {"x": null}, {"x": null}]})
    );
}

#[test]
fn an_instance_reads_in_another_values_stream_and_kept_streams_answer_for_their_values() {
    let schema = "
meta: {id: other_stream, endian: le}
seq:
  - {id: a, size: 4, type: slot}
  - {id: b, size: 4, type: slot}
  - {id: reader, type: peek}
  - {id: tail, type: u1, if: 'b._io.size == 4'}
types:
  slot:
    seq:
      - {id: first, type: u1}
  peek:
    seq:
      - {id: dummy, type: u1}
    instances:
      in_b:
        io: _parent.b._io
        pos: 2
        type: u2
";
    let bytes = [1, 0, 0, 0, 2, 0, 0x34, 0x12, 9, 7];
    let interpreter = interpreter(schema);
    let value = interpreter.read(&bytes).expect("the file reads");
    assert_eq!(
        serde_json::to_value(interpreter.document(&value)).expect("a document"),
        json!({
            "a": {"first": 1, "_unread": "000000"},
            "b": {"first": 2, "_unread": "003412"},
            "reader": {"dummy": 9, "in_b": 0x1234},
            "tail": 7,
        })
    );
    // The instance's bytes are `b`'s, written with it.
    assert_eq!(interpreter.write(&value).expect("it writes"), bytes);
}

#[test]
fn a_value_whose_instances_use_a_later_one_is_read_again_after_it() {
    let schema = "
meta: {id: later, endian: le, encoding: ASCII}
seq:
  - {id: count, type: u1}
  - {id: entries, type: entry, repeat: expr, repeat-expr: count}
  - {id: strings, type: strings, size-eos: true}
types:
  entry:
    seq:
      - {id: ofs, type: u1}
    instances:
      name: {io: _root.strings._io, pos: ofs, type: strz}
  strings:
    seq:
      - {id: first, type: strz}
";
    let bytes = [2, 0, 3, b'a', b'b', 0, b'c', b'd', 0];
    let interpreter = interpreter(schema);
    let value = interpreter.read(&bytes).expect("the file reads");
    let document = serde_json::to_value(interpreter.document(&value)).expect("a document");
    // Read the first time before `strings`, the names are read again once it is.
    assert_eq!(document["entries"][0]["name"], json!({"text": "ab"}));
    assert_eq!(document["entries"][1]["name"], json!({"text": "cd"}));
    assert_eq!(interpreter.write(&value).expect("it writes"), bytes);
}

#[test]
fn a_dotnet_length_reads_as_its_integer() {
    let schema = "
meta: {id: vlq}
seq:
  - {id: len, type: vlq_base128_le}
";
    assert_eq!(document(schema, &[0x96, 0x01]), json!({"len": 150}));
}
