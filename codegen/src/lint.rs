//! Warnings: what Kaitai's compiler accepts but its style guide asks to write otherwise. A
//! schema with warnings compiles; `skelcodec schema check` shows them.

use std::collections::BTreeMap;

use indexmap::IndexMap;
use skelcodec_runtime::encoding::Encoding;

use crate::error::{Located, YamlPath};
use crate::ksy::{AttrSpec, KsyFile, TypeSpec};

/// The warnings of a schema file (`file` is its index among the files compiled).
pub fn warnings(document: &KsyFile, file: usize) -> Vec<Located> {
    let root = YamlPath::root_of(file);
    let mut out = Vec::new();
    encoding_name(
        document.meta.encoding.as_deref(),
        &root.key("meta"),
        &mut out,
    );
    attributes(&document.seq, &document.instances, &root, &mut out);
    types(&document.types, &root, &mut out);
    out
}

fn types(specs: &BTreeMap<String, TypeSpec>, parent: &YamlPath, out: &mut Vec<Located>) {
    for (id, spec) in specs {
        let at = parent.key("types").key(id);
        let encoding = spec.meta.as_ref().and_then(|m| m.encoding.as_deref());
        encoding_name(encoding, &at.key("meta"), out);
        attributes(&spec.seq, &spec.instances, &at, out);
        types(&spec.types, &at, out);
    }
}

fn attributes(
    seq: &[AttrSpec],
    instances: &IndexMap<String, AttrSpec>,
    at: &YamlPath,
    out: &mut Vec<Located>,
) {
    for (i, attr) in seq.iter().enumerate() {
        encoding_name(attr.encoding.as_deref(), &at.key("seq").index(i), out);
    }
    for (id, attr) in instances {
        encoding_name(attr.encoding.as_deref(), &at.key("instances").key(id), out);
    }
    length_names(seq, instances, at, out);
}

/// Kaitai's style guide names a field that holds another's byte size `len_<other>` and one
/// that holds its count `num_<other>`: a size or `repeat-expr` that is just the name of
/// another attribute of the type, named otherwise, is reported at that attribute.
fn length_names(
    seq: &[AttrSpec],
    instances: &IndexMap<String, AttrSpec>,
    at: &YamlPath,
    out: &mut Vec<Located>,
) {
    // Where each attribute of the type is declared, by name.
    let declared = |name: &str| {
        seq.iter()
            .position(|a| a.id.as_deref() == Some(name))
            .map(|i| at.key("seq").index(i).key("id"))
            .or_else(|| {
                instances
                    .contains_key(name)
                    .then(|| at.key("instances").key(name))
            })
    };
    let attrs = seq
        .iter()
        .filter_map(|a| Some((a.id.as_deref()?, a)))
        .chain(instances.iter().map(|(id, a)| (id.as_str(), a)));
    for (id, attr) in attrs {
        // As in Kaitai, the size of text is not a byte size of its own.
        let text = matches!(
            attr.ty.as_ref().and_then(serde_yaml::Value::as_str),
            Some("str" | "strz")
        );
        let uses = [
            (attr.size.as_ref().filter(|_| !text), "len_", "a byte size"),
            (attr.repeat_expr.as_ref(), "num_", "repeat count"),
        ];
        for (expr, prefix, role) in uses {
            let Some(name) = expr.and_then(crate::ksy::expr_text) else {
                continue;
            };
            let name = name.trim();
            let expected = format!("{prefix}{id}");
            if name == expected || !is_plain_name(name) || uses_of(name, seq, instances) != 1 {
                continue;
            }
            if let Some(place) = declared(name) {
                out.push(Located::new(
                    &place,
                    format!(
                        "use `{expected}` instead of `{name}`, given that it's only used as {role} of `{id}`"
                    ),
                ));
            }
        }
    }
}

/// How many times `name` appears as a word in the expressions of a type's attributes.
fn uses_of(name: &str, seq: &[AttrSpec], instances: &IndexMap<String, AttrSpec>) -> usize {
    let mut texts = Vec::new();
    for attr in seq.iter().chain(instances.values()) {
        let values = [
            &attr.ty,
            &attr.size,
            &attr.repeat_expr,
            &attr.repeat_until,
            &attr.cond,
            &attr.value,
            &attr.valid,
            &attr.pos,
            &attr.io,
        ];
        for value in values.into_iter().flatten() {
            string_leaves(value, &mut texts);
        }
    }
    texts
        .iter()
        .map(|text| {
            text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .filter(|word| *word == name)
                .count()
        })
        .sum()
}

/// Every string in a YAML value (the expressions of a switch's cases, of `valid`'s keys).
fn string_leaves(value: &serde_yaml::Value, out: &mut Vec<String>) {
    match value {
        serde_yaml::Value::String(s) => out.push(s.clone()),
        serde_yaml::Value::Sequence(items) => items.iter().for_each(|v| string_leaves(v, out)),
        serde_yaml::Value::Mapping(map) => {
            for (k, v) in map {
                string_leaves(k, out);
                string_leaves(v, out);
            }
        }
        _ => {}
    }
}

/// A bare identifier (`size_of_foo`), not an expression.
fn is_plain_name(text: &str) -> bool {
    text.starts_with(|c: char| c.is_ascii_lowercase())
        && text
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// An encoding spelled otherwise than its canonical name (`utf-8`, `latin1`), or one Kaitai
/// does not know, whose text cannot be read (Kaitai warns too: its runtimes raise there).
fn encoding_name(label: Option<&str>, owner: &YamlPath, out: &mut Vec<Located>) {
    let Some(label) = label else { return };
    let message = match Encoding::for_label(label) {
        Some(encoding) if encoding.name() == label => return,
        Some(encoding) => format!(
            "use the canonical encoding name `{}` instead of `{label}`",
            encoding.name()
        ),
        None => format!(
            "unknown encoding `{label}`: text in it cannot be read or written; use a name Kaitai knows, such as UTF-8, ASCII, UTF-16LE, Shift_JIS, IBM437 or ISO-8859-1"
        ),
    };
    out.push(Located::new(&owner.key("encoding"), message));
}
