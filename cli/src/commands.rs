//! The subcommands. Each returns the process exit status, or the error that stops it.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use skelcodec_formats::Format;
use skelcodec_runtime::{Mismatch, RoundTrip};

use crate::batch::run_ordered;
use crate::container::with_archive_entries;
use crate::error::{CliError, EXIT_DIFFERENCE, EXIT_ERROR, known_format_ids};
use crate::io::{Input, collect_inputs, extension, write_atomically};

/// What `roundtrip` found for one input.
enum RoundTripOutcome {
    /// Found in a directory, of no known format.
    Skipped,
    /// Decoded and re-encoded byte for byte.
    Exact { len: usize },
    /// Re-encoded differently: where first, in which field, and the two lengths.
    Differs {
        offset: usize,
        field: String,
        input_len: usize,
        output_len: usize,
    },
    /// Did not decode (or could not be read).
    Failed(CliError),
}

/// `roundtrip`: decodes and re-encodes each file and reports whether it is byte-exact, one
/// line per file in the order of the arguments (directories sorted), then `N/M byte-exact`.
/// Exits with [`EXIT_ERROR`] if any file fails to decode, else [`EXIT_DIFFERENCE`] if any
/// differs.
pub fn roundtrip(
    paths: &[PathBuf],
    forced: Option<&'static dyn Format>,
    quiet: bool,
) -> Result<ExitCode, CliError> {
    let inputs = with_archive_entries(collect_inputs(paths)?)?;
    let mut out = std::io::stdout().lock();
    let (mut total, mut exact, mut failed) = (0usize, 0usize, false);
    let mut skipped = Vec::new();
    let outcome_of = |input: &Input| {
        let (bytes, format) = match read_known(input, forced) {
            Ok(Some(known)) => known,
            Ok(None) => return RoundTripOutcome::Skipped,
            Err(e) => return RoundTripOutcome::Failed(e),
        };
        match format.round_trip(&bytes) {
            Ok(RoundTrip::Exact) => RoundTripOutcome::Exact { len: bytes.len() },
            Ok(RoundTrip::Differs {
                offset,
                field,
                input_len,
                output_len,
            }) => RoundTripOutcome::Differs {
                offset,
                field,
                input_len,
                output_len,
            },
            Err(source) => {
                RoundTripOutcome::Failed(CliError::reading_or_writing_back(&input.path, source))
            }
        }
    };
    run_ordered(&inputs, quiet, outcome_of, |input, outcome| {
        let path = input.path.display();
        let line = match outcome {
            RoundTripOutcome::Skipped => {
                skipped.push(input.path.as_path());
                return Ok(());
            }
            RoundTripOutcome::Exact { len } => {
                exact += 1;
                (!quiet).then(|| format!("ok    {path}  ({len} bytes, byte-exact)"))
            }
            RoundTripOutcome::Differs {
                offset,
                field,
                input_len,
                output_len,
            } => {
                // An empty path is the root value, e.g. when only the lengths differ.
                let field = if field.is_empty() { "root" } else { &field };
                Some(format!(
                    "DIFF  {path}  first difference at byte {offset} ({field}); \
                     input {input_len} bytes, output {output_len}"
                ))
            }
            RoundTripOutcome::Failed(e) => {
                failed = true;
                Some(format!("FAIL  {path}  {}", without_path(&e, &input.path)))
            }
        };
        total += 1;
        line.map_or(Ok(()), |line| writeln!(out, "{line}"))
            .map_err(CliError::Stdout)
    })?;
    if !quiet {
        writeln!(out, "{exact}/{total} byte-exact").map_err(CliError::Stdout)?;
    }
    if total == 0 {
        // A run that checked nothing must not pass as a success (say, a mistyped directory).
        return Err(nothing_to_do(&skipped));
    }
    Ok(if failed {
        ExitCode::from(EXIT_ERROR)
    } else if exact < total {
        ExitCode::from(EXIT_DIFFERENCE)
    } else {
        ExitCode::SUCCESS
    })
}

/// What `check` found for one input.
enum CheckOutcome {
    /// Found in a directory, of no known format.
    Skipped,
    /// The derived fields that disagree with the content, then the stale checksums the format
    /// does not derive, each as printed (none: all agree).
    Checked(Vec<String>),
    /// Did not decode, or the normalized copy could not be written.
    Failed(CliError),
}

