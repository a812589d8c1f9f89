//! The last step of `normalize()` for a schema whose values depend on where things land in the
//! file: the value is written and read again. Blocks whose offsets follow them move (see
//! [`crate::relocation`]), and views — values read by position that no field writes, whose
//! bytes other values hold (a string table entry read by offset, a chunk id read again as
//! text, the content of a slot) — are read again from the bytes now written, as a derived
//! size is recomputed from its value. Nothing else may change: where the value would read back
//! otherwise (a look-ahead, a condition on the data), it is refused, naming the first value
//! that would differ. `check()` reports every value the step changes ([`mismatches`]).

use serde_json::Value;

use crate::check::Mismatch;
use crate::codec::Codec;
use crate::error::{Error, ErrorKind, Result};
use crate::writer::Writer;

/// What writing a value and reading it again may change: the offset fields of relocatable
/// blocks (`offsets`), the values read by position no field writes (`views`), both by name,
/// and the bytes no field claims.
#[derive(Debug, Clone, Copy)]
pub struct MayChange<'a> {
    /// The names of the offset fields of relocatable blocks.
    pub offsets: &'a [&'a str],
    /// The names of the fields kept as read.
    pub views: &'a [&'a str],
}

/// Writes `value` (its relocatable blocks where the plan puts them) and reads it again, when
/// a block moves or views may have changed; refused where anything but what `may_change`
/// names would differ.
pub fn settle<C: Codec>(value: &mut C, may_change: MayChange<'_>) -> Result<()> {
    let moves = match may_change.offsets.is_empty() {
        true => None,
        false => {
            let mut planning = Writer::planning_relocations();
            value.write(&mut planning)?;
            planning.into_relocation_plan()?
        }
    };
    let mut w = match moves {
        Some(moves) => Writer::relocating(moves),
        None if may_change.views.is_empty() => return Ok(()),
        None => Writer::new(),
    };
    value.write(&mut w)?;
    let fresh = C::read(&w.into_bytes()?)?;
    if fresh == *value {
        return Ok(());
    }
    if let (Ok(before), Ok(after)) = (serde_json::to_value(&*value), serde_json::to_value(&fresh))
        && let Some(path) = first_unsettled(&before, &after, may_change)
    {
        return Err(unsettled_error(path));
    }
    *value = fresh;
    Ok(())
}

/// The refusal of a value that, written and read again, would differ at `path` in what
/// [`MayChange`] does not name.
pub fn unsettled_error(path: String) -> Error {
    Error::new(
        0,
        ErrorKind::Encode(
            "normalized, this value would read back as another: the reader decides it from the \
             data (a look-ahead, a remembered or scanned field, something computed from `_io`), \
             and the data says otherwise"
                .into(),
        ),
    )
    .in_path(path)
}

/// What `normalize()` changes beyond the sizes and counts `found` names — offsets of moved
/// blocks, views read again, unclaimed bytes — each named by its path (what `check()` adds for
/// a schema that settles); none when the value cannot be normalized.
pub fn mismatches<C: Codec>(value: &C, found: &[Mismatch]) -> Vec<Mismatch> {
    let mut normalized = value.clone();
    if normalized.normalize().is_err() || normalized == *value {
        return Vec::new();
    }
    match (
        serde_json::to_value(value),
        serde_json::to_value(&normalized),
    ) {
        (Ok(before), Ok(after)) => changed_leaves(&before, &after, found),
        _ => Vec::new(),
    }
}

/// The path of the first place where the document `after` differs from `before` in a way
/// `may_change` does not allow: a value, or the shape of a list or structure.
pub fn first_unsettled(before: &Value, after: &Value, may_change: MayChange<'_>) -> Option<String> {
    let mut path = Vec::new();
    unsettled(before, after, may_change, &mut path)
}

fn unsettled(
    before: &Value,
    after: &Value,
    may_change: MayChange<'_>,
    path: &mut Vec<String>,
) -> Option<String> {
    let allowed = |path: &[String], leaf: bool| {
        path.first().is_some_and(|first| first == "unclaimed")
            || path
                .iter()
                .any(|step| may_change.views.contains(&step.as_str()))
            || (leaf
                && path
                    .last()
                    .is_some_and(|last| may_change.offsets.contains(&last.as_str())))
    };
    let differs_here = match (before, after) {
        (Value::Object(x), Value::Object(y)) => {
            let keys = x.keys().chain(y.keys().filter(|k| !x.contains_key(*k)));
            for key in keys {
                path.push(key.clone());
                let found = match (x.get(key), y.get(key)) {
                    (Some(left), Some(right)) => unsettled(left, right, may_change, path),
                    _ => (!allowed(path, false)).then(|| render(path)),
                };
                path.pop();
                if found.is_some() {
                    return found;
                }
            }
            false
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (left, right)) in x.iter().zip(y).enumerate() {
                path.push(format!("[{i}]"));
                let found = unsettled(left, right, may_change, path);
                path.pop();
                if found.is_some() {
                    return found;
                }
            }
            false
        }
        (x, y) => x != y,
    };
    let leaf = matches!(before, Value::Number(_)) && matches!(after, Value::Number(_));
    (differs_here && !allowed(path, leaf)).then(|| render(path))
}

