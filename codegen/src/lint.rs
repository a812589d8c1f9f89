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
}

/// An encoding spelled otherwise than its canonical name (`utf-8`, `latin1`).
fn encoding_name(label: Option<&str>, owner: &YamlPath, out: &mut Vec<Located>) {
    let Some(label) = label else { return };
    if let Some(encoding) = Encoding::for_label(label)
        && encoding.name() != label
    {
        out.push(Located::new(
            &owner.key("encoding"),
            format!(
                "use the canonical encoding name `{}` instead of `{label}`",
                encoding.name()
            ),
        ));
    }
}
