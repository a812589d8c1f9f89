//! Support for the snapshot tests skelcodec generates: locating the shared corpus and checking
//! one sample file.

use std::path::{Path, PathBuf};

use crate::codec::{Codec, field_at, first_difference};
use crate::summary::summarize;

/// Environment variable that overrides where the corpus of real files lives.
pub const CORPUS_ENV: &str = "SKELCODEC_CORPUS";

/// Where the corpus of real game files is: `$SKELCODEC_CORPUS`, or `../shared/corpus` beside
/// the workspace root found above `manifest_dir`; `Ok(None)` when neither exists. A
/// `SKELCODEC_CORPUS` that names no directory is an error: a mistyped path must not pass for
/// a run without the corpus.
pub fn locate_corpus(manifest_dir: &str) -> Result<Option<PathBuf>, String> {
    corpus_at(std::env::var_os(CORPUS_ENV), manifest_dir)
}

/// [`locate_corpus`] given the value of `SKELCODEC_CORPUS`.
fn corpus_at(
    configured: Option<std::ffi::OsString>,
    manifest_dir: &str,
) -> Result<Option<PathBuf>, String> {
    if let Some(dir) = configured {
        let dir = PathBuf::from(dir);
        return if dir.is_dir() {
            Ok(Some(dir))
        } else {
            Err(format!("{CORPUS_ENV}={} is not a directory", dir.display()))
        };
    }
    let dir = workspace_root(Path::new(manifest_dir))
        .and_then(|root| Some(root.parent()?.join("shared").join("corpus")));
    Ok(dir.filter(|dir| dir.is_dir()))
}

/// For tests: the corpus (see [`locate_corpus`]), or `None` after saying, past the test
/// harness's output capture so that it shows in every run, which test goes without it.
///
/// # Panics
/// When `SKELCODEC_CORPUS` names no directory, which fails the calling test.
#[track_caller]
pub fn corpus_dir(manifest_dir: &str) -> Option<PathBuf> {
    match locate_corpus(manifest_dir) {
        Ok(Some(dir)) => Some(dir),
        Ok(None) => {
            announce_skip(&format!(
                "no corpus at ../shared/corpus and {CORPUS_ENV} unset: the real-file checks at {} are skipped",
                std::panic::Location::caller()
            ));
            None
        }
        Err(message) => panic!("{message}"),
    }
}

/// Writes a line to standard error directly: libtest captures `eprintln!`, not the stream.
pub fn announce_skip(message: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "note: {message}");
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_configured_corpus_must_exist() {
        let here = env!("CARGO_MANIFEST_DIR");
        let missing = Path::new(here).join("no such corpus");
        let err = corpus_at(Some(missing.clone().into_os_string()), here).unwrap_err();
        assert!(
            err.contains(CORPUS_ENV) && err.contains("no such corpus"),
            "{err}"
        );
        assert_eq!(
            corpus_at(Some(here.into()), here),
            Ok(Some(PathBuf::from(here)))
        );
    }

    #[test]
    fn without_configuration_the_corpus_is_looked_for_beside_the_workspace() {
        let found = corpus_at(None, env!("CARGO_MANIFEST_DIR")).unwrap();
        let root = workspace_root(Path::new(env!("CARGO_MANIFEST_DIR"))).unwrap();
        let beside = root.parent().unwrap().join("shared").join("corpus");
        assert_eq!(found, beside.is_dir().then_some(beside));
        // Outside any workspace there is nothing to find.
        assert_eq!(corpus_at(None, "/"), Ok(None));
    }
}
