//! Sizes and counts a plain Kaitai schema leaves to the reader, followed by `check()` and
//! `normalize()` through inference, and a CRC-32 declared with `-derived: crc32(…)`, by the
//! generated code and by the interpreter alike. The file is built by hand from the schema
//! (`tests/schemas/chunked.ksy`); its CRCs were computed with Python's `zlib.crc32`.

#[allow(deprecated)] // the schema's style warnings, which `schema check` lists
mod chunked {
    skelcodec_macros::codec!("tests/schemas/chunked.ksy");
}

mod blobs {
    skelcodec_macros::codec!("tests/schemas/blobs.ksy");
}

mod header_sizes {
    skelcodec_macros::codec!("tests/schemas/header_sizes.ksy");
}

use chunked::{ChunkBody, Chunked};

const SCHEMA: &str = "tests/schemas/chunked.ksy";

/// `CHNK`, a header of 3 bytes counted with its length of 2, two notes (`hi`, `you`), two
/// marks, two spare bytes, a `TEXT` chunk (`title\0old`) and the `END ` chunk.
const FILE: &str = concat!(
    "43484e4b",
    "0005686472",
    "02",
    "026869",
    "03796f75",
    "020109",
    "02",
    "0000",
    "00000009",
    "54455854",
    "7469746c65006f6c64",
    "8831264c",
    "00000000",
    "454e4420",
    "58f17d10",
);

/// `zlib.crc32(b"TEXTtitle\0a new, longer title")`.
const EDITED_TEXT_CRC: u32 = 0x99fb_4e75;

fn file() -> Vec<u8> {
    skelcodec_runtime::from_hex(FILE).expect("the fixture is hex")
}

/// The value with a note and the chunk's text grown: every size that follows them is stale.
fn edited(value: &mut Chunked) {
    value.notes[0].text = "hello there".into();
    let ChunkBody::TextBody(body) = &mut value.chunks[0].body else {
        panic!("the first chunk is a text chunk");
    };
    body.text = "a new, longer title".into();
}

#[test]
fn a_real_layout_agrees_with_every_derivation() {
    let value = Chunked::read(&file()).expect("the fixture reads");
    assert_eq!(value.check(), Vec::new());
    assert_eq!(value.to_bytes().unwrap(), file());
    let mut normalized = value.clone();
    normalized.normalize().unwrap();
    assert_eq!(normalized, value, "normalize() changes nothing that agrees");
}

#[test]
fn an_edit_that_grows_values_is_refused_until_normalized_then_reads_back() {
    let mut value = Chunked::read(&file()).unwrap();
    edited(&mut value);
    let refused = value.to_bytes().unwrap_err().to_string();
    assert!(refused.contains("notes[0].text"), "{refused}");
    let stale: Vec<String> = value.check().iter().map(|m| m.path.clone()).collect();
    assert_eq!(
        stale,
        ["notes[0].len_text", "chunks[0].len_body"],
        "the CRC is checked once the sizes agree"
    );
    value.normalize().unwrap();
    assert_eq!(value.check(), Vec::new());
    assert_eq!(value.notes[0].len_text, 11);
    assert_eq!(value.chunks[0].len_body, 25);
    assert_eq!(value.chunks[0].crc, EDITED_TEXT_CRC);
    let bytes = value.to_bytes().unwrap();
    assert_eq!(Chunked::read(&bytes).unwrap(), value);
    // The chunk as PNG readers see it: its length, then kind and body, then their CRC.
    let chunk = bytes
        .windows(4)
        .position(|w| w == b"TEXT")
        .expect("the chunk is there")
        - 4;
    assert_eq!(bytes[chunk..chunk + 4], 25u32.to_be_bytes());
    assert_eq!(
        bytes[chunk + 8 + 25..chunk + 12 + 25],
        EDITED_TEXT_CRC.to_be_bytes()
    );
}

#[test]
fn a_stale_checksum_is_reported_with_its_path_and_recomputed() {
    let mut bytes = file();
    let crc = bytes.len() - 16;
    bytes[crc] ^= 0xff;
    let mut value = Chunked::read(&bytes).expect("a stale CRC still reads");
    assert_eq!(value.to_bytes().unwrap(), bytes, "written as stored");
    let stale = value.check();
    assert_eq!(stale.len(), 1, "{stale:?}");
    assert_eq!(stale[0].path, "chunks[0].crc");
    assert_eq!(stale[0].computed, 0x8831_264c);
    value.normalize().unwrap();
    assert_eq!(value.to_bytes().unwrap(), file());
}

