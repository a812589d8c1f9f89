//! Overlays: skelcodec's keys merged into a schema by the paths of its types and fields, each
//! into the loaded schema whose `meta/id` it names; every mistake reported, located in the
//! overlay.

use std::path::{Path, PathBuf};

use skelcodec_codegen::{Overlay, SchemaError, load_schema_overlaid, parse_schema_overlaid};

/// A schema of a header and chunks ending in a CRC that it does not derive, importing
/// `trailer` (another file, another `meta/id`).
const SCHEMA: &str = "\
meta:
  id: chunks
  endian: be
  imports:
    - trailer
seq:
  - id: version
    type: u1
  - id: chunks
    type: chunk
    repeat: expr
    repeat-expr: 2
  - id: trailer
    type: trailer
types:
  chunk:
    seq:
      - id: len
        type: u2
      - id: kind
        size: 2
      - id: body
        size: len
      - id: crc
        type: u4
    instances:
      is_text:
        value: kind == [0x74, 0x78]
";

const TRAILER: &str = "\
meta:
  id: trailer
  endian: be
seq:
  - id: note
    size: 2
  - type: u4
";

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// The schema loaded from a fresh folder with overlays of the given texts.
fn load(overlays: &[&str]) -> Result<skelcodec_codegen::CheckedSchema, SchemaError> {
    let dir = tempfile::tempdir().unwrap();
    let schema = write(dir.path(), "chunks.ksy", SCHEMA);
    write(dir.path(), "trailer.ksy", TRAILER);
    let overlays: Vec<Overlay> = overlays
        .iter()
        .enumerate()
        .map(|(i, text)| Overlay::new(format!("o{i}.yaml"), *text))
        .collect();
    load_schema_overlaid(&schema, &[], &overlays)
}

/// Each error as `file:line:col: message (at path)`, one a line.
fn lines(error: &SchemaError) -> Vec<String> {
    error.all().map(ToString::to_string).collect()
}

#[test]
fn an_overlay_declares_a_checksum_the_schema_leaves_out() {
    let plain = load(&[]).expect("the schema alone");
    assert!(!plain.has_checksums());
    let overlay = "meta:\n  id: chunks\ntypes:\n  chunk:\n    seq:\n      crc:\n        -derived: crc32(kind, body)\n";
    let schema = load(&[overlay]).expect("overlaid");
    assert!(schema.has_checksums());
    let derived: Vec<String> = schema
        .derived_fields()
        .map(|(def, field, how)| format!("{}.{} = {how}", def.id, field.id))
        .collect();
    assert!(
        derived.contains(&"chunk.crc = crc32(kind, body)".to_owned()),
        "{derived:?}"
    );
}

#[test]
fn an_overlay_reaches_an_imported_schema_by_its_id_and_unnamed_attributes_by_index() {
    let overlay = "meta:\n  id: trailer\nseq:\n  _unnamed1:\n    -derived: adler32(note)\n";
    let schema = load(&[overlay]).expect("overlaid");
    let derived: Vec<String> = schema
        .derived_fields()
        .map(|(def, field, how)| format!("{}.{} = {how}", def.id, field.id))
        .collect();
    assert!(
        derived.contains(&"trailer._unnamed1 = adler32(note)".to_owned()),
        "{derived:?}"
    );
}

#[test]
fn an_overlay_turns_inference_off_and_later_overlays_win() {
    let off =
        "meta:\n  id: chunks\ntypes:\n  chunk:\n    seq:\n      len:\n        -derived: false\n";
    let inferred = |schema: &skelcodec_codegen::CheckedSchema| {
        schema
            .derived_fields()
            .any(|(def, field, _)| def.id == "chunk" && field.id == "len")
    };
    assert!(inferred(&load(&[]).unwrap()), "`len` is inferred alone");
    assert!(!inferred(&load(&[off]).unwrap()), "turned off");
    let on = "meta:\n  id: chunks\ntypes:\n  chunk:\n    seq:\n      len:\n        -derived: body._sizeof\n";
    assert!(
        inferred(&load(&[off, on]).unwrap()),
        "the later overlay wins"
    );
}

#[test]
fn every_mistake_of_an_overlay_is_reported_where_it_is_written() {
    let overlay = "\
meta:
  id: chunks
  title: Not an extension
seq:
  versoin:
    -derived: 1
types:
  chunck:
    seq:
      crc: {-derived: crc32(body)}
  chunk:
    seq:
      crc:
        -derive: crc32(kind, body)
        size: 4
    instances:
      is_txt:
        -derived: false
    enums: {}
";
    let error = load(&[overlay]).expect_err("refused");
    let found = lines(&error);
    let expected = [
        ("o0.yaml:3:3", "`title` is not something an overlay sets"),
        (
            "o0.yaml:5:3",
            "has no attribute `versoin` (it has: version, chunks, trailer)",
        ),
        (
            "o0.yaml:8:3",
            "declares no type `chunck` here (its types: chunk)",
        ),
        (
            "o0.yaml:14:9",
            "`-derive` is not a skelcodec key of an attribute",
        ),
        ("o0.yaml:15:9", "`size` is not something an overlay sets"),
        (
            "o0.yaml:17:7",
            "has no instance `is_txt` here (it has: is_text)",
        ),
        ("o0.yaml:19:5", "`enums` is not something an overlay sets"),
    ];
    assert_eq!(found.len(), expected.len(), "{found:#?}");
    for ((place, message), line) in expected.iter().zip(&found) {
        assert!(line.starts_with(place) && line.contains(message), "{line}");
    }
}

