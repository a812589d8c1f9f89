//! Overlays: skelcodec's extension keys (`-derived`, `-layout`, …) added to a schema without
//! copying it, so that a gallery schema can be used as published and still have its checksums
//! recomputed.
//!
//! An overlay is written like the part of the schema it adds to: `meta/id` names the schema,
//! `types`, `seq`, `instances` and `params` lead to a type or field by their names (`seq` and
//! `params` name their items by `id`, as a mapping, where the schema lists them), and the
//! keys it sets are skelcodec's own (`-…`), each replacing the schema's key of that name:
//!
//! ```yaml
//! meta:
//!   id: png
//! types:
//!   chunk:
//!     seq:
//!       crc:
//!         -derived: crc32(type_raw, body)
//! ```
//!
//! Overlays are merged into the schema's YAML before it is read, so every later stage, both
//! back ends and every front end see one schema. Kaitai's own keys are refused: an overlay
//! says what skelcodec derives and how it lays out blocks, never how Kaitai reads the file.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_yaml::{Mapping, Value};

use crate::error::{SchemaError, YamlKey, YamlPath};
use crate::locate::LocationIndex;

/// skelcodec's keys of `meta`.
const META_KEYS: &[&str] = &["-magic"];
/// skelcodec's keys of the root type.
const ROOT_KEYS: &[&str] = &["-layout"];
/// skelcodec's keys of an attribute or instance.
const ATTRIBUTE_KEYS: &[&str] = &[
    "-derived",
    "-untrusted",
    "-scale",
    "-component",
    "-align",
    "-scan",
    "-remember",
    "-solve",
    "-for-each",
    "-fill",
    "-in-sequence",
];
/// skelcodec's keys of a parameter.
const PARAM_KEYS: &[&str] = &["-default"];

/// An overlay file: its text and where it is from (named in errors).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Overlay {
    /// The file, or a name for an overlay that is no file (one shipped inside a tool).
    pub path: PathBuf,
    /// Its YAML.
    pub text: String,
}

impl Overlay {
    /// An overlay of text `text`, named `path` in errors.
    pub fn new(path: impl Into<PathBuf>, text: impl Into<String>) -> Self {
        Self {
            path: path.into(),
            text: text.into(),
        }
    }

    /// Reads an overlay file.
    pub fn read(path: &Path) -> Result<Self, SchemaError> {
        std::fs::read_to_string(path)
            .map(|text| Self::new(path, text))
            .map_err(|e| SchemaError {
                file: path.to_path_buf(),
                line_col: None,
                path: YamlPath::root(),
                message: format!("cannot read the overlay: {e}"),
                others: Box::default(),
            })
    }

    /// The `meta/id` of the schema the overlay is for, when it says one.
    pub fn schema_id(&self) -> Option<String> {
        let document: Value = serde_yaml::from_str(&self.text).ok()?;
        document.get("meta")?.get("id")?.as_str().map(str::to_owned)
    }
}

/// An overlay read: its document and what locates its errors.
pub(crate) struct Parsed {
    pub source: Arc<Overlay>,
    pub id: String,
    document: Mapping,
    index: LocationIndex,
}

impl Parsed {
    /// An error about the whole overlay.
    pub fn error_at_root(&self, message: String) -> SchemaError {
        SchemaError {
            file: self.source.path.clone(),
            line_col: None,
            path: YamlPath::root(),
            message,
            others: Box::default(),
        }
    }
}

/// A key an overlay set: where it is in the schema's document, and where it is written in the
/// overlay. An error the schema's checker reports at or below it belongs to the overlay.
pub(crate) struct Placed {
    pub in_schema: Vec<YamlKey>,
    pub overlay: Arc<Overlay>,
    pub in_overlay: YamlPath,
    index: Arc<LocationIndex>,
}

impl Placed {
    /// The error `message` at `at` (a path of the schema), when it lies within this key.
    pub fn relocate(&self, at: &YamlPath, message: &str) -> Option<SchemaError> {
        let rest = at.steps().strip_prefix(self.in_schema.as_slice())?;
        let mut path = self.in_overlay.clone();
        for step in rest {
            path = match step {
                YamlKey::Key(k) => path.key(k),
                YamlKey::Index(i) => path.index(*i),
            };
        }
        Some(SchemaError {
            file: self.overlay.path.clone(),
            line_col: self.index.find(&path),
            path,
            message: message.to_owned(),
            others: Box::default(),
        })
    }
}