/// `check`: reports every derived field whose stored value disagrees with the content;
/// with `normalize`, also writes the file with those fields recomputed. Exits with
/// [`EXIT_ERROR`] if any file fails to decode, else [`EXIT_DIFFERENCE`] if any disagrees.
pub fn check(
    paths: &[PathBuf],
    forced: Option<&'static dyn Format>,
    normalize_to: Option<&Path>,
    quiet: bool,
) -> Result<ExitCode, CliError> {
    let inputs = collect_inputs(paths)?;
    let inputs = if normalize_to.is_some() {
        inputs
    } else {
        with_archive_entries(inputs)?
    };
    if normalize_to.is_some() && inputs.len() != 1 {
        return Err(CliError::Usage(format!(
            "--normalize takes exactly one file, got {}",
            inputs.len()
        )));
    }
    let outcome_of = |input: &Input| {
        let checked = read_known(input, forced).and_then(|known| {
            let Some((bytes, format)) = known else {
                return Ok(None);
            };
            let decode_error = |source| CliError::reading_or_writing_back(&input.path, source);
            let mismatches = format.check(&bytes).map_err(decode_error)?;
            let unstated = format.unstated_checksums(&bytes);
            let reported = |path: &str| mismatches.iter().any(|m: &Mismatch| m.path == path);
            let unstated: Vec<String> = unstated
                .iter()
                .filter(|u| !reported(&u.path))
                .map(ToString::to_string)
                .collect();
            let mismatches: Vec<String> = mismatches
                .iter()
                .map(ToString::to_string)
                .chain(unstated)
                .collect();
            if let Some(target) = normalize_to {
                // Normalizing only recomputes derived fields, so an encode failure here
                // is a value the format cannot hold, reported against the input.
                write_atomically(target, &format.normalize(&bytes).map_err(decode_error)?)?;
            }
            Ok(Some(mismatches))
        });
        match checked {
            Ok(Some(mismatches)) => CheckOutcome::Checked(mismatches),
            Ok(None) => CheckOutcome::Skipped,
            Err(e) => CheckOutcome::Failed(e),
        }
    };
    let mut out = std::io::stdout().lock();
    let (mut checked, mut failed, mut disagree) = (0usize, false, false);
    let mut skipped = Vec::new();
    run_ordered(&inputs, quiet, outcome_of, |input, outcome| {
        let path = input.path.display();
        match outcome {
            CheckOutcome::Skipped => {
                skipped.push(input.path.as_path());
                Ok(())
            }
            CheckOutcome::Checked(mismatches) if mismatches.is_empty() && quiet => {
                checked += 1;
                Ok(())
            }
            CheckOutcome::Checked(mismatches) if mismatches.is_empty() => {
                checked += 1;
                writeln!(out, "{path}: no disagreements").map_err(CliError::Stdout)
            }
            CheckOutcome::Checked(mismatches) => {
                checked += 1;
                disagree = true;
                mismatches
                    .iter()
                    .try_for_each(|m| writeln!(out, "{path}: {m}"))
                    .map_err(CliError::Stdout)
            }
            CheckOutcome::Failed(e) => {
                failed = true;
                eprintln!("skelcodec: {e}");
                Ok(())
            }
        }
    })?;
    if checked == 0 && !failed {
        return Err(nothing_to_do(&skipped));
    }
    Ok(if failed {
        ExitCode::from(EXIT_ERROR)
    } else if disagree {
        ExitCode::from(EXIT_DIFFERENCE)
    } else {
        ExitCode::SUCCESS
    })
}

/// The error for arguments that hold no file of a known format, naming the first files
/// skipped.
pub(crate) fn nothing_to_do(skipped: &[&Path]) -> CliError {
    const NAMED: usize = 5;
    let mut names: Vec<String> = skipped
        .iter()
        .take(NAMED)
        .map(|p| p.display().to_string())
        .collect();
    if skipped.len() > NAMED {
        names.push(format!("and {} more", skipped.len() - NAMED));
    }
    let skipped = if names.is_empty() {
        String::new()
    } else {
        format!("; skipped {}", names.join(", "))
    };
    CliError::Usage(format!(
        "no file of a known format (known formats: {}) among the arguments{skipped}",
        known_format_ids()
    ))
}

/// The format named by `--format`, if one was given.
pub fn forced_format(id: Option<&str>) -> Result<Option<&'static dyn Format>, CliError> {
    id.map(|id| {
        skelcodec_formats::by_id(id).ok_or_else(|| CliError::UnknownFormat { id: id.to_owned() })
    })
    .transpose()
}

/// The format of a named file: the forced one, else detected by magic, then by `extension`
/// (the file's, or for a container's entry the one its kind implies).
pub fn format_of(
    path: &Path,
    extension: Option<&str>,
    bytes: &[u8],
    forced: Option<&'static dyn Format>,
) -> Result<&'static dyn Format, CliError> {
    forced
        .or_else(|| skelcodec_formats::detect(bytes, extension))
        .ok_or_else(|| CliError::UndetectedFormat {
            path: path.to_owned(),
        })
}

/// The format of an input, or `None` for a file found in a directory that does not look like
/// the forced format or any known one: directories hold READMEs and the like, which are not
/// worth failing over, nor a line of output.
/// An input's bytes and the format they are read as.
pub(crate) type Known = (Vec<u8>, &'static dyn Format);

/// An input's bytes and format; `None` for a file found in a directory that is of no known
/// format (or not of the forced one), which batch commands skip.
pub(crate) fn read_known(
    input: &Input,
    forced: Option<&'static dyn Format>,
) -> Result<Option<Known>, CliError> {
    let bytes = input.read()?;
    Ok(input_format(input, &bytes, forced)?.map(|format| (bytes, format)))
}

fn input_format(
    input: &Input,
    bytes: &[u8],
    forced: Option<&'static dyn Format>,
) -> Result<Option<&'static dyn Format>, CliError> {
    if !input.walked {
        return format_of(&input.path, extension(&input.path), bytes, forced).map(Some);
    }
    let ext = extension(&input.path);
    let format = match forced {
        Some(f) if f.matches(bytes) || ext.is_some_and(|e| has_extension(f, e)) => Some(f),
        Some(_) => None,
        None => skelcodec_formats::detect(bytes, ext),
    };
    Ok(format)
}

/// True when `ext` is one of the format's extensions, ignoring case.
fn has_extension(format: &dyn Format, ext: &str) -> bool {
    format
        .extensions()
        .iter()
        .any(|known| known.eq_ignore_ascii_case(ext))
}

/// The error message without the leading `PATH: `, for lines that already start with the path.
pub(crate) fn without_path(error: &CliError, path: &Path) -> String {
    let message = error.to_string();
    let prefix = format!("{}: ", path.display());
    match message.strip_prefix(&prefix) {
        Some(rest) => rest.to_owned(),
        None => message,
    }
}
