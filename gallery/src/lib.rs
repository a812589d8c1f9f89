//! Real files of the public Kaitai formats gallery through skelcodec. The edit property: a file
//! is decoded to its JSON document, one leaf at a time is changed (a number, a boolean, a byte
//! of a byte string, a string), the document read back into a value, normalized (its derived
//! sizes and counts recomputed) and encoded; a writer may refuse, but every write it accepts
//! must read back as the edited value.

pub mod files;

use serde_json::Value;
use skelcodec_runtime::process::same_values;

include!(concat!(env!("OUT_DIR"), "/formats.rs"));

/// A gallery format: its schema's codec, or why it was not compiled.
#[derive(Debug)]
pub struct Format {
    /// The schema's id (`png`).
    pub id: &'static str,
    /// File extensions its files have, lowercase.
    pub extensions: &'static [&'static str],
    /// Its codec, seen through documents.
    pub codec: Result<Codec, &'static str>,
}

/// A generated codec seen through JSON documents, as the command line sees it.
#[derive(Debug, Clone, Copy)]
pub struct Codec {
    /// Runs the edit property on one file, asking for this many edits, each normalized before
    /// it is written or not.
    pub edit: fn(&[u8], usize, Normalize) -> EditReport,
    /// Decodes a file to its document.
    pub document: fn(&[u8]) -> Result<Value, String>,
    /// Encodes a document (the writer's refusal says its path).
    pub encode: fn(Value) -> Result<Vec<u8>, String>,
    /// Reads a file, and drops the value (what reading costs, for benchmarks).
    pub read: fn(&[u8]) -> Result<(), String>,
    /// Reads a file given to the value, which keeps it (`read_owned`), and drops the value.
    pub read_owned: fn(Vec<u8>) -> Result<(), String>,
}

/// The JSON document of a file read as a `T`.
pub fn document<T: skelcodec_runtime::Codec>(bytes: &[u8]) -> Result<Value, String> {
    let value = T::read(bytes).map_err(|e| e.to_string())?;
    serde_json::to_value(&value).map_err(|e| e.to_string())
}

/// Reads a `T`, and drops it.
pub fn read<T: skelcodec_runtime::Codec>(bytes: &[u8]) -> Result<(), String> {
    T::read(bytes).map(drop).map_err(|e| e.to_string())
}

/// Reads a `T` from a file it keeps, and drops it.
pub fn read_owned<T: skelcodec_runtime::Codec>(bytes: Vec<u8>) -> Result<(), String> {
    T::read_owned(bytes).map(drop).map_err(|e| e.to_string())
}

/// The bytes of a document of a `T`.
pub fn encode<T: skelcodec_runtime::Codec>(document: Value) -> Result<Vec<u8>, String> {
    let value: T = serde_json::from_value(document).map_err(|e| e.to_string())?;
    value.to_bytes().map_err(|e| e.to_string())
}

/// Whether an edited value is normalized before it is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Normalize {
    /// Written as edited: what a user who fixes no size by hand gets from `encode`.
    No,
    /// `normalize()` first, as `encode --normalize` does.
    Yes,
}

/// What the edit property found on one file.
#[derive(Debug, Default)]
pub struct EditReport {
    /// The read failed (with the error): nothing was edited.
    pub unreadable: Option<String>,
    /// The unedited value did not write back byte for byte, or its document not as itself.
    pub not_faithful: Option<String>,
    /// What `check()` reports on the unedited value: derived fields (declared or inferred)
    /// that disagree with a real file.
    pub disagreements: Vec<String>,
    /// Edits tried.
    pub edits: usize,
    /// Edits the document itself refused (a number out of its type's range, bad hex).
    pub refused_by_document: usize,
    /// Edits the writer (or `normalize()`) refused, with their path.
    pub refused_by_writer: usize,
    /// The writer's refusals by kind (see [`refusal_kind`]).
    pub refusals: std::collections::BTreeMap<&'static str, usize>,
    /// The writer's refusals, with the edit refused (`path = value: message`).
    pub refused: Vec<String>,
    /// Edits written and read back as the edited value.
    pub written: usize,
    /// Of those, edits of a derived field that `normalize()` set back to what the content
    /// implies (written, but not as edited): `check()` reported the edited field.
    pub undone: usize,
    /// Edits `normalize()` set back though `check()` did not report the edited field: an edit
    /// lost without a word, what must never happen.
    pub dropped: Vec<String>,
    /// Edits written that read back otherwise, or not at all: what must never happen.
    pub corrupted: Vec<String>,
}

