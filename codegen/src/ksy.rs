//! The `.ksy` document as written, deserialized with serde_yaml. Nothing here is validated
//! beyond its shape; `lower` turns it into the checked [`crate::model`].
//!
//! Keys follow Kaitai Struct. skelcodec's own keys start with `-` (Kaitai's rule for
//! vendor extensions) and are listed in the book (`docs/reference/extensions.md`); every
//! other `-` key is ignored, as Kaitai ignores `-orig-id` and `-webide-*`.

use std::collections::BTreeMap;

use indexmap::IndexMap;
use serde::Deserialize;
use serde_yaml::Value;

/// A whole schema file.
#[derive(Debug, Deserialize)]
pub struct KsyFile {
    /// `meta`: id, title, endianness.
    pub meta: Meta,
    /// `doc` of the root type.
    #[serde(default)]
    pub doc: Option<String>,
    /// `doc-ref` of the root type: references (a string or a list).
    #[serde(default, rename = "doc-ref")]
    pub doc_ref: Option<Value>,
    /// `params` of the root type (a root with parameters cannot be read on its own).
    #[serde(default)]
    pub params: Vec<ParamSpec>,
    /// `seq` of the root type.
    #[serde(default)]
    pub seq: Vec<AttrSpec>,
    /// Nested types.
    #[serde(default)]
    pub types: BTreeMap<String, TypeSpec>,
    /// Instances of the root type, in the order they are written.
    #[serde(default)]
    pub instances: IndexMap<String, AttrSpec>,
    /// Enums.
    #[serde(default)]
    pub enums: BTreeMap<String, serde_yaml::Mapping>,
    /// skelcodec: how the blocks read by position lie one after another, which makes their
    /// offsets derived data.
    #[serde(default, rename = "-layout")]
    pub layout: Option<LayoutSpec>,
    /// `to-string`: the text of a value (an expression).
    #[serde(default, rename = "to-string")]
    pub to_string: Option<Value>,
    /// Any other key: vendor keys (`-…`) are ignored, the rest rejected.
    #[serde(flatten)]
    pub other: BTreeMap<String, Value>,
}

/// The `meta` section.
#[derive(Debug, Deserialize)]
pub struct Meta {
    /// Schema id: names the root type and the generated module.
    pub id: String,
    /// Human title.
    #[serde(default)]
    pub title: Option<String>,
    /// `le` or `be`.
    #[serde(default)]
    pub endian: Option<String>,
    /// The bit order of bit fields: `be` (the default) or `le`.
    #[serde(default, rename = "bit-endian")]
    pub bit_endian: Option<String>,
    /// Default string encoding.
    #[serde(default)]
    pub encoding: Option<String>,
    /// `file-extension`: a string or a list.
    #[serde(default, rename = "file-extension")]
    pub file_extension: Option<Value>,
    /// skelcodec extension: magic byte strings that identify the format (for detection).
    #[serde(default, rename = "-magic")]
    pub magic: Vec<Value>,
    /// Schemas whose types this one uses: relative to this file (`common/header`), or found in
    /// the import paths when absolute (`/common/vlq`). `.ksy` is implied.
    #[serde(default)]
    pub imports: Vec<String>,
    /// The application that uses the format (documentation).
    #[serde(default)]
    pub application: Option<Value>,
    /// The format's licence of the schema (documentation).
    #[serde(default)]
    pub license: Option<String>,
    /// Cross-references to other catalogues (documentation).
    #[serde(default)]
    pub xref: Option<Value>,
    /// Tags (documentation).
    #[serde(default)]
    pub tags: Option<Value>,
    /// The Kaitai version the schema needs.
    #[serde(default, rename = "ks-version")]
    pub ks_version: Option<Value>,
    /// Kaitai's debug mode: changes only the API of Kaitai's own targets, so it has no effect.
    #[serde(default, rename = "ks-debug")]
    pub ks_debug: Option<bool>,
    /// Type names declared nowhere are opaque types, defined elsewhere (see [`KsyFile::opaque_types`]).
    #[serde(default, rename = "ks-opaque-types")]
    pub ks_opaque_types: bool,
    /// Any other key.
    #[serde(flatten)]
    pub other: BTreeMap<String, Value>,
}

/// `-layout` of the root type: the blocks read by position, laid out one after another after
/// the root's sequential fields.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LayoutSpec {
    /// Paths from the root to fields read by position (`index[].data`: the `data` of every
    /// element of `index`).
    pub blocks: Vec<String>,
    /// `stored` (default: blocks keep the order of their stored offsets, ties in the listed
    /// order) or `listed` (the order of `blocks`).
    #[serde(default)]
    pub order: Option<String>,
    /// Every block starts at a multiple of this (default 1); the bytes between are zero.
    #[serde(default)]
    pub align: Option<u64>,
    /// `fields` (default: the blocks start right after the root's sequential fields) or
    /// `stored` (where the first of them is stored, when that lies later: room a tool left
    /// after a directory stays).
    #[serde(default)]
    pub start: Option<String>,
    /// Root lists (or conditional fields) that describe free space of the stored layout and
    /// are emptied when the blocks are laid out again.
    #[serde(default)]
    pub clears: Vec<String>,
}

