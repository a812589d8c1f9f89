//! Structural mutations of a schema document: each picks a site and changes the schema the way
//! a user's mistake, an unusual but valid schema, or a name that collides with generated code
//! would.

use serde_yaml::{Mapping, Number, Value};

use crate::rng::Rng;
use crate::sites::{NodePath, Sites, Step, child, mapping_mut, node_mut};

/// Names Kaitai accepts as ids that are Rust keywords, prelude items, or names the generated
/// code and the runtime use.
const COLLIDING_NAMES: &[&str] = &[
    "as",
    "async",
    "await",
    "box",
    "break",
    "const",
    "continue",
    "crate",
    "do",
    "dyn",
    "else",
    "enum",
    "extern",
    "false",
    "final",
    "fn",
    "for",
    "gen",
    "if",
    "impl",
    "in",
    "let",
    "loop",
    "macro",
    "match",
    "mod",
    "move",
    "mut",
    "override",
    "priv",
    "pub",
    "ref",
    "return",
    "self",
    "static",
    "struct",
    "super",
    "trait",
    "true",
    "try",
    "type",
    "typeof",
    "union",
    "unsafe",
    "unsized",
    "use",
    "virtual",
    "where",
    "while",
    "yield",
    "abstract",
    "become",
    "option",
    "result",
    "vec",
    "string",
    "some",
    "none",
    "ok",
    "err",
    "default",
    "clone",
    "debug",
    "read",
    "write",
    "check",
    "normalize",
    "to_bytes",
    "from_bytes",
    "reader",
    "writer",
    "value",
    "len",
    "size",
    "data",
    "io",
    "root",
    "parent",
    "index",
    "item",
    "bytes",
    "u1",
    "s2",
    "f4",
    "str",
    "bool",
    "u8",
    "i32",
    "usize",
    "core",
    "std",
    "alloc",
    "serde",
    "rt",
    "decoded",
    "raw",
    "from_raw",
    "trailing",
    "unread",
    "e",
    "x",
    "v",
    "w",
    "r",
    "depth",
    "path",
    "error",
    "codec",
    "stream",
    "sizes",
    "kept",
    "_",
    "a",
    "b1",
];

/// Types a `type` may be swapped for.
const BUILTIN_TYPES: &[&str] = &[
    "u1", "u2", "u4", "u8", "s1", "s2le", "s4be", "s8", "u2le", "u4be", "f4", "f8le", "f4be",
    "str", "strz", "b1", "b3", "b12", "b32", "b64", "b7le", "bytes",
];

/// Expressions an expression may be replaced by.
const LITERALS: &[&str] = &[
    "0",
    "1",
    "-1",
    "255",
    "true",
    "false",
    "'a'",
    "\"\"",
    "[]",
    "[1, 2]",
    "[0x41, 0x42]",
    "1.5",
    "_io.size",
    "_io.pos",
    "_io.eof",
    "_io.size - _io.pos",
    "_parent",
    "_root",
    "_root._io",
    "_parent._io",
    "_parent._parent",
    "_index",
    "_",
    "_sizeof",
    "_root._sizeof",
    "_io",
    "9223372036854775807",
    "9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "-9223372036854775808",
    "1 / 0",
    "7 % -3",
    "1 << 70",
    "(1 + 2) * 3",
    "'ab'.length",
    "'12'.to_i",
    "[1, 2, 3].size",
    "sizeof<u4>",
    "true ? 1 : 'x'",
    "not 1",
    "3.5.to_i",
    "1 == 1.0",
    "'x' + 1",
];

/// Templates over a name of the schema (`@`): references in every position and with every
/// method.
const NAME_TEMPLATES: &[&str] = &[
    "@",
    "@.size",
    "@[0]",
    "@[-1]",
    "@.length",
    "@.to_s",
    "@.to_i",
    "@._io.size",
    "@._io.pos",
    "@._sizeof",
    "_parent.@",
    "_root.@",
    "_parent._parent.@",
    "@ + 1",
    "-@",
    "@ ? 1 : 2",
    "@.as<u1>",
    "@ == 0",
    "@ == 'a'",
    "not @",
    "@.first",
    "@.last",
    "@.min",
    "@.max",
    "@.reverse",
    "@.substring(0, 1)",
    "@.to_i(16)",
    "@ and true",
    "[@, 1]",
    "@ < 2 ? @ : 'x'",
    "@.length.to_s",
    "@ << 63",
    "@ / 0",
    "@.@",
    "@[_index]",
    "_.@",
    "@.to_s('ASCII')",
    "@ != @",
];

