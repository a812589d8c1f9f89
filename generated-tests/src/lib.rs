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

/// What the interpreter's `check()` reports on `value`, each as the generated code's
/// mismatches print.
pub fn interpreted_check(
    interpreter: &skelcodec_dynamic::Interpreter,
    value: &skelcodec_dynamic::Value,
) -> Vec<String> {
    let found = interpreter.check(value).expect("the value is checked");
    found.iter().map(ToString::to_string).collect()
}
