//! A value read from a slot's stream (`io: chunk.data_slot._io`, RIFF's idiom) is written
//! back into the slot by `normalize()`, and the sizes that measure the slot follow, in the
//! generated code and the interpreter alike. The files are built by hand from the schemas
//! (`tests/schemas/slots.ksy`, `tests/schemas/slot_header.ksy`).

mod slots {
    skelcodec_macros::codec!("tests/schemas/slots.ksy");
}

#[allow(deprecated)] // the schema's style warnings, which `schema check` lists
mod slot_header {
    skelcodec_macros::codec!("tests/schemas/slot_header.ksy");
}

use skelcodec_runtime::VarStr;
use slots::Slots;

/// A chunk of 5 bytes (`ab\0` then `xy`), padded to an even length.
const FILE: &[u8] = b"\x05\0\0\0ab\0xy\0";

/// The file once the title is `a longer title`: 17 bytes of content, padded.
const EDITED: &[u8] = b"\x11\0\0\0a longer title\0xy\0";

#[test]
fn an_edited_value_is_written_back_into_its_slot_and_the_sizes_follow() {
    let mut value = Slots::read(FILE).expect("the fixture reads");
    assert_eq!(value.to_bytes().unwrap(), FILE);
    assert_eq!(value.check(), Vec::new());
    value.content.get_mut().expect("the content is read").title =
        VarStr::from_text("a longer title", 1);
    // Until it is normalized, the slot holds the old bytes and the edit would not read back:
    // `check()` says so (its 5 bytes, where the content is written as 17), and names the size
    // that follows the slot once it is written back.
    assert!(value.to_bytes().is_err());
    let found: Vec<String> = value.check().iter().map(ToString::to_string).collect();
    assert_eq!(
        found,
        [
            "chunk.data_slot._unread: stored 5, computed 17",
            "chunk.len: stored 5, computed 17"
        ]
    );
    value.normalize().unwrap();
    assert_eq!(value.chunk.len, 17);
    assert_eq!(value.chunk.pad_byte.0, [0]);
    assert_eq!(value.to_bytes().unwrap(), EDITED);
    assert_eq!(Slots::read(EDITED).unwrap(), value);
}

#[test]
fn the_pad_byte_follows_the_length() {
    let mut value = Slots::read(FILE).unwrap();
    value.content.get_mut().unwrap().title = VarStr::from_text("abc", 1);
    value.normalize().unwrap();
    assert_eq!((value.chunk.len, value.chunk.pad_byte.0.len()), (6, 0));
    assert_eq!(value.to_bytes().unwrap(), b"\x06\0\0\0abc\0xy");
}

#[test]
fn the_interpreter_writes_the_same_bytes() {
    let interpreter = skelcodec_generated_tests::interpreter("tests/schemas/slots.ksy");
    let mut generated = Slots::read(FILE).unwrap();
    generated.content.get_mut().unwrap().title = VarStr::from_text("a longer title", 1);
    let value = interpreter
        .value_of(&serde_json::to_value(&generated).unwrap())
        .unwrap();
    assert_eq!(interpreter.check(&value).unwrap(), generated.check());
    interpreter.normalize(&value).unwrap();
    assert_eq!(interpreter.write(&value).unwrap(), EDITED);
}

/// A header of kind 1 (with `extra` = 0x0302), then two bytes of the slot that nothing reads.
const HEADER: &[u8] = b"\x05\x01\x02\x03zz";

/// The headers of [`HEADER`] edited, each as normalized and written by both back ends.
#[test]
fn a_value_that_does_not_read_its_whole_slot_replaces_the_bytes_it_was_read_from() {
    use slot_header::SlotHeader;
    let interpreter = skelcodec_generated_tests::interpreter("tests/schemas/slot_header.ksy");
    let edits: [(Option<u16>, u8, &[u8]); 2] = [
        // The same size: the two bytes of `extra` change in place.
        (Some(7), 1, b"\x05\x01\x07\x00zz"),
        // `extra` gone: the content shrinks by two bytes, the unread tail stays.
        (None, 0, b"\x03\x00zz"),
    ];
    for (extra, kind, expected) in edits {
        let mut value = SlotHeader::read(HEADER).unwrap();
        let header = value.header.get_mut().unwrap();
        (header.kind, header.extra) = (kind, extra);
        assert!(
            value.to_bytes().is_err(),
            "the slot still holds the old header"
        );
        // The slot, and the size that follows it once it is written back, where it changes.
        let found: Vec<String> = value.check().into_iter().map(|m| m.path).collect();
        assert_eq!(found[0], "chunk.data_slot._unread");
        assert!(
            found[1..].iter().all(|path| path == "chunk.len"),
            "{found:?}"
        );
        let document = serde_json::to_value(&value).unwrap();
        value.normalize().unwrap();
        assert_eq!(value.to_bytes().unwrap(), expected);
        assert_eq!(SlotHeader::read(expected).unwrap(), value);
        let interpreted = interpreter.value_of(&document).unwrap();
        let interpreted_found: Vec<String> = (interpreter.check(&interpreted).unwrap())
            .into_iter()
            .map(|m| m.path)
            .collect();
        assert_eq!(interpreted_found, found);
        interpreter.normalize(&interpreted).unwrap();
        assert_eq!(interpreter.write(&interpreted).unwrap(), expected);
    }
}

#[test]
fn an_edit_of_the_slot_s_own_bytes_is_reported_as_the_values_would_undo_it() {
    let mut value = Slots::read(FILE).unwrap();
    value.chunk.data_slot._unread.0[0] = b'z';
    let found: Vec<String> = value.check().iter().map(ToString::to_string).collect();
    assert_eq!(
        found,
        [
            "chunk.data_slot._unread: its 5 bytes differ from those the values read from them are written as"
        ]
    );
}
