//! Rust names for schema names.

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

/// The Rust name of a user type's struct.
pub fn struct_ident(def: &crate::model::TypeDef) -> Ident {
    type_ident(&def.rust_name)
}

/// The Rust name of an enum.
pub fn enum_ident(def: &crate::model::EnumDef) -> Ident {
    type_ident(&def.rust_name)
}

/// A field, parameter or method identifier; Rust keywords become raw identifiers.
pub fn field_ident(snake: &str) -> Ident {
    const KEYWORDS: [&str; 38] = [
        "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum",
        "extern", "false", "fn", "for", "if", "impl", "in", "let", "loop", "match", "mod", "move",
        "mut", "pub", "ref", "return", "static", "struct", "super", "trait", "true", "type",
        "unsafe", "use", "where", "while", "yield", "gen",
    ];
    if matches!(snake, "self" | "Self" | "crate" | "super") {
        Ident::new(&format!("{snake}_"), Span::call_site())
    } else if KEYWORDS.contains(&snake) {
        Ident::new_raw(snake, Span::call_site())
    } else {
        Ident::new(snake, Span::call_site())
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
    }
}
