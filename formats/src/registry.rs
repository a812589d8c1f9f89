//! Formats known to tools, reached by id, magic or extension, with a JSON view of each value.
//! Dispatch happens once per file; decoding itself is fully static.

use std::io;
use std::marker::PhantomData;

use skelcodec_runtime::events::Events;
use skelcodec_runtime::{Codec, Error, Mismatch, RoundTrip};

/// A decoded file as a self-describing JSON document: `{"format": id, "value": …}`.
pub const FORMAT_KEY: &str = "format";
/// Key of the decoded value in the JSON document.
pub const VALUE_KEY: &str = "value";
/// Key of the schema a document was read with at run time (`decode --schema`), so that
/// `encode` finds it again: `{"format": id, "schema": {"path": …}, "value": …}`.
pub const SCHEMA_KEY: &str = "schema";

/// Where the schema of a format read at run time is: its file and the directories of its
/// absolute imports, as absolute paths (a document may be encoded from elsewhere).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SchemaSource {
    /// The `.ksy` file.
    pub path: std::path::PathBuf,
    /// Where its absolute imports (`/common/...`) are found.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub import_paths: Vec<std::path::PathBuf>,
    /// Overlay files merged into it (`--overlay`), in the order given.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub overlays: Vec<std::path::PathBuf>,
    /// True when the overlay a tool ships for the schema was turned off (`--no-overlay`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_overlay: bool,
    /// The values given to parameters of its root type (`--param NAME=VALUE`), by name, as
    /// given: the document is encoded with the same.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub params: std::collections::BTreeMap<String, String>,
}

/// Text form of a decoded document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DocumentSyntax {
    /// Pretty-printed JSON.
    Json,
    /// YAML.
    Yaml,
}

impl DocumentSyntax {
    /// The syntax a file name asks for: YAML for `.yaml`/`.yml`, JSON for `.json`.
    pub fn of_path(path: &std::path::Path) -> Option<Self> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "json" => Some(Self::Json),
            "yaml" | "yml" => Some(Self::Yaml),
            _ => None,
        }
    }
}

