//! Declares every type and enum of a schema and of the schemas it imports: their places in
//! the type tree, their Rust names, and the parts of their specs that lowering reads.

use std::collections::BTreeMap;

use indexmap::IndexMap;
use serde_yaml::Value;

use super::check_identifier;
use crate::error::{Located, YamlPath};
use crate::keys::{KeyPlace, check_leftover_keys, doc_with_refs};
use crate::ksy::{self, AttrSpec, KsyFile, ParamSpec, TypeMeta, TypeSpec};
use crate::model::*;
use crate::names::{item_name, variant_name};

/// What lowering reads of a type's spec. A root's keys are its file's.
pub struct Parts<'f> {
    /// `params`.
    pub params: &'f [ParamSpec],
    /// `seq`.
    pub seq: &'f [AttrSpec],
    /// `instances`.
    pub instances: &'f IndexMap<String, AttrSpec>,
    /// The defaults in force in the type.
    pub defaults: Defaults,
}

/// The defaults a type's `meta` (or its file's) sets for it and the types nested in it.
#[derive(Debug, Clone)]
pub struct Defaults {
    /// The byte order of numbers (`None`: none is set).
    pub byte_order: Option<ByteOrder>,
    /// The bit order of bit fields: big-endian unless `bit-endian: le`.
    pub bit_big_endian: bool,
    /// The default string encoding, when one is set.
    pub encoding: Option<String>,
}

/// Every type (depth first: the schema's root, its nested types, then each imported schema's
/// root and its nested types) with its parts, and every enum with the type it belongs to.
pub struct Declared<'f> {
    /// The types, the root first.
    pub types: Vec<TypeDef>,
    /// Their parts, by type index.
    pub parts: Vec<Parts<'f>>,
    /// The enums.
    pub enums: Vec<EnumDef>,
}

/// Declares the types of `files` (the schema compiled first, then what it imports). Imported
/// roots are declared inside the root, so that names resolve to them from anywhere.
pub fn declare<'f>(files: &[&'f KsyFile]) -> Result<Declared<'f>, Located> {
    let mut declared = Declared {
        types: Vec::new(),
        parts: Vec::new(),
        enums: Vec::new(),
    };
    for (index, file) in files.iter().enumerate() {
        let at = YamlPath::root_of(index);
        check_file(file, &at)?;
        if index > 0 && file.layout.is_some() {
            return Err(Located::new(
                &at.key("-layout"),
                "`-layout` of an imported schema is not used: lay blocks out in the schema compiled",
            ));
        }
        let ty = declared.types.len();
        let id = &file.meta.id;
        if index > 0
            && declared
                .types
                .iter()
                .any(|t| t.parent == Some(0) && t.id == *id)
        {
            return Err(Located::new(
                &at.key("meta").key("id"),
                format!("the imported schema `{id}` has the name of a type of the schema"),
            ));
        }
        declared.types.push(TypeDef {
            id: id.clone(),
            parent: (index > 0).then_some(0),
            rust_name: item_name(id.clone()),
            doc: root_doc(file),
            params: Vec::new(),
            fields: Vec::new(),
            instances: Vec::new(),
            to_string: to_string(file.to_string.as_ref(), &at)?,
            endian_choice: None,
            keeps_stream: false,
            unread_from_holder: false,
            root_place: None,
            derived_members: Vec::new(),
            at: at.clone(),
        });
        let defaults = Defaults {
            byte_order: file.meta.endian.as_deref().map(|e| match e {
                "be" => ByteOrder::Big,
                _ => ByteOrder::Little,
            }),
            bit_big_endian: file.meta.bit_endian.as_deref() != Some("le"),
            encoding: file.meta.encoding.clone(),
        };
        declared.parts.push(Parts {
            params: &file.params,
            seq: &file.seq,
            instances: &file.instances,
            defaults: defaults.clone(),
        });
        // The compiled schema's own enums keep their names; an imported schema's are prefixed.
        let prefix = (index > 0).then_some(id.as_str());
        let enums = lower_enums(&file.enums, ty, prefix, &at.key("enums"))?;
        declared.enums.extend(enums);
        declare_nested(&file.types, ty, &defaults, &mut declared)?;
    }
    make_rust_names_unique(&mut declared);
    Ok(declared)
}

