//! A root type with parameters read by both back ends: with its defaults (the generated
//! code's `read`, the interpreter given nothing) and with arguments (`read_with`, the
//! interpreter's `with_argument`), to the same document and the same bytes written back.

mod root_params {
    skelcodec_macros::codec!("tests/schemas/root_params.ksy");
}

use root_params::{Kind, RootParams};
use skelcodec_generated_tests::{assert_interpreted_alike, interpreter};

const SCHEMA: &str = "tests/schemas/root_params.ksy";

#[test]
fn a_root_read_with_its_defaults_reads_alike_with_both_back_ends() {
    // One byte of body; no tail, no wide value.
    let file = b"z";
    let value = RootParams::read(file).unwrap();
    assert_eq!(value.body.0, b"z");
    assert_eq!((value.tail, value.wide), (None, None));
    assert_eq!(value.to_bytes().unwrap(), file);
    let document = serde_json::to_value(&value).unwrap();
    assert_interpreted_alike(&interpreter(SCHEMA), file, &document);
}

#[test]
fn a_root_read_with_arguments_reads_alike_with_both_back_ends() {
    // Two bytes of body, a tail and a wide value.
    let file = b"ab\x07\x01\x02";
    let value = RootParams::read_with(file, 2, true, Kind::Wide).unwrap();
    assert_eq!(value.body.0, b"ab");
    assert_eq!((value.tail, value.wide), (Some(7), Some(0x201)));
    let document = serde_json::to_value(&value).unwrap();
    let interpreter = interpreter(SCHEMA)
        .with_argument("len_body", "2")
        .and_then(|i| i.with_argument("has_tail", "true"))
        .and_then(|i| i.with_argument("kind", "wide"))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_interpreted_alike(&interpreter, file, &document);
}
