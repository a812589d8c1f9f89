//! Formats known to tools, reached by id, magic or extension, with a JSON view of each value.
//! Dispatch happens once per file; decoding itself is fully static.

use std::marker::PhantomData;

use skelcodec_runtime::{Codec, Error, Mismatch, RoundTrip};

/// A decoded file as a self-describing JSON document: `{"format": id, "value": …}`.
pub const FORMAT_KEY: &str = "format";
/// Key of the decoded value in the JSON document.
pub const VALUE_KEY: &str = "value";

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
    /// Encodes the `value` part of a JSON document (stored fields verbatim).
    fn encode_json(&self, value: serde_json::Value) -> Result<Vec<u8>, EncodeError>;
    /// Recomputes every derived field of the `value` part of a JSON document, then encodes it;
    /// also returns the fields that changed (their stored and recomputed values).
    fn encode_json_normalized(
        &self,
        value: serde_json::Value,
    ) -> Result<(Vec<u8>, Vec<Mismatch>), EncodeError>;
    /// Decodes, re-encodes and compares.
    fn round_trip(&self, bytes: &[u8]) -> Result<RoundTrip, Error>;
    /// Derived fields whose stored value disagrees with the content.
    fn check(&self, bytes: &[u8]) -> Result<Vec<Mismatch>, Error>;
    /// Decodes, recomputes every derived field and encodes.
    fn normalize(&self, bytes: &[u8]) -> Result<Vec<u8>, Error>;
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
        let value = C::read(bytes)?;
        let value = serde_json::to_value(&value)
            .map_err(|e| Error::new(0, skelcodec_runtime::ErrorKind::Invalid(e.to_string())))?;
        Ok(serde_json::json!({ FORMAT_KEY: C::FORMAT, VALUE_KEY: value }))
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
        let mut document = Registered::<crate::dbpf::Dbpf>::new().decode_json(bytes)?;
        let package = crate::dbpf::Dbpf::read(bytes)?;
        let anims = package.animations();
        let resources: Vec<serde_json::Value> = package
            .index
            .iter()
            .map(|entry| {
                let anim =
                    anims
                        .iter()
                        .find(|(key, _)| *key == entry.key())
                        .map(|(_, a)| match a {
                            Ok(anim) => serde_json::to_value(anim).unwrap_or_default(),
                            Err(e) => serde_json::json!({ "error": e }),
                        });
                serde_json::json!({
                    "key": entry.key(),
                    "compressed": package.is_compressed(entry),
                    "stored_size": entry.size,
                    "anim": anim,
                })
            })
            .collect();
        document["resources"] = serde_json::Value::Array(resources);
        Ok(document)
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
    static FORMATS: [&dyn Format; 7] = [
        &Registered::<crate::ifp::Ifp>::new(),
        &Registered::<crate::dff::Dff>::new(),
        &Registered::<crate::gsa::Gsa>::new(),
        &Registered::<crate::drs::Drs>::new(),
        &Registered::<crate::battleforge::AnimationSetBlob>::new(),
        &Registered::<crate::sims2_anim::Sims2Anim>::new(),
        &Package,
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
