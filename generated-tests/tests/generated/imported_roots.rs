//! Values of an imported schema read by position in a sized piece of the file, whose own
//! `_root._io` instances sit behind a substream (a universal Mach-O file's objects, their load
//! commands pointing at the data): that `_root._io` is the piece's stream, so what they point
//! to is written back inside the piece. The generated code placed it from the start of the
//! file: over bytes no field claims (the file wrote back with other bytes there), or over the
//! piece itself (reading failed: "`body` at 6..8 overlaps `piece` at 3..11 with other
//! bytes"). The generated code and the interpreter alike; the files are built by hand from
//! `tests/schemas/imported_roots.ksy`.

mod imported_roots {
    skelcodec_macros::codec!("tests/schemas/imported_roots.ksy");
}

use imported_roots::ImportedRoots;
use skelcodec_generated_tests::interpreter;

const SCHEMA: &str = "tests/schemas/imported_roots.ksy";

/// One piece at 8 (6 bytes, its header `04 02`): its body, `ab`, at 4 of the piece, 12 of the
/// file; no field claims bytes 3 to 8, and the body was misplaced at 4 to 6 of them.
const PADDED: &[u8] = b"\x01\x08\x06ppppp\x04\x02zzab";

/// One piece at 3 (8 bytes, its header `06 02`): its body, `ab`, at 6 of the piece, 9 of the
/// file; 6 of the file is inside the piece, where the misplaced body overlapped it.
const INSIDE: &[u8] = b"\x01\x03\x08\x06\x02zzzzab";

/// Reads `file` with both back ends and asserts the body of its only piece, that both write it
/// back byte for byte, also from the generated code's document, and that their documents agree.
fn assert_round_trips(file: &[u8], body: u16) {
    let value = ImportedRoots::read(file).expect("the file reads");
    let piece = value.entries[0].piece.get().expect("the piece reads");
    let read = piece.header.body.get().expect("the body reads");
    assert_eq!(*read, body);
    assert_eq!(value.to_bytes().expect("writes back"), file);

    let document = serde_json::to_value(&value).unwrap();
    let from_document: ImportedRoots = serde_json::from_value(document.clone()).unwrap();
    assert_eq!(from_document.to_bytes().expect("writes back"), file);

    let interpreter = interpreter(SCHEMA);
    let interpreted = interpreter.read(file).expect("the interpreter reads it");
    assert_eq!(interpreter.write(&interpreted).expect("writes back"), file);
    assert_eq!(
        serde_json::to_value(interpreter.document(&interpreted)).unwrap(),
        document
    );
    let edited = interpreter
        .value_of(&document)
        .expect("the document is a value");
    assert_eq!(interpreter.write(&edited).expect("writes back"), file);
}

#[test]
fn a_body_pointed_to_from_a_piece_is_written_in_the_piece_not_over_unclaimed_bytes() {
    assert_round_trips(PADDED, u16::from_le_bytes(*b"ab"));
}

#[test]
fn a_body_pointed_to_inside_its_piece_reads_without_overlapping_it() {
    assert_round_trips(INSIDE, u16::from_le_bytes(*b"ab"));
}
