//! File-system helpers: atomic writes and expanding directory arguments into files; `-` is
//! standard input where a file is read and standard output where one is written.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::error::CliError;

/// One file to process, and how the user named it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Input {
    /// The path, as given or as joined below a given directory (`ARCHIVE#ENTRY` for an
    /// archive's entry).
    pub path: PathBuf,
    /// True when the file was found by walking a directory (or an archive) rather than named
    /// directly. Such files are skipped when their format cannot be detected; named files
    /// are not.
    pub walked: bool,
    /// Where its bytes are.
    pub source: Source,
}

/// Where an input's bytes are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// The file at the input's path.
    File,
    /// `size` bytes at `offset` of `file` (an archive's entry; cut short where the file ends).
    Range {
        /// The archive's data file.
        file: PathBuf,
        /// Where the entry starts.
        offset: u64,
        /// Its size.
        size: u64,
    },
}

impl Input {
    /// A file named on the command line or found in a directory.
    pub fn file(path: PathBuf, walked: bool) -> Self {
        Input {
            path,
            walked,
            source: Source::File,
        }
    }

    /// The input's bytes: only its own, so that an archive's entries are read one at a time.
    pub fn read(&self) -> Result<Vec<u8>, CliError> {
        match &self.source {
            Source::File => read(&self.path),
            Source::Range { file, offset, size } => read_range(file, *offset, *size),
        }
    }
}

/// The path that names standard input (where a file is read) or standard output (where one
/// is written).
pub const STDIO: &str = "-";

/// True when `path` is `-`: standard input or output.
pub fn is_stdio(path: &Path) -> bool {
    path.as_os_str() == STDIO
}

/// Standard input, read whole once: a command may read the start of an input to tell its
/// format and then all of it.
fn stdin() -> Result<&'static [u8], CliError> {
    use std::io::Read;
    static STDIN: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    if let Some(bytes) = STDIN.get() {
        return Ok(bytes);
    }
    let mut bytes = Vec::new();
    std::io::stdin()
        .lock()
        .read_to_end(&mut bytes)
        .map_err(|e| CliError::io(STDIO, e))?;
    Ok(STDIN.get_or_init(|| bytes))
}

/// The first `len` bytes of `path`, or as many as there are.
pub fn read_prefix(path: &Path, len: u64) -> Result<Vec<u8>, CliError> {
    read_range(path, 0, len)
}

/// `size` bytes at `offset` of `path`, or as many as there are.
fn read_range(path: &Path, offset: u64, size: u64) -> Result<Vec<u8>, CliError> {
    use std::io::{Read, Seek, SeekFrom};
    if is_stdio(path) {
        let bytes = stdin()?;
        let start = usize::try_from(offset).map_or(bytes.len(), |o| o.min(bytes.len()));
        let end =
            usize::try_from(size).map_or(bytes.len(), |n| start.saturating_add(n).min(bytes.len()));
        return Ok(bytes[start..end].to_vec());
    }
    let mut file = fs::File::open(path).map_err(|e| CliError::io(path, e))?;
    file.seek(SeekFrom::Start(offset))
        .map_err(|e| CliError::io(path, e))?;
    let mut bytes = Vec::new();
    file.take(size)
        .read_to_end(&mut bytes)
        .map_err(|e| CliError::io(path, e))?;
    Ok(bytes)
}

/// Expands the arguments into files: files stay as given (even ones that do not exist, so
/// the error is reported against that file), directories are walked recursively and their
/// files sorted by path so that output is stable across file systems. Symbolic links to
/// directories are not followed, which rules out cycles; symbolic links to files are taken.
pub fn collect_inputs(paths: &[PathBuf]) -> Result<Vec<Input>, CliError> {
    let mut inputs = Vec::new();
    for path in paths {
        if !path.is_dir() {
            inputs.push(Input::file(path.clone(), false));
            continue;
        }
        for entry in walkdir::WalkDir::new(path).sort_by_file_name() {
            let entry = entry.map_err(|e| {
                let at = e.path().unwrap_or(path).to_owned();
                CliError::io(at, e.into())
            })?;
            let is_file =
                entry.file_type().is_file() || (entry.path_is_symlink() && entry.path().is_file());
            if is_file {
                inputs.push(Input::file(entry.into_path(), true));
            }
        }
    }
    Ok(inputs)
}

