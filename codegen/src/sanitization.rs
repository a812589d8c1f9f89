//! Rust names for schema names: every identifier the generated code takes from a schema is
//! made here, so that keywords, prelude names and the generated code's own names are avoided
//! in one place.

use proc_macro2::{Ident, Span};

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

/// A type or variant identifier from a snake_case schema name.
pub fn type_ident(snake: &str) -> Ident {
    Ident::new(&pascal(snake), Span::call_site())
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

/// The Rust variant of an enum value (see [`variant_name`]).
pub fn variant_ident(variant: &crate::model::EnumVariant) -> Ident {
    Ident::new(&variant.rust_name, Span::call_site())
}

/// The Rust name of a user type's struct.
pub fn struct_ident(def: &crate::model::TypeDef) -> Ident {
    type_ident(&def.rust_name)
}

/// The Rust name of an enum.
pub fn enum_ident(def: &crate::model::EnumDef) -> Ident {
    type_ident(&def.rust_name)
}

/// The local variable or parameter that holds field or parameter `snake` in readers and
/// writers: the name with `_` appended. Every name the generated code introduces itself (`r`,
/// `w`, `item`, `index`, `value`, `b`, …) ends otherwise, so a field may be called any of them.
pub fn local_ident(snake: &str) -> Ident {
    Ident::new(&format!("{snake}_"), Span::call_site())
}

/// Where the bytes a checksum field covers start, while its type is written.
pub fn checksum_start_ident(field: &str) -> Ident {
    Ident::new(&format!("_{field}_covers_from"), Span::call_site())
}

/// The value a checksum field is written as (stored, or recomputed).
pub fn checksum_written_ident(field: &str) -> Ident {
    Ident::new(&format!("_{field}_written"), Span::call_site())
}

/// The value the offset `field` of a relocatable block is written as (see `rt::relocation`).
pub fn offset_written_ident(field: &str) -> Ident {
    Ident::new(&format!("_{field}_placed"), Span::call_site())
}

/// The reader of a type's own stream while a value is read by position in another (`io:`).
pub fn own_reader_ident() -> Ident {
    Ident::new("_own_r", Span::call_site())
}

/// The local of a reader that holds look-ahead instance `snake` once it is evaluated.
pub fn look_ahead_cell_ident(snake: &str) -> Ident {
    local_ident(&format!("_ahead_{snake}"))
}

/// The implicit parameter that passes a chosen byte order down (see [`is_be_ident`]).
pub const IS_BE: &str = "_is_be";

/// The local of readers and writers that holds a chosen byte order
/// ([`crate::model::ByteOrder::Chosen`]): a parameter, or computed by the type that chooses.
pub fn is_be_ident() -> Ident {
    local_ident(IS_BE)
}

/// Methods every generated type has: an instance with one of these names gets `_value`
/// appended to its method's name.
const GENERATED_METHODS: [&str; 12] = [
    "read",
    "read_from",
    "read_with",
    "write_to",
    "to_bytes",
    "encoded_len",
    "check",
    "check_into",
    "normalize",
    "decode",
    "encode",
    "len",
];

/// The method that computes value instance `snake`.
pub fn instance_ident(snake: &str) -> Ident {
    if GENERATED_METHODS.contains(&snake) {
        field_ident(&format!("{snake}_value"))
    } else {
        field_ident(snake)
    }
}

/// A field, parameter or method identifier; Rust keywords become raw identifiers.
pub fn field_ident(snake: &str) -> Ident {
    // Strict and reserved keywords of edition 2024.
    const KEYWORDS: [&str; 50] = [
        "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum",
        "extern", "false", "fn", "for", "if", "impl", "in", "let", "loop", "match", "mod", "move",
        "mut", "pub", "ref", "return", "static", "struct", "super", "trait", "true", "type",
        "unsafe", "use", "where", "while", "yield", "gen", "abstract", "become", "box", "do",
        "final", "macro", "override", "priv", "typeof", "unsized", "virtual", "try",
    ];
    if matches!(snake, "self" | "Self" | "crate" | "super") {
        Ident::new(&format!("{snake}_"), Span::call_site())
    } else if KEYWORDS.contains(&snake) {
        Ident::new_raw(snake, Span::call_site())
    } else {
        Ident::new(snake, Span::call_site())
    }
}

/// The key of a field in documents: its Rust name without the `r#` of a keyword, as serde
/// spells it.
pub fn document_key(snake: &str) -> String {
    field_ident(snake)
        .to_string()
        .trim_start_matches("r#")
        .to_owned()
}

/// A module of a processor's path (`a.b.my_fx` is `a::b::MyFx`): `self`, `super` and
/// `crate` keep their meaning as path roots (they cannot be raw identifiers); any other name is
/// raw, so that a keyword names a module too.
pub fn module_ident(snake: &str) -> Ident {
    match snake {
        "self" | "super" | "crate" => Ident::new(snake, Span::call_site()),
        _ => Ident::new_raw(snake, Span::call_site()),
    }
}

/// `KeySectionFrames` for field `frames` of type `key_section` (`…Switch` when a type or enum
/// already has that name).
pub fn switch_enum_ident(
    schema: &crate::model::Schema,
    owner: usize,
    field: &crate::model::Field,
) -> Ident {
    let name = format!("{}_{}", schema.types[owner].rust_name, field.id);
    let ident = type_ident(&name);
    // `holder.b` and a type `holder_b` would both be `HolderB`: the switch gives way.
    let taken = schema
        .types
        .iter()
        .map(struct_ident)
        .chain(schema.enums.iter().map(enum_ident));
    if taken.into_iter().any(|t| t == ident) {
        type_ident(&format!("{name}_switch"))
    } else {
        ident
    }
}

/// The Rust variant of a switch's case named `name` in documents (see
/// `model::cases::Variant`): its CamelCase form, but for a type named `self`, whose CamelCase
/// form is a keyword.
pub fn case_ident(name: &str) -> Ident {
    match type_ident(name) {
        ident if ident == "Self" => Ident::new("SelfValue", Span::call_site()),
        ident => ident,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn converts_names() {
        assert_eq!(pascal("anp3_object"), "Anp3Object");
        assert_eq!(pascal("kr00"), "Kr00");
        assert_eq!(field_ident("type").to_string(), "r#type");
        assert_eq!(field_ident("frames").to_string(), "frames");
        assert_eq!(item_name("vec".into()), "vec_type");
        assert_eq!(item_name("vector".into()), "vector");
        assert_eq!(variant_name("unknown"), "UnknownValue");
        assert_eq!(variant_name("self"), "SelfValue");
        assert_eq!(module_ident("self").to_string(), "self");
        assert_eq!(module_ident("loop").to_string(), "r#loop");
    }
}
