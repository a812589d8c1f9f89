//! A value read at a position counted from the end of the file (`pos: _io.size - 4`, PCX's
//! palette, ID3v1's tag) is written by no field: its bytes are the file's unclaimed bytes, so
//! an edit of it alone would read back as the old value and is refused. `normalize()` writes
//! it back into those bytes, and `check()` reports them while they differ. The generated code
//! and the interpreter alike; the file is built by hand from `tests/schemas/tail_palette.ksy`.

mod tail_palette {
    skelcodec_macros::codec!("tests/schemas/tail_palette.ksy");
}

use skelcodec_generated_tests::{assert_interpreter_agrees, checked};
use tail_palette::TailPalette;

const SCHEMA: &str = "tests/schemas/tail_palette.ksy";

/// `HDR1`, six bytes no field reads, the palette `0c 01 02 03`.
const FILE: &str = "48445231616263646566 0c010203";

fn file() -> Vec<u8> {
    skelcodec_runtime::from_hex(&FILE.replace(' ', "")).expect("the fixture is hex")
}

#[test]
fn an_edited_palette_is_written_back_into_the_bytes_that_hold_it() {
    let mut value = TailPalette::read(&file()).expect("the fixture reads");
    assert!(checked(&value).is_empty());
    value.palette.get_mut().expect("read").colors[1] = 9;
    let refused = value.to_bytes().unwrap_err().to_string();
    assert!(refused.contains("read back as another"), "{refused}");
    let found = [
        "unclaimed[0].bytes: its 10 bytes differ from those the values read from them are written as",
    ];
    assert_eq!(checked(&value), found);
    let document = serde_json::to_value(&value).expect("a document");
    value
        .normalize()
        .expect("normalize() writes the palette back");
    assert!(checked(&value).is_empty());
    let written = value.to_bytes().expect("the normalized value writes");
    let expected =
        skelcodec_runtime::from_hex("48445231616263646566 0c010903".replace(' ', "").as_str());
    let expected = expected.expect("hex");
    assert_eq!(written, expected);
    assert_eq!(TailPalette::read(&written).expect("reads back"), value);
    assert_interpreter_agrees(SCHEMA, &document, &found, &expected);
}
