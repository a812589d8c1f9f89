//! `struct`, `struct[]` and `str[]` parameters: structures of any type taken back with
//! `.as<T>` (absent when the value is of another type), lists of them and of strings.

mod any_params {
    skelcodec_macros::codec!("tests/schemas/any_params.ksy");
}

use any_params::AnyParams;

/// head.len 2, tail.x 1, names "ab" "cde"[..2], body: data 2, extra 1, tag 2, mismatched 0.
const FILE: [u8; 11] = [2, 1, b'a', b'b', b'c', b'd', 0x10, 0x11, 0x20, 0x30, 0x31];

#[test]
fn structures_of_any_type_are_taken_back_as_the_type_asked_for() {
    let value = AnyParams::read(&FILE).unwrap();
    assert_eq!(value.body.data.0, [0x10, 0x11]);
    assert_eq!(value.body.extra.0, [0x20]);
    assert_eq!(value.body.tag.0, [0x30, 0x31]);
    // `all[0]` is a `head`: as a `tail` it is absent, and its `x` reads as 0.
    assert!(value.body.mismatched.0.is_empty());
    assert_eq!(value.to_bytes().unwrap(), FILE);
}

#[test]
fn the_writer_passes_the_structures_it_writes() {
    let mut value = AnyParams::read(&FILE).unwrap();
    value.head.len = 3;
    let err = value.to_bytes().unwrap_err().to_string();
    assert!(err.contains("body.data"), "{err}");
    value.body.data.0.push(0x12);
    let bytes = value.to_bytes().unwrap();
    assert_eq!(AnyParams::read(&bytes).unwrap(), value);
}
