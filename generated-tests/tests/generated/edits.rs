//! Editing never corrupts: for every document `encode` accepts, decoding the bytes gives the
//! document back. Every fixture of every format (and the corpus when present) is decoded to
//! JSON, and a deterministic set of single edits is applied to its integer and string leaves,
//! offsets and sizes included. Each edit is either refused with a path, or reads back equal.
//! A refused edit is then encoded as `encode --normalize` does: when that succeeds, the file has
//! no disagreement and the edited leaf reads back as edited, unless normalize recomputed it.

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

/// What became of the edits of the files.
#[derive(Default)]
struct Tally {
    accepted: usize,
    refused: usize,
    normalized: usize,
}

/// A JSON pointer (`/body/anp3/animations/0/name`) as error and check paths spell it
/// (`body.anp3.animations[0].name`).
fn dotted(pointer: &str) -> String {
    let mut out = String::new();
    for step in pointer.split('/').skip(1) {
        if step.parse::<usize>().is_ok() {
            out.push_str(&format!("[{step}]"));
        } else {
            if !out.is_empty() {
                out.push('.');
            }
            out.push_str(&step.replace("~1", "/").replace("~0", "~"));
        }
    }
    out
}

/// The refused `edited` document encoded as `encode --normalize` does: when it encodes, the
/// file has no disagreement, and the leaf at `pointer` keeps the edit unless it was recomputed
/// (or lay in bytes no field claims, which a new layout drops).
fn normalize_refused(format: &dyn Format, edited: &Value, pointer: &str) -> Result<bool, String> {
    let Ok((encoded, changed)) = format.encode_json_normalized(edited.clone()) else {
        return Ok(false);
    };
    let disagreements = format
        .check(&encoded)
        .map_err(|e| format!("normalized, but does not read back: {e}"))?;
    if !disagreements.is_empty() {
        return Err(format!("normalized, but check reports {disagreements:?}"));
    }
    let reread = format
        .decode_json(&encoded)
        .map_err(|e| format!("normalized, but does not read back: {e}"))?;
    let path = dotted(pointer);
    let recomputed = changed.iter().any(|m| m.path == path) || pointer.starts_with("/unclaimed");
    let kept = reread[VALUE_KEY].pointer(pointer) == edited.pointer(pointer);
    if !recomputed && !kept && !is_enum_name(&reread[VALUE_KEY], edited, pointer) {
        return Err("normalized, but the edit is lost".into());
    }
    Ok(true)
}

/// True when a number written where an enum is expected read back as the enum's name.
fn is_enum_name(reread: &Value, edited: &Value, pointer: &str) -> bool {
    matches!(
        (edited.pointer(pointer), reread.pointer(pointer)),
        (Some(Value::Number(_)), Some(Value::String(_)))
    )
}

/// Applies every edit to `file`; returns what became of them, or the first silent change.
fn edit_file(format: &dyn Format, name: &str, bytes: &[u8]) -> Result<Tally, String> {
    let Ok(document) = format.decode_json(bytes) else {
        return Ok(Tally::default());
    };
    let value = &document[VALUE_KEY];
    let mut pointers = Vec::new();
    leaves(value, String::new(), &mut pointers);
    let stride = pointers.len().div_ceil(LEAVES_PER_FILE).max(1);
    let mut tally = Tally::default();
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
                    tally.refused += 1;
                    if normalize_refused(format, &edited, pointer)
                        .map_err(|e| format!("{name}: {pointer} = {edit}: {e}"))?
                    {
                        tally.normalized += 1;
                    }
                }
                Ok(encoded) => {
                    let reread = format.decode_json(&encoded).map_err(|e| {
                        format!("{name}: {pointer} = {edit}: accepted, but does not read back: {e}")
                    })?;
                    // A number that an enum names reads back as the name: the same value.
                    let mut edited = edited;
                    if is_enum_name(&reread[VALUE_KEY], &edited, pointer)
                        && let Some(slot) = edited.pointer_mut(pointer)
                    {
                        *slot = reread[VALUE_KEY]
                            .pointer(pointer)
                            .cloned()
                            .unwrap_or_default();
                    }
                    if reread[VALUE_KEY] != edited {
                        return Err(format!(
                            "{name}: {pointer} = {edit}: accepted, but reads back as something else"
                        ));
                    }
                    tally.accepted += 1;
                }
            }
        }
    }
    Ok(tally)
}

/// What editing one file found: none for a file of no format or too big to edit.
fn edit_path(path: &Path) -> Option<Result<Tally, String>> {
    let bytes = std::fs::read(path).ok()?;
    let extension = path.extension().and_then(|e| e.to_str());
    let format = skelcodec_formats::detect(&bytes, extension)?;
    (bytes.len() <= MAX_FILE_SIZE).then(|| edit_file(format, &path.display().to_string(), &bytes))
}

#[test]
fn every_accepted_edit_reads_back_as_the_edit() {
    // Files are edited on every core: each re-encodes its file once per edit.
    let outcomes: Vec<Result<Tally, String>> =
        skelcodec_runtime::corpus::on_every_core(&sample_files(), |path| edit_path(path))
            .into_iter()
            .flatten()
            .collect();
    let (files, mut total) = (outcomes.len(), Tally::default());
    let mut failures = Vec::new();
    for outcome in outcomes {
        match outcome {
            Ok(tally) => {
                total.accepted += tally.accepted;
                total.refused += tally.refused;
                total.normalized += tally.normalized;
            }
            Err(failure) => failures.push(failure),
        }
    }
    failures.sort();
    println!(
        "{files} files: {} edits read back exactly, {} refused with a path, of which {} \
         encode after normalize with no disagreement and the edit kept",
        total.accepted, total.refused, total.normalized
    );
    assert!(files > 20, "the fixtures were found");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
