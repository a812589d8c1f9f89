//! Edits the readers would see otherwise are refused with their path: a varint group of
//! SQLite's told it has a successor (`repeat-until: not _.has_next`), an op of a pickle turned
//! into STOP (`repeat-until: _.code == opcode::stop`). Files are made by Python at test time.

use serde_json::Value;
use skelcodec_gallery::{Codec, FORMATS, files};

/// The codec of gallery format `id`, and one file made by Python whose name starts with
/// `stem`; `None` (said on stderr) when either is missing.
fn codec_and_file(id: &str, stem: &str) -> Option<(Codec, Vec<u8>)> {
    let format = FORMATS.iter().find(|f| f.id == id)?;
    let Ok(codec) = format.codec else {
        skelcodec_runtime::corpus::announce_skip(&format!("skipped: {id} was not compiled"));
        return None;
    };
    let dir = std::env::temp_dir().join(format!("skelcodec-refusals-{id}-{}", std::process::id()));
    if let Err(e) = files::make_with_python(&dir) {
        skelcodec_runtime::corpus::announce_skip(&format!("skipped: Python made no files ({e})"));
        return None;
    }
    let file = std::fs::read_dir(&dir)
        .ok()?
        .filter_map(|e| Some(e.ok()?.path()))
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with(stem))
        })
        .min()?;
    let bytes = std::fs::read(file).ok();
    let _ = std::fs::remove_dir_all(&dir);
    Some((codec, bytes?))
}

/// JSON pointers of every array named `name` in a document.
fn arrays_named(value: &Value, name: &str, at: &str, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, item) in map {
                let here = format!("{at}/{key}");
                if key == name && item.is_array() {
                    out.push(here.clone());
                }
                arrays_named(item, name, &here, out);
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                arrays_named(item, name, &format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

#[test]
fn a_sqlite_varint_told_it_goes_on_is_refused_with_its_path() {
    let Some((codec, bytes)) = codec_and_file("sqlite3", "table-4096") else {
        return;
    };
    let document = (codec.document)(&bytes).unwrap();
    let mut lists = Vec::new();
    arrays_named(&document, "groups", "", &mut lists);
    assert!(lists.len() > 10, "{} varints found", lists.len());
    for list in lists.iter().take(40) {
        let mut edited = document.clone();
        let groups = edited
            .pointer_mut(list)
            .and_then(Value::as_array_mut)
            .unwrap();
        let last = groups.last_mut().unwrap();
        assert_eq!(last["has_next"], Value::Bool(false), "{list}: {last}");
        last["has_next"] = Value::Bool(true);
        let refused = (codec.encode)(edited).unwrap_err();
        assert!(refused.contains("groups"), "{list}: {refused}");
        eprintln!("{list}: {refused}");
    }
}

#[test]
fn a_pickle_op_turned_into_stop_is_refused_with_its_path() {
    let Some((codec, bytes)) = codec_and_file("python_pickle", "object-4") else {
        return;
    };
    let document = (codec.document)(&bytes).unwrap();
    let ops = document["ops"].as_array().expect("a list of ops");
    let stop = ops.last().unwrap()["code"].clone();
    assert!(ops.len() > 10, "{} ops", ops.len());
    for i in [0, 1, ops.len() / 2, ops.len() - 2] {
        let mut edited = document.clone();
        edited["ops"][i]["code"] = stop.clone();
        let refused = (codec.encode)(edited).unwrap_err();
        assert!(refused.contains(&format!("ops[{i}]")), "op {i}: {refused}");
        eprintln!("op {i}: {refused}");
    }
}
