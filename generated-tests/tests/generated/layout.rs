//! `-layout` on a toy archive whose files start on 16-byte sectors: offsets derived from the
//! layout, compared by `check()` and recomputed by `normalize()`, with alignment, units, a
//! conditional block and the listed order.

#[allow(deprecated)] // the schema's style warnings, which `schema check` lists
mod archive {
    skelcodec_macros::codec!("tests/schemas/sector_archive.ksy");
}

use archive::SectorArchive;
use skelcodec_runtime::RawBytes;

/// An archive with the files at the given sectors and the names at `names_offset`, every
/// other byte zero.
fn archive(files: &[(u16, &[u8])], names: Option<(u16, &[u8])>) -> Vec<u8> {
    let mut out = b"SARC".to_vec();
    out.extend((files.len() as u16).to_le_bytes());
    let (names_offset, names_bytes) = names.unwrap_or((0, &[]));
    out.extend(names_offset.to_le_bytes());
    out.extend((names_bytes.len() as u16).to_le_bytes());
    for (sector, data) in files {
        out.extend(sector.to_le_bytes());
        out.extend((data.len() as u16).to_le_bytes());
    }
    let mut put = |at: usize, bytes: &[u8]| {
        if out.len() < at + bytes.len() {
            out.resize(at + bytes.len(), 0);
        }
        out[at..at + bytes.len()].copy_from_slice(bytes);
    };
    for (sector, data) in files {
        put(usize::from(*sector) * 16, data);
    }
    if let Some((at, bytes)) = names {
        put(usize::from(at), bytes);
    }
    out
}

fn mismatches(value: &SectorArchive) -> Vec<String> {
    value.check().iter().map(ToString::to_string).collect()
}

const SCHEMA: &str = "tests/schemas/sector_archive.ksy";

/// The interpreter reads `bytes` with the same offsets reported as the generated code's.
fn interpreter_reports(bytes: &[u8], found: &[String]) {
    let interpreter = skelcodec_generated_tests::interpreter(SCHEMA);
    let value = interpreter
        .read(bytes)
        .expect("the interpreter reads the archive");
    assert_eq!(
        skelcodec_generated_tests::interpreted_check(&interpreter, &value),
        found,
        "what the interpreter's check() reports"
    );
}

#[test]
fn a_packed_archive_agrees_with_its_layout() {
    // Header and table end at 18; the first sector boundary after them is 32 (sector 2).
    let bytes = archive(&[(2, b"hello"), (3, b"abc")], Some((64, b"a\0b\0")));
    let value = SectorArchive::read(&bytes).unwrap();
    assert_eq!(value.to_bytes().unwrap(), bytes);
    assert_eq!(mismatches(&value), Vec::<String>::new());
    interpreter_reports(&bytes, &[]);
}

#[test]
fn a_gap_or_an_order_other_than_the_listed_one_is_reported() {
    let gap = archive(&[(2, b"hello"), (5, b"abc")], Some((96, b"a\0b\0")));
    let value = SectorArchive::read(&gap).unwrap();
    assert_eq!(value.to_bytes().unwrap(), gap);
    assert_eq!(
        mismatches(&value),
        [
            "files[1].sector: stored 5, computed 3",
            "names_offset: stored 96, computed 64"
        ]
    );
    interpreter_reports(&gap, &mismatches(&value));
    // The names before the files: the listed order puts them last.
    let names_first = archive(&[(3, b"hello"), (4, b"abc")], Some((32, b"a\0b\0")));
    let value = SectorArchive::read(&names_first).unwrap();
    assert_eq!(
        mismatches(&value),
        [
            "files[0].sector: stored 3, computed 2",
            "files[1].sector: stored 4, computed 3",
            "names_offset: stored 32, computed 64"
        ]
    );
    interpreter_reports(&names_first, &mismatches(&value));
}

#[test]
fn normalize_moves_the_blocks_after_a_grown_file_to_the_next_sectors() {
    let bytes = archive(&[(2, b"hello"), (3, b"abc")], Some((64, b"a\0b\0")));
    let mut value = SectorArchive::read(&bytes).unwrap();
    value.files[0].data = RawBytes::new(vec![7; 20]);
    // Written as is, the size disagrees with the data: refused.
    assert!(value.to_bytes().is_err());
    let document = serde_json::to_value(&value).unwrap();
    let found = mismatches(&value);
    value.normalize().unwrap();
    let sectors: Vec<u16> = value.files.iter().map(|f| f.sector).collect();
    assert_eq!((sectors, value.names_offset), (vec![2, 4], 80));
    let written = value.to_bytes().unwrap();
    assert_eq!(
        written,
        archive(&[(2, &[7; 20]), (4, b"abc")], Some((80, b"a\0b\0")))
    );
    let found: Vec<&str> = found.iter().map(String::as_str).collect();
    skelcodec_generated_tests::assert_interpreter_agrees(SCHEMA, &document, &found, &written);
    let reread = SectorArchive::read(&written).unwrap();
    assert_eq!(reread.files, value.files);
    assert_eq!(reread.names, value.names);
    assert!(mismatches(&reread).is_empty());
    // The bytes between blocks are the alignment's zeros, kept as unclaimed gaps.
    assert!(
        reread
            .unclaimed
            .iter()
            .all(|gap| gap.bytes.0.iter().all(|&b| b == 0))
    );
}

#[test]
fn an_absent_block_keeps_its_offset_and_stale_bytes_are_dropped() {
    // No names; 3 stale bytes between the two files.
    let mut bytes = archive(&[(2, b"hello"), (4, b"abc")], None);
    bytes[48..51].copy_from_slice(b"old");
    let mut value = SectorArchive::read(&bytes).unwrap();
    assert_eq!(value.to_bytes().unwrap(), bytes);
    assert_eq!(
        mismatches(&value),
        ["files[1].sector: stored 4, computed 3"]
    );
    let document = serde_json::to_value(&value).unwrap();
    value.normalize().unwrap();
    assert_eq!((value.files[1].sector, value.names_offset), (3, 0));
    let written = value.to_bytes().unwrap();
    assert_eq!(written, archive(&[(2, b"hello"), (3, b"abc")], None));
    let found = ["files[1].sector: stored 4, computed 3"];
    skelcodec_generated_tests::assert_interpreter_agrees(SCHEMA, &document, &found, &written);
}