#[test]
fn an_error_in_a_key_an_overlay_set_names_the_overlay() {
    let overlay = "meta:\n  id: chunks\ntypes:\n  chunk:\n    seq:\n      crc:\n        -derived: crc32(body, kind)\n";
    let error = load(&[overlay]).expect_err("refused");
    assert_eq!(error.file, Path::new("o0.yaml"));
    assert_eq!(error.line_col, Some((7, 9)));
    assert!(error.message.contains("named in their order"), "{error}");
}

#[test]
fn an_overlay_for_no_loaded_schema_or_of_the_wrong_shape_is_refused() {
    let error = load(&["meta:\n  id: chunk\n"]).expect_err("no such schema");
    assert_eq!(error.line_col, Some((2, 3)));
    assert!(
        error
            .message
            .contains("no schema loaded has that `meta/id` (loaded: chunks, trailer)"),
        "{error}"
    );
    let error = load(&["seq: {}\n"]).expect_err("no id");
    assert!(error.message.contains("`meta: {id: …}`"), "{error}");
    let error = load(&["- a\n"]).expect_err("not a mapping");
    assert!(error.message.contains("an overlay is a mapping"), "{error}");
    let error =
        load(&["meta:\n  id: chunks\nseq:\n  version:\n    -solve: 3\n"]).expect_err("not a pair");
    assert_eq!(error.file, Path::new("o0.yaml"));
    assert!(error.message.contains("does not have its shape"), "{error}");
}

#[test]
fn parsing_text_takes_overlays_too() {
    let overlay = Overlay::new(
        "o.yaml",
        "meta:\n  id: one\nseq:\n  sum:\n    -derived: crc32(data)\n",
    );
    let text = "meta:\n  id: one\nseq:\n  - id: data\n    size: 3\n  - id: sum\n    type: u4le\n";
    let schema = parse_schema_overlaid(
        text,
        Path::new("one.ksy"),
        &[],
        std::slice::from_ref(&overlay),
    )
    .expect("overlaid");
    assert!(schema.has_checksums());
    assert_eq!(overlay.schema_id().as_deref(), Some("one"));
}

/// A root holding a list of `item`s and one `box`, for derivations that reach their holder.
const HELD: &str = "\
meta:
  id: held
  endian: le
seq:
  - id: count
    type: u1
  - id: items
    type: item
    repeat: expr
    repeat-expr: count
  - id: single
    type: box
  - id: tail
    type: u4
types:
  item:
    seq:
      - id: a
        type: u4
      - id: b
        type: u4
  box:
    seq:
      - id: method
        type: u1
      - id: crc
        type: u4
      - id: n
        type: u4
      - id: m
        type: u4
      - id: data
        size: 4
      - id: sum
        size: 4
";

fn load_held(overlay: &str) -> Result<skelcodec_codegen::CheckedSchema, SchemaError> {
    let dir = tempfile::tempdir().unwrap();
    let schema = write(dir.path(), "held.ksy", HELD);
    load_schema_overlaid(&schema, &[], &[Overlay::new("o.yaml", overlay)])
}

#[test]
fn derivations_of_data_and_of_the_holder_or_root_are_placed_where_computed() {
    let overlay = "\
meta:
  id: held
types:
  box:
    seq:
      crc:
        -derived: 'method == 8 ? crc32(inflated(data)) : crc32(data)'
      n:
        -derived: _parent.tail
      m:
        -derived: '_root.items.sum(_.a) + _root.count'
";
    let schema = load_held(overlay).expect("placed");
    let members: Vec<String> = schema
        .derived_member_fields()
        .map(|(def, path, how, _)| format!("{}.{path} = {how}", def.id))
        .collect();
    assert_eq!(members, ["held.single.n = tail"]);
    let [rooted] = schema.rooted.as_slice() else {
        panic!("{:?}", schema.rooted)
    };
    assert_eq!(
        skelcodec_codegen::expr::to_source(&rooted.derived),
        "(items.sum(_.a) + count)"
    );
    let derived: Vec<String> = schema
        .derived_fields()
        .map(|(def, field, how)| format!("{}.{} = {how}", def.id, field.id))
        .collect();
    assert!(
        derived.contains(&"box.crc = ((method == 8) ? crc32(inflated(data)) : crc32(data))".into()),
        "{derived:?}"
    );
}

#[test]
fn every_misused_derivation_of_data_or_of_another_value_is_a_located_error() {
    let overlay = "\
meta:
  id: held
seq:
  tail:
    -derived: _parent.count
types:
  item:
    seq:
      a:
        -derived: _parent.tail
      b:
        -derived: '_root.count + a'
  box:
    seq:
      crc:
        -derived: crc32(inflated(n))
      n:
        -derived: frobnicate(data)
      m:
        -derived: crc32(inflated(data), 1)
";
    let error = load_held(overlay).expect_err("refused");
    let found = lines(&error);
    let expected = [
        (
            "o.yaml:5:5",
            "`_parent` in a derivation of `held`: no type holds a value of it",
        ),
        (
            "o.yaml:10:9",
            "`_parent` in a derivation of `item` needs it held by a field of one value, always there, read in sequence, which computes it; `held.items` is not",
        ),
        (
            "o.yaml:12:9",
            "computed once, by the root, for every value of `item`: it cannot use `a`",
        ),
        (
            "o.yaml:16:9",
            "`inflated(…)` takes bytes (a byte field, `inflated(…)`), not an integer",
        ),
        ("o.yaml:18:9", "unknown function `frobnicate`"),
        ("o.yaml:20:9", "`crc32(…)` takes one value, of bytes"),
    ];
    assert_eq!(found.len(), expected.len(), "{found:#?}");
    for ((place, message), line) in expected.iter().zip(&found) {
        assert!(line.starts_with(place) && line.contains(message), "{line}");
    }
}
