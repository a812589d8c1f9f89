//! Value instances of the stream's position used in conditions (`if: save_pos1 >= 0`, the way
//! Windows resource files save where a name starts): the generated code and the interpreter
//! read them alike (the interpreter refused them as `-remember`), keep them in the value, and
//! write the file back. The file is built by hand from `tests/schemas/saved_positions.ksy`.

mod saved_positions {
    skelcodec_macros::codec!("tests/schemas/saved_positions.ksy");
}

use saved_positions::SavedPositions;
use skelcodec_generated_tests::interpreter;

const SCHEMA: &str = "tests/schemas/saved_positions.ksy";

/// A numeric id (`ffff`, 7), then the name `ab` as 16-bit units ending in a zero unit.
const FILE: &[u8] = b"\xff\xff\x07\x00a\x00b\x00\x00\x00";

#[test]
fn saved_positions_are_read_alike_and_the_file_writes_back() {
    let value = SavedPositions::read(FILE).expect("the file reads");
    assert_eq!(value.names[0].as_numeric, Some(7));
    assert_eq!(
        (value.names[1].save_pos1, value.names[1].save_pos2),
        (4, 10)
    );
    assert_eq!(value.to_bytes().unwrap(), FILE);

    let interpreter = interpreter(SCHEMA);
    let read = interpreter.read(FILE).expect("the interpreter reads it");
    let document = serde_json::to_value(&value).unwrap();
    assert_eq!(
        serde_json::to_value(interpreter.document(&read)).unwrap(),
        document
    );
    assert_eq!(interpreter.write(&read).unwrap(), FILE);
    let from_document = interpreter
        .value_of(&document)
        .expect("the document is a value");
    assert_eq!(interpreter.write(&from_document).unwrap(), FILE);
}