/// The checks on a file's top level: its keys, its id and its default endianness.
fn check_file(file: &KsyFile, root: &YamlPath) -> Result<(), Located> {
    check_leftover_keys(&file.other, KeyPlace::Type, root)?;
    check_leftover_keys(&file.meta.other, KeyPlace::Meta, &root.key("meta"))?;
    check_identifier(&file.meta.id, &root.key("meta").key("id"))?;
    if let Some(endian) = &file.meta.endian
        && endian != "le"
        && endian != "be"
    {
        return Err(Located::new(
            &root.key("meta").key("endian"),
            format!("endian must be `le` or `be`, not `{endian}`"),
        ));
    }
    check_bit_endian(file.meta.bit_endian.as_deref(), &root.key("meta"))?;
    if let Some(version) = &file.meta.ks_version {
        check_ks_version(version, &root.key("meta").key("ks-version"))?;
    }
    Ok(())
}

/// The Kaitai version a schema needs: `X.Y` or `X.Y.Z`, at least 0.6 (the oldest ksy
/// dialect) and at most 0.11, the one skelcodec implements.
fn check_ks_version(version: &Value, at: &YamlPath) -> Result<(), Located> {
    let text = ksy::expr_text(version).unwrap_or_default();
    let parts: Option<Vec<u32>> = text
        .split('.')
        .map(|p| {
            let plain = !p.is_empty() && (p == "0" || !p.starts_with('0'));
            plain.then(|| p.parse().ok()).flatten()
        })
        .collect();
    let Some(parts) = parts.filter(|p| (2..=3).contains(&p.len())) else {
        return Err(Located::new(
            at,
            format!("`{text}` is not a version: write X.Y or X.Y.Z"),
        ));
    };
    let (major, minor) = (parts[0], parts[1]);
    if (major, minor) < (0, 6) {
        return Err(Located::new(
            at,
            format!("the oldest Kaitai version is 0.6, not {text} (for 0.10, quote it: '0.10')"),
        ));
    }
    if (major, minor) > (0, 11) {
        return Err(Located::new(
            at,
            format!("this schema needs Kaitai {text}; skelcodec implements 0.11"),
        ));
    }
    Ok(())
}

/// Declares the types nested in `parent`, and theirs.
fn declare_nested<'f>(
    children: &'f BTreeMap<String, TypeSpec>,
    parent: usize,
    inherited: &Defaults,
    declared: &mut Declared<'f>,
) -> Result<(), Located> {
    for (id, spec) in children {
        let at = declared.types[parent].at.key("types").key(id);
        check_identifier(id, &at)?;
        if parent == 0 && *id == declared.types[0].id {
            return Err(Located::new(
                &at,
                format!("type `{id}` has the same name as the schema (`meta/id`)"),
            ));
        }
        if spec.other.contains_key("-layout") {
            return Err(Located::new(
                &at.key("-layout"),
                "`-layout` belongs to the root type, which keeps the bytes no block claims",
            ));
        }
        check_leftover_keys(&spec.other, KeyPlace::Type, &at)?;
        let (defaults, endian_choice) =
            type_defaults(spec.meta.as_ref(), inherited.clone(), &at.key("meta"))?;
        // Top-level types keep their own name; deeper ones are prefixed by their parents'.
        let rust_name = item_name(match parent {
            0 => id.clone(),
            _ => format!("{}_{id}", declared.types[parent].rust_name),
        });
        let index = declared.types.len();
        let enums = lower_enums(&spec.enums, index, Some(&rust_name), &at.key("enums"))?;
        declared.enums.extend(enums);
        declared.types.push(TypeDef {
            id: id.clone(),
            parent: Some(parent),
            rust_name,
            doc: doc_with_refs(spec.doc.as_deref(), spec.doc_ref.as_ref()),
            params: Vec::new(),
            fields: Vec::new(),
            instances: Vec::new(),
            to_string: to_string(spec.to_string.as_ref(), &at)?,
            endian_choice,
            keeps_stream: false,
            unread_from_holder: false,
            root_place: None,
            derived_members: Vec::new(),
            at,
        });
        declared.parts.push(Parts {
            params: &spec.params,
            seq: &spec.seq,
            instances: &spec.instances,
            defaults: defaults.clone(),
        });
        declare_nested(&spec.types, index, &defaults, declared)?;
    }
    Ok(())
}

/// A type's `to-string` expression.
fn to_string(value: Option<&Value>, at: &YamlPath) -> Result<Option<crate::expr::Expr>, Located> {
    value
        .map(|v| super::parse_expr(v, &at.key("to-string")))
        .transpose()
}