/// A user type under `types`.
#[derive(Debug, Deserialize, Default)]
pub struct TypeSpec {
    /// Documentation.
    #[serde(default)]
    pub doc: Option<String>,
    /// References (a string or a list).
    #[serde(default, rename = "doc-ref")]
    pub doc_ref: Option<Value>,
    /// Parameters passed by the user of the type.
    #[serde(default)]
    pub params: Vec<ParamSpec>,
    /// The attributes, in file order.
    #[serde(default)]
    pub seq: Vec<AttrSpec>,
    /// Instances, in the order they are written.
    #[serde(default)]
    pub instances: IndexMap<String, AttrSpec>,
    /// Types nested in this one.
    #[serde(default)]
    pub types: BTreeMap<String, TypeSpec>,
    /// Enums declared in this type.
    #[serde(default)]
    pub enums: BTreeMap<String, serde_yaml::Mapping>,
    /// Defaults for this type and the types nested in it.
    #[serde(default)]
    pub meta: Option<TypeMeta>,
    /// `to-string`: the text of a value (an expression).
    #[serde(default, rename = "to-string")]
    pub to_string: Option<Value>,
    /// Any other key.
    #[serde(flatten)]
    pub other: BTreeMap<String, Value>,
}

/// The `meta` of a type under `types`: defaults that replace its parent's for it and the types
/// nested in it.
#[derive(Debug, Deserialize, Default)]
pub struct TypeMeta {
    /// `le` or `be`.
    #[serde(default)]
    pub endian: Option<Value>,
    /// The bit order of bit fields: `be` or `le`.
    #[serde(default, rename = "bit-endian")]
    pub bit_endian: Option<String>,
    /// Default string encoding.
    #[serde(default)]
    pub encoding: Option<String>,
    /// Any other key.
    #[serde(flatten)]
    pub other: BTreeMap<String, Value>,
}

/// A parameter declaration.
#[derive(Debug, Deserialize)]
pub struct ParamSpec {
    /// Name.
    pub id: String,
    /// Type: an integer type, `bool`, `str`, `bytes`, a user type, or a list of integers or
    /// of a user type (`u2[]`, `block[]`).
    #[serde(rename = "type")]
    pub ty: String,
    /// Documentation.
    #[serde(default)]
    pub doc: Option<String>,
    /// References (a string or a list).
    #[serde(default, rename = "doc-ref")]
    pub doc_ref: Option<Value>,
    /// skelcodec: the value used when the root type is read without arguments.
    #[serde(default, rename = "-default")]
    pub default: Option<Value>,
    /// The enum of an integer parameter.
    #[serde(default, rename = "enum")]
    pub enum_name: Option<String>,
    /// Any other key.
    #[serde(flatten)]
    pub other: BTreeMap<String, Value>,
}

