//! No error message is written in both back ends: a rule's words live in the runtime
//! (`skelcodec_runtime::__private::messages`, the error kinds, the functions of `fields`), which the
//! generator's checker and emitter and the interpreter all call, so that the two cannot drift.
//! This test reads the sources of both and fails on a string literal of two words or more
//! that appears in each (format placeholders aside: `{n}` and `{}` read the same).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The directories of the generator that hold messages: its checker and its emitter.
const GENERATOR: [&str; 2] = ["../codegen/src/emit", "../codegen/src/typeck"];
/// The interpreter's sources.
const INTERPRETER: [&str; 1] = ["src"];

#[test]
fn no_message_is_written_in_both_back_ends() {
    let generator = literals_under(&GENERATOR);
    let interpreter = literals_under(&INTERPRETER);
    let shared: Vec<String> = generator
        .iter()
        .filter(|(text, _)| is_message(text) && interpreter.contains_key(*text))
        .map(|(text, files)| format!("{text:?} in {files:?} and {:?}", interpreter[text]))
        .collect();
    assert!(
        shared.is_empty(),
        "messages written in both back ends; move each into the runtime:\n{}",
        shared.join("\n")
    );
}

#[test]
fn the_scanner_finds_literals_and_skips_comments() {
    let source = r##"
        // "a commented message"
        let a = "a real message {n}"; let c = '"'; let r = r#"raw "quoted" text"#;
        /* "a block comment" */ let e = "escaped \" quote";
    "##;
    let found: Vec<String> = string_literals(source);
    assert_eq!(
        found,
        [
            "a real message {}",
            "raw \"quoted\" text",
            "escaped \\\" quote"
        ]
    );
    assert!(is_message("expected {} found"));
    assert!(!is_message("_io") && !is_message("`, `") && !is_message("{}: {}"));
}

/// A literal is a message when it holds two words or more; a single word is a name (`_io`,
/// `size`, `crc32`), which both back ends must spell the same.
fn is_message(text: &str) -> bool {
    let words = text.split_whitespace();
    words
        .filter(|w| w.chars().any(|c| c.is_ascii_alphabetic()))
        .count()
        >= 2
}

/// Every string literal of the `.rs` files under `dirs` (relative to this crate), normalized,
/// with the files it appears in.
fn literals_under(dirs: &[&str]) -> BTreeMap<String, BTreeSet<String>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut literals: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for dir in dirs {
        for file in rust_files(&root.join(dir)) {
            let source = std::fs::read_to_string(&file).expect("a source file reads");
            let name = file
                .strip_prefix(root)
                .unwrap_or(&file)
                .display()
                .to_string();
            for literal in string_literals(&source) {
                literals.entry(literal).or_default().insert(name.clone());
            }
        }
    }
    literals
}

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        for entry in entries {
            let path = entry.expect("a directory entry reads").path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The string literals of Rust source, outside comments and character literals, as written
/// (escapes kept) with each format placeholder made `{}`.
fn string_literals(source: &str) -> Vec<String> {
    let bytes = source.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'/' if bytes.get(i + 1) == Some(&b'/') => i = line_end(bytes, i),
            b'/' if bytes.get(i + 1) == Some(&b'*') => i = block_end(bytes, i),
            b'\'' => i = char_end(bytes, i),
            b'r' if raw_hashes(bytes, i).is_some() && !ident_before(bytes, i) => {
                let hashes = raw_hashes(bytes, i).unwrap_or(0);
                let start = i + 2 + hashes;
                let close = format!("\"{}", "#".repeat(hashes));
                let end = source[start..]
                    .find(&close)
                    .map_or(bytes.len(), |n| start + n);
                found.push(normalized(&source[start..end]));
                i = end + close.len();
            }
            b'"' => {
                let mut end = i + 1;
                while end < bytes.len() && bytes[end] != b'"' {
                    end += if bytes[end] == b'\\' { 2 } else { 1 };
                }
                let end = end.min(bytes.len());
                found.push(normalized(&source[i + 1..end]));
                i = end + 1;
            }
            _ => i += 1,
        }
    }
    found
}

fn line_end(bytes: &[u8], from: usize) -> usize {
    bytes[from..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(bytes.len(), |n| from + n)
}

fn block_end(bytes: &[u8], from: usize) -> usize {
    bytes[from + 2..]
        .windows(2)
        .position(|w| w == b"*/")
        .map_or(bytes.len(), |n| from + 2 + n + 2)
}

/// Past a character literal (`'"'`, `'\''`), or past the quote of a lifetime (`'a`).
fn char_end(bytes: &[u8], from: usize) -> usize {
    match (
        bytes.get(from + 1),
        bytes.get(from + 2),
        bytes.get(from + 3),
    ) {
        (Some(b'\\'), _, _) => {
            let close = bytes[from + 2..].iter().position(|&b| b == b'\'');
            close.map_or(bytes.len(), |n| from + 2 + n + 1)
        }
        (Some(_), Some(b'\''), _) => from + 3,
        _ => from + 1,
    }
}

/// The number of `#` of a raw string starting at `from` (`r"`, `r#"`).
fn raw_hashes(bytes: &[u8], from: usize) -> Option<usize> {
    let hashes = bytes[from + 1..].iter().take_while(|&&b| b == b'#').count();
    (bytes.get(from + 1 + hashes) == Some(&b'"')).then_some(hashes)
}

fn ident_before(bytes: &[u8], at: usize) -> bool {
    at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_')
}

/// Format placeholders (`{n}`, `{:?}`, `{}`) made one, so that a message written with named
/// arguments on one side and positional ones on the other is found.
fn normalized(literal: &str) -> String {
    let mut out = String::with_capacity(literal.len());
    let mut chars = literal.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
                out.push_str("{{");
            }
            '{' => {
                for c in chars.by_ref() {
                    if c == '}' {
                        break;
                    }
                }
                out.push_str("{}");
            }
            c => out.push(c),
        }
    }
    out
}
