//! Offsets a plain Kaitai schema leaves to the reader, followed by `normalize()` through
//! inference: a block whose offset's one use is its `pos` moves, when an edit makes it
//! disagree with the bytes where it lies, to the first place after its offset where it fits
//! (the blocks are placed in the order of their offsets, so those after a grown one shift),
//! and the bytes it leaves become zeros no field claims; `check()` names every offset and gap
//! that changes. The generated code and the
//! interpreter alike. The file is built by hand from
//! the schema (`tests/schemas/string_table.ksy`).

mod string_table {
    skelcodec_macros::codec!("tests/schemas/string_table.ksy");
}

use skelcodec_generated_tests::{assert_interpreter_agrees, checked};
use string_table::StringTable;

const SCHEMA: &str = "tests/schemas/string_table.ksy";

/// `STBL`, two entries and the blob at sector 7; `hi` at 19 with a NUL after it, `you` at 22,
/// three zeros, `abc` at 28.
const FILE: &str = concat!(
    "5354424c", "0200", "07", "0200", "13000000", "0300", "16000000", "6869", "00", "796f75",
    "000000", "616263",
);

fn file() -> Vec<u8> {
    skelcodec_runtime::from_hex(FILE).expect("the fixture is hex")
}

fn read() -> StringTable {
    StringTable::read(&file()).expect("the fixture reads")
}

/// Normalizes `value` and checks that it writes `expected` and reads back as itself; the
/// interpreter, given the edited value's document, reports `found` and writes the same.
fn assert_normalizes(mut value: StringTable, found: &[&str], expected: &str) {
    let mut reported = checked(&value);
    reported.sort();
    assert_eq!(reported, found, "what check() reports (sorted)");
    let document = serde_json::to_value(&value).expect("a document");
    value.normalize().expect("normalize() moves the block");
    assert_eq!(
        checked(&value),
        Vec::<String>::new(),
        "normalized, nothing disagrees"
    );
    let written = value.to_bytes().expect("the normalized value writes");
    let expected = skelcodec_runtime::from_hex(expected).expect("hex");
    assert_eq!(written, expected);
    assert_eq!(StringTable::read(&written).expect("reads back"), value);
    assert_interpreter_agrees(SCHEMA, &document, found, &expected);
}

#[test]
fn a_real_layout_keeps_every_offset() {
    let value = read();
    assert_eq!(value.to_bytes().unwrap(), file());
    assert!(checked(&value).is_empty());
    let mut normalized = value.clone();
    normalized.normalize().unwrap();
    assert_eq!(normalized, value);
}

#[test]
fn a_grown_string_moves_past_what_it_overlaps_and_shifts_the_block_after_it() {
    let mut value = read();
    *value.entries[0].text.get_mut().expect("read") = "hello".into();
    let refused = value.to_bytes().unwrap_err().to_string();
    assert!(refused.contains("the size is 2"), "{refused}");
    // `hello` no longer fits before the NUL no field claims: it takes the first place after
    // its offset where it fits, the blob's, and the blob shifts to the next whole sector.
    assert_normalizes(
        value,
        &[
            "entries[0].len_text: stored 2, computed 5",
            "entries[0].ofs_text: stored 19, computed 28",
            "sector_blob: stored 7, computed 9",
            "unclaimed[0].bytes: stored 1, computed 3",
            "unclaimed[0].offset: stored 21, computed 19",
        ],
        concat!(
            "5354424c",
            "0200",
            "09",
            "0500",
            "1c000000",
            "0300",
            "16000000",
            "000000",
            "796f75",
            "000000",
            "68656c6c6f",
            "000000",
            "616263",
        ),
    );
}

#[test]
fn an_offset_set_into_other_data_is_set_to_the_first_place_after_it_that_fits() {
    let mut value = read();
    value.entries[1].ofs_text = 0;
    let refused = value.to_bytes().unwrap_err().to_string();
    assert!(refused.contains("overlaps"), "{refused}");
    // Into the header: the first place after it where `you` fits is where it was.
    assert_normalizes(value, &["entries[1].ofs_text: stored 0, computed 22"], FILE);
}

#[test]
fn a_block_placed_in_units_moves_to_a_whole_unit_after_the_rest() {
    // Into the header: it goes back to the end, where it was.
    let mut value = read();
    value.sector_blob = 1;
    assert_normalizes(value, &["sector_blob: stored 1, computed 7"], FILE);
    // Placed first (its offset comes first), it goes back to its sector; the grown string
    // then fits after it.
    let mut value = read();
    value.sector_blob = 1;
    *value.entries[0].text.get_mut().expect("read") = "hello".into();
    assert_normalizes(
        value,
        &[
            "entries[0].len_text: stored 2, computed 5",
            "entries[0].ofs_text: stored 19, computed 31",
            "sector_blob: stored 1, computed 7",
            "unclaimed[0].bytes: stored 1, computed 3",
            "unclaimed[0].offset: stored 21, computed 19",
        ],
        concat!(
            "5354424c",
            "0200",
            "07",
            "0500",
            "1f000000",
            "0300",
            "16000000",
            "000000",
            "796f75",
            "000000",
            "616263",
            "68656c6c6f",
        ),
    );
}
