//! Blocks read by position whose offsets follow where they are placed (Doom's WAD lumps and
//! directory): when a lump grows, `normalize()` shifts the blocks after it, in the file's
//! order, rather than leaving the old place as a hole, and reports every offset it changed,
//! with the old and new value; an offset set far past the file is refused rather than filled
//! with gigabytes of zeros. The generated code and the interpreter alike; the file is built
//! by hand from `tests/schemas/lumps.ksy`.

mod lumps {
    skelcodec_macros::codec!("tests/schemas/lumps.ksy");
}

use lumps::Lumps;
use skelcodec_generated_tests::{checked, interpreter};

const SCHEMA: &str = "tests/schemas/lumps.ksy";

/// The header, three lumps (`aa`, `bbb`, `c`) from 12 on, and the directory at 18.
fn file() -> Vec<u8> {
    let mut file = b"PWAD\x03\0\0\0\x12\0\0\0aabbbc".to_vec();
    for (ofs, len) in [(12u32, 2u32), (14, 3), (17, 1)] {
        file.extend(ofs.to_le_bytes());
        file.extend(len.to_le_bytes());
    }
    file
}

fn lump(value: &mut Lumps, index: usize) -> &mut skelcodec_runtime::RawBytes {
    let entry = &mut value.directory.get_mut().expect("the directory reads")[index];
    entry.lump.get_mut().expect("the lump reads")
}

#[test]
fn a_grown_lump_shifts_those_after_it_and_every_moved_offset_is_reported() {
    let mut value = Lumps::read(&file()).expect("the file reads");
    assert!(checked(&value).is_empty());
    lump(&mut value, 0).0 = b"AAAA".to_vec().into();
    let mut found = checked(&value);
    found.sort();
    let expected = [
        "directory[0].len_lump: stored 2, computed 4",
        "directory[1].ofs_lump: stored 14, computed 16",
        "directory[2].ofs_lump: stored 17, computed 19",
        "ofs_directory: stored 18, computed 20",
    ];
    assert_eq!(found, expected);
    let document = serde_json::to_value(&value).unwrap();
    value.normalize().expect("normalize() moves the blocks");
    let mut written = b"PWAD\x03\0\0\0\x14\0\0\0AAAAbbbc".to_vec();
    for (ofs, len) in [(12u32, 4u32), (16, 3), (19, 1)] {
        written.extend(ofs.to_le_bytes());
        written.extend(len.to_le_bytes());
    }
    assert_eq!(
        value.to_bytes().unwrap(),
        written,
        "no hole, nothing moved to the end"
    );

    let interpreter = interpreter(SCHEMA);
    let edited = interpreter
        .value_of(&document)
        .expect("the document is a value");
    let mut reported: Vec<String> = (interpreter.normalize(&edited).expect("normalizes"))
        .iter()
        .map(ToString::to_string)
        .collect();
    reported.sort();
    assert_eq!(
        reported, expected,
        "what the interpreter's normalize() reports"
    );
    assert_eq!(interpreter.write(&edited).unwrap(), written);
}

#[test]
fn an_offset_far_past_the_file_is_refused_not_filled_with_zeros() {
    let mut value = Lumps::read(&file()).expect("the file reads");
    let directory = value.directory.get_mut().expect("the directory reads");
    directory[2].ofs_lump = 2_000_000_000;
    let refused = value.normalize().unwrap_err().to_string();
    assert!(refused.contains("would fill bytes"), "{refused}");
    assert!(refused.contains("zeros no value writes"), "{refused}");
    let document = serde_json::to_value(&value).unwrap();
    let interpreter = interpreter(SCHEMA);
    let edited = interpreter
        .value_of(&document)
        .expect("the document is a value");
    let refused = interpreter.normalize(&edited).unwrap_err().to_string();
    assert!(refused.contains("would fill bytes"), "{refused}");
}
