//! The stages before the checker's IR (loading, lowering, the model, inference, the resolver
//! and its `Context`) hold no Rust: they are what a checker without the Rust generator, and
//! the interpreter, are made of, so none of them may use `proc_macro2`, `quote` or `syn`, or
//! the modules that render Rust (`emit`, `repr`, `sanitization`, `typeck::{build, expr, ir}`).

use std::path::{Path, PathBuf};

/// The neutral stages' files and folders, under `codegen/src`.
const NEUTRAL: [&str; 18] = [
    "error.rs",
    "expr.rs",
    "imports.rs",
    "keys.rs",
    "ksy.rs",
    "layout.rs",
    "lint.rs",
    "locate.rs",
    "lower",
    "model",
    "names.rs",
    "overlay.rs",
    "typeck/context.rs",
    "typeck/infer",
    "typeck/reach.rs",
    "typeck/resolve",
    "typeck/typed.rs",
    "typeck/value_types.rs",
];

/// What a neutral file's code may not name.
const RUST_GENERATION: [&str; 13] = [
    "proc_macro2",
    "quote!",
    "quote::",
    "syn::",
    "prettyplease",
    "crate::emit",
    "crate::repr",
    "crate::sanitization",
    "typeck::build",
    "typeck::expr",
    "typeck::ir",
    "super::build",
    "super::expr",
];

#[test]
fn the_stages_before_the_checkers_ir_render_no_rust() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut found = Vec::new();
    for file in NEUTRAL
        .iter()
        .flat_map(|entry| rust_files(&src.join(entry)))
    {
        let text = std::fs::read_to_string(&file).expect("a source file");
        for (number, line) in text.lines().enumerate() {
            let code = line.trim_start();
            if code.starts_with("//") {
                continue;
            }
            for name in RUST_GENERATION.iter().filter(|name| code.contains(**name)) {
                let file = file.strip_prefix(&src).unwrap_or(&file).display();
                found.push(format!("{file}:{}: `{name}`", number + 1));
            }
        }
    }
    assert_eq!(
        found,
        Vec::<String>::new(),
        "neutral stages naming Rust generation"
    );
}

/// The `.rs` files at `path`: the file itself, or every one under the folder.
fn rust_files(path: &Path) -> Vec<PathBuf> {
    if path.is_file() {
        return vec![path.to_owned()];
    }
    let mut files = Vec::new();
    for entry in std::fs::read_dir(path).expect("a source folder").flatten() {
        files.extend(rust_files(&entry.path()));
    }
    files.retain(|f| f.extension().is_some_and(|e| e == "rs"));
    files
}