/// Reads overlays, each error located in its file; every overlay is read, and every error
/// reported.
pub(crate) fn parse_all(overlays: &[Overlay]) -> Result<Vec<Parsed>, SchemaError> {
    let mut parsed = Vec::new();
    let mut errors = Vec::new();
    for overlay in overlays {
        match parse(overlay) {
            Ok(p) => parsed.push(p),
            Err(e) => errors.push(e),
        }
    }
    match SchemaError::gathered(errors) {
        Some(error) => Err(error),
        None => Ok(parsed),
    }
}

fn parse(overlay: &Overlay) -> Result<Parsed, SchemaError> {
    let source = Arc::new(overlay.clone());
    let index = LocationIndex::build(&overlay.text);
    let error = |path: YamlPath, line_col, message: String| SchemaError {
        file: overlay.path.clone(),
        line_col,
        path,
        message,
        others: Box::default(),
    };
    let document: Value = serde_yaml::from_str(&overlay.text).map_err(|e| {
        error(
            YamlPath::root(),
            e.location().map(|l| (l.line(), l.column())),
            e.to_string(),
        )
    })?;
    let Value::Mapping(document) = document else {
        return Err(error(
            YamlPath::root(),
            Some((1, 1)),
            "an overlay is a mapping: `meta: {id: …}`, then the types and fields it adds to"
                .to_owned(),
        ));
    };
    let id = document
        .get("meta")
        .and_then(|meta| meta.get("id"))
        .and_then(Value::as_str);
    let Some(id) = id else {
        let at = YamlPath::root().key("meta");
        return Err(error(
            at.clone(),
            index.find(&at),
            "an overlay names the schema it adds to by `meta: {id: …}`, the schema's own `meta/id`"
                .to_owned(),
        ));
    };
    Ok(Parsed {
        source,
        id: id.to_owned(),
        document,
        index,
    })
}

/// Merges `overlay` into `document`, the YAML of the schema it is for: the keys it set, or
/// every place where it names what the schema does not have or sets what it may not.
pub(crate) fn apply(
    overlay: &Parsed,
    document: &mut Value,
) -> Result<Vec<Placed>, Vec<SchemaError>> {
    let mut merge = Merge {
        overlay,
        index: Arc::new(LocationIndex::build(&overlay.source.text)),
        placed: Vec::new(),
        errors: Vec::new(),
    };
    match document {
        Value::Mapping(root) => merge.root(root),
        // The schema's own reading reports what is wrong with it.
        _ => return Ok(Vec::new()),
    }
    match merge.errors.is_empty() {
        true => Ok(merge.placed),
        false => Err(merge.errors),
    }
}

/// One overlay being merged.
struct Merge<'a> {
    overlay: &'a Parsed,
    index: Arc<LocationIndex>,
    placed: Vec<Placed>,
    errors: Vec<SchemaError>,
}

/// Where the merge stands: the path in the schema's document and in the overlay's.
#[derive(Clone)]
struct At {
    schema: Vec<YamlKey>,
    overlay: YamlPath,
}

impl At {
    fn key(&self, schema_key: &str, overlay_key: &str) -> Self {
        let mut schema = self.schema.clone();
        schema.push(YamlKey::Key(schema_key.to_owned()));
        Self {
            schema,
            overlay: self.overlay.key(overlay_key),
        }
    }

    fn item(&self, index: usize, overlay_key: &str) -> Self {
        let mut schema = self.schema.clone();
        schema.push(YamlKey::Index(index));
        Self {
            schema,
            overlay: self.overlay.key(overlay_key),
        }
    }
}