#[test]
fn what_is_not_inferred_stays_as_stored() {
    let mut value = Chunked::read(&file()).unwrap();
    // `num_marks` is used twice and `reserved` says `-derived: false`: neither follows.
    value.marks.push(4);
    value.spare.0.push(0);
    // The checksums are recomputed by writing: a count that disagrees is refused there.
    let refused = value.normalize().unwrap_err().to_string();
    assert!(
        refused.contains("the count is 2 but the list has 3"),
        "{refused}"
    );
    assert_eq!((value.num_marks, value.reserved), (2, 2));
    value.marks.pop();
    let refused = value.normalize().unwrap_err().to_string();
    assert!(
        refused.contains("the size is 2 but the value has 3"),
        "{refused}"
    );
    assert_eq!(value.reserved, 2);
}

#[test]
fn the_interpreter_checks_and_normalizes_as_the_generated_code_does() {
    let interpreter = skelcodec_generated_tests::interpreter(SCHEMA);
    let mut generated = Chunked::read(&file()).unwrap();
    edited(&mut generated);
    let document = serde_json::to_value(&generated).unwrap();
    let value = interpreter.value_of(&document).unwrap();
    let paths = |found: Vec<skelcodec_runtime::Mismatch>| -> Vec<String> {
        found.into_iter().map(|m| m.path).collect()
    };
    assert_eq!(
        paths(interpreter.check(&value).unwrap()),
        paths(generated.check())
    );
    let changed = interpreter.normalize(&value).unwrap();
    assert_eq!(
        paths(changed),
        ["notes[0].len_text", "chunks[0].len_body", "chunks[0].crc"]
    );
    generated.normalize().unwrap();
    assert_eq!(
        interpreter.write(&value).unwrap(),
        generated.to_bytes().unwrap()
    );
    assert_eq!(interpreter.check(&value).unwrap(), Vec::new());
}

/// Two entries: `ab` at 4, and one whose body (at 200) is past the end and cannot be read.
const UNREAD_BODY: &[u8] = b"\x04\x02\xc8\x05ab";

/// Two entries: `ab` at 4 and `c` at 6.
const BLOBS: &[u8] = b"\x04\x02\x06\x01abc";

fn blobs_interpreter() -> skelcodec_dynamic::Interpreter {
    skelcodec_generated_tests::interpreter("tests/schemas/blobs.ksy")
}

#[test]
fn a_body_that_could_not_be_read_measures_nothing() {
    let value = blobs::Blobs::read(UNREAD_BODY).expect("the fixture reads");
    assert!(
        value.entries[1].body.get().is_none(),
        "the second body is past the end"
    );
    assert_eq!(value.check(), Vec::new());
    let mut normalized = value.clone();
    normalized.normalize().unwrap();
    assert_eq!(normalized, value, "the size of an unread body is kept");
    let interpreter = blobs_interpreter();
    let interpreted = interpreter
        .value_of(&serde_json::to_value(&value).unwrap())
        .unwrap();
    assert_eq!(interpreter.check(&interpreted).unwrap(), Vec::new());
    assert_eq!(interpreter.normalize(&interpreted).unwrap(), Vec::new());
}

#[test]
fn a_size_follows_a_body_read_on_its_own() {
    let mut value = blobs::Blobs::read(BLOBS).expect("the fixture reads");
    assert_eq!(value.check(), Vec::new());
    *value.entries[1].body.get_mut().unwrap() = "cde".into();
    let document = serde_json::to_value(&value).unwrap();
    assert!(value.to_bytes().is_err(), "the size is stale");
    value.normalize().unwrap();
    assert_eq!((value.entries[0].len, value.entries[1].len), (2, 3));
    let expected = b"\x04\x02\x06\x03abcde";
    assert_eq!(value.to_bytes().unwrap(), expected);
    assert_eq!(blobs::Blobs::read(expected).unwrap(), value);
    let interpreter = blobs_interpreter();
    let interpreted = interpreter.value_of(&document).unwrap();
    interpreter.normalize(&interpreted).unwrap();
    assert_eq!(interpreter.write(&interpreted).unwrap(), expected);
}

#[test]
fn a_header_s_sizes_and_counts_follow_the_values_after_it() {
    use header_sizes::HeaderSizes;
    let mut value =
        HeaderSizes::read(b"HS\x03\x00\x02abc\x07\x08\x01xy\x08\x00z").expect("the fixture reads");
    assert_eq!(value.check(), Vec::new());
    value.data = "hello".into();
    value.items.push(9);
    let expected = [
        "header.len_data: stored 3, computed 5",
        "header.num_items: stored 2, computed 3",
    ];
    let found = skelcodec_generated_tests::checked(&value);
    assert_eq!(found, expected);
    let document = serde_json::to_value(&value).unwrap();
    value.normalize().unwrap();
    let edited = b"HS\x05\x00\x03hello\x07\x08\x09\x01xy\x08\x00z";
    assert_eq!(value.to_bytes().unwrap(), edited);
    assert_eq!(HeaderSizes::read(edited).unwrap(), value);
    skelcodec_generated_tests::assert_interpreter_agrees(
        "tests/schemas/header_sizes.ksy",
        &document,
        &expected,
        edited,
    );
}

