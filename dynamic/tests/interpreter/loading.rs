//! Loading a schema from its file: what it imports, relatively and from the import paths, is
//! known to the interpreter, so that a tool can watch every file the reading depends on.

use std::fs;

use skelcodec_dynamic::Interpreter;

use crate::common::gallery;

#[test]
fn the_files_a_schema_imports_are_listed_each_once() {
    let dir = tempfile::tempdir().unwrap();
    let common = dir.path().join("lib/common");
    fs::create_dir_all(&common).unwrap();
    // main imports `pair` beside it and, through it and itself, `/common/leaf`.
    fs::write(
        dir.path().join("main.ksy"),
        "meta: {id: main, imports: [pair, /common/leaf]}\nseq: [{id: p, type: pair}]\n",
    )
    .unwrap();
    fs::write(
        dir.path().join("pair.ksy"),
        "meta: {id: pair, imports: [/common/leaf]}\nseq: [{id: a, type: leaf}, {id: b, type: leaf}]\n",
    )
    .unwrap();
    fs::write(
        common.join("leaf.ksy"),
        "meta: {id: leaf}\nseq: [{id: v, type: u1}]\n",
    )
    .unwrap();
    let interpreter = Interpreter::load(&dir.path().join("main.ksy"), &[dir.path().join("lib")])
        .unwrap_or_else(|e| panic!("it loads: {e}"));
    let names: Vec<String> = (interpreter.imported().iter())
        .map(|p| {
            p.strip_prefix(dir.path())
                .unwrap_or(p)
                .display()
                .to_string()
        })
        .collect();
    assert_eq!(names, ["pair.ksy", "lib/common/leaf.ksy"]);
    let value = interpreter.read(b"\x01\x02").expect("it reads");
    let document = serde_json::to_value(interpreter.document(&value)).unwrap();
    assert_eq!(
        document,
        serde_json::json!({"p": {"a": {"v": 1}, "b": {"v": 2}}})
    );
}

#[test]
fn the_interpreter_takes_every_gallery_schema_the_checker_takes() {
    let gallery = gallery();
    let schemas: Vec<_> = walkdir::WalkDir::new(&gallery)
        .sort_by_file_name()
        .into_iter()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "ksy"))
        .map(|e| e.into_path())
        .collect();
    if schemas.is_empty() {
        skelcodec_runtime::corpus::announce_skip(&format!(
            "skipped: no gallery at {}",
            gallery.display()
        ));
        return;
    }
    let refused: Vec<String> = schemas
        .iter()
        .filter_map(|path| {
            let loaded = Interpreter::load(path, std::slice::from_ref(&gallery));
            loaded.err().map(|e| format!("{}: {e}", path.display()))
        })
        .collect();
    assert!(schemas.len() >= 180, "{} schemas", schemas.len());
    assert!(
        refused.is_empty(),
        "{} refused:\n{}",
        refused.len(),
        refused.join("\n")
    );
}
