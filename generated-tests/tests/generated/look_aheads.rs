//! Look-ahead instances with `if` (absent, and 0 in arithmetic, when the condition fails) and
//! `enum`; type arguments spread over lines of a block scalar.

mod look_aheads {
    skelcodec_macros::codec!("tests/schemas/look_aheads.ksy");
}

use look_aheads::LookAheads;

#[test]
fn a_conditional_look_ahead_sizes_the_padding_only_when_its_flag_is_set() {
    // flags 1 (padding; kind small), payload "ab", padding [0, 0], checked 9, length 2.
    let padded = [1, b'a', b'b', 0, 0, 9, 2];
    let value = LookAheads::read(&padded).unwrap();
    assert_eq!(value.payload.0, b"ab");
    assert_eq!(value.padding.0, [0, 0]);
    assert_eq!(value.checked.items, [9]);
    assert_eq!(value.big_extra, None);
    assert_eq!(value.to_bytes().unwrap(), padded);
    // flags 2: no padding (the last byte is not read as a length); kind big: one extra byte.
    let plain = [2, b'a', b'b', 9, 8, 5];
    let value = LookAheads::read(&plain).unwrap();
    assert_eq!(value.payload.0, b"ab");
    assert!(value.padding.0.is_empty());
    assert_eq!(value.big_extra, Some(8));
    assert_eq!(value.to_bytes().unwrap(), plain);
}
