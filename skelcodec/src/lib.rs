//! Binary codecs from [Kaitai Struct](https://kaitai.io) schemas (`.ksy`), generated at
//! build time: plain Rust types, a reader and a writer that round-trip files byte for byte,
//! `check()` and `normalize()` for derived sizes, counts and offsets.
//!
//! ```
//! mod greeting {
//!     // `magic: HI`, `len_text: u1`, `text: str, size: len_text` (examples/greeting.ksy).
//!     skelcodec::codec!("examples/greeting.ksy"); // relative to the crate's Cargo.toml
//! }
//! use skelcodec::Codec as _;
//!
//! let bytes = b"HI\x05hello";
//! let mut value = greeting::Greeting::read(bytes)?;
//! assert_eq!(value.text, "hello");
//! assert!(value.check().is_empty());
//! assert_eq!(value.to_bytes()?, bytes);
//! // Values are serde values: documents to edit, JSON or YAML.
//! let document = serde_json::to_string(&value)?;
//! assert_eq!(document, r#"{"len_text":5,"text":{"text":"hello"}}"#); // `contents` is implied
//!
//! // An edit that grows the text: the length it was read with no longer fits, and the
//! // writer says so, naming the field; normalize() recomputes it (`len_text` is derived from
//! // `text`, inferred from its use).
//! value.text = "hello, world".into();
//! // check() names each derived field that disagrees (a `Mismatch`).
//! let found = value.check();
//! assert_eq!((found[0].path.as_str(), found[0].stored, found[0].computed), ("len_text", 5, 12));
//! assert_eq!(found[0].to_string(), "len_text: stored 5, computed 12");
//! let refused = value.to_bytes().unwrap_err();
//! assert_eq!(
//!     refused.to_string(),
//!     "at byte 3, text: cannot encode: the size is 5 but the value has 12 bytes \
//!      (normalize() recomputes a derived size)"
//! );
//! value.normalize()?;
//! assert_eq!(value.to_bytes()?, b"HI\x0chello, world");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! This crate is the one dependency a codec needs: the macros reach the runtime through it,
//! and every type the generated code's public API names is re-exported here. The user guide,
//! the schema language and the cookbooks are the book in the repository's `docs/` folder.

pub use skelcodec_runtime::Gap;
pub use skelcodec_runtime::error::ValidationRule;
pub use skelcodec_runtime::{
    Checker, Codec, Decoded, Error, ErrorKind, Fixed, FixedRangeError, FixedStr, Instance,
    LookAhead, Mismatch, PathSegment, Quat, RawBytes, Reader, Result, RoundTrip, Stream, Text,
    VarStr, Vec3, Writer, first_difference, round_trip,
};

/// Generates a codec from a `.ksy` schema: `skelcodec::codec!("schemas/x.ksy");`, in a
/// module of its own. The path is relative to the crate's `Cargo.toml`; absolute imports are
/// looked up in `import_paths = ["dir", …]` given after it. A schema error is a compile error
/// that names the schema's file, line and column; a schema warning is a warning of the build
/// (`#[allow(deprecated)]` on the module silences it).
///
/// ```
/// mod greeting {
///     skelcodec::codec!("examples/greeting.ksy");
/// }
/// // A type per schema type, named in CamelCase, with a field per `seq` entry (and, for the
/// // root, the bytes a file holds after its value, kept so that it round-trips).
/// let value = greeting::Greeting {
///     len_text: 2,
///     text: "hi".into(),
///     _trailing: Default::default(),
/// };
/// assert_eq!(skelcodec::Codec::to_bytes(&value)?, b"HI\x02hi");
/// # Ok::<(), skelcodec::Error>(())
/// ```
#[macro_export]
macro_rules! codec {
    ($($input:tt)*) => {
        $crate::__private::codec!(runtime = $crate::__private::runtime, $($input)*);
    };
}

/// Generates snapshot tests over sample files (needs this crate's `testing` feature and
/// `insta` with its `glob` and `yaml` features as dev-dependencies):
/// `skelcodec::snapshot_tests!(wav: crate::wav::Wav, fixtures = "samples/*.wav", corpus =
/// "**/*.wav", corpus_env = "WAV_FILES");` `fixtures` (relative to the crate) are decoded,
/// snapshotted and re-encoded; `corpus` files (relative to `$WAV_FILES`, or to `corpus_dir =
/// "folder"` relative to the crate) are re-encoded, and the test is ignored with the reason
/// when none is found at build time. See the book's chapter "A codec in your own crate"
/// (`docs/cookbook/tool-author.md`).
#[cfg(feature = "testing")]
#[macro_export]
macro_rules! snapshot_tests {
    ($($input:tt)*) => {
        $crate::__private::snapshot_tests!(runtime = $crate::__private::runtime, $($input)*);
    };
}

/// Generates snapshot tests over sample files: this build of `skelcodec` lacks its `testing`
/// feature, which they need.
#[cfg(not(feature = "testing"))]
#[macro_export]
macro_rules! snapshot_tests {
    ($($input:tt)*) => {
        ::core::compile_error!(
            "skelcodec::snapshot_tests! needs skelcodec's `testing` feature: in [dev-dependencies], \
             skelcodec = { version = \"…\", features = [\"testing\"] } (and insta with its `glob` \
             and `yaml` features)"
        );
    };
}

/// What the macros expand to refers to; not part of the API.
#[doc(hidden)]
pub mod __private {
    pub use skelcodec_macros::{codec, snapshot_tests};
    pub use skelcodec_runtime as runtime;
}

/// The README and the book's chapters (`docs/`): their Rust examples are doc-tests of this
/// crate, so that what the book shows compiles and runs. Only `cargo test --doc` compiles
/// them: the files lie outside the package, which must build without them. The chapter on
/// codec crates is tested by the crate it describes, `examples/wav`.
#[cfg(doctest)]
mod book {
    macro_rules! chapters {
        ($($name:ident: $path:literal,)*) => {
            $(
                #[doc = include_str!($path)]
                mod $name {}
            )*
        };
    }
    chapters! {
        readme: "../../README.md",
        introduction: "../../docs/introduction.md",
        getting_started: "../../docs/guide/getting-started.md",
        formats: "../../docs/guide/formats.md",
        documents: "../../docs/guide/documents.md",
        run_time_schemas: "../../docs/guide/run-time-schemas.md",
        guarantees: "../../docs/guide/guarantees.md",
        commands: "../../docs/reference/commands.md",
        schema_language: "../../docs/reference/schema-language.md",
        extensions: "../../docs/reference/extensions.md",
        derived: "../../docs/reference/derived.md",
        instances: "../../docs/reference/instances.md",
        generated_rust: "../../docs/reference/generated-rust.md",
        overlays: "../../docs/overlays.md",
        writing: "../../docs/writing.md",
        kaitai_differences: "../../docs/reference/kaitai-differences.md",
        modder: "../../docs/cookbook/modder.md",
        kaitai_user: "../../docs/cookbook/kaitai-user.md",
        python: "../../docs/cookbook/python.md",
        web_ide: "../../docs/cookbook/web-ide.md",
        performance: "../../docs/performance.md",
        testing: "../../docs/testing.md",
        differential_results: "../../docs/differential-results.md",
        architecture: "../../docs/dev/architecture.md",
        adding_a_schema: "../../docs/dev/adding-a-schema.md",
        dependencies: "../../docs/dev/dependencies.md",
        book: "../../docs/dev/book.md",
    }
}
