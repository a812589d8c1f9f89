//! A value read from the whole file without a position whose type reads only blocks by
//! position (a .DS_Store's `directories`): its blocks are written where their offsets say, so
//! an edit of one is written, where it was set back as a view of bytes no field writes (the
//! written file was the input, byte for byte). The generated code and the interpreter alike;
//! the file is built by hand from `tests/schemas/block_refs.ksy`.

mod block_refs {
    skelcodec_macros::codec!("tests/schemas/block_refs.ksy");
}

use block_refs::BlockRefs;
use skelcodec_generated_tests::{checked, interpreter};

const SCHEMA: &str = "tests/schemas/block_refs.ksy";

/// Two blocks, at 3 (`ab`) and 5 (`cd`).
const FILE: &[u8] = b"\x02\x03\x05abcd";

#[test]
fn an_edited_block_is_written_where_its_offset_says() {
    let mut value = BlockRefs::read(FILE).expect("the file reads");
    assert_eq!(value.to_bytes().unwrap(), FILE);
    let refs = value.refs.get_mut().expect("the references read");
    refs[1].block.get_mut().expect("the block reads").0 = b"xy".to_vec().into();
    let expected = b"\x02\x03\x05abxy";
    assert_eq!(value.to_bytes().expect("written"), expected);
    assert!(checked(&value).is_empty());
    let document = serde_json::to_value(&value).unwrap();
    value.normalize().expect("normalizes");
    assert_eq!(value.to_bytes().expect("written"), expected);

    let interpreter = interpreter(SCHEMA);
    let read = interpreter.read(FILE).expect("the interpreter reads it");
    assert_eq!(interpreter.write(&read).unwrap(), FILE);
    let edited = interpreter
        .value_of(&document)
        .expect("the document is a value");
    assert!(
        interpreter
            .normalize(&edited)
            .expect("normalizes")
            .is_empty()
    );
    assert_eq!(interpreter.write(&edited).expect("written"), expected);
}

#[test]
fn a_block_edited_into_another_is_refused_with_its_path() {
    let mut value = BlockRefs::read(FILE).expect("the file reads");
    let refs = value.refs.get_mut().expect("the references read");
    refs[0].block.get_mut().expect("the block reads").0 = b"abc".to_vec().into();
    let refused = value.to_bytes().unwrap_err().to_string();
    assert!(refused.contains("refs[0].block"), "{refused}");
}
