//! Rust names for schema names: every identifier the generated code takes from a schema is
//! made here, so that keywords, prelude names and the generated code's own names are avoided
//! in one place.

use proc_macro2::{Ident, Span};

use crate::names::{self, FieldName, IS_BE};

/// A type or variant identifier from a snake_case schema name.
pub fn type_ident(snake: &str) -> Ident {
    Ident::new(&names::pascal(snake), Span::call_site())
}

/// The Rust variant of an enum value (see [`names::variant_name`]).
pub fn variant_ident(variant: &crate::model::EnumVariant) -> Ident {
    Ident::new(&variant.rust_name, Span::call_site())
}

/// The Rust name of a user type's struct.
pub fn struct_ident(def: &crate::model::TypeDef) -> Ident {
    Ident::new(&names::type_name(&def.rust_name), Span::call_site())
}

/// The Rust name of an enum.
pub fn enum_ident(def: &crate::model::EnumDef) -> Ident {
    Ident::new(&names::type_name(&def.rust_name), Span::call_site())
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

/// The local of readers and writers that holds a chosen byte order
/// ([`crate::model::ByteOrder::Chosen`]): a parameter ([`IS_BE`]), or computed by the type
/// that chooses.
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

/// A field, parameter or method identifier (see [`names::field_name`]).
pub fn field_ident(snake: &str) -> Ident {
    match names::field_name(snake) {
        FieldName::Plain(name) => Ident::new(&name, Span::call_site()),
        FieldName::Raw(name) => Ident::new_raw(&name, Span::call_site()),
    }
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

/// The Rust variant of a switch's case named `name` in documents (see [`names::case_name`]).
pub fn case_ident(name: &str) -> Ident {
    Ident::new(&names::case_name(name), Span::call_site())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn makes_identifiers() {
        assert_eq!(field_ident("type").to_string(), "r#type");
        assert_eq!(field_ident("frames").to_string(), "frames");
        assert_eq!(field_ident("self").to_string(), "self_");
        assert_eq!(module_ident("self").to_string(), "self");
        assert_eq!(module_ident("loop").to_string(), "r#loop");
        assert_eq!(case_ident("self").to_string(), "SelfValue");
    }
}
