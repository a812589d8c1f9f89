//! The skelcodec schema compiler.
//!
//! A `.ksy` schema (Kaitai Struct's YAML dialect plus a few documented extensions) goes
//! through four stages, each its own module, all callable from tests:
//!
//! 1. [`ksy`]: deserialize the YAML as written;
//! 2. [`lower`]: resolve names and extensions into the checked [`model`];
//! 3. [`validate`]: type-check every expression where it runs;
//! 4. [`emit`]: produce Rust types, readers, writers, `check`/`normalize` and snapshot tests.
//!
//! Errors are [`SchemaError`]s naming the schema file, the line and column, and the YAML path.

pub mod emit;
pub mod error;
pub mod expr;
pub mod keys;
pub mod ksy;
pub mod layout;
pub mod locate;
pub mod lower;
pub mod model;
pub mod validate;

use std::path::Path;

use proc_macro2::TokenStream;

pub use crate::error::{SchemaError, YamlPath};
pub use crate::model::Schema;

/// Parses, lowers and validates schema text; `file` is used in error messages.
pub fn parse_schema(source: &str, file: &Path) -> Result<Schema, SchemaError> {
    let document: ksy::KsyFile = serde_yaml::from_str(source).map_err(|e| SchemaError {
        file: file.to_path_buf(),
        line_col: e.location().map(|l| (l.line(), l.column())),
        path: YamlPath::root(),
        message: e.to_string(),
    })?;
    let locate = |e: error::Located| SchemaError {
        file: file.to_path_buf(),
        line_col: locate::LocationIndex::build(source).find(&e.path),
        path: e.path,
        message: e.message,
    };
    let schema = lower::lower(&document).map_err(locate)?;
    validate::validate(&schema).map_err(locate)?;
    Ok(schema)
}

/// Reads and checks a schema file.
pub fn load_schema(path: &Path) -> Result<Schema, SchemaError> {
    let source = std::fs::read_to_string(path).map_err(|e| SchemaError {
        file: path.to_path_buf(),
        line_col: None,
        path: YamlPath::root(),
        message: format!("cannot read the schema: {e}"),
    })?;
    parse_schema(&source, path)
}

/// The Rust items of a schema's codec.
pub fn generate(schema: &Schema) -> TokenStream {
    emit::schema_items(schema)
}

/// The generated code as formatted Rust source, for review and for tests of the generator.
pub fn generate_source(schema: &Schema) -> Result<String, syn::Error> {
    let file: syn::File = syn::parse2(generate(schema))?;
    Ok(prettyplease::unparse(&file))
}
