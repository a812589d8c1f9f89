//! Support for the snapshot tests skelcodec generates: locating the shared corpus and checking
//! one sample file.

use std::path::{Path, PathBuf};

use crate::codec::{Codec, field_at, first_difference};
use crate::summary::summarize;

/// Environment variable that overrides where the corpus of real files lives.
pub const CORPUS_ENV: &str = "SKELCODEC_CORPUS";

/// The corpus of real game files: `$SKELCODEC_CORPUS`, or `../shared/corpus` beside the
/// workspace root found above `manifest_dir`. `None` when it does not exist.
pub fn corpus_dir(manifest_dir: &str) -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os(CORPUS_ENV) {
        let dir = PathBuf::from(dir);
        return dir.is_dir().then_some(dir);
    }
    let root = workspace_root(Path::new(manifest_dir))?;
    let dir = root.parent()?.join("shared").join("corpus");
    dir.is_dir().then_some(dir)
}

/// The nearest directory at or above `start` whose Cargo.toml declares a workspace.
pub fn workspace_root(start: &Path) -> Option<PathBuf> {
    start.ancestors().find_map(|dir| {
        let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).ok()?;
        manifest
            .lines()
            .any(|l| l.trim() == "[workspace]")
            .then(|| dir.to_path_buf())
    })
}

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
