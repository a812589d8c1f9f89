//! The keys Kaitai Struct accepts in each place of a schema (its compiler's LEGAL_KEYS, 0.11).
//! Keys skelcodec implements are fields of the [`crate::ksy`] structs; whatever is left over is
//! either a Kaitai key skelcodec does not implement yet, a vendor key (`-…`, ignored unless
//! skelcodec defines it), or a mistake. Each gets its own located message.

use std::collections::BTreeMap;

use serde_yaml::Value;

use skelcodec_runtime::encoding::Encoding;

use crate::error::{Located, YamlPath};

/// Where a key is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyPlace {
    /// The `meta` section.
    Meta,
    /// A type (the root included).
    Type,
    /// An attribute of `seq`, or an instance.
    Attribute,
    /// A parameter declaration.
    Param,
}

impl KeyPlace {
    /// Kaitai's keys in this place.
    fn kaitai_keys(self) -> &'static [&'static str] {
        match self {
            KeyPlace::Meta => &[
                "id",
                "title",
                "application",
                "file-extension",
                "xref",
                "license",
                "ks-version",
                "ks-debug",
                "ks-opaque-types",
                "imports",
                "encoding",
                "endian",
                "bit-endian",
                "tags",
            ],
            KeyPlace::Type => &[
                "meta",
                "doc",
                "doc-ref",
                "params",
                "seq",
                "types",
                "instances",
                "enums",
                "to-string",
            ],
            KeyPlace::Attribute => &[
                "id",
                "doc",
                "doc-ref",
                "type",
                "if",
                "terminator",
                "consume",
                "include",
                "eos-error",
                "valid",
                "repeat",
                "repeat-expr",
                "repeat-until",
                "contents",
                "size",
                "size-eos",
                "pad-right",
                "parent",
                "process",
                "encoding",
                "enum",
                "pos",
                "value",
            ],
            KeyPlace::Param => &["id", "type", "doc", "doc-ref", "enum"],
        }
    }

    fn name(self) -> &'static str {
        match self {
            KeyPlace::Meta => "`meta`",
            KeyPlace::Type => "a type",
            KeyPlace::Attribute => "an attribute",
            KeyPlace::Param => "a parameter",
        }
    }
}

/// Refuses the keys left over once the implemented ones are taken (every key but a vendor key),
/// naming Kaitai's keys for the place.
pub fn check_leftover_keys(
    other: &BTreeMap<String, Value>,
    place: KeyPlace,
    at: &YamlPath,
) -> Result<(), Located> {
    let Some(key) = other.keys().find(|k| !k.starts_with('-')) else {
        return Ok(());
    };
    let message = format!(
        "unknown key `{key}` in {}: Kaitai's keys here are {}; vendor keys start with `-`",
        place.name(),
        place.kaitai_keys().join(", ")
    );
    Err(Located::new(&at.key(key), message))
}

/// A `doc` with its `doc-ref` (a reference or a list of them) appended, as the generated code's
/// documentation shows them.
pub fn doc_with_refs(doc: Option<&str>, doc_ref: Option<&Value>) -> Option<String> {
    let refs: Vec<String> = match doc_ref {
        Some(Value::Sequence(items)) => items.iter().filter_map(text_of).collect(),
        Some(other) => text_of(other).into_iter().collect(),
        None => Vec::new(),
    };
    match (doc, refs.is_empty()) {
        (doc, true) => doc.map(str::to_owned),
        (None, false) => Some(format!("See: {}", refs.join("; "))),
        (Some(doc), false) => Some(format!("{}\n\nSee: {}", doc.trim_end(), refs.join("; "))),
    }
}

fn text_of(value: &Value) -> Option<String> {
    crate::ksy::expr_text(value)
}

/// Whether text in `encoding` is its bytes, as skelcodec keeps UTF-8 and ASCII strings; any
/// other is decoded from its bytes (`rt::Decoded`).
pub fn text_is_its_bytes(encoding: Encoding) -> bool {
    matches!(encoding, Encoding::Utf8 | Encoding::Ascii)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leftover(key: &str) -> BTreeMap<String, Value> {
        BTreeMap::from([(key.to_owned(), Value::Null)])
    }

    #[test]
    fn unknown_keys_are_refused_but_vendor_keys() {
        let at = YamlPath::root().key("seq").index(0);
        let e = check_leftover_keys(&leftover("typo"), KeyPlace::Attribute, &at).unwrap_err();
        assert!(
            e.message.starts_with("unknown key `typo` in an attribute"),
            "{}",
            e.message
        );
        assert!(check_leftover_keys(&leftover("-webide-x"), KeyPlace::Attribute, &at).is_ok());
    }

    #[test]
    fn references_follow_the_doc() {
        let one = Value::from("RFC 1951");
        assert_eq!(
            doc_with_refs(Some("Deflate."), Some(&one)).as_deref(),
            Some("Deflate.\n\nSee: RFC 1951")
        );
        let two = Value::Sequence(vec![Value::from("a"), Value::from("b")]);
        assert_eq!(
            doc_with_refs(None, Some(&two)).as_deref(),
            Some("See: a; b")
        );
    }
}
