//! Lists ended by `repeat-until`: the writer checks the condition as the reader tests it, so an
//! edit that would end a list early, let it run on, or empty it is refused with its path.

mod until_stop {
    skelcodec_macros::codec!("tests/schemas/until_stop.ksy");
}

mod kept_params {
    skelcodec_macros::codec!("tests/schemas/kept_params.ksy");
}

use kept_params::KeptParams;
use until_stop::{Opcode, UntilStop};

/// PUSH 0x0102, NONE, STOP; text "hi\0".
const FILE: [u8; 9] = [0x50, 0x02, 0x01, 0x4e, 0x2e, b'h', b'i', 0, 9];

fn refusal(value: &UntilStop) -> String {
    value.to_bytes().unwrap_err().to_string()
}

#[test]
fn unedited_lists_write_back() {
    let value = UntilStop::read(&FILE[..8]).unwrap();
    assert_eq!(value.ops.len(), 3);
    assert_eq!(value.text, [b'h', b'i', 0]);
    assert_eq!(value.to_bytes().unwrap(), &FILE[..8]);
}

#[test]
fn a_stop_before_the_end_is_refused_at_its_element() {
    let mut value = UntilStop::read(&FILE[..8]).unwrap();
    value.ops[1].code = Opcode::Stop;
    let error = refusal(&value);
    assert!(error.contains("ops[1]"), "{error}");
    assert!(error.contains("would stop here"), "{error}");
    let mut value = UntilStop::read(&FILE[..8]).unwrap();
    value.text[0] = 0;
    let error = refusal(&value);
    assert!(error.contains("text[0]"), "{error}");
}

#[test]
fn a_last_element_that_does_not_stop_is_refused() {
    let mut value = UntilStop::read(&FILE[..8]).unwrap();
    value.ops[2].code = Opcode::None;
    let error = refusal(&value);
    assert!(error.contains("ops[2]"), "{error}");
    assert!(error.contains("would read on"), "{error}");
    let mut value = UntilStop::read(&FILE[..8]).unwrap();
    value.text.pop();
    let error = refusal(&value);
    assert!(error.contains("text[1]"), "{error}");
}

#[test]
fn an_empty_list_is_refused() {
    let mut value = UntilStop::read(&FILE[..8]).unwrap();
    value.ops.clear();
    let error = refusal(&value);
    assert!(error.contains("ops") && error.contains("empty"), "{error}");
}

#[test]
fn edits_that_keep_the_end_where_it_is_are_written_and_read_back() {
    let mut value = UntilStop::read(&FILE[..8]).unwrap();
    value.ops.remove(1);
    value.text.insert(0, b'o');
    let bytes = value.to_bytes().unwrap();
    assert_eq!(UntilStop::read(&bytes).unwrap(), value);
}

#[test]
fn a_varint_group_marked_as_continued_at_the_end_is_refused() {
    // As SQLite's big-endian varints: groups until one without `has_next`.
    let mut value = KeptParams::read(&[0x81, 0x01, 7, 5]).unwrap();
    value.groups[1].has_next = true;
    let error = value.to_bytes().unwrap_err().to_string();
    assert!(error.contains("groups[1]"), "{error}");
    let mut value = KeptParams::read(&[0x81, 0x01, 7, 5]).unwrap();
    value.groups[0].has_next = false;
    let error = value.to_bytes().unwrap_err().to_string();
    assert!(error.contains("groups[0]"), "{error}");
}