/// One mutation of a document, described for the report.
pub fn mutate(doc: &mut Value, rng: &mut Rng) -> String {
    let sites = Sites::of(doc);
    // A kind is tried again with another when its document has no site for it.
    for _ in 0..16 {
        let applied = match rng.below(14) {
            0 => rename(doc, &sites, rng),
            1 | 2 => swap_type(doc, &sites, rng),
            3..=5 => replace_expression(doc, &sites, rng),
            6 => empty_collection(doc, &sites, rng),
            7 => out_of_range(doc, &sites, rng),
            8 | 9 => add_key(doc, &sites, rng),
            10 => remove_key(doc, &sites, rng),
            11 => wrap_in_switch(doc, &sites, rng),
            12 => move_or_copy_seq_item(doc, &sites, rng),
            _ => byte_order_or_encoding(doc, rng),
        };
        if let Some(description) = applied {
            return description;
        }
    }
    "no site found".to_owned()
}

/// Renames an id, a type or an enum (and each whole-word use of it) to a colliding name.
fn rename(doc: &mut Value, sites: &Sites, rng: &mut Rng) -> Option<String> {
    let mut names: Vec<&str> = sites.ids.iter().map(String::as_str).collect();
    names.extend(sites.type_names.iter().map(String::as_str));
    for (name, values) in &sites.enums {
        names.push(name);
        names.extend(values.iter().map(String::as_str));
    }
    if let Some(id) = doc
        .get("meta")
        .and_then(|m| m.get("id"))
        .and_then(Value::as_str)
    {
        names.push(id);
    }
    let old = (*rng.pick(&names)?).to_owned();
    let new = *rng.pick(COLLIDING_NAMES)?;
    rename_words(doc, &old, new);
    Some(format!("rename `{old}` to `{new}`"))
}

fn rename_words(value: &mut Value, old: &str, new: &str) {
    match value {
        Value::String(s) => *s = replace_word(s, old, new),
        Value::Sequence(items) => items.iter_mut().for_each(|v| rename_words(v, old, new)),
        Value::Mapping(map) => {
            let entries = std::mem::take(map);
            for (mut k, mut v) in entries {
                rename_words(&mut k, old, new);
                rename_words(&mut v, old, new);
                map.insert(k, v);
            }
        }
        _ => {}
    }
}

/// `text` with every whole word `old` replaced by `new`.
fn replace_word(text: &str, old: &str, new: &str) -> String {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(old) {
        let before = rest[..at].chars().next_back();
        let after = rest[at + old.len()..].chars().next();
        out.push_str(&rest[..at]);
        let whole = !before.is_some_and(word) && !after.is_some_and(word);
        out.push_str(if whole { new } else { old });
        rest = &rest[at + old.len()..];
    }
    out.push_str(rest);
    out
}

fn swap_type(doc: &mut Value, sites: &Sites, rng: &mut Rng) -> Option<String> {
    let at = rng.pick(&sites.types)?.clone();
    let new = match rng.below(4) {
        0 => rng.pick(&sites.type_names)?.clone(),
        1 => format!("{}(1, 'x')", rng.pick(&sites.type_names)?),
        _ => (*rng.pick(BUILTIN_TYPES)?).to_owned(),
    };
    *node_mut(doc, &at)? = Value::String(new.clone());
    Some(format!("type at {} to `{new}`", show(&at)))
}

/// An expression built from a literal or from a name of the schema.
fn expression(sites: &Sites, rng: &mut Rng) -> String {
    let name = match rng.below(3) {
        0 => rng.pick(&sites.type_names).cloned(),
        1 => sites
            .enums
            .get(rng.below(sites.enums.len().max(1)))
            .and_then(|(e, values)| Some(format!("{e}::{}", values.first()?))),
        _ => rng.pick(&sites.ids).cloned(),
    };
    match name {
        Some(name) if rng.below(3) > 0 => rng
            .pick(NAME_TEMPLATES)
            .map_or(name.clone(), |t| t.replace('@', &name)),
        _ => rng.pick(LITERALS).copied().unwrap_or("0").to_owned(),
    }
}

fn replace_expression(doc: &mut Value, sites: &Sites, rng: &mut Rng) -> Option<String> {
    let at = rng.pick(&sites.exprs)?.clone();
    let new = expression(sites, rng);
    *node_mut(doc, &at)? = Value::String(new.clone());
    Some(format!("expression at {} to `{new}`", show(&at)))
}

