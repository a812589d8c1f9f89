//! `skelcodec explain` as a new user meets it: every byte of a file accounted for (those no
//! field claims have rows of their own), built-in formats explained without `--schema`, and
//! `--watch` following the schemas a schema imports.

use std::fs;
use std::path::Path;

use crate::support::{Running, assert_exit, skelcodec, stderr, stdout};

/// A `u2` at 0 and a byte read by position at 4: bytes 2..4 and those after 5 are claimed by
/// no field.
const GAPPY_KSY: &str = "
meta: {id: gappy, endian: le}
seq:
  - {id: a, type: u2}
instances:
  b: {pos: 4, type: u1}
";

/// The line of the table whose columns start with `start`.
fn line_at(table: &str, start: &str) -> Vec<String> {
    let line = table
        .lines()
        .find(|l| l.split_whitespace().next() == Some(start));
    let line = line.unwrap_or_else(|| panic!("no line at {start} in\n{table}"));
    line.split_whitespace().map(str::to_owned).collect()
}

#[test]
fn bytes_no_field_claims_have_rows_in_the_table_and_the_json() {
    let dir = tempfile::tempdir().unwrap();
    let schema = dir.path().join("gappy.ksy");
    fs::write(&schema, GAPPY_KSY).unwrap();
    let file = dir.path().join("gappy.bin");
    fs::write(&file, b"\x01\x00\xee\xee\x07\xff\xfe").unwrap();
    let output = skelcodec(&[&"explain", &"--schema", &schema, &file]);
    assert_exit(&output, 0);
    let table = stdout(&output);
    assert_eq!(
        line_at(&table, "0x2"),
        ["0x2", "0x4", "2", "(unclaimed)", "bytes", "\"eeee\""]
    );
    assert_eq!(
        line_at(&table, "0x5"),
        ["0x5", "0x7", "2", "(unclaimed)", "bytes", "\"fffe\""]
    );
    let output = skelcodec(&[&"explain", &"--schema", &schema, &"--json", &file]);
    assert_exit(&output, 0);
    let explained: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let paths: Vec<&str> = (explained["fields"].as_array().unwrap().iter())
        .filter_map(|f| f["path"].as_str())
        .collect();
    assert_eq!(paths, ["a", "(unclaimed)", "b", "(unclaimed)"]);
    assert_eq!(
        explained["fields"][3],
        serde_json::json!({"path": "(unclaimed)", "start": 5, "end": 7, "type": "bytes",
            "value": "fffe"})
    );
}

/// A schema whose one field is of a type another file, `pair.ksy` beside it, declares.
const MAIN_KSY: &str = "
meta: {id: main, imports: [pair]}
seq:
  - {id: p, type: pair}
";

/// The imported type: two bytes.
const PAIR_KSY: &str = "
meta: {id: pair}
seq:
  - {id: left, type: u1}
  - {id: right, type: u1}
";

#[test]
fn watch_reads_again_when_an_imported_schema_changes() {
    let dir = tempfile::tempdir().unwrap();
    let schema = dir.path().join("main.ksy");
    fs::write(&schema, MAIN_KSY).unwrap();
    let pair = dir.path().join("pair.ksy");
    fs::write(&pair, PAIR_KSY).unwrap();
    let file = dir.path().join("two.bin");
    fs::write(&file, b"\x01\x02").unwrap();
    let mut watching = Running::start(&[&"explain", &"--watch", &"--schema", &schema, &file]);
    let first = watching.wait_for("p.right");
    // Only the imported file changes: the next explanation shows its new field name.
    fs::write(&pair, PAIR_KSY.replace("id: right", "id: second")).unwrap();
    let again = watching.wait_for("p.second");
    assert!(first, "the first explanation: {}", watching.output());
    assert!(
        again,
        "no explanation after the edit: {}",
        watching.output()
    );
}

/// A San Andreas IMG archive (`VER2`, as `schemas/img.ksy` describes it) of one entry,
/// `a.txt`, whose one sector of data is the archive's second: the rest of the first is
/// claimed by no field.
fn one_entry_img() -> Vec<u8> {
    let mut img = b"VER2".to_vec();
    img.extend(1u32.to_le_bytes());
    img.extend(1u32.to_le_bytes()); // offset, in sectors
    img.extend(1u16.to_le_bytes()); // streaming size, in sectors
    img.extend(0u16.to_le_bytes()); // archive size
    let mut name = b"a.txt".to_vec();
    name.resize(24, 0);
    img.extend(name);
    img.resize(2048, 0);
    img.extend(b"hello");
    img.resize(4096, 0);
    img
}

#[test]
fn a_built_in_format_is_explained_with_its_own_schema_without_schema() {
    let dir = tempfile::tempdir().unwrap();
    // No extension: the format is told by its magic.
    let file = dir.path().join("archive");
    fs::write(&file, one_entry_img()).unwrap();
    let output = skelcodec(&[&"explain", &file]);
    assert_exit(&output, 0);
    let table = stdout(&output);
    assert_eq!(
        line_at(&table, "0x28"),
        [
            "0x28",
            "0x800",
            "2008",
            "(unclaimed)",
            "bytes",
            "\"00000000000000000000000000000000…\""
        ]
    );
    assert!(
        table
            .lines()
            .any(|l| l.contains("entries[0].name") && l.contains("\"a.txt\"")),
        "{table}"
    );
    // The same as with the project's schema given, and as with the format forced.
    let schema = Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas/img.ksy");
    let given = skelcodec(&[&"explain", &"--schema", &schema, &file]);
    assert_eq!(stdout(&given), table);
    let forced = skelcodec(&[&"explain", &"--format", &"img", &file]);
    assert_eq!(stdout(&forced), table);
}

#[test]
fn a_file_of_no_known_format_or_a_format_without_a_schema_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let unknown = dir.path().join("notes.bin");
    fs::write(&unknown, b"nothing known").unwrap();
    let output = skelcodec(&[&"explain", &unknown]);
    assert_exit(&output, 2);
    assert!(
        stderr(&output).contains("--format ID"),
        "{}",
        stderr(&output)
    );
    // SWAT 3 animations, whose schema searches (`-scan`) and solves (`-solve`), are explained.
    let gsa = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../generated-tests/fixtures/gsa/v41_partial_bones.gsa");
    let output = skelcodec(&[&"explain", &gsa]);
    assert_exit(&output, 0);
    assert!(
        stdout(&output).contains("bones_per_frame"),
        "{}",
        stdout(&output)
    );
    // A type of drs.ksy read by code of its own: no schema of its own.
    let output = skelcodec(&[&"explain", &"--format", &"animation_set", &unknown]);
    assert_exit(&output, 2);
    assert!(stderr(&output).contains("--schema"), "{}", stderr(&output));
}
