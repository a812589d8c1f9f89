//! Reads files with a Kaitai Struct schema given at run time.
//!
//! The interpreter reads the schema's checked model, the same the generator renders, with the
//! runtime's own readers, and its documents are the generated codec's for the same schema and
//! file (tested against each other). It reads a growing part of what the generator supports;
//! a schema that uses anything else is refused before any file is read, each use named.

mod debug;
mod eval;
mod process;
mod read;
mod support;
mod value;

use std::path::{Path, PathBuf};

use skelcodec_codegen::{CheckedSchema, Schema, SchemaError};
use skelcodec_runtime as rt;

pub use crate::value::{Document, Int, Struct, Value};

/// A checked schema ready to read files.
#[derive(Debug)]
pub struct Interpreter {
    schema: Schema,
}

/// Why a schema cannot be interpreted.
#[derive(Debug)]
pub enum LoadError {
    /// The schema does not check.
    Schema(SchemaError),
    /// It uses what the interpreter does not read yet: each use, with where it is.
    Unsupported(Vec<String>),
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoadError::Schema(e) => e.fmt(f),
            LoadError::Unsupported(uses) => {
                write!(f, "the interpreter does not read these yet:")?;
                for line in uses {
                    write!(f, "\n  {line}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for LoadError {}

impl Interpreter {
    /// Reads and checks the schema at `path`; absolute imports are looked up in
    /// `import_paths`.
    pub fn load(path: &Path, import_paths: &[PathBuf]) -> Result<Self, LoadError> {
        let schema =
            skelcodec_codegen::load_schema_with(path, import_paths).map_err(LoadError::Schema)?;
        Self::new(schema)
    }

    /// The interpreter of a checked schema.
    pub fn new(schema: CheckedSchema) -> Result<Self, LoadError> {
        match support::unsupported(&schema) {
            uses if uses.is_empty() => Ok(Interpreter {
                schema: schema.into_schema(),
            }),
            uses => Err(LoadError::Unsupported(uses)),
        }
    }

    /// The schema.
    pub fn schema(&self) -> &Schema {
        &self.schema
    }

    /// Reads a whole file as the schema's root type.
    pub fn read(&self, bytes: &[u8]) -> rt::Result<Value> {
        read::read_file(&read::Ctx::new(&self.schema, bytes))
    }

    /// The document of a value this interpreter read: the generated codec's for the same
    /// file.
    pub fn document<'a>(&'a self, value: &'a Value) -> Document<'a> {
        Document {
            schema: &self.schema,
            value,
        }
    }
}
