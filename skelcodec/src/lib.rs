//! Binary codecs from [Kaitai Struct](https://kaitai.io) schemas (`.ksy`), generated at
//! build time: plain Rust types, a reader and a writer that round-trip files byte for byte,
//! `check()` and `normalize()` for derived sizes, counts and offsets.
//!
//! ```ignore
//! mod wav {
//!     skelcodec::codec!("schemas/wav.ksy"); // relative to the crate's Cargo.toml
//! }
//! use skelcodec::Codec as _;
//! let file = wav::Wav::read(&bytes)?;
//! assert!(file.check().is_empty());
//! assert_eq!(file.to_bytes()?, bytes);
//! ```
//!
//! This crate is the one dependency a codec needs: the macros reach the runtime through it.

pub use skelcodec_runtime::{
    Codec, Decoded, Error, ErrorKind, Fixed, FixedRangeError, FixedStr, Mismatch, PathSegment,
    Quat, RawBytes, Result, RoundTrip, Text, VarStr, Vec3, first_difference, round_trip,
};

/// Generates a codec from a `.ksy` schema: `skelcodec::codec!("schemas/x.ksy");`, in a
/// module of its own. The path is relative to the crate's `Cargo.toml`; absolute imports are
/// looked up in `import_paths = ["dir", …]` given after it.
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
/// when none is found at build time. See the README's "Use skelcodec in your own crate".
#[macro_export]
macro_rules! snapshot_tests {
    ($($input:tt)*) => {
        $crate::__private::snapshot_tests!(runtime = $crate::__private::runtime, $($input)*);
    };
}

/// What the macros expand to refers to; not part of the API.
#[doc(hidden)]
pub mod __private {
    pub use skelcodec_macros::{codec, snapshot_tests};
    pub use skelcodec_runtime as runtime;
}
