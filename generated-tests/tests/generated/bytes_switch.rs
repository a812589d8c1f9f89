//! A switch whose selector is a byte array picks its case by byte-array literals.

mod bytes_switch {
    skelcodec_macros::codec!("tests/schemas/bytes_switch.ksy");
}

use bytes_switch::{BytesSwitch, OpBody};

#[test]
fn byte_array_cases_choose_the_layout() {
    let file = [b'I', 7, b'S', b'h', b'i', 0];
    let value = BytesSwitch::read(&file).unwrap();
    assert!(
        matches!(value.ops[0].body, OpBody::U1(7)),
        "{:?}",
        value.ops[0]
    );
    assert!(
        matches!(value.ops[1].body, OpBody::Text(_)),
        "{:?}",
        value.ops[1]
    );
    assert_eq!(value.to_bytes().unwrap(), file);
}

#[test]
fn a_code_no_case_names_reads_nothing_as_in_kaitai() {
    let file = [b'X', b'I', 1];
    let value = BytesSwitch::read(&file).unwrap();
    assert!(
        matches!(value.ops[0].body, OpBody::Nothing(())),
        "{:?}",
        value.ops[0]
    );
    assert!(
        matches!(value.ops[1].body, OpBody::U1(1)),
        "{:?}",
        value.ops[1]
    );
    assert_eq!(value.to_bytes().unwrap(), file);
}
