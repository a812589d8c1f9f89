//! What expressions see: a terminated string or byte array without its terminator (unless
//! `include`), a conditional string that may be absent (it then equals nothing), a switch
//! of integers as an integer, a switch of types through `.as<type>`, and numbers converted by
//! `.as<s4>`; string and byte-array instances and their operations; `valid` checks each element
//! of a list, and a conditional value only when present.

mod views {
    skelcodec_macros::codec!("tests/schemas/views.ksy");
}

use views::Views;

/// `foo|`, `b|`, a label `x`, a u2 switch case, two 2-byte chunks, a text op and a number
/// op, two levels.
const LABELLED: &[u8] = b"foo|b|\x01x\x02\x34\x12\x01\x02\x03\x04\x02hi\0\x01\x07\x05\x09";

#[test]
fn terminated_values_are_seen_without_their_terminator_unless_included() {
    let value = Views::read(LABELLED).unwrap();
    assert!(value.name_is_foo());
    assert!(value.tag_keeps_terminator());
    assert_eq!(value.to_bytes().unwrap(), LABELLED);
}

#[test]
fn an_absent_value_equals_nothing() {
    let present = Views::read(LABELLED).unwrap();
    assert!(present.label_is_x() && present.label_is_not_y());
    let mut unlabelled = LABELLED.to_vec();
    unlabelled.splice(6..8, [0]);
    let absent = Views::read(&unlabelled).unwrap();
    assert_eq!(absent.label, None);
    assert!(!absent.label_is_x(), "absent == \"x\" is false");
    assert!(absent.label_is_not_y(), "absent != \"y\" is true");
}

#[test]
fn switches_and_casts() {
    let value = Views::read(LABELLED).unwrap();
    assert_eq!(
        value.number_value(),
        0x1234,
        "a switch of integers is an integer"
    );
    assert!(value.second_chunk_is_known());
    assert!(value.first_op_says_hi());
    assert!(
        !value.second_op_says_hi(),
        "the second op holds a number: as text it is absent"
    );
    assert_eq!(value.second_op_number(), 7);
    assert_eq!(
        value.missing_op_number(),
        0,
        "past the end, a number reads as 0"
    );
    assert_eq!(value.truncated(), 7);
}

#[test]
fn valid_rules_apply_to_each_element_and_to_present_values_only() {
    let mut bad_level = LABELLED.to_vec();
    *bad_level.last_mut().unwrap() = 10;
    let err = Views::read(&bad_level).unwrap_err();
    assert_eq!(err.path(), "levels[1]", "{err}");
    assert!(err.to_string().contains("at most 9"), "{err}");
    let mut value = Views::read(LABELLED).unwrap();
    value.levels[0] = 12;
    let err = value.to_bytes().unwrap_err();
    assert_eq!(err.path(), "levels[0]", "the writer refuses it too: {err}");

    let mut unknown_label = LABELLED.to_vec();
    unknown_label[7] = b'?';
    let err = Views::read(&unknown_label).unwrap_err();
    assert_eq!(err.path(), "label", "{err}");
    // Absent, the label is not checked.
    let mut unlabelled = LABELLED.to_vec();
    unlabelled.splice(6..8, [0]);
    assert!(Views::read(&unlabelled).is_ok());
}

#[test]
fn string_and_byte_array_instances() {
    let value = Views::read(LABELLED).unwrap();
    assert_eq!(value.bracketed_name(), "<foo>");
    assert_eq!(value.name_reversed(), "oof");
    assert_eq!(value.number_text(), "4660");
    assert_eq!(value.parsed(), -72 + 0xff);
    assert_eq!(value.middle(), "bcd");
    assert_eq!(value.label_or_none(), "foo");
    assert!(value.name_sorts_before_fop());
    assert_eq!(value.tag_bytes(), b"b|", "`include` keeps the terminator");
    assert_eq!(value.last_chunk_max(), 4);
    assert_eq!((value.number_op_size(), value.u4_bits()), (1, 32));
    assert_eq!(
        value.to_string(),
        "views of foo (4660)",
        "`to-string` is `Display`"
    );
    let mut unlabelled = LABELLED.to_vec();
    unlabelled.splice(6..8, [0]);
    assert_eq!(Views::read(&unlabelled).unwrap().label_or_none(), "none");
}
