//! `skelcodec-differential formats`: the formats compiled in, as a JSON object from each id to
//! `null` or the compiler's reason for rejecting its schema.
//!
//! `skelcodec-differential read FORMAT FILE`: reads the file with the format's codec and prints
//! one JSON object: `{"read": true, "document": …, "written_back": "byte-exact"}` (or what went
//! wrong writing the document back), or `{"read": false, "error": …}`. A panic of the codec is
//! reported as an error. The runner (`run.sh`) starts one process per file, under a time limit.
//!
//! `skelcodec-differential edit FORMAT FILE EDITS`: runs the edit property on the file twice,
//! edits written as edited and normalized first, and prints both reports (`edits.py` sums
//! them by format).

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::process::ExitCode;

use serde_json::{Map, Value, json};
use skelcodec_differential::{FORMATS, GALLERY, Normalize, format};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["formats"] => {
            let formats: Map<String, Value> = FORMATS
                .iter()
                .map(|f| {
                    let status = f.codec.err().map_or(Value::Null, Value::from);
                    (f.id.to_string(), status)
                })
                .collect();
            println!("{}", json!({ "gallery": GALLERY, "formats": formats }));
            ExitCode::SUCCESS
        }
        ["read", id, file] => {
            println!("{}", read(id, file));
            ExitCode::SUCCESS
        }
        ["edit", id, file, edits] => {
            println!("{}", edit(id, file, edits.parse().unwrap_or(60)));
            ExitCode::SUCCESS
        }
        _ => {
            eprintln!(
                "usage: skelcodec-differential formats | read FORMAT FILE | edit FORMAT FILE EDITS"
            );
            ExitCode::from(2)
        }
    }
}

/// The edit property on one file, with edits written as edited (`before`: what a user gets
/// without `normalize()`) and normalized first (`after`).
fn edit(id: &str, file: &str, edits: usize) -> Value {
    let Some(Ok(codec)) = format(id).map(|f| f.codec) else {
        return json!({ "error": format!("no codec for {id}") });
    };
    let Ok(bytes) = std::fs::read(file) else {
        return json!({ "error": format!("cannot read {file}") });
    };
    std::panic::set_hook(Box::new(|_| {}));
    let run =
        |normalize| match catch_unwind(AssertUnwindSafe(|| (codec.edit)(&bytes, edits, normalize)))
        {
            Ok(report) => json!({
                "unreadable": report.unreadable,
                "not_faithful": report.not_faithful,
                "edits": report.edits,
                "refused_by_document": report.refused_by_document,
                "refused_by_writer": report.refused_by_writer,
                "refusals": report.refusals,
                "refused": report.refused,
                "disagreements": report.disagreements,
                "written": report.written,
                "undone": report.undone,
                "dropped": report.dropped,
                "corrupted": report.corrupted,
            }),
            Err(panic) => json!({ "error": format!("panicked: {}", message(&*panic)) }),
        };
    json!({ "before": run(Normalize::No), "after": run(Normalize::Yes) })
}

/// The report on one file.
fn read(id: &str, file: &str) -> Value {
    let codec = match format(id).map(|f| f.codec) {
        None => return json!({ "read": false, "error": format!("no format {id} compiled in") }),
        Some(Err(why)) => {
            return json!({ "read": false, "error": format!("schema rejected: {why}") });
        }
        Some(Ok(codec)) => codec,
    };
    let bytes = match std::fs::read(file) {
        Ok(bytes) => bytes,
        Err(e) => return json!({ "read": false, "error": format!("cannot read {file}: {e}") }),
    };
    std::panic::set_hook(Box::new(|_| {}));
    let document = match catch_unwind(AssertUnwindSafe(|| (codec.document)(&bytes))) {
        Ok(Ok(document)) => document,
        Ok(Err(e)) => return json!({ "read": false, "error": e }),
        Err(panic) => {
            return json!({ "read": false, "error": format!("panicked: {}", message(&*panic)) });
        }
    };
    let written_back = match catch_unwind(AssertUnwindSafe(|| (codec.encode)(document.clone()))) {
        Ok(Ok(written)) if written == bytes => "byte-exact".to_string(),
        Ok(Ok(written)) => {
            let at = written
                .iter()
                .zip(&bytes)
                .position(|(a, b)| a != b)
                .unwrap_or(written.len().min(bytes.len()));
            format!(
                "differs: {} bytes written for {}, first difference at offset {at}",
                written.len(),
                bytes.len()
            )
        }
        Ok(Err(e)) => format!("refused: {e}"),
        Err(panic) => format!("panicked: {}", message(&*panic)),
    };
    json!({ "read": true, "document": document, "written_back": written_back })
}

/// A panic's message.
fn message(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(no message)".into())
}