/// Why a document could not be written.
#[derive(Debug, thiserror::Error)]
pub enum DocumentError {
    /// The file does not decode.
    #[error(transparent)]
    Decode(#[from] Error),
    /// The output could not be written.
    #[error(transparent)]
    Write(io::Error),
    /// The value has no JSON or YAML form (a map key that is not a string).
    #[error("cannot serialize the value: {0}")]
    Serialize(String),
}

/// Where a document goes.
pub enum DocumentSink<'a> {
    /// Written as text in a syntax.
    Text(DocumentSyntax, &'a mut dyn io::Write),
    /// Reported as the events of its JSON form while it is serialized, so that a consumer
    /// (`decode --summary`, `--path`) holds only what it keeps.
    Events(&'a mut dyn Events),
}

/// One format, usable without knowing its Rust type.
pub trait Format: Sync {
    /// Schema id (`ifp`).
    fn id(&self) -> &'static str;
    /// File extensions without the dot.
    fn extensions(&self) -> &'static [&'static str];
    /// True when `bytes` start with one of the format's magic strings.
    fn matches(&self, bytes: &[u8]) -> bool;
    /// Decodes to the JSON document `{"format": id, "value": …}`.
    fn decode_json(&self, bytes: &[u8]) -> Result<serde_json::Value, Error>;
    /// Decodes and writes the same document to `sink`, fields in file order, without building
    /// a JSON tree first (the document of a 3.7 MB animation package is 100 MB of text).
    fn write_document(&self, bytes: &[u8], sink: DocumentSink<'_>) -> Result<(), DocumentError>;
    /// Encodes the `value` part of a JSON document (stored fields verbatim).
    fn encode_json(&self, value: serde_json::Value) -> Result<Vec<u8>, EncodeError>;
    /// Recomputes every derived field of the `value` part of a JSON document, then encodes it;
    /// also returns the fields that changed (their stored and recomputed values).
    fn encode_json_normalized(
        &self,
        value: serde_json::Value,
    ) -> Result<(Vec<u8>, Vec<Mismatch>), EncodeError>;
    /// Encodes the `value` of a JSON document given as its text; with `normalize`, recomputes
    /// every derived field first and also returns the fields that changed. A generated
    /// codec reads its value straight from the text, without the document's tree (the tree
    /// of a 112 MB document takes five times its size).
    fn encode_json_text(
        &self,
        document: &[u8],
        normalize: bool,
    ) -> Result<(Vec<u8>, Vec<Mismatch>), EncodeError> {
        let mut tree: serde_json::Value =
            serde_json::from_slice(document).map_err(|source| EncodeError::Json {
                path: String::new(),
                source,
            })?;
        let value = tree.get_mut(VALUE_KEY).map(serde_json::Value::take);
        let value = value.unwrap_or_default();
        match normalize {
            true => self.encode_json_normalized(value),
            false => Ok((self.encode_json(value)?, Vec::new())),
        }
    }
    /// Decodes, re-encodes and compares.
    fn round_trip(&self, bytes: &[u8]) -> Result<RoundTrip, Error>;
    /// Derived fields whose stored value disagrees with the content.
    fn check(&self, bytes: &[u8]) -> Result<Vec<Mismatch>, Error>;
    /// Decodes, recomputes every derived field and encodes.
    fn normalize(&self, bytes: &[u8]) -> Result<Vec<u8>, Error>;
    /// Checksums the format does not derive, found stale in `bytes` where they are recognised
    /// on other occurrences (see [`skelcodec_dynamic::UnstatedChecksum`]): only schemas read at
    /// run time look for them; a built-in format derives its own.
    fn unstated_checksums(&self, bytes: &[u8]) -> Vec<skelcodec_dynamic::UnstatedChecksum> {
        let _ = bytes;
        Vec::new()
    }
}

/// Why a JSON document could not be encoded.
#[derive(Debug, thiserror::Error)]
pub enum EncodeError {
    /// The JSON does not match the format's types.
    #[error("the JSON does not fit the format at {path}: {source}")]
    Json {
        /// Where in the document (`body.anp3.animations[0].name`).
        path: String,
        /// What is wrong there.
        source: serde_json::Error,
    },
    /// The value cannot be written (a count disagrees with its list, a value out of range).
    #[error(transparent)]
    Codec(#[from] Error),
}

/// The [`Format`] of a generated codec type.
pub struct Registered<C>(PhantomData<fn() -> C>);

impl<C> Registered<C> {
    /// The format of `C`.
    pub const fn new() -> Self {
        Self(PhantomData)
    }
}

impl<C> Default for Registered<C> {
    fn default() -> Self {
        Self::new()
    }
}

impl<C: Codec> Format for Registered<C> {
    fn id(&self) -> &'static str {
        C::FORMAT
    }

    fn extensions(&self) -> &'static [&'static str] {
        C::EXTENSIONS
    }

    fn matches(&self, bytes: &[u8]) -> bool {
        C::matches_magic(bytes)
    }

    fn decode_json(&self, bytes: &[u8]) -> Result<serde_json::Value, Error> {
        document_tree((C::FORMAT, None), &C::read(bytes)?)
    }

    fn write_document(&self, bytes: &[u8], sink: DocumentSink<'_>) -> Result<(), DocumentError> {
        write_document_of((C::FORMAT, None), &C::read(bytes)?, sink)
    }

    fn encode_json(&self, value: serde_json::Value) -> Result<Vec<u8>, EncodeError> {
        Ok(from_json::<C>(value)?.to_bytes()?)
    }

    fn encode_json_normalized(
        &self,
        value: serde_json::Value,
    ) -> Result<(Vec<u8>, Vec<Mismatch>), EncodeError> {
        let mut value = from_json::<C>(value)?;
        let changed = value.check();
        value.normalize()?;
        Ok((value.to_bytes()?, changed))
    }

    fn encode_json_text(
        &self,
        document: &[u8],
        normalize: bool,
    ) -> Result<(Vec<u8>, Vec<Mismatch>), EncodeError> {
        let mut value = value_of_text::<C>(document)?;
        let changed = match normalize {
            true => {
                let changed = value.check();
                value.normalize()?;
                changed
            }
            false => Vec::new(),
        };
        Ok((value.to_bytes()?, changed))
    }

    fn round_trip(&self, bytes: &[u8]) -> Result<RoundTrip, Error> {
        skelcodec_runtime::round_trip::<C>(bytes)
    }

    fn check(&self, bytes: &[u8]) -> Result<Vec<Mismatch>, Error> {
        Ok(C::read(bytes)?.check())
    }

    fn normalize(&self, bytes: &[u8]) -> Result<Vec<u8>, Error> {
        let mut value = C::read(bytes)?;
        value.normalize()?;
        value.to_bytes()
    }
}

/// The document `decode` prints; `resources` only for formats that list their contents.
#[derive(serde::Serialize)]
struct Document<'v, V, R> {
    format: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    schema: Option<&'v SchemaSource>,
    value: &'v V,
    #[serde(skip_serializing_if = "Option::is_none")]
    resources: Option<R>,
}

