//! The places of a schema document a mutation can act on, found by walking it as Kaitai lays a
//! type out: `seq`, `instances`, `params`, `types`, `enums`.

use serde_yaml::{Mapping, Value};

/// One step into a YAML document.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// A mapping key.
    Key(Value),
    /// A sequence index.
    Index(usize),
}

/// A node's place in a document, outermost step first.
pub type NodePath = Vec<Step>;

/// The keys of an attribute whose value is an expression.
const EXPRESSION_KEYS: &[&str] = &[
    "if",
    "size",
    "repeat-expr",
    "repeat-until",
    "pos",
    "value",
    "io",
    "valid",
    "process",
    "-derived",
    "to-string",
];

/// The places of one document.
#[derive(Debug, Default)]
pub struct Sites {
    /// Type specs: the document itself and each `types` entry.
    pub type_specs: Vec<NodePath>,
    /// Attribute mappings: `seq` items and `instances` entries.
    pub attrs: Vec<NodePath>,
    /// `seq` items alone (each a `seq` list followed by its index).
    pub seq_items: Vec<NodePath>,
    /// `type` values that are strings: attributes', parameters', switch cases'.
    pub types: Vec<NodePath>,
    /// Expressions: strings, numbers and booleans under expression keys, `switch-on`.
    pub exprs: Vec<NodePath>,
    /// Lists and maps that may be emptied: `seq`, `params`, `instances`, `types`, `enums`,
    /// an enum's values, a switch's `cases`.
    pub collections: Vec<NodePath>,
    /// Attribute ids, parameter ids and instance names.
    pub ids: Vec<String>,
    /// Names of user types.
    pub type_names: Vec<String>,
    /// Names of enums, with the names of their values.
    pub enums: Vec<(String, Vec<String>)>,
}

impl Sites {
    /// Every site of a schema document.
    pub fn of(doc: &Value) -> Self {
        let mut sites = Sites::default();
        sites.type_spec(doc, &Vec::new());
        sites
    }

    fn type_spec(&mut self, spec: &Value, at: &NodePath) {
        let Some(map) = spec.as_mapping() else {
            return;
        };
        self.type_specs.push(at.clone());
        if let Some(Value::Sequence(seq)) = map.get("seq") {
            let seq_at = child(at, "seq");
            self.collections.push(seq_at.clone());
            for (i, attr) in seq.iter().enumerate() {
                let item_at = index(&seq_at, i);
                self.seq_items.push(item_at.clone());
                self.attr(attr, &item_at);
            }
        }
        if let Some(Value::Mapping(instances)) = map.get("instances") {
            let inst_at = child(at, "instances");
            self.collections.push(inst_at.clone());
            for (name, attr) in instances {
                self.ids.extend(name.as_str().map(str::to_owned));
                self.attr(attr, &key(&inst_at, name.clone()));
            }
        }
        if let Some(Value::Sequence(params)) = map.get("params") {
            let params_at = child(at, "params");
            self.collections.push(params_at.clone());
            for (i, param) in params.iter().enumerate() {
                self.ids.extend(string_at(param, "id"));
                if param.get("type").is_some_and(Value::is_string) {
                    self.types.push(child(&index(&params_at, i), "type"));
                }
            }
        }
        if let Some(Value::Mapping(enums)) = map.get("enums") {
            let enums_at = child(at, "enums");
            self.collections.push(enums_at.clone());
            for (name, values) in enums {
                let names = values
                    .as_mapping()
                    .map(|m| m.values().filter_map(enum_value_name).collect())
                    .unwrap_or_default();
                self.collections.push(key(&enums_at, name.clone()));
                self.enums
                    .push((name.as_str().unwrap_or_default().to_owned(), names));
            }
        }
        if let Some(Value::Mapping(types)) = map.get("types") {
            let types_at = child(at, "types");
            self.collections.push(types_at.clone());
            for (name, spec) in types {
                self.type_names.extend(name.as_str().map(str::to_owned));
                self.type_spec(spec, &key(&types_at, name.clone()));
            }
        }
        if map.get("to-string").is_some() {
            self.exprs.push(child(at, "to-string"));
        }
    }

    fn attr(&mut self, attr: &Value, at: &NodePath) {
        let Some(map) = attr.as_mapping() else {
            return;
        };
        self.attrs.push(at.clone());
        self.ids.extend(string_at(attr, "id"));
        for name in EXPRESSION_KEYS {
            match map.get(*name) {
                Some(Value::String(_) | Value::Number(_) | Value::Bool(_)) => {
                    self.exprs.push(child(at, name))
                }
                Some(Value::Mapping(valid)) => {
                    for (k, v) in valid {
                        if !v.is_mapping() && !v.is_sequence() {
                            self.exprs.push(key(&child(at, name), k.clone()));
                        }
                    }
                }
                _ => {}
            }
        }
        match map.get("type") {
            Some(Value::String(_)) => self.types.push(child(at, "type")),
            Some(Value::Mapping(switch)) => {
                let type_at = child(at, "type");
                if switch.contains_key("switch-on") {
                    self.exprs.push(child(&type_at, "switch-on"));
                }
                if let Some(Value::Mapping(cases)) = switch.get("cases") {
                    let cases_at = child(&type_at, "cases");
                    self.collections.push(cases_at.clone());
                    for (case, ty) in cases {
                        if ty.is_string() {
                            self.types.push(key(&cases_at, case.clone()));
                        }
                    }
                }
            }
            _ => {}
        }
    }
}

/// The name of an enum value: `name` or `{id: name, …}`.
fn enum_value_name(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Mapping(m) => m.get("id")?.as_str().map(str::to_owned),
        _ => None,
    }
}

fn string_at(value: &Value, name: &str) -> Option<String> {
    value.get(name)?.as_str().map(str::to_owned)
}

/// `at` followed by a string key.
pub fn child(at: &NodePath, name: &str) -> NodePath {
    key(at, Value::String(name.to_owned()))
}

/// `at` followed by a key.
pub fn key(at: &NodePath, k: Value) -> NodePath {
    let mut path = at.clone();
    path.push(Step::Key(k));
    path
}

/// `at` followed by an index.
pub fn index(at: &NodePath, i: usize) -> NodePath {
    let mut path = at.clone();
    path.push(Step::Index(i));
    path
}

/// The node at `path`, for changing it.
pub fn node_mut<'d>(doc: &'d mut Value, path: &[Step]) -> Option<&'d mut Value> {
    path.iter().try_fold(doc, |node, step| match step {
        Step::Key(k) => node.as_mapping_mut()?.get_mut(k),
        Step::Index(i) => node.as_sequence_mut()?.get_mut(*i),
    })
}

/// The mapping at `path`, for changing it.
pub fn mapping_mut<'d>(doc: &'d mut Value, path: &[Step]) -> Option<&'d mut Mapping> {
    node_mut(doc, path)?.as_mapping_mut()
}