#[test]
fn sizes_through_constant_sizes_and_root_constants_follow_their_values() {
    use header_sizes::HeaderSizes;
    let file = b"HS\x00\x00\x00\x01xy\x08\x00z";
    let mut value = HeaderSizes::read(file).expect("the fixture reads");
    assert_eq!(value.check(), Vec::new());
    value.note = "wxyz".into();
    value.tail = "zzz".into();
    let expected = [
        "len_note: stored 1, computed 2",
        "len_tail: stored 8, computed 10",
    ];
    let found = skelcodec_generated_tests::checked(&value);
    assert_eq!(found, expected);
    let document = serde_json::to_value(&value).unwrap();
    value.normalize().unwrap();
    let edited = b"HS\x00\x00\x00\x02wxyz\x0a\x00zzz";
    assert_eq!(value.to_bytes().unwrap(), edited);
    assert_eq!(HeaderSizes::read(edited).unwrap(), value);
    skelcodec_generated_tests::assert_interpreter_agrees(
        "tests/schemas/header_sizes.ksy",
        &document,
        &expected,
        edited,
    );
}

#[test]
fn the_size_of_an_absent_body_read_on_its_own_is_set_back() {
    // The second entry has no body (`if: len != 0`); an edit gives it a length.
    let file = b"\x04\x02\x00\x00ab";
    let mut value = blobs::Blobs::read(file).expect("the fixture reads");
    value.entries[1].len = 3;
    let found = skelcodec_generated_tests::checked(&value);
    assert_eq!(found, ["entries[1].len: stored 3, computed 0"]);
    let document = serde_json::to_value(&value).unwrap();
    value.normalize().unwrap();
    assert_eq!(value.to_bytes().unwrap(), file);
    let interpreter = blobs_interpreter();
    let interpreted = interpreter.value_of(&document).unwrap();
    interpreter.normalize(&interpreted).unwrap();
    assert_eq!(interpreter.write(&interpreted).unwrap(), file);
}

mod choices {
    skelcodec_macros::codec!("tests/schemas/choices.ksy");
}

#[test]
fn selectors_and_flags_follow_the_case_held_and_the_fields_present() {
    use choices::Choices;
    let file = b"\x80\xc0ab\x00\x05\x01\x07\x08";
    let value = Choices::read(file).expect("the fixture reads");
    assert_eq!(value.check(), Vec::new());
    // Another case, a field added and two removed, every flag and selector left as it was.
    let mut document = serde_json::to_value(&value).unwrap();
    document["name"] = serde_json::Value::Null;
    document["note"] = serde_json::Value::Null;
    document["long_tail"] = serde_json::json!(0x0102);
    document["body"] = serde_json::json!({"text": {"len": 2, "value": "hi"}});
    let mut value: Choices = serde_json::from_value(document.clone()).unwrap();
    let expected = [
        "flags.has_name: stored 1, computed 0",
        "has_note: stored 1, computed 0",
        "is_short: stored 1, computed 0",
        "kind: stored 1, computed 2",
    ];
    let mut found = skelcodec_generated_tests::checked(&value);
    found.sort();
    assert_eq!(found, expected);
    assert!(value.to_bytes().is_err(), "the stale selector is refused");
    value.normalize().unwrap();
    let edited = b"\x00\x00\x02\x01\x02\x02hi";
    assert_eq!(value.to_bytes().unwrap(), edited);
    assert_eq!(Choices::read(edited).unwrap(), value);
    skelcodec_generated_tests::assert_interpreter_agrees(
        "tests/schemas/choices.ksy",
        &document,
        &expected,
        edited,
    );
}

#[test]
fn a_value_of_the_default_case_keeps_its_selector() {
    use choices::Choices;
    // `kind` 9 calls for the default case; a point's key is 1.
    let file = b"\x00\x40\x09\x2a";
    let value = Choices::read(file).expect("the fixture reads");
    assert_eq!(value.check(), Vec::new());
    let mut document = serde_json::to_value(&value).unwrap();
    document["body"] = serde_json::json!({"point": {"x": 1, "y": 2}});
    let mut edited: Choices = serde_json::from_value(document).unwrap();
    let found = skelcodec_generated_tests::checked(&edited);
    assert_eq!(found, ["kind: stored 9, computed 1"]);
    edited.normalize().unwrap();
    assert_eq!(edited.to_bytes().unwrap(), b"\x00\x40\x01\x01\x02");
    // Unedited, a value of the default case keeps its selector.
    let mut value = value;
    value.normalize().unwrap();
    assert_eq!(value.to_bytes().unwrap(), file);
}

