//! Tests only: see `tests/`. What several test files share lives here.

use std::path::{Path, PathBuf};

/// Every file under `dir`, recursively, sorted.
pub fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// The interpreter of the schema at `path` (from this crate's folder), for tests that hold it
/// against the generated code.
pub fn interpreter(path: &str) -> skelcodec_dynamic::Interpreter {
    let schema = skelcodec_codegen::load_schema(Path::new(path)).expect("the schema loads");
    skelcodec_dynamic::Interpreter::new(schema).expect("the schema is interpreted")
}

/// Holds `interpreter` to the generated code's read of `file`, whose document is `document`:
/// the same document, and the file written back byte for byte from the value it reads and
/// from the document.
pub fn assert_interpreted_alike(
    interpreter: &skelcodec_dynamic::Interpreter,
    file: &[u8],
    document: &serde_json::Value,
) {
    let value = interpreter.read(file).expect("the interpreter reads it");
    assert_eq!(
        &serde_json::to_value(interpreter.document(&value)).unwrap(),
        document,
        "the interpreter's document"
    );
    assert_eq!(interpreter.write(&value).expect("writes back"), file);
    let from_document = (interpreter.value_of(document)).expect("the document is a value");
    assert_eq!(
        interpreter
            .write(&from_document)
            .expect("writes the document"),
        file
    );
}

/// What `check()` reports on a value of the generated code, each mismatch as it prints.
pub fn checked(value: &impl skelcodec_runtime::Codec) -> Vec<String> {
    value.check().iter().map(ToString::to_string).collect()
}

/// What the interpreter's `check()` reports on `value`, each as the generated code's
/// mismatches print.
pub fn interpreted_check(
    interpreter: &skelcodec_dynamic::Interpreter,
    value: &skelcodec_dynamic::Value,
) -> Vec<String> {
    let found = interpreter.check(value).expect("the value is checked");
    found.iter().map(ToString::to_string).collect()
}

/// Holds the interpreter of the schema at `path` to what the generated code made of an edited
/// value whose document is `document`: its `check()` reports `found` (in any order), and its
/// `normalize()` makes it write `written`.
pub fn assert_interpreter_agrees(
    path: &str,
    document: &serde_json::Value,
    found: &[&str],
    written: &[u8],
) {
    let interpreter = interpreter(path);
    let value = interpreter
        .value_of(document)
        .expect("the document is a value");
    let mut reported = interpreted_check(&interpreter, &value);
    let mut found: Vec<String> = found.iter().map(ToString::to_string).collect();
    reported.sort();
    found.sort();
    assert_eq!(reported, found, "what the interpreter's check() reports");
    interpreter
        .normalize(&value)
        .expect("the interpreter normalizes");
    let bytes = interpreter.write(&value).expect("the interpreter writes");
    assert_eq!(
        bytes, written,
        "what the interpreter writes once normalized"
    );
}