/// Refuses to write `output` over one of the command's inputs (`decode g.ifp -o g.ifp` would
/// replace a game file by its JSON), unless the user asked for it with `--force`.
pub fn refuse_overwriting_inputs(
    output: &Path,
    inputs: &[&Path],
    force: bool,
) -> Result<(), CliError> {
    // An output that does not exist yet cannot be an input.
    let Ok(target) = fs::canonicalize(output) else {
        return Ok(());
    };
    if force {
        return Ok(());
    }
    if inputs
        .iter()
        .any(|input| fs::canonicalize(input).is_ok_and(|input| input == target))
    {
        return Err(CliError::Usage(format!(
            "{} is also an input: refusing to replace it (nothing was written; add --force to replace it)",
            output.display()
        )));
    }
    Ok(())
}

/// Reads a whole file, or standard input for `-`.
pub fn read(path: &Path) -> Result<Vec<u8>, CliError> {
    match is_stdio(path) {
        true => stdin().map(<[u8]>::to_vec),
        false => fs::read(path).map_err(|e| CliError::io(path, e)),
    }
}

/// Writes `bytes` to `path` atomically, or to standard output for `-` (see
/// [`write_atomically_with`]).
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), CliError> {
    write_atomically_with(path, |out| {
        out.write_all(bytes).map_err(|e| CliError::io(path, e))
    })
}

/// Writes `path` through a temporary file in the same directory that `fill` writes and that
/// is then renamed into place, so readers never see a partial file and a failure leaves
/// `path` as it was. The temporary file must be on the same file system for the rename to be
/// atomic, hence the same directory rather than the system temp directory.
pub fn write_atomically_with(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> Result<(), CliError>,
) -> Result<(), CliError> {
    if is_stdio(path) {
        let mut out = std::io::stdout().lock();
        // A failed write is standard output's, whatever file name it was given.
        fill(&mut out).map_err(|e| match e {
            CliError::Io { path, source } if is_stdio(&path) => CliError::Stdout(source),
            other => other,
        })?;
        return out.flush().map_err(CliError::Stdout);
    }
    // A device or a pipe (`-o /dev/null`) is written as it is: renamed over, it would be
    // replaced by a regular file.
    if fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir()) {
        let mut out = fs::OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|e| CliError::io(path, e))?;
        fill(&mut out)?;
        return out.flush().map_err(|e| CliError::io(path, e));
    }
    let dir = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let mut builder = tempfile::Builder::new();
    builder.prefix(".skelcodec-").suffix(".tmp");
    // tempfile creates private files (0600); an output is an ordinary file, so it gets the
    // usual mode (the umask applies), or the mode of the file it replaces.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(fs::Permissions::from_mode(0o666));
    }
    // The temporary file is removed when dropped, which covers every early return.
    let mut temp = builder
        .tempfile_in(dir)
        .map_err(|e| CliError::io(path, e))?;
    fill(temp.as_file_mut())?;
    temp.as_file()
        .sync_all()
        .map_err(|e| CliError::io(path, e))?;
    if let Ok(existing) = fs::metadata(path) {
        fs::set_permissions(temp.path(), existing.permissions())
            .map_err(|e| CliError::io(path, e))?;
    }
    temp.persist(path)
        .map_err(|e| CliError::io(path, e.error))?;
    Ok(())
}

/// The file extension, if it is valid UTF-8.
pub fn extension(path: &Path) -> Option<&str> {
    path.extension().and_then(|e| e.to_str())
}
