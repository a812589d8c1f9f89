//! A format whose schema is given at run time (`--schema`): read by the interpreter
//! (`skelcodec-dynamic`), with the documents the generated codec of that schema prints.

use std::io;

use skelcodec_dynamic::Interpreter;
use skelcodec_runtime::{Error, ErrorKind, Mismatch, RoundTrip};

use crate::registry::{SchemaSource, document_tree, write_document_of};
use crate::{DocumentError, DocumentSyntax, EncodeError, Format};

/// A schema read at run time, as a [`Format`]: it reads, writes and round-trips files and
/// encodes documents; derived fields are not checked or recomputed yet, which says so.
pub struct Interpreted {
    interpreter: Interpreter,
    /// Where the schema is, recorded in documents.
    source: SchemaSource,
    id: &'static str,
    extensions: &'static [&'static str],
}

impl Interpreted {
    /// The format of `interpreter`'s schema. Its id and extensions live as long as the
    /// process, as the built-in formats' do: a tool loads a schema once.
    pub fn new(interpreter: Interpreter, source: SchemaSource) -> Self {
        let schema = interpreter.schema();
        let id: &'static str = Box::leak(schema.id.clone().into_boxed_str());
        let extensions: Vec<&'static str> = schema
            .extensions
            .iter()
            .map(|e| &*Box::leak(e.clone().into_boxed_str()))
            .collect();
        Interpreted {
            source,
            id,
            extensions: Box::leak(extensions.into_boxed_slice()),
            interpreter,
        }
    }

    fn not_yet(&self) -> Error {
        Error::new(
            0,
            ErrorKind::Invalid(format!(
                "`{}` is read with its schema at run time, and the interpreter does not check or recompute derived fields yet",
                self.id
            )),
        )
    }
}

impl Format for Interpreted {
    fn id(&self) -> &'static str {
        self.id
    }

    fn extensions(&self) -> &'static [&'static str] {
        self.extensions
    }

    fn matches(&self, bytes: &[u8]) -> bool {
        let magic = &self.interpreter.schema().magic;
        magic.iter().any(|m| bytes.starts_with(m))
    }

    fn decode_json(&self, bytes: &[u8]) -> Result<serde_json::Value, Error> {
        let value = self.interpreter.read(bytes)?;
        document_tree(
            (self.id, Some(&self.source)),
            &self.interpreter.document(&value),
        )
    }

    fn write_document(
        &self,
        bytes: &[u8],
        syntax: DocumentSyntax,
        out: &mut dyn io::Write,
    ) -> Result<(), DocumentError> {
        let value = self.interpreter.read(bytes)?;
        let document = self.interpreter.document(&value);
        write_document_of((self.id, Some(&self.source)), &document, syntax, out)
    }

    fn encode_json(&self, value: serde_json::Value) -> Result<Vec<u8>, EncodeError> {
        let value = self
            .interpreter
            .value_of(&value)
            .map_err(|e| EncodeError::Json {
                path: e.path,
                source: serde::de::Error::custom(e.message),
            })?;
        Ok(self.interpreter.write(&value)?)
    }

    fn encode_json_normalized(
        &self,
        _value: serde_json::Value,
    ) -> Result<(Vec<u8>, Vec<Mismatch>), EncodeError> {
        Err(self.not_yet().into())
    }

    fn round_trip(&self, bytes: &[u8]) -> Result<RoundTrip, Error> {
        self.interpreter.round_trip(bytes)
    }

    fn check(&self, _bytes: &[u8]) -> Result<Vec<Mismatch>, Error> {
        Err(self.not_yet())
    }

    fn normalize(&self, _bytes: &[u8]) -> Result<Vec<u8>, Error> {
        Err(self.not_yet())
    }
}