/// The JSON tree of the document of `value`, a value of format `format`.
pub(crate) fn document_tree<V: serde::Serialize>(
    (format, schema): (&'static str, Option<&SchemaSource>),
    value: &V,
) -> Result<serde_json::Value, Error> {
    decoded_tree(&Document {
        format,
        schema,
        value,
        resources: None::<()>,
    })
}

/// Writes the document of `value`, a value of format `format`, to `sink`.
pub(crate) fn write_document_of<V: serde::Serialize>(
    (format, schema): (&'static str, Option<&SchemaSource>),
    value: &V,
    sink: DocumentSink<'_>,
) -> Result<(), DocumentError> {
    let document = Document {
        format,
        schema,
        value,
        resources: None::<()>,
    };
    write_serialized(&document, sink)
}

/// The JSON tree of a document, through its text: a tree built directly holds an `f32` as the
/// `f64` it widens to, which prints as `0.7071068286895752` where the file's value is
/// `0.7071068`.
fn json_tree<T: serde::Serialize>(document: &T) -> Result<serde_json::Value, serde_json::Error> {
    serde_json::to_vec(document).and_then(|text| serde_json::from_slice(&text))
}

/// [`json_tree`], failing as a decode error would.
fn decoded_tree<T: serde::Serialize>(document: &T) -> Result<serde_json::Value, Error> {
    json_tree(document)
        .map_err(|e| Error::new(0, skelcodec_runtime::ErrorKind::Invalid(e.to_string())))
}

/// Serializes `document` to `sink`, telling a failing output (say, a closed pipe) apart from
/// a value that cannot be serialized. Text ends with a newline.
pub fn write_serialized<T: serde::Serialize>(
    document: &T,
    sink: DocumentSink<'_>,
) -> Result<(), DocumentError> {
    let (syntax, out) = match sink {
        DocumentSink::Text(syntax, out) => (syntax, out),
        DocumentSink::Events(events) => {
            return skelcodec_runtime::events::serialize_into(document, events)
                .map_err(|e| DocumentError::Serialize(e.to_string()));
        }
    };
    let mut out = OutputErrors {
        inner: io::BufWriter::new(out),
        failure: None,
    };
    let serialized = match syntax {
        DocumentSyntax::Json => {
            serde_json::to_writer_pretty(&mut out, document).map_err(|e| e.to_string())
        }
        // Through a JSON tree: serde_yaml writes enum variants as YAML tags (`!anp3`), which
        // no JSON-shaped reader takes back, while the tree gives the `{anp3: …}` maps that
        // `encode` reads.
        DocumentSyntax::Yaml => json_tree(document)
            .map_err(|e| e.to_string())
            .and_then(|tree| serde_yaml::to_writer(&mut out, &tree).map_err(|e| e.to_string())),
    };
    // serde_yaml ends its text with a newline; serde_json does not.
    let ending: &[u8] = match syntax {
        DocumentSyntax::Json => b"\n",
        DocumentSyntax::Yaml => b"",
    };
    let finished = serialized.and_then(|()| {
        io::Write::write_all(&mut out, ending)
            .and_then(|()| io::Write::flush(&mut out))
            .map_err(|e| e.to_string())
    });
    match (finished, out.failure) {
        (Ok(()), _) => Ok(()),
        (Err(_), Some(failure)) => Err(DocumentError::Write(failure)),
        (Err(message), None) => Err(DocumentError::Serialize(message)),
    }
}

/// A writer that keeps the first error of the output it wraps: serializers turn I/O errors
/// into their own, and a closed pipe must stay recognisable.
struct OutputErrors<W> {
    inner: W,
    failure: Option<io::Error>,
}

impl<W: io::Write> io::Write for OutputErrors<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.inner.write(buf).inspect_err(|e| self.keep(e))
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush().inspect_err(|e| self.keep(e))
    }
}

impl<W> OutputErrors<W> {
    fn keep(&mut self, error: &io::Error) {
        if self.failure.is_none() {
            self.failure = Some(io::Error::new(error.kind(), error.to_string()));
        }
    }
}

/// The `value` of a document's JSON text, read straight from the text; with the path (within
/// the value) of the first part that does not fit.
fn value_of_text<C: Codec>(document: &[u8]) -> Result<C, EncodeError> {
    #[derive(serde::Deserialize)]
    #[serde(bound = "C: Codec")]
    struct Document<C> {
        value: C,
    }
    let mut text = serde_json::Deserializer::from_slice(document);
    let read: Result<Document<C>, _> = serde_path_to_error::deserialize(&mut text);
    let document = read.map_err(|e| {
        let path = e.path().to_string();
        let path = path.strip_prefix(VALUE_KEY).unwrap_or(&path);
        EncodeError::Json {
            path: path.strip_prefix('.').unwrap_or(path).to_owned(),
            source: e.into_inner(),
        }
    })?;
    // Nothing but white space after the document.
    text.end().map_err(|source| EncodeError::Json {
        path: String::new(),
        source,
    })?;
    Ok(document.value)
}

