//! The names generated code and documents take from a schema, as text: what a schema name
//! becomes in Rust (types, variants, fields, which keywords avoid) and in documents. The
//! generator makes its identifiers from these (`sanitization`), the interpreter its
//! documents' keys and names, so both spell every name alike.

/// `anp3_object` → `Anp3Object`.
pub fn pascal(snake: &str) -> String {
    snake
        .split('_')
        .filter(|part| !part.is_empty())
        .map(|part| {
            let mut chars = part.chars();
            chars.next().map_or_else(String::new, |first| {
                first.to_ascii_uppercase().to_string() + chars.as_str()
            })
        })
        .collect()
}

/// Names the generated code uses unqualified (the prelude's types, traits and variants): a
/// schema type whose Rust name would shadow one of them is renamed (`vec` → `VecType`).
const RESERVED_TYPE_NAMES: [&str; 30] = [
    "Vec",
    "Option",
    "Some",
    "None",
    "Result",
    "Ok",
    "Err",
    "String",
    "Box",
    "Self",
    "Default",
    "Clone",
    "Copy",
    "Debug",
    "PartialEq",
    "Eq",
    "Hash",
    "Sized",
    "Send",
    "Sync",
    "Iterator",
    "IntoIterator",
    "Into",
    "From",
    "TryFrom",
    "TryInto",
    "AsRef",
    "ToString",
    "ToOwned",
    "Drop",
];

/// True when the CamelCase form of `snake` is a name generated code uses unqualified (`vec`).
pub fn is_reserved_type_name(snake: &str) -> bool {
    RESERVED_TYPE_NAMES.contains(&pascal(snake).as_str())
}

/// The Rust name for a schema type or enum named `snake` (already prefixed by its parents):
/// `snake` itself, or `snake_type` when its CamelCase form is one of the reserved names.
pub fn item_name(snake: String) -> String {
    if is_reserved_type_name(&snake) {
        format!("{snake}_type")
    } else {
        snake
    }
}

/// The Rust variant name of an enum value: its CamelCase name, except where that is taken by
/// the variant every enum has for values it does not name (`Unknown`), or is a keyword
/// (`Self`).
pub fn variant_name(snake: &str) -> String {
    let name = pascal(snake);
    match name.as_str() {
        "Unknown" | "Self" => format!("{name}Value"),
        _ => name,
    }
}

/// The implicit parameter that passes a chosen byte order down (the local that holds it is
/// made in `sanitization`).
pub const IS_BE: &str = "_is_be";

/// How a field, parameter or method named `snake` is spelled in Rust.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FieldName {
    /// As it is, or with `_` appended for `self`, `Self`, `crate` and `super`, which cannot be
    /// raw identifiers.
    Plain(String),
    /// A keyword, spelled raw (`r#type`).
    Raw(String),
}

/// How a field, parameter or method named `snake` is spelled in Rust: keywords are raw.
pub fn field_name(snake: &str) -> FieldName {
    // Strict and reserved keywords of edition 2024.
    const KEYWORDS: [&str; 50] = [
        "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum",
        "extern", "false", "fn", "for", "if", "impl", "in", "let", "loop", "match", "mod", "move",
        "mut", "pub", "ref", "return", "static", "struct", "super", "trait", "true", "type",
        "unsafe", "use", "where", "while", "yield", "gen", "abstract", "become", "box", "do",
        "final", "macro", "override", "priv", "typeof", "unsized", "virtual", "try",
    ];
    if matches!(snake, "self" | "Self" | "crate" | "super") {
        FieldName::Plain(format!("{snake}_"))
    } else if KEYWORDS.contains(&snake) {
        FieldName::Raw(snake.to_owned())
    } else {
        FieldName::Plain(snake.to_owned())
    }
}

/// The key of a field in documents: its Rust name without the `r#` of a keyword, as serde
/// spells it.
pub fn document_key(snake: &str) -> String {
    match field_name(snake) {
        FieldName::Plain(name) | FieldName::Raw(name) => name,
    }
}

/// The Rust name of a user type's struct, or of an enum, whose name (prefixed by its parents)
/// is `rust_name` (see [`item_name`]).
pub fn type_name(rust_name: &str) -> String {
    pascal(rust_name)
}

/// The Rust variant of a switch's case named `name` in documents (see
/// `model::cases::Variant`): its CamelCase form, but for a type named `self`, whose CamelCase
/// form is a keyword.
pub fn case_name(name: &str) -> String {
    match pascal(name) {
        name if name == "Self" => "SelfValue".to_owned(),
        name => name,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn converts_names() {
        assert_eq!(pascal("anp3_object"), "Anp3Object");
        assert_eq!(pascal("kr00"), "Kr00");
        assert_eq!(item_name("vec".into()), "vec_type");
        assert_eq!(item_name("vector".into()), "vector");
        assert_eq!(variant_name("unknown"), "UnknownValue");
        assert_eq!(variant_name("self"), "SelfValue");
        assert_eq!(field_name("type"), FieldName::Raw("type".into()));
        assert_eq!(document_key("type"), "type");
        assert_eq!(document_key("super"), "super_");
    }
}
