//! A block read by position whose type places a value elsewhere in the file (`io: _root._io`,
//! a Windows minidump stream's strings and memory ranges): its bytes are not all it claims, so
//! the bytes between it and what it points to are found from what the value writes, and the
//! file writes back byte for byte (it failed with "the gap … overlaps bytes a field claims").
//! The generated code and the interpreter alike; the file is built by hand from
//! `tests/schemas/pointed_names.ksy`.

mod pointed_names {
    skelcodec_macros::codec!("tests/schemas/pointed_names.ksy");
}

use pointed_names::PointedNames;
use skelcodec_generated_tests::{checked, interpreter};

const SCHEMA: &str = "tests/schemas/pointed_names.ksy";

/// The block at 4 (the name at 16, 3 bytes), four bytes no field claims, `abc`, two more.
const FILE: &[u8] = b"\x04\0\0\0\x10\0\0\0\x03\0\0\0ggggabczz";

#[test]
fn a_block_pointing_outside_itself_writes_back_with_the_bytes_around_its_target() {
    let value = PointedNames::read(FILE).expect("the file reads");
    let block = value.block.get().expect("the block reads");
    assert_eq!(block.name.get().expect("the name reads").text(), "abc");
    assert!(checked(&value).is_empty());
    assert_eq!(value.to_bytes().expect("writes back"), FILE);

    let interpreter = interpreter(SCHEMA);
    let read = interpreter.read(FILE).expect("the interpreter reads it");
    assert_eq!(interpreter.write(&read).expect("writes back"), FILE);
    let document = serde_json::to_value(&value).unwrap();
    assert_eq!(
        serde_json::to_value(interpreter.document(&read)).unwrap(),
        document
    );
}

#[test]
fn an_edit_of_the_pointed_name_is_written_where_it_points() {
    let mut value = PointedNames::read(FILE).expect("the file reads");
    let block = value.block.get_mut().expect("the block reads");
    *block.name.get_mut().expect("the name reads") =
        skelcodec_runtime::Text::from_raw(b"xyz".to_vec());
    let expected = b"\x04\0\0\0\x10\0\0\0\x03\0\0\0ggggxyzzz";
    assert_eq!(value.to_bytes().expect("written"), expected);
    let document = serde_json::to_value(&value).unwrap();
    let interpreter = interpreter(SCHEMA);
    let edited = interpreter
        .value_of(&document)
        .expect("the document is a value");
    assert_eq!(interpreter.write(&edited).expect("written"), expected);
}
