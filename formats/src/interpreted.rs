//! A format whose schema is given at run time (`--schema`): read by the interpreter
//! (`skelcodec-dynamic`), with the documents the generated codec of that schema prints.

use skelcodec_dynamic::Interpreter;
use skelcodec_runtime::{Error, Mismatch, RoundTrip};

use crate::registry::{SchemaSource, document_tree, write_document_of};
use crate::{DocumentError, DocumentSink, EncodeError, Format};

/// A schema read at run time, as a [`Format`]: it reads, writes and round-trips files, encodes
/// documents, and checks and recomputes derived fields.
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

    /// The value a document's `value` part holds.
    fn value_of(&self, value: &serde_json::Value) -> Result<skelcodec_dynamic::Value, EncodeError> {
        self.interpreter
            .value_of(value)
            .map_err(|e| EncodeError::Json {
                path: e.path,
                source: serde::de::Error::custom(e.message),
            })
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

    fn write_document(&self, bytes: &[u8], sink: DocumentSink<'_>) -> Result<(), DocumentError> {
        let value = self.interpreter.read(bytes)?;
        let document = self.interpreter.document(&value);
        write_document_of((self.id, Some(&self.source)), &document, sink)
    }

    fn encode_json(&self, value: serde_json::Value) -> Result<Vec<u8>, EncodeError> {
        let value = self.value_of(&value)?;
        Ok(self.interpreter.write(&value)?)
    }

    fn encode_json_normalized(
        &self,
        value: serde_json::Value,
    ) -> Result<(Vec<u8>, Vec<Mismatch>), EncodeError> {
        let value = self.value_of(&value)?;
        let changed = self.interpreter.normalize(&value)?;
        Ok((self.interpreter.write(&value)?, changed))
    }

    fn round_trip(&self, bytes: &[u8]) -> Result<RoundTrip, Error> {
        self.interpreter.round_trip(bytes)
    }

    fn check(&self, bytes: &[u8]) -> Result<Vec<Mismatch>, Error> {
        self.interpreter.check(&self.interpreter.read(bytes)?)
    }

    fn unstated_checksums(&self, bytes: &[u8]) -> Vec<skelcodec_dynamic::UnstatedChecksum> {
        self.interpreter.unstated_checksums(bytes)
    }

    fn normalize(&self, bytes: &[u8]) -> Result<Vec<u8>, Error> {
        let value = self.interpreter.read(bytes)?;
        self.interpreter.normalize(&value)?;
        self.interpreter.write(&value)
    }
}