impl Merge<'_> {
    fn error(&mut self, at: &YamlPath, message: String) {
        self.errors.push(SchemaError {
            file: self.overlay.source.path.clone(),
            line_col: self.overlay.index.find(at),
            path: at.clone(),
            message,
            others: Box::default(),
        });
    }

    fn root(&mut self, schema: &mut Mapping) {
        let at = At {
            schema: Vec::new(),
            overlay: YamlPath::root(),
        };
        let overlay = &self.overlay.document;
        for (key, value) in overlay {
            let Some(key) = self.key_text(key, &at.overlay) else {
                continue;
            };
            match key {
                "meta" => self.meta(schema, value, &at.key("meta", "meta")),
                // The overlay's own documentation.
                "doc" => {}
                _ => self.type_key(schema, key, value, &at, ROOT_KEYS),
            }
        }
    }

    fn meta(&mut self, schema: &mut Mapping, overlay: &Value, at: &At) {
        let Some(overlay) = self.mapping(overlay, &at.overlay) else {
            return;
        };
        let mut meta = child_mapping(schema, "meta");
        for (key, value) in overlay {
            let Some(key) = self.key_text(key, &at.overlay) else {
                continue;
            };
            if key == "id" {
                continue;
            }
            let at = at.key(key, key);
            if let (Some(meta), true) = (
                meta.as_deref_mut(),
                self.allowed(key, META_KEYS, "`meta`", &at),
            ) {
                self.set(meta, key, value, at);
            }
        }
    }

    /// A key of a type's overlay (the root's or one under `types`).
    fn type_key(&mut self, schema: &mut Mapping, key: &str, value: &Value, at: &At, own: &[&str]) {
        match key {
            "types" => self.types(schema, value, &at.key("types", "types")),
            "seq" => self.listed(schema, "seq", value, at, ATTRIBUTE_KEYS),
            "params" => self.listed(schema, "params", value, at, PARAM_KEYS),
            "instances" => self.instances(schema, value, &at.key("instances", "instances")),
            _ => {
                let at = at.key(key, key);
                let place = match own.is_empty() {
                    true => "a type under `types` (`-layout` is the root's)",
                    false => "the root type",
                };
                if self.allowed(key, own, place, &at) {
                    self.set(schema, key, value, at);
                }
            }
        }
    }

    fn types(&mut self, schema: &mut Mapping, overlay: &Value, at: &At) {
        let Some(overlay) = self.mapping(overlay, &at.overlay) else {
            return;
        };
        let mut types = child_mapping(schema, "types");
        for (name, value) in overlay {
            let Some(name) = self.key_text(name, &at.overlay) else {
                continue;
            };
            let at = at.key(name, name);
            let found = types
                .as_deref_mut()
                .and_then(|t| t.get_mut(name))
                .and_then(Value::as_mapping_mut);
            let Some(ty) = found else {
                let known = types.as_deref().map(mapping_keys).unwrap_or_default();
                self.error(
                    &at.overlay,
                    format!(
                        "the schema declares no type `{name}` here{}",
                        listing("its types", &known)
                    ),
                );
                continue;
            };
            let Some(overlay) = self.mapping(value, &at.overlay) else {
                continue;
            };
            for (key, value) in overlay {
                if let Some(key) = self.key_text(key, &at.overlay) {
                    self.type_key(ty, key, value, &at, &[]);
                }
            }
        }
    }

    /// `seq` or `params`: the schema lists items, the overlay names them by `id`.
    fn listed(
        &mut self,
        schema: &mut Mapping,
        list: &str,
        overlay: &Value,
        at: &At,
        keys: &[&str],
    ) {
        let overlay_at = at.overlay.key(list);
        let Some(overlay) = self.mapping(overlay, &overlay_at) else {
            return;
        };
        let mut items = schema.get_mut(list).and_then(Value::as_sequence_mut);
        for (id, value) in overlay {
            let Some(id) = self.key_text(id, &overlay_at) else {
                continue;
            };
            let ids: Vec<String> = items.as_deref().map(|i| item_ids(i)).unwrap_or_default();
            let Some(index) = ids.iter().position(|known| known == id) else {
                let what = match list {
                    "seq" => "attribute",
                    _ => "parameter",
                };
                self.error(
                    &overlay_at.key(id),
                    format!(
                        "the schema's `{list}` here has no {what} `{id}`{}",
                        listing("it has", &ids)
                    ),
                );
                continue;
            };
            let at = At {
                schema: at.key(list, list).schema,
                overlay: overlay_at.clone(),
            }
            .item(index, id);
            if let Some(item) = items.as_deref_mut().and_then(|i| i[index].as_mapping_mut()) {
                self.field(item, value, &at, keys, list);
            }
        }
    }

    fn instances(&mut self, schema: &mut Mapping, overlay: &Value, at: &At) {
        let Some(overlay) = self.mapping(overlay, &at.overlay) else {
            return;
        };
        let mut instances = child_mapping(schema, "instances");
        for (name, value) in overlay {
            let Some(name) = self.key_text(name, &at.overlay) else {
                continue;
            };
            let at = at.key(name, name);
            let found = instances
                .as_deref_mut()
                .and_then(|i| i.get_mut(name))
                .and_then(Value::as_mapping_mut);
            match found {
                Some(instance) => self.field(instance, value, &at, ATTRIBUTE_KEYS, "instances"),
                None => {
                    let known = instances.as_deref().map(mapping_keys).unwrap_or_default();
                    self.error(
                        &at.overlay,
                        format!(
                            "the schema has no instance `{name}` here{}",
                            listing("it has", &known)
                        ),
                    );
                }
            }
        }
    }

    /// The keys an overlay sets on one attribute, instance or parameter.
    fn field(&mut self, schema: &mut Mapping, overlay: &Value, at: &At, keys: &[&str], list: &str) {
        let Some(overlay) = self.mapping(overlay, &at.overlay) else {
            return;
        };
        let place = match list {
            "params" => "a parameter",
            _ => "an attribute",
        };
        for (key, value) in overlay {
            let Some(key) = self.key_text(key, &at.overlay) else {
                continue;
            };
            let at = at.key(key, key);
            if self.allowed(key, keys, place, &at) {
                self.set(schema, key, value, at);
            }
        }
    }

    /// Whether `key` is one of skelcodec's keys of the place; an error saying which are if not.
    fn allowed(&mut self, key: &str, keys: &[&str], place: &str, at: &At) -> bool {
        if keys.contains(&key) {
            return true;
        }
        let known = match keys.is_empty() {
            true => "none".to_owned(),
            false => keys.join(", "),
        };
        let message = match key.starts_with('-') {
            true => format!("`{key}` is not a skelcodec key of {place} (those are: {known})"),
            false => format!(
                "`{key}` is not something an overlay sets: it adds skelcodec's `-` keys ({place}: {known}) to the types and fields it names through `types`, `seq`, `instances` and `params`; Kaitai's own keys belong in the schema"
            ),
        };
        self.error(&at.overlay, message);
        false
    }

    fn set(&mut self, schema: &mut Mapping, key: &str, value: &Value, at: At) {
        schema.insert(Value::String(key.to_owned()), value.clone());
        self.placed.push(Placed {
            in_schema: at.schema,
            overlay: self.overlay.source.clone(),
            in_overlay: at.overlay,
            index: self.index.clone(),
        });
    }

    fn mapping<'v>(&mut self, value: &'v Value, at: &YamlPath) -> Option<&'v Mapping> {
        match value {
            Value::Mapping(m) => Some(m),
            _ => {
                self.error(
                    at,
                    "expected a mapping of names to what the overlay adds to them".to_owned(),
                );
                None
            }
        }
    }

    fn key_text<'v>(&mut self, key: &'v Value, at: &YamlPath) -> Option<&'v str> {
        match key.as_str() {
            Some(k) => Some(k),
            None => {
                self.error(
                    at,
                    format!("a key of an overlay is a name, not `{}`", scalar_text(key)),
                );
                None
            }
        }
    }
}

