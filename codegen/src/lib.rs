//! The skelcodec schema compiler.
//!
//! A `.ksy` schema (Kaitai Struct's YAML dialect plus a few documented extensions) goes
//! through four stages, each its own module:
//!
//! 1. [`ksy`]: deserialize the YAML as written;
//! 2. `lower`: resolve names and extensions into the checked [`model`];
//! 3. [`typeck`]: type every expression where it runs (reading, writing, inspecting);
//! 4. `emit`: produce Rust types, readers, writers, `check`/`normalize` and snapshot tests.
//!
//! Stages import only the stages before them and the shared modules below them: `lower`
//! asks [`typeck::expr`] the types of the values it passes down as implicit parameters, and
//! nothing but `emit` imports `emit`. Rust names for schema names are made in one place,
//! [`sanitization`]; how values are held in Rust, in `repr`.
//!
//! Errors are [`SchemaError`]s naming the schema file, the line and column, and the YAML path.

// The public surface: the documents as written and as lowered, the expression language,
// Rust names and how values are held (the interpreter follows both for its documents), the
// checker's expression compiler (the conformance runner compiles its asserts with it) and
// snapshot tests. The stages' internals stay private.
mod emit;
pub mod error;
pub mod expr;
mod imports;
mod keys;
pub mod ksy;
mod layout;
mod lint;
mod locate;
mod lower;
pub mod model;
pub mod names;
mod overlay;
pub mod repr;
pub mod sanitization;
pub mod typeck;

pub use crate::emit::snapshot_tests;

use std::path::{Path, PathBuf};

use proc_macro2::TokenStream;

pub use crate::error::{SchemaError, YamlPath};
pub use crate::model::Schema;
pub use crate::overlay::Overlay;

/// A schema the checker accepted, with what it decided: the typed IR the generator renders.
/// It reads as its [`Schema`].
pub struct CheckedSchema {
    schema: Schema,
    ir: typeck::ir::Ir,
}

impl std::fmt::Debug for CheckedSchema {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.schema.fmt(f)
    }
}

impl CheckedSchema {
    /// The checked model alone, without what the generator renders: what an interpreter of
    /// the schema reads.
    pub fn into_schema(self) -> Schema {
        self.schema
    }
}

impl std::ops::Deref for CheckedSchema {
    type Target = Schema;

    fn deref(&self) -> &Schema {
        &self.schema
    }
}

/// Parses, lowers and validates schema text; `file` is used in error messages and as the
/// place relative imports are found from.
pub fn parse_schema(source: &str, file: &Path) -> Result<CheckedSchema, SchemaError> {
    parse_schema_with(source, file, &[])
}

/// [`parse_schema`], with directories where absolute imports (`/common/vlq`) are looked up.
pub fn parse_schema_with(
    source: &str,
    file: &Path,
    import_paths: &[PathBuf],
) -> Result<CheckedSchema, SchemaError> {
    parse_schema_overlaid(source, file, import_paths, &[])
}

/// [`parse_schema_with`], with [`Overlay`]s merged into the schema and the schemas it imports
/// (each into the one whose `meta/id` it names) before anything else reads them. An error in
/// a key an overlay set names the overlay's file.
pub fn parse_schema_overlaid(
    source: &str,
    file: &Path,
    import_paths: &[PathBuf],
    overlays: &[Overlay],
) -> Result<CheckedSchema, SchemaError> {
    let overlays = overlay::parse_all(overlays)?;
    let sources = imports::load(source, file, import_paths, &overlays)?;
    let documents: Vec<&ksy::KsyFile> = sources.iter().map(|s| &s.document).collect();
    // Each error names the file it is in.
    let locate = |e: error::Located| {
        let source = &sources[e.path.file().min(sources.len() - 1)];
        imports::error_in(source, &e.path, e.message)
    };
    let mut schema = lower::lower(&documents).map_err(locate)?;
    // Derivations that use `_parent` or `_root` are computed by the holder or the root; each
    // one that cannot be is reported with the checker's errors.
    let misplaced = typeck::reach::place(&mut schema);
    typeck::infer::infer_derived(&mut schema);
    let checked = match (misplaced.split_first(), typeck::check(&schema)) {
        (None, checked) => checked,
        (Some((first, rest)), Ok(_)) => Err((first.clone(), rest.to_vec())),
        (Some((first, rest)), Err((checked, others))) => {
            let others = rest.iter().cloned().chain([checked]).chain(others);
            Err((first.clone(), others.collect()))
        }
    };
    let (ir, unavailable) = checked.map_err(|(first, others)| {
        // In the order of the schema's text, the schema's own file first.
        let mut all: Vec<SchemaError> = std::iter::once(first).chain(others).map(locate).collect();
        all.sort_by_key(|e| (e.file != file, e.line_col));
        let others = all.split_off(1);
        SchemaError {
            others: others.into(),
            ..all.remove(0)
        }
    })?;
    schema.imported = sources.iter().skip(1).map(|s| s.path.clone()).collect();
    schema.warnings = documents
        .iter()
        .enumerate()
        .flat_map(|(file, document)| lint::warnings(document, file))
        .chain(unavailable)
        .map(locate)
        .collect();
    Ok(CheckedSchema { schema, ir })
}

/// Reads and checks a schema file.
pub fn load_schema(path: &Path) -> Result<CheckedSchema, SchemaError> {
    load_schema_with(path, &[])
}

/// [`load_schema`], with directories where absolute imports are looked up.
pub fn load_schema_with(
    path: &Path,
    import_paths: &[PathBuf],
) -> Result<CheckedSchema, SchemaError> {
    load_schema_overlaid(path, import_paths, &[])
}

/// [`load_schema_with`], with [`Overlay`]s (see [`parse_schema_overlaid`]).
pub fn load_schema_overlaid(
    path: &Path,
    import_paths: &[PathBuf],
    overlays: &[Overlay],
) -> Result<CheckedSchema, SchemaError> {
    let source = std::fs::read_to_string(path).map_err(|e| SchemaError {
        file: path.to_path_buf(),
        line_col: None,
        path: YamlPath::root(),
        message: format!("cannot read the schema: {e}"),
        others: Box::default(),
    })?;
    parse_schema_overlaid(&source, path, import_paths, overlays)
}

/// The Rust items of a schema's codec, reaching the runtime as `::skelcodec_runtime`.
pub fn generate(schema: &CheckedSchema) -> TokenStream {
    generate_with_runtime(schema, &default_runtime_path())
}

/// The Rust items of a schema's codec, reaching the runtime by `runtime`: the `skelcodec`
/// facade passes its own re-export, so that a crate depending on it alone compiles them.
pub fn generate_with_runtime(schema: &CheckedSchema, runtime: &TokenStream) -> TokenStream {
    emit::schema_items(&schema.schema, &schema.ir, runtime)
}

/// The path generated code reaches the runtime by when none is given.
pub fn default_runtime_path() -> TokenStream {
    quote::quote!(::skelcodec_runtime)
}

/// The generated code as formatted Rust source, for review and for tests of the generator.
pub fn generate_source(schema: &CheckedSchema) -> Result<String, syn::Error> {
    let file: syn::File = syn::parse2(generate(schema))?;
    Ok(prettyplease::unparse(&file))
}
