//! A switch without `_` whose selector matches no case: nothing read and the value absent when
//! unsized, the bytes kept raw when sized, a located read error with `-unmatched: error`.

mod unmatched_switch {
    skelcodec_macros::codec!("tests/schemas/unmatched_switch.ksy");
}

use unmatched_switch::{UnmatchedSwitch, UnmatchedSwitchBody, UnmatchedSwitchSized};

/// `kind` 9 (no case, nothing read), `sized_kind` 7 (no case: two raw bytes), `strict_kind` 1
/// and its byte.
const UNKNOWN_KINDS: [u8; 6] = [9, 7, 0xaa, 0xbb, 1, 0x42];

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
    let bytes = [2, 1, 0, 0, 0, 1, 3, 4, 1, 0x42];
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