/// The mapping under `key`, when there is one.
fn child_mapping<'m>(mapping: &'m mut Mapping, key: &str) -> Option<&'m mut Mapping> {
    mapping.get_mut(key).and_then(Value::as_mapping_mut)
}

fn mapping_keys(mapping: &Mapping) -> Vec<String> {
    mapping
        .keys()
        .filter_map(Value::as_str)
        .map(str::to_owned)
        .collect()
}

/// The names of a schema's `seq` or `params`: each item's `id`, or `_unnamed<i>` as Kaitai
/// names an attribute without one.
fn item_ids(items: &[Value]) -> Vec<String> {
    items
        .iter()
        .enumerate()
        .map(|(i, item)| match item.get("id").and_then(Value::as_str) {
            Some(id) => id.to_owned(),
            None => format!("_unnamed{i}"),
        })
        .collect()
}

/// ` (what: a, b, c)`, the first dozen names, for a message about a name not among them.
fn listing(what: &str, names: &[String]) -> String {
    const SHOWN: usize = 12;
    let more = match names.len() > SHOWN {
        true => format!(" and {} more", names.len() - SHOWN),
        false => String::new(),
    };
    match names.is_empty() {
        true => String::new(),
        false => format!(
            " ({what}: {}{more})",
            names[..names.len().min(SHOWN)].join(", ")
        ),
    }
}

fn scalar_text(value: &Value) -> String {
    serde_yaml::to_string(value)
        .map(|s| s.trim().to_owned())
        .unwrap_or_default()
}