fn empty_collection(doc: &mut Value, sites: &Sites, rng: &mut Rng) -> Option<String> {
    let at = rng.pick(&sites.collections)?.clone();
    let node = node_mut(doc, &at)?;
    *node = match node {
        Value::Sequence(_) => Value::Sequence(Vec::new()),
        _ => Value::Mapping(Mapping::new()),
    };
    Some(format!("empty {}", show(&at)))
}

fn out_of_range(doc: &mut Value, sites: &Sites, rng: &mut Rng) -> Option<String> {
    let at = rng.pick(&sites.exprs)?.clone();
    let numbers = [
        Value::Number(Number::from(-1i64)),
        Value::Number(Number::from(256u64)),
        Value::Number(Number::from(65536u64)),
        Value::Number(Number::from(1u64 << 31)),
        Value::Number(Number::from(1u64 << 32)),
        Value::Number(Number::from(i64::MAX as u64)),
        Value::Number(Number::from(1u64 << 63)),
        Value::Number(Number::from(u64::MAX)),
        Value::Number(Number::from(i64::MIN)),
        Value::Number(Number::from(1e300f64)),
        Value::Number(Number::from(0u64)),
    ];
    let new = rng.pick(&numbers)?.clone();
    let shown = serde_yaml::to_string(&new).unwrap_or_default();
    *node_mut(doc, &at)? = new;
    Some(format!("number at {} to {}", show(&at), shown.trim()))
}

/// Keys an attribute may gain, with their values (`@` an expression of the schema, `%` a type,
/// `&` an enum).
const ADDED_KEYS: &[(&str, &str)] = &[
    ("repeat", "eos"),
    ("repeat", "expr"),
    ("repeat", "until"),
    ("repeat-expr", "@"),
    ("repeat-until", "@"),
    ("if", "@"),
    ("size", "@"),
    ("size-eos", "true"),
    ("pos", "@"),
    ("io", "@"),
    ("value", "@"),
    ("process", "zlib"),
    ("process", "xor(@)"),
    ("process", "rol(3)"),
    ("process", "ror(@)"),
    ("encoding", "UTF-16LE"),
    ("encoding", "ASCII"),
    ("encoding", "SJIS"),
    ("encoding", "bogus"),
    ("terminator", "0"),
    ("terminator", "300"),
    ("consume", "false"),
    ("include", "true"),
    ("eos-error", "false"),
    ("pad-right", "0"),
    ("pad-right", "64"),
    ("contents", "[1, 2]"),
    ("contents", "abc"),
    ("valid", "@"),
    ("valid/min", "@"),
    ("valid/max", "@"),
    ("valid/any-of", "[1, 2]"),
    ("valid/expr", "@"),
    ("type", "%"),
    ("type", "str"),
    ("type", "strz"),
    ("parent", "_root"),
    ("parent", "_parent"),
    ("parent", "false"),
    ("enum", "&"),
    ("id", "x"),
];

fn add_key(doc: &mut Value, sites: &Sites, rng: &mut Rng) -> Option<String> {
    let at = rng.pick(&sites.attrs)?.clone();
    let (name, template) = *rng.pick(ADDED_KEYS)?;
    let text = match template {
        "@" => expression(sites, rng),
        "%" => rng.pick(&sites.type_names)?.clone(),
        "&" => rng.pick(&sites.enums)?.0.clone(),
        t if t.contains('@') => t.replace('@', &expression(sites, rng)),
        t => t.to_owned(),
    };
    // A YAML scalar (numbers, booleans, lists stay what they are written as).
    let value: Value = serde_yaml::from_str(&text).unwrap_or(Value::String(text.clone()));
    let map = mapping_mut(doc, &at)?;
    match name.split_once('/') {
        Some((outer, inner)) => {
            let mut valid = Mapping::new();
            valid.insert(Value::String(inner.to_owned()), value);
            map.insert(Value::String(outer.to_owned()), Value::Mapping(valid));
        }
        None => {
            map.insert(Value::String(name.to_owned()), value);
        }
    }
    Some(format!("{} gets {name}: {text}", show(&at)))
}

