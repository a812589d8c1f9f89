//! WAVE audio files through skelcodec: `wav.ksy` (beside this crate's `Cargo.toml`) compiled
//! at build time into [`Wav`] and the types of its chunks, with a reader, a writer, and
//! `check()`/`normalize()` for the RIFF size, the chunk sizes and the byte rate.
//!
//! ```
//! use skelcodec::Codec as _;
//! use skelcodec_example_wav::{ChunkBody, Wav};
//!
//! let bytes = std::fs::read("samples/pcm16_stereo.wav").unwrap();
//! let wav = Wav::read(&bytes).unwrap();
//! let ChunkBody::FormatChunk(format) = &wav.chunks[0].body else { panic!("fmt first") };
//! assert_eq!((format.channels, format.sample_rate), (2, 8000));
//! assert!(wav.check().is_empty());
//! assert_eq!(wav.to_bytes().unwrap(), bytes);
//! ```

skelcodec::codec!("wav.ksy");

/// The book's chapter on codec crates (`docs/cookbook/tool-author.md`) walks through this
/// crate: its Rust examples are this crate's doc-tests.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/cookbook/tool-author.md")]
// The chapter's `yaml,file=NAME` blocks are files the command-line examples write.
#[allow(rustdoc::invalid_codeblock_attributes)]
mod book {}