/// The value of a JSON document, with the path of the first part that does not fit.
fn from_json<C: Codec>(value: serde_json::Value) -> Result<C, EncodeError> {
    serde_path_to_error::deserialize(value).map_err(|e| EncodeError::Json {
        path: e.path().to_string(),
        source: e.into_inner(),
    })
}

/// Sims 2 packages: the stored package, plus a listing of its resources with every ANIM decoded
/// (`resources` in the JSON document; `encode` reads only `value`).
struct Package;

impl Format for Package {
    fn id(&self) -> &'static str {
        crate::dbpf::Dbpf::FORMAT
    }

    fn extensions(&self) -> &'static [&'static str] {
        crate::dbpf::Dbpf::EXTENSIONS
    }

    fn matches(&self, bytes: &[u8]) -> bool {
        crate::dbpf::Dbpf::matches_magic(bytes)
    }

    fn decode_json(&self, bytes: &[u8]) -> Result<serde_json::Value, Error> {
        let package = crate::dbpf::Dbpf::read(bytes)?;
        decoded_tree(&Document {
            format: crate::dbpf::Dbpf::FORMAT,
            schema: None,
            value: &package,
            resources: Some(package.resources()),
        })
    }

    fn write_document(&self, bytes: &[u8], sink: DocumentSink<'_>) -> Result<(), DocumentError> {
        let package = crate::dbpf::Dbpf::read(bytes)?;
        let document = Document {
            format: crate::dbpf::Dbpf::FORMAT,
            schema: None,
            value: &package,
            resources: Some(package.resources()),
        };
        write_serialized(&document, sink)
    }

    fn encode_json(&self, value: serde_json::Value) -> Result<Vec<u8>, EncodeError> {
        Registered::<crate::dbpf::Dbpf>::new().encode_json(value)
    }

    fn encode_json_normalized(
        &self,
        value: serde_json::Value,
    ) -> Result<(Vec<u8>, Vec<Mismatch>), EncodeError> {
        Registered::<crate::dbpf::Dbpf>::new().encode_json_normalized(value)
    }

    fn encode_json_text(
        &self,
        document: &[u8],
        normalize: bool,
    ) -> Result<(Vec<u8>, Vec<Mismatch>), EncodeError> {
        Registered::<crate::dbpf::Dbpf>::new().encode_json_text(document, normalize)
    }

    fn round_trip(&self, bytes: &[u8]) -> Result<RoundTrip, Error> {
        Registered::<crate::dbpf::Dbpf>::new().round_trip(bytes)
    }

    fn check(&self, bytes: &[u8]) -> Result<Vec<Mismatch>, Error> {
        Ok(crate::dbpf::Dbpf::read(bytes)?.check_all())
    }

    fn normalize(&self, bytes: &[u8]) -> Result<Vec<u8>, Error> {
        Registered::<crate::dbpf::Dbpf>::new().normalize(bytes)
    }
}

/// Every format this crate exports.
pub fn formats() -> &'static [&'static dyn Format] {
    static FORMATS: [&dyn Format; 8] = [
        &Registered::<crate::ifp::Ifp>::new(),
        &Registered::<crate::dff::Dff>::new(),
        &Registered::<crate::gsa::Gsa>::new(),
        &Registered::<crate::drs::Drs>::new(),
        &Registered::<crate::battleforge::AnimationSetBlob>::new(),
        &Registered::<crate::sims2_anim::Sims2Anim>::new(),
        &Package,
        &Registered::<crate::img::Img>::new(),
    ];
    &FORMATS
}

/// The format with schema id `id`.
pub fn by_id(id: &str) -> Option<&'static dyn Format> {
    formats().iter().copied().find(|f| f.id() == id)
}

/// The format of a file: by magic first, then by file extension.
pub fn detect(bytes: &[u8], extension: Option<&str>) -> Option<&'static dyn Format> {
    let by_magic = formats().iter().copied().find(|f| f.matches(bytes));
    by_magic.or_else(|| {
        let ext = extension?.to_ascii_lowercase();
        formats()
            .iter()
            .copied()
            .find(|f| f.extensions().iter().any(|e| *e == ext))
    })
}
