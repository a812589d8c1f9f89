//! Reads files with a Kaitai Struct schema given at run time.
//!
//! The interpreter reads the schema's checked model, the same the generator renders, with the
//! runtime's own readers, and its documents are the generated codec's for the same schema and
//! file (tested against each other). It reads everything the generator supports; custom
//! processors (`process: my_fx(key)`, Rust types of the crate that expands a codec) are given
//! by the caller, by name ([`Interpreter::with_processor`]).

mod choice;
mod computed;
mod debug;
mod derived;
mod document;
mod eval;
mod gaps;
mod intern;
mod layout;
mod map;
mod packed;
mod plan;
mod process;
mod read;
mod root_args;
mod serialize;
mod settle;
mod streams;
mod support;
mod sync;
mod tree;
mod unstated;
mod value;
mod write;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use skelcodec_codegen::{CheckedSchema, Overlay, Schema, SchemaError};
use skelcodec_runtime as rt;

pub use crate::computed::Computed;
pub use crate::document::DocumentError;
pub use crate::gaps::UNCLAIMED;
pub use crate::map::{BitRange, FieldSpan};
pub use crate::process::ProcessArg;
pub use crate::root_args::ArgumentError;
pub use crate::serialize::Document;
pub use crate::streams::Stream;
pub use crate::unstated::UnstatedChecksum;
pub use crate::value::{Int, Packed, Struct, Value};

/// A checked schema ready to read files.
#[derive(Debug)]
pub struct Interpreter {
    schema: Schema,
    /// What reading asks of the schema, resolved once.
    plan: plan::Plan,
    /// The arguments of the root type's parameters, given or defaults.
    root_args: root_args::RootArgs,
    /// The custom processors the caller gave.
    processors: Arc<process::Registry>,
}

/// A file read and mapped (see [`Interpreter::explain`]).
#[derive(Debug)]
pub struct Explained {
    /// Every field, element and case read, in document order (a value before its parts);
    /// when the read succeeds, also a row for each run of the file's bytes that none of them
    /// covers (path [`UNCLAIMED`], its first bytes as its value), before the first field
    /// after it. A failed read has none: what it did not reach is not known to be unclaimed.
    pub spans: Vec<FieldSpan>,
    /// The document of what was read: the whole value, or as much as was read before the
    /// error.
    pub tree: Option<serde_json::Value>,
    /// Why the read failed, when it did.
    pub error: Option<rt::Error>,
}