/// `bit-endian` must be `be` or `le`.
fn check_bit_endian(bit_endian: Option<&str>, meta: &YamlPath) -> Result<(), Located> {
    match bit_endian {
        None | Some("be" | "le") => Ok(()),
        Some(other) => Err(Located::new(
            &meta.key("bit-endian"),
            format!("bit-endian must be `be` or `le`, not `{other}`"),
        )),
    }
}

/// A type's defaults: its parent's, replaced by what its own `meta` sets; and its endianness
/// when `meta/endian` chooses it with `switch-on`.
fn type_defaults(
    meta: Option<&TypeMeta>,
    inherited: Defaults,
    at: &YamlPath,
) -> Result<(Defaults, Option<EndianChoice>), Located> {
    let Some(meta) = meta else {
        return Ok((inherited, None));
    };
    check_leftover_keys(&meta.other, KeyPlace::Meta, at)?;
    check_bit_endian(meta.bit_endian.as_deref(), at)?;
    let mut choice = None;
    let byte_order = match &meta.endian {
        None => inherited.byte_order,
        Some(Value::String(e)) if e == "le" => Some(ByteOrder::Little),
        Some(Value::String(e)) if e == "be" => Some(ByteOrder::Big),
        Some(Value::Mapping(map)) => {
            choice = Some(endian_choice(map, &at.key("endian"))?);
            Some(ByteOrder::Chosen)
        }
        Some(_) => {
            return Err(Located::new(
                &at.key("endian"),
                "endian must be `le` or `be`",
            ));
        }
    };
    let defaults = Defaults {
        byte_order,
        bit_big_endian: match meta.bit_endian.as_deref() {
            Some(order) => order == "be",
            None => inherited.bit_big_endian,
        },
        encoding: meta.encoding.clone().or(inherited.encoding),
    };
    Ok((defaults, choice))
}

/// `meta/endian` as a map: `switch-on` and `cases` whose values are `le` or `be`.
fn endian_choice(map: &serde_yaml::Mapping, at: &YamlPath) -> Result<EndianChoice, Located> {
    if let Some(key) = map
        .keys()
        .filter_map(Value::as_str)
        .find(|k| !matches!(*k, "switch-on" | "cases") && !k.starts_with('-'))
    {
        return Err(Located::new(
            &at.key(key),
            format!("unknown key `{key}` in an endianness switch"),
        ));
    }
    let (Some(on), Some(Value::Mapping(cases_map))) = (map.get("switch-on"), map.get("cases"))
    else {
        return Err(Located::new(
            at,
            "an endianness chosen by a switch needs `switch-on` and `cases`",
        ));
    };
    let on = super::parse_expr(on, &at.key("switch-on"))?;
    let mut cases = Vec::new();
    let mut default = None;
    for (key, value) in cases_map {
        let key_text = ksy::expr_text(key).unwrap_or_default();
        let case_at = at.key("cases").key(&key_text);
        let big = match value.as_str() {
            Some("be") => true,
            Some("le") => false,
            _ => {
                return Err(Located::new(
                    &case_at,
                    "a case of `endian` must be `le` or `be`",
                ));
            }
        };
        if key_text == "_" {
            default = Some(big);
        } else {
            cases.push(EndianCase {
                key: super::parse_expr(key, &case_at)?,
                big,
                at: case_at,
            });
        }
    }
    Ok(EndianChoice {
        on,
        cases,
        default,
        at: at.clone(),
    })
}

/// Types and enums become Rust items named in CamelCase: of two that convert to the same name
/// (`a_b` nested in the root and `b` nested in `a`, a type and an enum `key_flags`), the one
/// declared later gets a suffix (`_type`, `_enum`), and a number if that is taken too.
fn make_rust_names_unique(declared: &mut Declared) {
    let mut seen = std::collections::BTreeSet::new();
    let names = declared
        .types
        .iter_mut()
        .map(|t| (&mut t.rust_name, "type"))
        .chain(
            declared
                .enums
                .iter_mut()
                .map(|e| (&mut e.rust_name, "enum")),
        );
    for (name, kind) in names {
        let rust = |n: &str| crate::names::pascal(n);
        if !seen.insert(rust(name)) {
            let mut candidate = format!("{name}_{kind}");
            let mut n = 2;
            while seen.contains(&rust(&candidate)) {
                candidate = format!("{name}_{kind}{n}");
                n += 1;
            }
            seen.insert(rust(&candidate));
            *name = candidate;
        }
    }
}