/// Runs the edit property on `bytes` as a `T`, with about `edits` edits spread over its leaves.
pub fn edit_property<T: skelcodec_runtime::Codec>(
    bytes: &[u8],
    edits: usize,
    normalize: Normalize,
) -> EditReport {
    let mut report = EditReport::default();
    let value = match T::read(bytes) {
        Ok(value) => value,
        Err(e) => {
            report.unreadable = Some(e.to_string());
            return report;
        }
    };
    let Ok(document) = serde_json::to_value(&value) else {
        report.not_faithful = Some("the value has no JSON document".into());
        return report;
    };
    match (
        value.to_bytes(),
        serde_json::from_value::<T>(document.clone()),
    ) {
        (Ok(written), Ok(back)) if written == bytes && back == value => {}
        (written, back) => {
            report.not_faithful = Some(format!(
                "written back equal: {}, document read back equal: {}",
                written.is_ok_and(|w| w == bytes),
                back.is_ok_and(|b| b == value)
            ));
            return report;
        }
    }
    report.disagreements = value.check().iter().map(ToString::to_string).collect();
    let mut leaves = Vec::new();
    collect_leaves(&document, &mut String::new(), &mut leaves);
    let candidates: Vec<(String, Value)> = leaves
        .iter()
        .flat_map(|(path, leaf)| changes(leaf).into_iter().map(move |v| (path.clone(), v)))
        .collect();
    let step = (candidates.len() / edits.max(1)).max(1);
    for (path, changed) in candidates.into_iter().step_by(step).take(edits) {
        report.edits += 1;
        let mut edited = document.clone();
        if let Some(leaf) = edited.pointer_mut(&path) {
            *leaf = changed.clone();
        }
        let Ok(mut edited) = serde_json::from_value::<T>(edited) else {
            report.refused_by_document += 1;
            continue;
        };
        // The leaf as the value holds it (an enum's number may show as its name), and the
        // derived fields the edit made disagree: those `normalize()` may set back.
        let held = serde_json::to_value(&edited).ok();
        let held = held.as_ref().and_then(|h| h.pointer(&path)).cloned();
        let disagreeing: Vec<String> = match normalize {
            Normalize::Yes => edited.check().into_iter().map(|m| m.path).collect(),
            Normalize::No => Vec::new(),
        };
        let normalized = match normalize {
            Normalize::Yes => edited.normalize(),
            Normalize::No => Ok(()),
        };
        let written = match normalized.and_then(|()| edited.to_bytes()) {
            Ok(written) => written,
            Err(e) => {
                report.refused_by_writer += 1;
                let message = e.to_string();
                *report.refusals.entry(refusal_kind(&message)).or_default() += 1;
                report
                    .refused
                    .push(format!("{path} = {changed}: {message}"));
                continue;
            }
        };
        let expected = serde_json::to_value(&edited).ok();
        if expected.as_ref().and_then(|e| e.pointer(&path)) != held.as_ref() {
            let reported = [false, true]
                .map(|skip| field_path(&path, skip))
                .iter()
                .any(|p| disagreeing.contains(p));
            match reported {
                true => report.undone += 1,
                false => report.dropped.push(format!(
                    "{path} = {}: set back by normalize()",
                    shortened(&changed)
                )),
            }
        }
        // Compared by their values: stored bytes follow an edited value.
        let same = |back: &T| {
            let back = serde_json::to_value(back).ok();
            (back.zip(expected.as_ref()))
                .is_some_and(|(back, expected)| same_values(&back, expected))
        };
        match T::read(&written) {
            Ok(back) if same(&back) => report.written += 1,
            Ok(_) => report
                .corrupted
                .push(format!("{path} = {changed}: reads back as another value")),
            Err(e) => report
                .corrupted
                .push(format!("{path} = {changed}: does not read back: {e}")),
        }
    }
    report
}

