//! Files of the built-in formats explained with the formats' own schemas, as `explain` does
//! without `--schema`: every fixture the generated codec decodes is explained without error,
//! and each value the map shows equals the codec's document at the same path.

use std::path::{Path, PathBuf};

use skelcodec_dynamic::{FieldSpan, UNCLAIMED};
use skelcodec_formats::{Format, built_in_schema, detect};
use skelcodec_runtime::corpus::files_under;

/// The project's fixtures, a folder per format family.
const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../generated-tests/fixtures");

/// The fixtures of the formats' folders: files meant to fail (`broken/`) and the scripts
/// and notes beside them left out.
fn fixtures() -> Vec<PathBuf> {
    let notes = ["md", "py", "json"];
    let mut found: Vec<PathBuf> = ["dff", "drs", "gsa", "ifp", "img", "sims2"]
        .iter()
        .flat_map(|folder| files_under(&Path::new(FIXTURES).join(folder), ""))
        .filter(|p| !p.components().any(|c| c.as_os_str() == "broken"))
        .filter(|p| !p.extension().is_some_and(|e| notes.iter().any(|n| e == *n)))
        .collect();
    found.sort();
    found
}

/// The part of `document` at `path` (`a.b[2].c`), where it has one.
fn at_path<'a>(document: &'a serde_json::Value, path: &str) -> Option<&'a serde_json::Value> {
    let mut here = document;
    for part in path.split('.') {
        let (key, indices) = part.split_once('[').unwrap_or((part, ""));
        here = here.get(key)?;
        for index in indices.split('[').filter(|i| !i.is_empty()) {
            here = here.get(index.trim_end_matches(']').parse::<usize>().ok()?)?;
        }
    }
    Some(here)
}

/// Whether a span's value is the document's: the same, the `value` of a value the document
/// shows with the bytes it is stored in (`{"value": …, "stored": hex}`), or a string's `text`.
fn agrees(shown: &serde_json::Value, document: &serde_json::Value) -> bool {
    shown == document
        || ["value", "text"]
            .iter()
            .any(|key| document.get(key) == Some(shown))
}

/// The paths whose value differs from the document's, and how many were compared.
fn differences(spans: &[FieldSpan], document: &serde_json::Value) -> (Vec<String>, usize) {
    let mut differ = Vec::new();
    let mut compared = 0;
    for span in spans.iter().filter(|s| s.path != UNCLAIMED) {
        let (Some(shown), Some(held)) = (&span.value, at_path(document, &span.path)) else {
            continue;
        };
        compared += 1;
        if !agrees(shown, held) {
            differ.push(format!("{}: explained {shown}, decoded {held}", span.path));
        }
    }
    (differ, compared)
}

/// What explaining one fixture found.
enum Outcome {
    /// The codec does not decode it as the format detected (not that format's file).
    NotDecoded,
    /// Values compared, and those that differ.
    Explained(usize, Vec<String>),
}

/// Explains `path` with its built-in format's schema and compares with the codec.
fn explain(path: &Path, format: &dyn Format) -> Outcome {
    let bytes = std::fs::read(path).expect("a fixture reads");
    let Ok(document) = format.decode_json(&bytes) else {
        return Outcome::NotDecoded;
    };
    let schema = built_in_schema(format.id())
        .unwrap_or_else(|| panic!("{}: no schema for {}", path.display(), format.id()));
    let interpreter =
        (schema.interpreter()).unwrap_or_else(|e| panic!("{}: {e}", schema.path().display()));
    let explained = interpreter.explain(&bytes);
    if let Some(e) = &explained.error {
        panic!(
            "{}: the codec decodes it, explain fails: {e}",
            path.display()
        );
    }
    let (differ, compared) = differences(&explained.spans, &document["value"]);
    Outcome::Explained(compared, differ)
}

#[test]
fn every_fixture_explains_as_its_codec_decodes_it() {
    let (mut explained, mut values) = (0, 0);
    let mut differ = Vec::new();
    for path in fixtures() {
        let bytes = std::fs::read(&path).expect("a fixture reads");
        let extension = path.extension().and_then(|e| e.to_str());
        let Some(format) = detect(&bytes, extension) else {
            continue;
        };
        match explain(&path, format) {
            Outcome::NotDecoded => {}
            Outcome::Explained(compared, found) => {
                assert!(compared > 0, "{}: no value compared", path.display());
                explained += 1;
                values += compared;
                differ.extend(
                    found
                        .into_iter()
                        .map(|d| format!("{}: {d}", path.display())),
                );
            }
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
    assert!(explained >= 30, "only {explained} fixtures explained");
    eprintln!("{explained} fixtures explained as their codecs decode them: {values} values alike");
}

#[test]
fn every_built_in_format_but_one_has_its_schema_built_in() {
    let without: Vec<&str> = (skelcodec_formats::formats().iter())
        .map(|f| f.id())
        .filter(|id| built_in_schema(id).is_none())
        .collect();
    // A type of drs.ksy, read by code of its own.
    assert_eq!(without, ["animation_set"]);
}