mod lacing {
    skelcodec_macros::codec!("tests/schemas/lacing.ksy");
}

#[test]
fn a_table_of_sizes_follows_the_elements_it_sizes() {
    use lacing::Lacing;
    let file = b"\x02\x01\x03abcd\x03\x00\x02\x00xyz";
    let value = Lacing::read(file).expect("the fixture reads");
    assert_eq!(value.check(), Vec::new());
    let interpreter = skelcodec_generated_tests::interpreter("tests/schemas/lacing.ksy");
    let read = interpreter
        .read(file)
        .expect("the interpreter reads the fixture");
    assert_eq!(
        skelcodec_generated_tests::interpreted_check(&interpreter, &read),
        Vec::<String>::new()
    );
    let mut document = serde_json::to_value(&value).unwrap();
    document["segments"][0] = serde_json::json!("6161");
    document["records"][1]["name"] = serde_json::json!("zzz");
    let mut value: Lacing = serde_json::from_value(document.clone()).unwrap();
    let expected = [
        "lens[0]: stored 1, computed 2",
        "record_lens[1]: stored 2, computed 4",
    ];
    let found = skelcodec_generated_tests::checked(&value);
    assert_eq!(found, expected);
    assert!(value.to_bytes().is_err(), "the stale sizes are refused");
    value.normalize().unwrap();
    let edited = b"\x02\x02\x03aabcd\x03\x00\x04\x00xyzzz";
    assert_eq!(value.to_bytes().unwrap(), edited);
    assert_eq!(Lacing::read(edited).unwrap(), value);
    let path = "tests/schemas/lacing.ksy";
    skelcodec_generated_tests::assert_interpreter_agrees(path, &document, &expected, edited);
}

#[allow(deprecated)] // the schema's style warnings, which `schema check` lists
mod chunk_ids {
    skelcodec_macros::codec!("tests/schemas/chunk_ids.ksy");
}

#[test]
fn a_chunk_id_named_by_an_alias_follows_the_case_its_slot_holds() {
    use chunk_ids::ChunkIds;
    // A name chunk, a size chunk, and a chunk whose id calls for no case.
    let file = b"\x01\x03ab\x00\x02\x02\x05\x06\x09\x01\x7f";
    let value = ChunkIds::read(file).expect("the fixture reads");
    assert_eq!(value.check(), Vec::new());
    let mut document = serde_json::to_value(&value).unwrap();
    document["chunks"][0]["chunk"]["id"] = serde_json::json!(2);
    document["chunks"][2]["chunk"]["id"] = serde_json::json!(8);
    let mut edited: ChunkIds = serde_json::from_value(document.clone()).unwrap();
    // The name chunk's id is set back; the third holds no case, so its id is the user's.
    let expected = ["chunks[0].chunk.id: stored 2, computed 1"];
    let found = skelcodec_generated_tests::checked(&edited);
    assert_eq!(found, expected);
    edited.normalize().unwrap();
    let written = b"\x01\x03ab\x00\x02\x02\x05\x06\x08\x01\x7f";
    assert_eq!(edited.to_bytes().unwrap(), written);
    let interpreter = skelcodec_generated_tests::interpreter("tests/schemas/chunk_ids.ksy");
    let read = interpreter
        .read(file)
        .expect("the interpreter reads the fixture");
    let found = skelcodec_generated_tests::interpreted_check(&interpreter, &read);
    assert_eq!(found, Vec::<String>::new());
    let path = "tests/schemas/chunk_ids.ksy";
    skelcodec_generated_tests::assert_interpreter_agrees(path, &document, &expected, written);
}

#[test]
fn a_count_of_several_lists_follows_the_first() {
    use lacing::Lacing;
    // `num` counts `lens`, `segments`, `record_lens` and `records`: it follows `lens`.
    let file = b"\x02\x01\x03abcd\x03\x00\x02\x00xyz";
    let value = Lacing::read(file).expect("the fixture reads");
    let mut document = serde_json::to_value(&value).unwrap();
    document["num"] = serde_json::json!(3);
    let mut value: Lacing = serde_json::from_value(document.clone()).unwrap();
    let expected = ["num: stored 3, computed 2"];
    let found = skelcodec_generated_tests::checked(&value);
    assert_eq!(found, expected);
    value.normalize().unwrap();
    assert_eq!(value.to_bytes().unwrap(), file);
    let path = "tests/schemas/lacing.ksy";
    skelcodec_generated_tests::assert_interpreter_agrees(path, &document, &expected, file);
}
