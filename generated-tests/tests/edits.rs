//! Editing never corrupts: for every document `encode` accepts, decoding the bytes gives the
//! document back. Every fixture of every format (and the corpus when present) is decoded to
//! JSON, and a deterministic set of single edits is applied to its integer and string leaves,
//! offsets and sizes included. Each edit is either refused with a path, or reads back equal.

use std::path::{Path, PathBuf};

use serde_json::Value;
use skelcodec_formats::{Format, VALUE_KEY};

/// At most this many leaves of one file are edited: spread evenly over the document.
const LEAVES_PER_FILE: usize = 60;

/// Files bigger than this are left to the mutation test (each edit re-encodes the file).
const MAX_FILE_SIZE: usize = 64 * 1024;

fn sample_files() -> Vec<PathBuf> {
    let mut roots = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")];
    if let Some(corpus) = skelcodec_runtime::testing::corpus_dir(env!("CARGO_MANIFEST_DIR")) {
        roots.push(corpus);
    }
    let mut files: Vec<PathBuf> = roots
        .iter()
        .flat_map(|root| skelcodec_generated_tests::files_under(root))
        // Broken fixtures do not decode, so they have nothing to edit.
        .filter(|path| !path.components().any(|c| c.as_os_str() == "broken"))
        .collect();
    files.sort();
    files
}

/// The JSON pointer of every integer and string leaf, in document order.
fn leaves(value: &Value, at: String, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                leaves(
                    child,
                    format!("{at}/{}", key.replace('~', "~0").replace('/', "~1")),
                    out,
                );
            }
        }
        Value::Array(items) => {
            for (index, child) in items.iter().enumerate() {
                leaves(child, format!("{at}/{index}"), out);
            }
        }
        Value::Number(n) if n.is_i64() || n.is_u64() => out.push(at),
        Value::String(_) => out.push(at),
        _ => {}
    }
}

/// The edits tried on one leaf.
fn edits_of(leaf: &Value) -> Vec<Value> {
    match leaf {
        Value::Number(n) => {
            let n = n.as_i64().unwrap_or(i64::MAX);
            vec![
                Value::from(n.wrapping_add(1)),
                Value::from(n.wrapping_sub(1)),
                Value::from(0),
                Value::from(1i64 << 31),
            ]
        }
        Value::String(s) => {
            // A changed first character: a hex digit for raw bytes, a letter for text.
            let replacement = match s.chars().next() {
                Some('0') => '1',
                Some(c) if c.is_ascii_hexdigit() => '0',
                _ => 'X',
            };
            let mut edited: String = s.chars().skip(1).collect();
            edited.insert(0, replacement);
            vec![Value::from(edited), Value::from(format!("{s}Z"))]
        }
        _ => Vec::new(),
    }
}

/// Applies every edit to `file`; returns (accepted, refused) counts, or the first silent change.
fn edit_file(format: &dyn Format, name: &str, bytes: &[u8]) -> Result<(usize, usize), String> {
    let Ok(document) = format.decode_json(bytes) else {
        return Ok((0, 0));
    };
    let value = &document[VALUE_KEY];
    let mut pointers = Vec::new();
    leaves(value, String::new(), &mut pointers);
    let stride = pointers.len().div_ceil(LEAVES_PER_FILE).max(1);
    let (mut accepted, mut refused) = (0, 0);
    for pointer in pointers.iter().step_by(stride) {
        let original = value.pointer(pointer).cloned().unwrap_or_default();
        for edit in edits_of(&original) {
            let mut edited = value.clone();
            if let Some(slot) = edited.pointer_mut(pointer) {
                *slot = edit.clone();
            }
            match format.encode_json(edited.clone()) {
                Err(error) => {
                    let message = error.to_string();
                    if !message.contains(" at ") && !message.contains(", ") {
                        return Err(format!(
                            "{name}: {pointer} = {edit}: refused without a path: {message}"
                        ));
                    }
                    refused += 1;
                }
                Ok(encoded) => {
                    let reread = format.decode_json(&encoded).map_err(|e| {
                        format!("{name}: {pointer} = {edit}: accepted, but does not read back: {e}")
                    })?;
                    // A number that an enum names reads back as the name: the same value.
                    let mut edited = edited;
                    if let (Value::Number(_), Some(name @ Value::String(_))) =
                        (&edit, reread[VALUE_KEY].pointer(pointer))
                        && let Some(slot) = edited.pointer_mut(pointer)
                    {
                        *slot = name.clone();
                    }
                    if reread[VALUE_KEY] != edited {
                        return Err(format!(
                            "{name}: {pointer} = {edit}: accepted, but reads back as something else"
                        ));
                    }
                    accepted += 1;
                }
            }
        }
    }
    Ok((accepted, refused))
}

#[test]
fn every_accepted_edit_reads_back_as_the_edit() {
    let (mut files, mut accepted, mut refused) = (0, 0, 0);
    let mut failures = Vec::new();
    for path in sample_files() {
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        let extension = path.extension().and_then(|e| e.to_str());
        let Some(format) = skelcodec_formats::detect(&bytes, extension) else {
            continue;
        };
        if bytes.len() > MAX_FILE_SIZE {
            continue;
        }
        files += 1;
        match edit_file(format, &path.display().to_string(), &bytes) {
            Ok((a, r)) => {
                accepted += a;
                refused += r;
            }
            Err(failure) => failures.push(failure),
        }
    }
    println!("{files} files: {accepted} edits read back exactly, {refused} refused with a path");
    assert!(files > 20, "the fixtures were found");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
