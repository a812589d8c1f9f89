//! A value read from a slot's stream (`io: chunk.data_slot._io`, RIFF's idiom) is written
//! back into the slot by `normalize()`, and the sizes that measure the slot follow, in the
//! generated code and the interpreter alike. The file is built by hand from the schema
//! (`tests/schemas/slots.ksy`).

mod slots {
    skelcodec_macros::codec!("tests/schemas/slots.ksy");
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
    // Until it is normalized, the slot holds the old bytes and the edit would not read back.
    assert!(value.to_bytes().is_err());
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
    let schema = skelcodec_codegen::load_schema(std::path::Path::new("tests/schemas/slots.ksy"));
    let interpreter = skelcodec_dynamic::Interpreter::new(schema.unwrap()).unwrap();
    let mut generated = Slots::read(FILE).unwrap();
    generated.content.get_mut().unwrap().title = VarStr::from_text("a longer title", 1);
    let value = interpreter
        .value_of(&serde_json::to_value(&generated).unwrap())
        .unwrap();
    interpreter.normalize(&value).unwrap();
    assert_eq!(interpreter.write(&value).unwrap(), EDITED);
}
