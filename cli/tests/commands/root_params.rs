//! `--param NAME=VALUE`: the values of a schema's root parameters, for every command that
//! reads with `--schema`, recorded in the document for `encode`.

use std::fs;

use crate::support::{assert_exit, skelcodec, stderr, stdout};

/// Records whose body's length the caller gives; a tail only when asked for.
const FRAMED_KSY: &str = "
meta: {id: framed, endian: le}
params:
  - {id: len_body, type: u1}
  - {id: has_tail, type: bool, -default: false}
seq:
  - {id: body, size: len_body}
  - {id: tail, type: u1, if: has_tail}
";

#[test]
fn every_command_reading_with_a_schema_takes_its_root_parameters() {
    let dir = tempfile::tempdir().unwrap();
    let schema = dir.path().join("framed.ksy");
    fs::write(&schema, FRAMED_KSY).unwrap();
    let file = dir.path().join("three.bin");
    fs::write(&file, b"ab\x07").unwrap();
    // `command --schema framed.ksy --param len_body=2 --param has_tail=true three.bin`.
    let with = |command: &str| {
        skelcodec(&[
            &command,
            &"--schema",
            &schema,
            &"--param",
            &"len_body=2",
            &"--param",
            &"has_tail=true",
            &file,
        ])
    };
    let output = with("decode");
    assert_exit(&output, 0);
    let document: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(
        document["value"],
        serde_json::json!({"body": "6162", "tail": 7})
    );
    // Recorded with the schema: `encode` reads them back.
    assert_eq!(
        document["schema"]["params"],
        serde_json::json!({"len_body": "2", "has_tail": "true"})
    );
    let json = dir.path().join("three.json");
    fs::write(&json, stdout(&output).replace("\"tail\": 7", "\"tail\": 9")).unwrap();
    let out = dir.path().join("edited.bin");
    let output = skelcodec(&[&"encode", &json, &"-o", &out]);
    assert_exit(&output, 0);
    assert_eq!(fs::read(&out).unwrap(), b"ab\x09");
    for command in ["roundtrip", "check", "explain"] {
        let output = with(command);
        assert_exit(&output, 0);
    }
    let output = with("explain");
    assert!(stdout(&output).contains("tail"), "{}", stdout(&output));
}

#[test]
fn a_missing_or_refused_parameter_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let schema = dir.path().join("framed.ksy");
    fs::write(&schema, FRAMED_KSY).unwrap();
    let file = dir.path().join("two.bin");
    fs::write(&file, b"ab").unwrap();
    // `has_tail` has its default; `len_body` has none.
    assert_refused(&[&"decode", &"--schema", &schema, &file], "`len_body`");
    let param = |value: &str, says: &str| {
        assert_refused(
            &[&"decode", &"--schema", &schema, &"--param", &value, &file],
            says,
        )
    };
    param(
        "len_body=many",
        "--param parameter `len_body`: expected an integer",
    );
    param("len_body", "NAME=VALUE");
    // Only a schema given at run time has parameters to give.
    assert_refused(&[&"decode", &"--param", &"len_body=2", &file], "--schema");
}

/// The command `args` exits with 2 and an error that says `says`.
fn assert_refused(args: &[&dyn AsRef<std::ffi::OsStr>], says: &str) {
    let output = skelcodec(args);
    assert_exit(&output, 2);
    assert!(stderr(&output).contains(says), "{}", stderr(&output));
}