fn remove_key(doc: &mut Value, sites: &Sites, rng: &mut Rng) -> Option<String> {
    let at = rng.pick(&sites.attrs)?.clone();
    let map = mapping_mut(doc, &at)?;
    let keys: Vec<Value> = map.keys().cloned().collect();
    let removed = rng.pick(&keys)?.clone();
    map.remove(&removed);
    Some(format!(
        "{} loses {}",
        show(&at),
        removed.as_str().unwrap_or("?")
    ))
}

fn wrap_in_switch(doc: &mut Value, sites: &Sites, rng: &mut Rng) -> Option<String> {
    let at = rng.pick(&sites.types)?.clone();
    let original = node_mut(doc, &at)?.clone();
    let selector = expression(sites, rng);
    let keys: [Value; 3] = match rng.below(4) {
        0 => [1.into(), 2.into(), "_".into()],
        1 => ["'a'".into(), "'b'".into(), "_".into()],
        2 => ["true".into(), "false".into(), "_".into()],
        _ => {
            let (name, values) = rng.pick(&sites.enums)?;
            let value = values.first()?;
            [format!("{name}::{value}").into(), "0".into(), "_".into()]
        }
    };
    let mut cases = Mapping::new();
    let mut types = [original, "u1".into(), "bytes".into()].into_iter();
    for k in keys {
        cases.insert(k, types.next()?);
    }
    let mut switch = Mapping::new();
    switch.insert("switch-on".into(), Value::String(selector.clone()));
    switch.insert("cases".into(), Value::Mapping(cases));
    *node_mut(doc, &at)? = Value::Mapping(switch);
    Some(format!("type at {} switched on `{selector}`", show(&at)))
}

/// Moves a `seq` item into its type's instances (read by position), or duplicates it.
fn move_or_copy_seq_item(doc: &mut Value, sites: &Sites, rng: &mut Rng) -> Option<String> {
    let at = rng.pick(&sites.seq_items)?.clone();
    let (Step::Index(i), seq_at) = (at.last()?.clone(), &at[..at.len() - 1]) else {
        return None;
    };
    let seq = node_mut(doc, seq_at)?.as_sequence_mut()?;
    if rng.below(2) == 0 {
        let copy = seq.get(i)?.clone();
        seq.insert(i + 1, copy);
        return Some(format!("{} duplicated", show(&at)));
    }
    // An earlier mutation of the same mutant may have shortened the sequence.
    let mut item = (i < seq.len()).then(|| seq.remove(i))?;
    let map = item.as_mapping_mut()?;
    let id = map.remove("id")?.as_str()?.to_owned();
    map.insert("pos".into(), Value::from(rng.below(4) as u64));
    let spec_at = &seq_at[..seq_at.len() - 1];
    let spec = mapping_mut(doc, spec_at)?;
    let instances = spec
        .entry("instances".into())
        .or_insert_with(|| Value::Mapping(Mapping::new()))
        .as_mapping_mut()?;
    instances.insert(Value::String(id.clone()), item);
    Some(format!("{} moved to instance `{id}`", show(&at)))
}

fn byte_order_or_encoding(doc: &mut Value, rng: &mut Rng) -> Option<String> {
    let meta = mapping_mut(doc, &child(&Vec::new(), "meta"))?;
    let (name, value): (&str, Value) = match rng.below(6) {
        0 => ("endian", "le".into()),
        1 => ("endian", "be".into()),
        2 => ("bit-endian", "le".into()),
        3 => ("encoding", "UTF-16BE".into()),
        4 => ("endian", "middle".into()),
        _ => {
            let mut cases = Mapping::new();
            cases.insert(1.into(), "le".into());
            cases.insert("_".into(), "be".into());
            let mut switch = Mapping::new();
            switch.insert("switch-on".into(), "_io.size".into());
            switch.insert("cases".into(), Value::Mapping(cases));
            ("endian", Value::Mapping(switch))
        }
    };
    if rng.below(5) == 0 {
        meta.remove(name);
        return Some(format!("meta loses {name}"));
    }
    meta.insert(name.into(), value);
    Some(format!("meta {name} changed"))
}

/// A path as the checker's messages spell it (`types.foo.seq[1].type`).
fn show(path: &NodePath) -> String {
    let mut out = String::new();
    for step in path {
        match step {
            Step::Key(k) => {
                if !out.is_empty() {
                    out.push('.');
                }
                let text = serde_yaml::to_string(k).unwrap_or_default();
                out.push_str(text.trim());
            }
            Step::Index(i) => out.push_str(&format!("[{i}]")),
        }
    }
    out
}