/// The value of an enum key: a YAML integer, one above `i64::MAX` (a `u8` enum) as its bit
/// pattern, as `u8` values are compared, or an integer literal YAML reads as text
/// (`0x0253_f200`).
fn enum_key(key: &Value) -> Option<i64> {
    if let Some(n) = key.as_i64() {
        return Some(n);
    }
    if let Some(n) = key.as_u64() {
        return Some(n as i64);
    }
    match crate::expr::parse(key.as_str()?).ok()? {
        crate::expr::Expr::Int(n) => i64::try_from(n)
            .ok()
            .or(u64::try_from(n).ok().map(|n| n as i64)),
        _ => None,
    }
}

/// `name`, or, when `taken`, `name` followed by `number` (and a counter if needed): a Rust
/// name unique among its siblings.
fn unique_name(name: String, number: i64, taken: impl Fn(&str) -> bool) -> String {
    if !taken(&name) {
        return name;
    }
    let number = match number < 0 {
        true => format!("Minus{}", number.unsigned_abs()),
        false => number.to_string(),
    };
    let mut candidate = format!("{name}{number}");
    let mut n = 2;
    while taken(&candidate) {
        candidate = format!("{name}{number}Alt{n}");
        n += 1;
    }
    candidate
}

/// The root type's documentation: its `doc` and `doc-ref`, then what `meta` says about the
/// format (title, application, licence, cross-references).
fn root_doc(file: &KsyFile) -> Option<String> {
    let meta = &file.meta;
    let text = |v: &Option<Value>| {
        v.as_ref().map(|v| match v {
            Value::Sequence(items) => items
                .iter()
                .filter_map(ksy::expr_text)
                .collect::<Vec<_>>()
                .join(", "),
            Value::Mapping(map) => map
                .iter()
                .filter_map(|(k, v)| Some(format!("{} {}", k.as_str()?, ksy::expr_text(v)?)))
                .collect::<Vec<_>>()
                .join(", "),
            other => ksy::expr_text(other).unwrap_or_default(),
        })
    };
    let lines: Vec<String> = [
        ("Application", text(&meta.application)),
        ("Licence of the schema", meta.license.clone()),
        ("Cross-references", text(&meta.xref)),
    ]
    .into_iter()
    .filter_map(|(label, value)| Some(format!("{label}: {}", value?)))
    .collect();
    let doc = doc_with_refs(file.doc.as_deref(), file.doc_ref.as_ref());
    match (doc, lines.is_empty()) {
        (doc, true) => doc,
        (None, false) => Some(lines.join("\n")),
        (Some(doc), false) => Some(format!("{}\n\n{}", doc.trim_end(), lines.join("\n"))),
    }
}

/// The enums declared in type `owner`; their Rust names are prefixed by `prefix` (the owner's
/// name) below the top level.
fn lower_enums(
    enums: &BTreeMap<String, serde_yaml::Mapping>,
    owner: usize,
    prefix: Option<&str>,
    at: &YamlPath,
) -> Result<Vec<EnumDef>, Located> {
    let mut out = Vec::new();
    for (id, entries) in enums {
        let at = at.key(id);
        check_identifier(id, &at)?;
        let mut variants: Vec<EnumVariant> = Vec::new();
        for (key, value) in entries {
            let Some(number) = enum_key(key) else {
                return Err(Located::new(&at, "enum keys must be integers"));
            };
            let (name, doc) = match value {
                Value::String(s) => (s.clone(), None),
                // YAML reads `true` and `false` as booleans; Kaitai takes them as names.
                Value::Bool(b) => (b.to_string(), None),
                Value::Mapping(m) => (
                    m.get("id")
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                        .to_owned(),
                    m.get("doc").and_then(Value::as_str).map(str::to_owned),
                ),
                _ => (String::new(), None),
            };
            let vat = at.key(&number.to_string());
            check_identifier(&name, &vat)?;
            if variants.iter().any(|v| v.id == name) {
                return Err(Located::new(
                    &vat,
                    format!("enum value `{name}` is used twice"),
                ));
            }
            let taken = |candidate: &str| variants.iter().any(|v| v.rust_name == candidate);
            let rust_name = unique_name(variant_name(&name), number, taken);
            variants.push(EnumVariant {
                rust_name,
                id: name,
                value: number,
                doc,
            });
        }
        variants.sort_by_key(|v| v.value);
        out.push(EnumDef {
            id: id.clone(),
            owner,
            rust_name: item_name(prefix.map_or_else(|| id.clone(), |p| format!("{p}_{id}"))),
            variants,
            at,
        });
    }
    Ok(out)
}
