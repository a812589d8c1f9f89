//! `meta/endian` chosen by `switch-on`: the order a header names is used by the type that
//! chooses and the types nested in it, on reading and on writing; an edited header changes
//! the order the value is written in. A look-ahead instance is kept in the value, not written.

#[allow(deprecated)] // the schema's style warnings, which `schema check` lists
mod chosen_byte_order {
    skelcodec_macros::codec!("tests/schemas/chosen_byte_order.ksy");
}

use chosen_byte_order::ChosenByteOrder;

const LITTLE: [u8; 8] = [b'I', b'I', 1, 0, 0x78, 0x56, 0x34, 0x12];
const BIG: [u8; 8] = [b'M', b'M', 0, 1, 0x12, 0x34, 0x56, 0x78];

#[test]
fn the_header_chooses_the_order_of_the_body_and_its_nested_types() {
    for file in [LITTLE, BIG] {
        let value = ChosenByteOrder::read(&file).unwrap();
        assert_eq!(value.body.count, 1);
        assert_eq!(value.body.items[0].value, 0x1234_5678);
        assert_eq!(value.to_bytes().unwrap(), file);
    }
}

#[test]
fn an_edited_header_writes_the_body_in_the_new_order() {
    let mut value = ChosenByteOrder::read(&LITTLE).unwrap();
    value.mark.0 = b"MM".to_vec().into();
    assert_eq!(value.to_bytes().unwrap(), BIG);
}

#[test]
fn a_look_ahead_shows_what_was_read_and_is_never_written() {
    let mut value = ChosenByteOrder::read(&LITTLE).unwrap();
    assert_eq!(value.first_byte.get(), 1);
    assert_eq!(ChosenByteOrder::read(&BIG).unwrap().first_byte.get(), 0);
    value.first_byte = skelcodec_runtime::LookAhead(7);
    assert_eq!(value.to_bytes().unwrap(), LITTLE);
}

#[test]
fn a_header_no_case_names_is_an_undecided_order_at_the_body() {
    let error = ChosenByteOrder::read(b"XX\x01\x00\x00\x00\x00\x00")
        .unwrap_err()
        .to_string();
    assert!(error.contains("at byte 2, body"), "{error}");
    assert!(error.contains("no byte order for [88, 88]"), "{error}");
}