/// Why a schema cannot be interpreted.
#[derive(Debug)]
pub enum LoadError {
    /// The schema does not check.
    Schema(SchemaError),
    /// It uses custom processors that were not registered, and its caller has none to give
    /// (see [`Interpreter::require_processors`]): each use, with where it is.
    Unsupported(Vec<String>),
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoadError::Schema(e) => e.fmt(f),
            LoadError::Unsupported(uses) => {
                write!(
                    f,
                    "custom processors are given by the program that runs the interpreter, and none was given for these:"
                )?;
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

    /// [`Interpreter::load`], with overlays merged into the schema and its imports (each into
    /// the schema whose `meta/id` it names): skelcodec's keys (`-derived: crc32(…)`) added to a
    /// schema used as published.
    pub fn load_overlaid(
        path: &Path,
        import_paths: &[PathBuf],
        overlays: &[Overlay],
    ) -> Result<Self, LoadError> {
        let schema = skelcodec_codegen::load_schema_overlaid(path, import_paths, overlays)
            .map_err(LoadError::Schema)?;
        Self::new(schema)
    }

    /// Checks the schema whose text is `source`, as if read from `file` (which errors name,
    /// and relative imports are found beside): a schema built into a program.
    pub fn from_source(source: &str, file: &Path) -> Result<Self, LoadError> {
        let schema = skelcodec_codegen::parse_schema(source, file).map_err(LoadError::Schema)?;
        Self::new(schema)
    }

    /// The interpreter of a checked schema. A schema that names custom processors is not
    /// refused: they are registered with [`Interpreter::with_processor`], and reading a field
    /// that needs one not registered fails there, naming it.
    pub fn new(schema: CheckedSchema) -> Result<Self, LoadError> {
        let schema = schema.into_schema();
        let plan = plan::Plan::of(&schema);
        let root_args = root_args::RootArgs::defaults(&schema, &plan.keys());
        Ok(Interpreter {
            schema,
            plan,
            root_args,
            processors: Arc::default(),
        })
    }

    /// This interpreter with the custom processor `name` (as the schema writes it: `my_fx`,
    /// `a.b.my_fx`) built by `factory` wherever a field needs it (reading, writing and
    /// measuring), as generated code calls the processor's `new`: from the field's arguments,
    /// evaluated in its scope ([`ProcessArg`]s). A factory refuses arguments it cannot take
    /// with why; reading the field then fails, naming the processor, the field and the offset.
    /// The factory is shared as the interpreter is: between threads, and across
    /// `catch_unwind`.
    pub fn with_processor<F>(mut self, name: &str, factory: F) -> Self
    where
        F: Fn(&[ProcessArg]) -> Result<Box<dyn rt::process::Process>, String>
            + Send
            + Sync
            + std::panic::RefUnwindSafe
            + 'static,
    {
        Arc::make_mut(&mut self.processors).insert(name, Arc::new(factory));
        self
    }

    /// This interpreter, or [`LoadError::Unsupported`] naming every use of a custom processor
    /// not registered, with where it is in the schema (in the types a file of the root type can
    /// hold): for a caller that has no processors to give (the command line), a refusal
    /// before any file is read rather than when a file reaches such a field.
    pub fn require_processors(self) -> Result<Self, LoadError> {
        match support::unregistered(&self.schema, &self.processors) {
            uses if uses.is_empty() => Ok(self),
            uses => Err(LoadError::Unsupported(uses)),
        }
    }

    /// This interpreter with the root type's parameter `name` given the value `text`, for every
    /// file it reads and writes, as the generated code's `read_with` takes it; a parameter not
    /// given has its `-default`, and a read that needs one with neither fails, naming it.
    /// `text` is an integer in decimal or `0x` hexadecimal (within the parameter's type),
    /// `true` or `false`, an enum value's name or number, a string's text, bytes as
    /// hexadecimal digits (`cafe01`), or integers separated by commas; a parameter of a
    /// structure or a stream cannot be given.
    pub fn with_argument(mut self, name: &str, text: &str) -> Result<Self, ArgumentError> {
        self.root_args.give(&self.schema, name, text)?;
        Ok(self)
    }

    /// The arguments of the root type's parameters, or an error naming one that has none.
    fn root_args(&self) -> rt::Result<Vec<value::Val>> {
        (self.root_args.values(&self.schema))
            .map_err(|message| rt::Error::new(0, rt::ErrorKind::Invalid(message)))
    }

    /// The schema.
    pub fn schema(&self) -> &Schema {
        &self.schema
    }

    /// The schema files the schema imports, transitively, each once, as they were found: with
    /// the schema's own file, what its reading depends on (`explain --watch` reads again when
    /// one changes).
    pub fn imported(&self) -> &[PathBuf] {
        &self.schema.imported
    }

    /// Reads a whole file as the schema's root type. Reading recurses once per nested value
    /// (values of a recursive type at most [`rt::reader::MAX_DEPTH`] deep): the deepest files
    /// take more than a 2 MiB thread's stack in an unoptimised build.
    pub fn read(&self, bytes: &[u8]) -> rt::Result<Value> {
        let _processors = self.processors.in_use();
        let cx = read::Ctx::new(&self.schema, &self.plan, bytes);
        let value = read::read_file(&cx, self.root_args()?)?;
        self.keep_unclaimed(&value, bytes)?;
        Ok(value)
    }

    /// The expressions of the read path that are evaluated as written rather than through a
    /// tree resolved once (see `tree`), each with its place and why: for tests and profiling.
    #[doc(hidden)]
    pub fn unresolved_expressions(&self) -> &[String] {
        &self.plan.trees.unresolved
    }

    /// How many evaluations of the read path's expressions went through their trees, and how
    /// many were evaluated as written, since the interpreter was made (counted in builds with
    /// debug assertions only).
    #[doc(hidden)]
    pub fn expression_counts(&self) -> (u64, u64) {
        self.plan.trees.counts()
    }

    /// Keeps in a root value read from `bytes` the bytes no field claims, when some type
    /// reads a value by position: those the value does not write where it was read.
    fn keep_unclaimed(&self, value: &Value, bytes: &[u8]) -> rt::Result<()> {
        if let Value::Struct(root) = value
            && self.plan.types[root.ty].keeps_unclaimed
        {
            let covered = write::coverage(&self.schema, value)?;
            root.unclaimed
                .replace(Some(rt::__private::fields::unclaimed(
                    &rt::Reader::new(bytes),
                    &covered,
                )));
        }
        Ok(())
    }

    /// Reads a whole file as [`Interpreter::read`] does, and maps it: every field, element
    /// and case read, with its byte range, path, type and value. A read that fails is mapped
    /// up to the failure, and its tree shows what was read by then.
    pub fn explain(&self, bytes: &[u8]) -> Explained {
        let _processors = self.processors.in_use();
        let cx = read::Ctx::mapping(&self.schema, &self.plan, bytes);
        let read = (self.root_args())
            .and_then(|args| read::read_file(&cx, args))
            .and_then(|value| self.keep_unclaimed(&value, bytes).map(|()| value));
        let map = cx
            .map
            .map(std::cell::RefCell::into_inner)
            .unwrap_or_default();
        let tree = match (&read, &map.root) {
            (Ok(value), _) => serde_json::to_value(self.document(value)).ok(),
            (Err(_), Some(root)) => {
                serde_json::to_value(self.document(&Value::Struct(root.clone()))).ok()
            }
            (Err(_), None) => None,
        };
        let spans = match read.is_ok() {
            true => gaps::with_unclaimed(map.into_spans(), bytes),
            false => map.into_spans(),
        };
        Explained {
            spans,
            tree,
            error: read.err(),
        }
    }

    /// What `expression` (Kaitai's expression language) computes on the root value `value`
    /// read from `file`, in the root type's scope: `header.num_frames * 2`, an instance's
    /// name. Fails with why when it does not parse or cannot be computed.
    pub fn evaluate(
        &self,
        value: &Value,
        file: &[u8],
        expression: &str,
    ) -> Result<Computed, String> {
        let _processors = self.processors.in_use();
        computed::evaluate(&self.schema, value, file, expression)
    }

    /// The value a document holds (the `value` of what `decode` prints): what the generated
    /// codec's `Deserialize` accepts for the same schema, as the same value.
    /// The root keeps the arguments of its parameters, which writing it needs.
    pub fn value_of(&self, document: &serde_json::Value) -> Result<Value, DocumentError> {
        let _processors = self.processors.in_use();
        let value = document::value_of(&self.schema, &self.plan.keys(), document)?;
        let args = (self.root_args.values(&self.schema)).map_err(|message| DocumentError {
            path: String::new(),
            message,
        })?;
        if let Value::Struct(root) = &value {
            root.keep_params(args);
        }
        Ok(value)
    }

    /// Writes a value of the schema's root type as a file. The output is read back, and
    /// refused (naming the first field that would differ) unless it reads as `value`.
    pub fn write(&self, value: &Value) -> rt::Result<Vec<u8>> {
        let _processors = self.processors.in_use();
        let bytes = write::write_file(&self.schema, value)?;
        match self.read(&bytes) {
            Ok(back) if back == *value => Ok(bytes),
            back => {
                let document =
                    |value: &Value| serde_json::to_value(self.document(value)).unwrap_or_default();
                rt::reads_back_as(
                    &document(value),
                    back.as_ref().map(document).map_err(Clone::clone),
                )
                .map(|()| bytes)
            }
        }
    }

    /// The derived fields of `value` (sizes and counts, declared with `-derived` or inferred
    /// from their use), here and below, whose stored value disagrees with the content.
    pub fn check(&self, value: &Value) -> rt::Result<Vec<rt::Mismatch>> {
        let _processors = self.processors.in_use();
        let mut found = derived::check(&self.schema, &self.plan, value)?;
        found.extend(sync::values_at_end(self, value, false)?);
        found.extend(self.checksum_mismatches(value));
        let settled = settle::mismatches(self, value, &found);
        found.extend(settled);
        Ok(found)
    }

    /// The checksums the schema does not derive that are stale in `bytes`: a 4-byte field
    /// named like a checksum whose value is the CRC-32 of bytes near it on some of its
    /// occurrences, and not on these (see [`UnstatedChecksum`]). Nothing for a file that does
    /// not read.
    pub fn unstated_checksums(&self, bytes: &[u8]) -> Vec<UnstatedChecksum> {
        // Mapping a file costs a second read: only for a schema with such a field.
        let named = |def: &skelcodec_codegen::model::TypeDef| {
            def.fields.iter().any(|f| unstated::is_checksum_name(&f.id))
        };
        if !self.schema.types.iter().any(named) {
            return Vec::new();
        }
        let explained = self.explain(bytes);
        match explained.error {
            Some(_) => Vec::new(),
            None => unstated::find(&explained.spans, bytes),
        }
    }

    /// Recomputes every derived field of `value` from the content, as the generated code's
    /// `normalize()` does; returns those that changed, with their stored and recomputed values,
    /// then what writing it and reading it again changed (the offsets of moved blocks, views,
    /// unclaimed bytes).
    /// Checksums cover bytes, which only the writer has: the value is written with them
    /// recomputed and read again.
    pub fn normalize(&self, value: &Value) -> rt::Result<Vec<rt::Mismatch>> {
        let _processors = self.processors.in_use();
        let mut changed = derived::normalize(&self.schema, &self.plan, value)?;
        sync::values_at_end(self, value, true)?;
        if let (true, Value::Struct(root)) = (self.schema.settles(), value) {
            changed.extend(settle::settle(self, root, value)?);
        }
        if let (true, Value::Struct(root)) = (self.schema.has_checksums(), value) {
            changed.extend(self.checksum_mismatches(value));
            let w = write::write_into(&self.schema, value, rt::Writer::recomputing_checksums())?;
            if let Value::Struct(fresh) = self.read(&w.into_bytes()?)? {
                root.take_from(&fresh);
            }
        }
        Ok(changed)
    }

    /// The checksums of `value` that disagree with the bytes they cover, named by the path of
    /// their field; none when the value cannot be written (its writer says why).
    fn checksum_mismatches(&self, value: &Value) -> Vec<rt::Mismatch> {
        if !self.schema.has_checksums() {
            return Vec::new();
        }
        match write::write_into(&self.schema, value, rt::Writer::new()) {
            Ok(w) => w.into_checksum_mismatches(|bytes, at| self.field_at(bytes, at)),
            Err(_) => Vec::new(),
        }
    }

    /// Reads `bytes`, writes the value back and compares.
    pub fn round_trip(&self, bytes: &[u8]) -> rt::Result<rt::RoundTrip> {
        let output = self.write(&self.read(bytes)?)?;
        Ok(match rt::first_difference(bytes, &output) {
            None => rt::RoundTrip::Exact,
            Some(offset) => rt::RoundTrip::Differs {
                offset,
                field: self.field_at(bytes, offset),
                input_len: bytes.len(),
                output_len: output.len(),
            },
        })
    }

    /// The path of the field that holds byte `offset` of `bytes`: reading them cut short
    /// after it fails in that field (as [`rt::field_at`] finds it for generated code).
    pub fn field_at(&self, bytes: &[u8], offset: usize) -> String {
        let cut = bytes.get(..offset + 1).unwrap_or(bytes);
        match self.read(cut) {
            Err(e) if !e.path().is_empty() => e.path(),
            _ => "(trailing bytes)".to_owned(),
        }
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
