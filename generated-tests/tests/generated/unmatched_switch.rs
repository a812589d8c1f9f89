//! A switch without `_` whose selector matches no case: nothing read and the value absent when
//! unsized, the bytes kept raw when sized, a located read error with `-unmatched: error`; a
//! counted list of such a switch holds one absent value per element (an empty one needs no
//! case at all, as Minecraft's NBT lists of `TAG_End`). The generated code and the interpreter.

mod unmatched_switch {
    skelcodec_macros::codec!("tests/schemas/unmatched_switch.ksy");
}

use skelcodec_generated_tests::interpreter;
use unmatched_switch::{UnmatchedSwitch, UnmatchedSwitchBody, UnmatchedSwitchSized};

/// `kind` 9 (no case, nothing read), `sized_kind` 7 (no case: two raw bytes), `strict_kind` 1
/// and its byte, `list_kind` 0 (no case) with no items.
const SCHEMA: &str = "tests/schemas/unmatched_switch.ksy";

const UNKNOWN_KINDS: [u8; 8] = [9, 7, 0xaa, 0xbb, 1, 0x42, 0, 0];

#[test]
fn an_unmatched_unsized_switch_reads_nothing_and_writes_back() {
    let value = UnmatchedSwitch::read(&UNKNOWN_KINDS).unwrap();
    assert!(matches!(value.body, UnmatchedSwitchBody::Nothing(())));
    match &value.sized {
        UnmatchedSwitchSized::Raw(raw) => assert_eq!(raw.0, [0xaa, 0xbb]),
        other => panic!("expected the raw bytes, found {other:?}"),
    }
    assert_eq!(value.to_bytes().unwrap(), UNKNOWN_KINDS);
}

#[test]
fn a_matched_case_is_read_as_its_type() {
    let bytes = [2, 1, 0, 0, 0, 1, 3, 4, 1, 0x42, 1, 2, 5, 0, 6, 0];
    let value = UnmatchedSwitch::read(&bytes).unwrap();
    assert!(matches!(value.body, UnmatchedSwitchBody::U4(1)));
    assert!(matches!(&value.sized, UnmatchedSwitchSized::Pair(p) if (p.a, p.b) == (3, 4)));
    assert_eq!(value.to_bytes().unwrap(), bytes);
}

#[test]
fn a_selector_edited_away_from_nothing_is_refused_with_its_path() {
    let mut value = UnmatchedSwitch::read(&UNKNOWN_KINDS).unwrap();
    value.kind = 1;
    let error = value.to_bytes().unwrap_err().to_string();
    assert!(error.contains("body"), "{error}");
    assert!(error.contains("calls for the case `u2`"), "{error}");
}

#[test]
fn unmatched_error_makes_an_unknown_selector_a_located_read_error() {
    let bytes = [9, 7, 0xaa, 0xbb, 5];
    let error = UnmatchedSwitch::read(&bytes).unwrap_err().to_string();
    assert!(error.contains("at byte 5"), "{error}");
    assert!(error.contains("strict"), "{error}");
    assert!(error.contains("no case for 5"), "{error}");
}

#[test]
fn a_counted_list_of_an_unmatched_switch_holds_an_absent_value_per_element() {
    // `list_kind` 0 names no case: two items read nothing, as Kaitai's two `null`s. Like any
    // count, theirs is bounded by the bytes left (here the two trailing bytes), so that a
    // hostile count allocates nothing out of proportion to the file.
    let bytes = [9, 7, 0xaa, 0xbb, 1, 0x42, 0, 2, 0xee, 0xff];
    let value = UnmatchedSwitch::read(&bytes).unwrap();
    let document = serde_json::to_value(&value).unwrap();
    // The list's case wraps it, as any list whose selector is fixed for the list.
    assert_eq!(
        document["items"],
        serde_json::json!({"nothing": [null, null]})
    );
    let mut hostile = bytes;
    hostile[7] = 3;
    let error = UnmatchedSwitch::read(&hostile).unwrap_err().to_string();
    assert!(
        error.contains("count 3 of 0-byte elements exceeds the 2 bytes"),
        "{error}"
    );
    assert_eq!(value.to_bytes().unwrap(), bytes);
    let interpreter = interpreter(SCHEMA);
    for bytes in [&bytes[..], &UNKNOWN_KINDS] {
        let read = interpreter.read(bytes).expect("the interpreter reads it");
        let generated = serde_json::to_value(UnmatchedSwitch::read(bytes).unwrap()).unwrap();
        assert_eq!(
            serde_json::to_value(interpreter.document(&read)).unwrap(),
            generated
        );
        assert_eq!(interpreter.write(&read).unwrap(), bytes);
    }
}
