//! Support for the snapshot tests skelcodec generates: locating the shared corpus and checking
//! one sample file.

use std::path::Path;

use crate::codec::{Codec, field_at, first_difference};
use crate::summary::summarize;

pub use crate::corpus::{
    CORPUS_ENV, CorpusLocation, announce_skip, corpus_dir, locate_corpus, workspace_root,
};

/// Elements shown at the start of each long array in a summary.
pub const SUMMARY_ITEMS: usize = 3;

/// Decodes a sample, demands a byte-exact re-encoding, and returns its readable summary.
/// The error message names the file, the offset and the field path.
pub fn check_sample<C: Codec>(path: &Path) -> Result<String, String> {
    let value = check_round_trip::<C>(path)?;
    Ok(summarize(&value, SUMMARY_ITEMS))
}

/// Decodes a sample and demands a byte-exact re-encoding; returns the decoded value.
pub fn check_round_trip<C: Codec>(path: &Path) -> Result<C, String> {
    let name = path.display();
    let bytes = std::fs::read(path).map_err(|e| format!("{name}: cannot read: {e}"))?;
    let value = C::read(&bytes).map_err(|e| format!("{name}: decode failed {e}"))?;
    let output = value
        .to_bytes()
        .map_err(|e| format!("{name}: encode failed {e}"))?;
    if let Some(offset) = first_difference(&bytes, &output) {
        return Err(format!(
            "{name}: re-encoding differs at byte {offset} ({}); input {} bytes, output {}",
            field_at::<C>(&bytes, offset),
            bytes.len(),
            output.len()
        ));
    }
    Ok(value)
}