/// A path of document keys as `check()` names it (`a.b[3].c`).
fn render(path: &[String]) -> String {
    let mut out = String::new();
    for step in path {
        if !out.is_empty() && !step.starts_with('[') {
            out.push('.');
        }
        out.push_str(step);
    }
    out
}

/// Every leaf of the document `before` that `after` holds another value at, by its path, but
/// those `found` names already: an integer with its two values, a string with its two lengths
/// (of bytes, for bytes written as hex).
pub fn changed_leaves(before: &Value, after: &Value, found: &[Mismatch]) -> Vec<Mismatch> {
    let mut changed = Vec::new();
    collect_changed_leaves(before, after, &mut Vec::new(), &mut changed);
    changed.retain(|c| !found.iter().any(|f| f.path == c.path));
    changed
}

fn collect_changed_leaves(
    before: &Value,
    after: &Value,
    path: &mut Vec<String>,
    found: &mut Vec<Mismatch>,
) {
    let values = match (before, after) {
        (Value::Number(x), Value::Number(y)) if x != y => as_i128(x).zip(as_i128(y)),
        (Value::String(x), Value::String(y)) if x != y => Some((text_len(x), text_len(y))),
        (Value::Bool(x), Value::Bool(y)) if x != y => Some((i128::from(*x), i128::from(*y))),
        (Value::Object(x), Value::Object(y)) => {
            for (key, left) in x {
                if let Some(right) = y.get(key) {
                    path.push(key.clone());
                    collect_changed_leaves(left, right, path, found);
                    path.pop();
                }
            }
            None
        }
        (Value::Array(x), Value::Array(y)) => {
            for (i, (left, right)) in x.iter().zip(y).enumerate() {
                path.push(format!("[{i}]"));
                collect_changed_leaves(left, right, path, found);
                path.pop();
            }
            None
        }
        (x, y) if x != y => Some((0, 1)),
        _ => None,
    };
    if let Some((stored, computed)) = values {
        found.push(Mismatch {
            path: render(path),
            stored,
            computed,
        });
    }
}

/// The length of a string of a document: in bytes for bytes (hex), in characters otherwise.
fn text_len(text: &str) -> i128 {
    let hex = text.len().is_multiple_of(2) && text.bytes().all(|b| b.is_ascii_hexdigit());
    let len = if hex {
        text.len() / 2
    } else {
        text.chars().count()
    };
    len as i128
}

fn as_i128(n: &serde_json::Number) -> Option<i128> {
    n.as_i64()
        .map(i128::from)
        .or_else(|| n.as_u64().map(i128::from))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const MAY: MayChange<'static> = MayChange {
        offsets: &["ofs"],
        views: &["name"],
    };

    #[test]
    fn offsets_views_and_unclaimed_bytes_may_change_nothing_else() {
        let before = json!({"a": [{"ofs": 1, "name": {"x": 1}}], "unclaimed": [], "len": 2});
        let moved = json!({"a": [{"ofs": 9, "name": {"x": 2, "y": 3}}], "unclaimed": [{"offset": 4}], "len": 2});
        assert_eq!(first_unsettled(&before, &moved, MAY), None);
        let grown = json!({"a": [{"ofs": 1, "name": {"x": 1}}, {}], "unclaimed": [], "len": 2});
        assert_eq!(first_unsettled(&before, &grown, MAY).as_deref(), Some("a"));
        let other = json!({"a": [{"ofs": 1, "name": {"x": 1}}], "unclaimed": [], "len": 3});
        assert_eq!(
            first_unsettled(&before, &other, MAY).as_deref(),
            Some("len")
        );
        // An offset is an integer: a structure of that name is no offset.
        let renamed = json!({"a": [{"ofs": "x", "name": {"x": 1}}], "unclaimed": [], "len": 2});
        assert_eq!(
            first_unsettled(&before, &renamed, MAY).as_deref(),
            Some("a[0].ofs")
        );
    }

    #[test]
    fn changed_leaves_name_integers_by_value_and_strings_by_length() {
        let before = json!({"a": [{"ofs": 1, "s": "0000"}], "t": "hi", "f": true});
        let after = json!({"a": [{"ofs": 5, "s": "000000"}], "t": "hi!", "f": false});
        let mut found: Vec<String> = changed_leaves(&before, &after, &[])
            .iter()
            .map(ToString::to_string)
            .collect();
        // Keys keep their order only where serde_json preserves it (a feature).
        found.sort();
        assert_eq!(
            found,
            [
                "a[0].ofs: stored 1, computed 5",
                "a[0].s: stored 2, computed 3",
                "f: stored 1, computed 0",
                "t: stored 2, computed 3"
            ]
        );
    }
}