/// The path `check()` names the field at a document's JSON pointer by (`/chunks/0/len` is
/// `chunks[0].len`); `skip_values`: a decoded value's document holds it under `value`, which
/// paths skip.
fn field_path(pointer: &str, skip_values: bool) -> String {
    let mut path = String::new();
    for step in pointer.split('/').skip(1) {
        if skip_values && step == "value" {
            continue;
        }
        match step.parse::<usize>() {
            Ok(index) => path.push_str(&format!("[{index}]")),
            Err(_) if path.is_empty() => path.push_str(step),
            Err(_) => path.push_str(&format!(".{step}")),
        }
    }
    path
}

/// A leaf as a report shows it: long byte strings cut short.
fn shortened(leaf: &Value) -> String {
    let text = leaf.to_string();
    match text.char_indices().nth(80) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text,
    }
}

/// What a writer's refusal is about, by its message: a size or count that disagrees with its
/// value, a switch's selector, a condition, a value that would read back as another, or
/// anything else.
pub fn refusal_kind(message: &str) -> &'static str {
    const KINDS: [(&str, &str); 7] = [
        ("the size is", "size"),
        ("the count is", "count"),
        ("calls for the case", "selector"),
        ("selector", "selector"),
        ("`if` condition", "condition"),
        ("read back", "reads back as another"),
        ("does not fit", "out of range"),
    ];
    KINDS
        .iter()
        .find(|(text, _)| message.contains(text))
        .map_or("other", |(_, kind)| kind)
}

/// Every leaf of a document, with its JSON pointer; absent values (`null`) are left alone.
fn collect_leaves(value: &Value, path: &mut String, out: &mut Vec<(String, Value)>) {
    let len = path.len();
    match value {
        Value::Null => {}
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                path.push_str(&format!("/{i}"));
                collect_leaves(item, path, out);
                path.truncate(len);
            }
        }
        Value::Object(map) => {
            for (key, item) in map.iter().filter(|(key, _)| !is_stored_of(map, key)) {
                path.push('/');
                path.push_str(&key.replace('~', "~0").replace('/', "~1"));
                collect_leaves(item, path, out);
                path.truncate(len);
            }
        }
        leaf => out.push((path.clone(), leaf.clone())),
    }
}

/// True for the `stored` bytes of a decoded value's or a string's document (`{value, stored,
/// rest}`, `{text, rest, stored}`): the bytes it was stored as, written while they still hold
/// the value and stored anew once it is edited. They follow the value, so they are no edit of
/// their own.
fn is_stored_of(map: &serde_json::Map<String, Value>, key: &str) -> bool {
    use skelcodec_runtime::process::{is_decoded_map, is_string_map};
    key == "stored" && (is_decoded_map(map) || is_string_map(map))
}

/// The edits tried on one leaf: a number moved by one either way, set to zero and doubled; a
/// boolean flipped; a string (byte strings are hex) with its last character changed, one byte
/// longer and one byte shorter.
fn changes(leaf: &Value) -> Vec<Value> {
    match leaf {
        Value::Bool(b) => vec![Value::Bool(!b)],
        Value::Number(n) => match (n.as_u64(), n.as_i64(), n.as_f64()) {
            (Some(u), _, _) => [u.wrapping_add(1), u.wrapping_sub(1), 0, u.wrapping_mul(2)]
                .map(Value::from)
                .to_vec(),
            (_, Some(i), _) => [i.wrapping_add(1), i.wrapping_sub(1), 0, i.wrapping_mul(2)]
                .map(Value::from)
                .to_vec(),
            (_, _, Some(f)) => vec![(f * 2.0 + 1.0).into(), 0.0.into()],
            _ => Vec::new(),
        },
        Value::String(s) => {
            let mut last_changed = s.clone();
            let last = last_changed.pop();
            last_changed.push(if last == Some('0') { '1' } else { '0' });
            let shorter: String = s
                .chars()
                .take(s.chars().count().saturating_sub(2))
                .collect();
            vec![last_changed.into(), format!("{s}00").into(), shorter.into()]
        }
        _ => Vec::new(),
    }
}
