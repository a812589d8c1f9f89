//! Where a crate's folders of real files are: an environment variable, a default folder, and
//! skelcodec's own convention. Looked for when a test runs, so that a corpus added after the
//! build counts, and a test without one says so where its output is not captured.

use std::path::{Path, PathBuf};

/// Environment variable that overrides where the corpus of real files lives.
pub const CORPUS_ENV: &str = "SKELCODEC_CORPUS";

/// Where a crate's folder of real files is looked for: the directory an environment variable
/// names, else a default directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CorpusLocation {
    /// The environment variable that overrides `default` (`SKELCODEC_CORPUS`).
    pub env: String,
    /// Where the files are when the variable is unset, if anywhere.
    pub default: Option<PathBuf>,
}

impl CorpusLocation {
    /// skelcodec's own convention: `$SKELCODEC_CORPUS`, or `../shared/corpus` beside the
    /// workspace root found above `manifest_dir`.
    pub fn shared(manifest_dir: &str) -> Self {
        CorpusLocation {
            env: CORPUS_ENV.to_owned(),
            default: workspace_root(Path::new(manifest_dir))
                .and_then(|root| Some(root.parent()?.join("shared").join("corpus"))),
        }
    }

    /// A crate's own choice: `$env`, or `dir` relative to `manifest_dir` (when given).
    pub fn of_crate(manifest_dir: &str, env: &str, dir: Option<&str>) -> Self {
        CorpusLocation {
            env: env.to_owned(),
            default: dir.map(|dir| Path::new(manifest_dir).join(dir)),
        }
    }

    /// The directory, or `Ok(None)` when the variable is unset and the default does not
    /// exist. A variable that names no directory is an error: a mistyped path must not pass
    /// for a run without the corpus.
    pub fn locate(&self) -> Result<Option<PathBuf>, String> {
        self.locate_given(std::env::var_os(&self.env))
    }

    /// [`CorpusLocation::locate`] given the variable's value.
    fn locate_given(
        &self,
        configured: Option<std::ffi::OsString>,
    ) -> Result<Option<PathBuf>, String> {
        if let Some(dir) = configured {
            let dir = PathBuf::from(dir);
            return if dir.is_dir() {
                Ok(Some(dir))
            } else {
                Err(format!("{}={} is not a directory", self.env, dir.display()))
            };
        }
        Ok(self.default.clone().filter(|dir| dir.is_dir()))
    }

    /// Why nothing was found, for messages: what to set or create.
    pub fn missing(&self) -> String {
        match &self.default {
            Some(dir) => format!("no corpus at {} and {} unset", dir.display(), self.env),
            None => format!("{} unset", self.env),
        }
    }

    /// For tests: the directory, or `None` after saying, past the test harness's output
    /// capture so that it shows in every run, which test goes without it.
    ///
    /// # Panics
    /// When the variable names no directory, which fails the calling test.
    #[track_caller]
    pub fn dir_or_announce(&self) -> Option<PathBuf> {
        match self.locate() {
            Ok(Some(dir)) => Some(dir),
            Ok(None) => {
                announce_skip(&format!(
                    "{}: the real-file checks at {} are skipped",
                    self.missing(),
                    std::panic::Location::caller()
                ));
                None
            }
            Err(message) => panic!("{message}"),
        }
    }
}

/// Where skelcodec's corpus of real game files is (see [`CorpusLocation::shared`]).
pub fn locate_corpus(manifest_dir: &str) -> Result<Option<PathBuf>, String> {
    CorpusLocation::shared(manifest_dir).locate()
}

/// For tests: skelcodec's corpus, or `None` after announcing the skip (see
/// [`CorpusLocation::dir_or_announce`]).
#[track_caller]
pub fn corpus_dir(manifest_dir: &str) -> Option<PathBuf> {
    CorpusLocation::shared(manifest_dir).dir_or_announce()
}

/// The files below `dir` (in every folder under it) whose names end with `suffix`, in order.
pub fn files_under(dir: &Path, suffix: &str) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut folders = vec![dir.to_owned()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
            } else if path.to_string_lossy().ends_with(suffix) {
                found.push(path);
            }
        }
    }
    found.sort();
    found
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

/// `work` on each of `items` on every core, the results in the order of `items`: a test over
/// many real files then takes about its slowest share, not the sum. A panic in `work` is
/// raised again here.
pub fn on_every_core<T: Sync, R: Send>(items: &[T], work: impl Fn(&T) -> R + Sync) -> Vec<R> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let next = AtomicUsize::new(0);
    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(items.len().max(1));
    let mut done: Vec<(usize, R)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| {
                    let mut found = Vec::new();
                    loop {
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        let Some(item) = items.get(index) else {
                            return found;
                        };
                        found.push((index, work(item)));
                    }
                })
            })
            .collect();
        (handles.into_iter())
            .flat_map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    });
    done.sort_by_key(|(index, _)| *index);
    done.into_iter().map(|(_, result)| result).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_configured_corpus_must_exist() {
        let here = env!("CARGO_MANIFEST_DIR");
        let location = CorpusLocation::of_crate(here, "MY_FILES", None);
        let missing = Path::new(here).join("no such corpus");
        let err = location
            .locate_given(Some(missing.into_os_string()))
            .unwrap_err();
        assert!(
            err.contains("MY_FILES=") && err.contains("no such corpus"),
            "{err}"
        );
        assert_eq!(
            location.locate_given(Some(here.into())),
            Ok(Some(PathBuf::from(here)))
        );
    }

    #[test]
    fn a_crate_names_its_default_folder_relative_to_itself() {
        let here = env!("CARGO_MANIFEST_DIR");
        let location = CorpusLocation::of_crate(here, "MY_FILES", Some("src"));
        assert_eq!(
            location.locate_given(None),
            Ok(Some(Path::new(here).join("src")))
        );
        let absent = CorpusLocation::of_crate(here, "MY_FILES", Some("no such folder"));
        assert_eq!(absent.locate_given(None), Ok(None));
        assert!(
            absent.missing().contains("no such folder") && absent.missing().contains("MY_FILES")
        );
        assert_eq!(
            CorpusLocation::of_crate(here, "MY_FILES", None).locate_given(None),
            Ok(None)
        );
    }

    #[test]
    fn without_configuration_the_corpus_is_looked_for_beside_the_workspace() {
        let shared = CorpusLocation::shared(env!("CARGO_MANIFEST_DIR"));
        let root = workspace_root(Path::new(env!("CARGO_MANIFEST_DIR"))).unwrap();
        let beside = root.parent().unwrap().join("shared").join("corpus");
        assert_eq!(shared.default.as_deref(), Some(beside.as_path()));
        assert_eq!(
            shared.locate_given(None).unwrap(),
            beside.is_dir().then_some(beside)
        );
        // Outside any workspace there is nothing to find.
        assert_eq!(CorpusLocation::shared("/").locate_given(None), Ok(None));
    }
}
