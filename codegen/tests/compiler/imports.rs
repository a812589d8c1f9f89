//! Imports: relative to the importing file, absolute through import paths, each file once,
//! and every error located in the file it is in.

use std::path::{Path, PathBuf};

use skelcodec_codegen::{load_schema, load_schema_with};

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn relative_absolute_and_circular_imports_resolve() {
    let dir = tempfile::tempdir().unwrap();
    let main = write(
        dir.path(),
        "main.ksy",
        "meta:\n  id: main\n  endian: le\n  imports:\n    - parts/header\n    - /lib/vlq\nseq:\n  - id: header\n    type: header\n  - id: len\n    type: vlq\n  - id: kind\n    type: u1\n    enum: header::kind\n",
    );
    write(
        dir.path(),
        "parts/header.ksy",
        "meta:\n  id: header\n  endian: be\n  imports:\n    - ../main\nseq:\n  - id: magic\n    type: u2\nenums:\n  kind:\n    1: one\n",
    );
    let lib = dir.path().join("search");
    write(
        &lib,
        "lib/vlq.ksy",
        "meta:\n  id: vlq\nseq:\n  - id: b\n    type: u1\n",
    );

    let schema = load_schema_with(&main, std::slice::from_ref(&lib)).expect("accepted");
    let names: Vec<&str> = schema.types.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(names, ["main", "header", "vlq"]);
    assert_eq!(schema.enums[0].rust_name, "header_kind");
    assert_eq!(schema.imported.len(), 2);

    // Without the import path, the absolute import is a located error in main.ksy.
    let e = load_schema(&main).unwrap_err();
    assert_eq!(e.file, main);
    assert_eq!(e.line_col, Some((6, 7)));
    assert!(
        e.message.contains("cannot find the import `/lib/vlq`"),
        "{e}"
    );
}

#[test]
fn an_error_in_an_imported_schema_names_that_file() {
    let dir = tempfile::tempdir().unwrap();
    let main = write(
        dir.path(),
        "main.ksy",
        "meta:\n  id: main\n  imports:\n    - other\nseq:\n  - id: o\n    type: other\n",
    );
    let other = write(
        dir.path(),
        "other.ksy",
        "meta:\n  id: other\nseq:\n  - id: x\n    type: widget\n",
    );
    let e = load_schema(&main).unwrap_err();
    assert_eq!(e.file, other);
    assert_eq!(e.line_col, Some((5, 5)));
    assert!(e.message.contains("unknown type `widget`"), "{e}");
}

#[test]
fn root_in_an_imported_schema_is_that_schema_s_root() {
    // As in Kaitai (`exif` in JPEG and PNG): `_root.order` inside `exif`'s own types is the
    // field of `exif`, passed down from it, not a field of the schema importing it.
    let dir = tempfile::tempdir().unwrap();
    let main = write(
        dir.path(),
        "main.ksy",
        "meta:\n  id: main\n  imports:\n    - exif\nseq:\n  - id: tag\n    type: u1\n  - id: body\n    type: exif\n",
    );
    write(
        dir.path(),
        "exif.ksy",
        "meta:\n  id: exif\nseq:\n  - id: order\n    type: u1\n  - id: ifd\n    type: ifd\ntypes:\n  ifd:\n    seq:\n      - id: data\n        size: _root.order\n",
    );
    let schema = load_schema(&main).expect("accepted");
    let ifd = schema.types.iter().find(|t| t.id == "ifd").unwrap();
    let params: Vec<&str> = ifd.params.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(params, ["_root_order"]);
    assert!(schema.is_file_root(0));
    let exif = schema.types.iter().position(|t| t.id == "exif").unwrap();
    assert!(schema.is_file_root(exif));
    let ifd = schema.types.iter().position(|t| t.id == "ifd").unwrap();
    assert_eq!(schema.file_root(ifd), exif);
}
