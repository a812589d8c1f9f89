//! The errors the tool reports. Each one names the file it is about, so a message from a
//! run over many files can be traced back without context.

use std::io;
use std::path::PathBuf;

use skelcodec_formats::EncodeError;

/// Exit status when a file does not reproduce byte for byte, or has a derived field that
/// disagrees with its content.
pub const EXIT_DIFFERENCE: u8 = 1;
/// Exit status for usage, decode and encode errors.
pub const EXIT_ERROR: u8 = 2;
/// Exit status when standard output is a pipe whose reader has gone: 128 + SIGPIPE, as for a
/// process the signal ends.
pub const EXIT_BROKEN_PIPE: u8 = 141;

/// A failure that stops a command, or a file, with exit status 2.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// `decode --path` found nothing; `stopped` says where the path stopped matching.
    #[error("{}: nothing matches the path ({stopped})", path.display())]
    NothingMatches {
        /// The file decoded.
        path: PathBuf,
        /// Where the path stopped, and what is there.
        stopped: String,
    },
    /// Reading or writing a file failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating-system error.
        source: io::Error,
    },
    /// Standard output could not be written.
    #[error("cannot write to standard output: {0}")]
    Stdout(io::Error),
    /// Neither magic nor extension identify the file's format.
    #[error(
        "{}: cannot tell the format from its magic or extension (known formats: {}); use --format ID",
        path.display(),
        known_format_ids()
    )]
    UndetectedFormat {
        /// The file.
        path: PathBuf,
    },
    /// A format id that no format has.
    #[error("unknown format `{id}` (known formats: {})", known_format_ids())]
    UnknownFormat {
        /// The id as given.
        id: String,
    },
    /// The file does not decode; the runtime error has the byte offset and field path.
    #[error("{}: cannot decode: {source}", path.display())]
    Decode {
        /// The file.
        path: PathBuf,
        /// Where and why decoding stopped.
        source: skelcodec_runtime::Error,
    },
    /// A file that reads could not be written back (`roundtrip`); the runtime error says
    /// `cannot encode`, with the byte offset and field path.
    #[error("{}: read, but not written back: {source}", path.display())]
    WriteBack {
        /// The file.
        path: PathBuf,
        /// Why writing failed.
        source: skelcodec_runtime::Error,
    },
    /// A document (or a normalized value) could not be encoded.
    #[error("{}: cannot encode: {source}", path.display())]
    Encode {
        /// The document.
        path: PathBuf,
        /// Why encoding failed.
        source: EncodeError,
    },
    /// A document whose derived fields disagree with its content, encoded as it is.
    #[error(
        "{}: cannot encode: {source}; `skelcodec encode --normalize` recomputes what the content derives",
        path.display()
    )]
    NotNormalized {
        /// The document.
        path: PathBuf,
        /// The writer's refusal.
        source: EncodeError,
    },
    /// A document is not valid JSON/YAML or lacks the `format`/`value` keys.
    #[error("{}: {reason}", path.display())]
    Document {
        /// The document.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// Arguments that parse but do not make sense together.
    #[error("{0}")]
    Usage(String),
}

impl CliError {
    /// The status the command exits with: [`EXIT_DIFFERENCE`] when a path matches nothing,
    /// [`EXIT_BROKEN_PIPE`] when output was cut short, else [`EXIT_ERROR`].
    pub fn exit_code(&self) -> u8 {
        match self {
            _ if self.is_broken_pipe() => EXIT_BROKEN_PIPE,
            CliError::NothingMatches { .. } => EXIT_DIFFERENCE,
            _ => EXIT_ERROR,
        }
    }

    /// True for a write to a pipe whose reader has gone (`skelcodec check DIR | head -1`).
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, CliError::Stdout(source) if source.kind() == io::ErrorKind::BrokenPipe)
    }

    /// A file that failed to read, or that read and could not be written back (an error that
    /// [`is_encode`](skelcodec_runtime::ErrorKind::is_encode)), as the one or the other.
    pub fn reading_or_writing_back(
        path: &std::path::Path,
        source: skelcodec_runtime::Error,
    ) -> Self {
        let path = path.to_path_buf();
        match source.kind().is_encode() {
            true => CliError::WriteBack { path, source },
            false => CliError::Decode { path, source },
        }
    }

    /// Wraps an I/O error with the file it happened on.
    pub fn io(path: impl Into<PathBuf>, source: io::Error) -> Self {
        CliError::Io {
            path: path.into(),
            source,
        }
    }
}

/// The ids of all known formats, comma-separated, for error messages.
pub fn known_format_ids() -> String {
    skelcodec_formats::formats()
        .iter()
        .map(|f| f.id())
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use skelcodec_runtime::{Error, ErrorKind};

    #[test]
    fn a_file_that_reads_but_cannot_be_written_back_is_not_called_undecodable() {
        let path = std::path::Path::new("a.dmp");
        let refused = Error::new(4, ErrorKind::Encode("no room".into()));
        let message = CliError::reading_or_writing_back(path, refused).to_string();
        assert_eq!(
            message,
            "a.dmp: read, but not written back: at byte 4: cannot encode: no room"
        );
        // A rule of writing with data of its own is a refusal to write back too.
        let mismatch = Error::new(4, ErrorKind::ConditionMismatch { present: true });
        let message = CliError::reading_or_writing_back(path, mismatch).to_string();
        assert!(
            message.starts_with("a.dmp: read, but not written back"),
            "{message}"
        );
        let unread = Error::new(4, ErrorKind::Invalid("bad".into()));
        let message = CliError::reading_or_writing_back(path, unread).to_string();
        assert_eq!(message, "a.dmp: cannot decode: at byte 4: bad");
    }
}