/// An attribute of `seq`, or an instance.
#[derive(Debug, Deserialize, Default, Clone)]
#[serde(rename_all = "kebab-case")]
pub struct AttrSpec {
    /// Field name (absent for instances, whose name is the map key).
    pub id: Option<String>,
    /// Documentation.
    pub doc: Option<String>,
    /// References (a string or a list).
    pub doc_ref: Option<Value>,
    /// A type name, `name(args)`, or a `switch-on` map.
    #[serde(rename = "type")]
    pub ty: Option<Value>,
    /// Byte size (an expression).
    pub size: Option<Value>,
    /// Size runs to the end of the stream.
    pub size_eos: Option<bool>,
    /// Fixed contents (magic).
    pub contents: Option<Value>,
    /// `expr`, `eos` or `until`.
    pub repeat: Option<String>,
    /// Count for `repeat: expr`.
    pub repeat_expr: Option<Value>,
    /// Condition for `repeat: until`.
    pub repeat_until: Option<Value>,
    /// Present only when this expression holds.
    #[serde(rename = "if")]
    pub cond: Option<Value>,
    /// Enum the integer maps to.
    #[serde(rename = "enum")]
    pub enum_name: Option<String>,
    /// String encoding.
    pub encoding: Option<String>,
    /// String terminator byte.
    pub terminator: Option<u8>,
    /// Whether the terminator is consumed (default true).
    pub consume: Option<bool>,
    /// Whether the terminator is part of the value (default false).
    pub include: Option<bool>,
    /// Whether a missing terminator is an error (default true).
    pub eos_error: Option<bool>,
    /// The byte stripped from the end of a sized string or byte array.
    pub pad_right: Option<u8>,
    /// How the stored bytes are transformed: `xor(key)`, `rol(n)`, `ror(n)`, `zlib`, or a
    /// custom processor `name(args)`.
    pub process: Option<String>,
    /// Value of a value instance.
    pub value: Option<Value>,
    /// What a valid value is: a value (`eq`), or a map of `eq`, `min`, `max`, `any-of`.
    pub valid: Option<Value>,
    /// Position of a parse instance.
    pub pos: Option<Value>,
    /// The stream a parse instance reads from (`_root._io`).
    pub io: Option<Value>,
    /// The value a user type sees as `_parent` (`_parent`, `_root`), or `false` for none.
    pub parent: Option<Value>,
    /// skelcodec: fixed-point divisor; the value is `raw / scale`.
    #[serde(rename = "-scale")]
    pub scale: Option<u32>,
    /// skelcodec: component type of `quat` and `vec3` (`f4`, `s2`, …).
    #[serde(rename = "-component")]
    pub component: Option<String>,
    /// skelcodec: the bytes on disk are `size` rounded up to a multiple of this; the pad bytes
    /// are kept as read.
    #[serde(rename = "-align")]
    pub align: Option<usize>,
    /// skelcodec: how this field follows from the content (`objects.size`, `_sizeof - 4`).
    #[serde(rename = "-derived")]
    pub derived: Option<Value>,
    /// skelcodec: with `-derived`, the stored value is reported and recomputed but never believed:
    /// no read may depend on it.
    #[serde(rename = "-untrusted")]
    pub untrusted: Option<bool>,
    /// skelcodec: the attribute extends to the first occurrence of these bytes after which the
    /// rest of the type parses exactly to the end of its stream.
    #[serde(rename = "-scan")]
    pub scan: Option<Value>,
    /// skelcodec: a value computed while reading and kept in the value, not in the file.
    #[serde(rename = "-remember")]
    pub remember: Option<Value>,
    /// skelcodec: with `-remember`, when the remembered value is 0, the candidates `[min, max]`
    /// are tried and the only one after which the rest of the type parses exactly is kept.
    #[serde(rename = "-solve")]
    pub solve: Option<(i64, i64)>,
    /// skelcodec: repeat once per element of this list; `_` is that element in the arguments.
    #[serde(rename = "-for-each")]
    pub for_each: Option<Value>,
    /// skelcodec: what padding bytes should hold (`index`: 00 01 02 …); kept as read, reported by
    /// `check()`, rewritten by `normalize()`.
    #[serde(rename = "-fill")]
    pub fill: Option<String>,
    /// skelcodec: on an instance read by position, the value is one the file holds in sequence
    /// too, read again here: where an edit moves it, the instance's offset follows it.
    #[serde(rename = "-in-sequence")]
    pub in_sequence: Option<bool>,
    /// Any other key.
    #[serde(flatten)]
    pub other: BTreeMap<String, Value>,
}

impl KsyFile {
    /// With `ks-opaque-types`, the type names the file uses but neither declares nor takes
    /// from a path (`a::b`), built-in ones included: those that name a schema file are opaque
    /// types, imported (see `imports`).
    pub fn opaque_types(&self) -> Vec<String> {
        if !self.meta.ks_opaque_types {
            return Vec::new();
        }
        let mut declared = vec![self.meta.id.clone()];
        let mut used = Vec::new();
        let mut visit = |seq: &[AttrSpec], instances: &IndexMap<String, AttrSpec>| {
            for attr in seq.iter().chain(instances.values()) {
                used.extend(attr.ty.iter().flat_map(type_names));
            }
        };
        visit(&self.seq, &self.instances);
        let mut nested: Vec<(&String, &TypeSpec)> = self.types.iter().collect();
        while let Some((name, ty)) = nested.pop() {
            declared.push(name.clone());
            visit(&ty.seq, &ty.instances);
            nested.extend(&ty.types);
        }
        let mut opaque: Vec<String> = used
            .into_iter()
            .filter(|name| !name.contains("::") && !declared.contains(name))
            .collect();
        opaque.sort();
        opaque.dedup();
        opaque
    }
}

/// The type names a `type:` value names: its own, or each case of a `switch-on`, without
/// arguments.
fn type_names(ty: &Value) -> Vec<String> {
    let name = |v: &Value| {
        v.as_str()
            .map(|s| s.split('(').next().unwrap_or(s).trim().to_owned())
    };
    match ty {
        Value::Mapping(map) => map
            .get("cases")
            .and_then(Value::as_mapping)
            .map(|cases| cases.values().filter_map(name).collect())
            .unwrap_or_default(),
        other => name(other).into_iter().collect(),
    }
}

impl AttrSpec {
    /// The same attribute under the name `id`.
    pub fn named(&self, id: String) -> Self {
        Self {
            id: Some(id),
            ..self.clone()
        }
    }
}

/// Reads an expression written as a YAML scalar (`10`, `true`, `"a + b"`).
pub fn expr_text(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}
