//! `convert`: a file to another version of its format, through the generated types. Each
//! format lists its conversions, which `skelcodec formats` prints.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::batch::run_ordered;
use crate::commands::{format_of, nothing_to_do, read_known, without_path};
use crate::container::read_input;
use crate::error::CliError;
use crate::error::EXIT_ERROR;
use crate::io::{Input, collect_inputs, extension, write_atomically};

/// What `--compress` and `--lossy` ask of a conversion.
#[derive(Debug, Clone, Copy, Default)]
pub struct ConvertOptions {
    /// Use the target's compressed encodings where it has them (range-checked).
    pub compress: bool,
    /// Drop what the target cannot hold, and report it, instead of refusing.
    pub lossy: bool,
}

/// A converted file and what was dropped on the way (only with `--lossy`).
struct Converted {
    bytes: Vec<u8>,
    dropped: Vec<String>,
    /// The file was already of the target version.
    already: bool,
}

/// The conversions of one format.
struct Conversions {
    /// The format's id.
    format: &'static str,
    /// The versions it converts to, as `--to` takes them.
    targets: &'static [&'static str],
    /// Converts a file of the format to `target`.
    convert: fn(&Path, &[u8], &str, ConvertOptions) -> Result<Converted, CliError>,
}

/// Every format that converts.
const CONVERSIONS: &[Conversions] = &[
    Conversions {
        format: "ifp",
        targets: &["anpk", "anpk-iii", "anpk-vc", "anp3"],
        convert: convert_ifp,
    },
    Conversions {
        format: "gsa",
        targets: &["gsa-4.1", "gsa-4.2"],
        convert: convert_gsa,
    },
];

/// The versions a format converts to (empty when it does not convert).
pub fn targets_of(format: &str) -> &'static [&'static str] {
    CONVERSIONS
        .iter()
        .find(|c| c.format == format)
        .map_or(&[], |c| c.targets)
}

/// `convert`: decode, convert through the generated types, encode, write atomically; print
/// what `--lossy` dropped.
pub fn convert(
    file: &Path,
    to: &str,
    output: &Path,
    options: ConvertOptions,
) -> Result<ExitCode, CliError> {
    let (bytes, ext) = read_input(file)?;
    let format = format_of(file, ext.as_deref().or(extension(file)), &bytes, None)?;
    let Some(conversions) = CONVERSIONS.iter().find(|c| c.format == format.id()) else {
        let converting: Vec<String> = CONVERSIONS
            .iter()
            .map(|c| format!("{} (to {})", c.format, c.targets.join(", ")))
            .collect();
        return Err(CliError::Usage(format!(
            "{} is a {} file, which does not convert; formats that do: {}",
            file.display(),
            format.id(),
            converting.join("; ")
        )));
    };
    if !conversions.targets.contains(&to) {
        return Err(CliError::Usage(format!(
            "a {} file converts to {}, not `{to}`",
            format.id(),
            conversions.targets.join(" or ")
        )));
    }
    let converted = (conversions.convert)(file, &bytes, to, options)?;
    write_atomically(output, &converted.bytes)?;
    let mut out = std::io::stdout().lock();
    for dropped in &converted.dropped {
        writeln!(out, "dropped {dropped}").map_err(CliError::Stdout)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// What `convert` did with one file of a folder.
enum FolderOutcome {
    /// Of no known format, or of one that does not convert to the target.
    Skipped,
    /// Already of the target version: nothing written.
    Already,
    /// Written to `output`; `dropped` is what `--lossy` dropped.
    Converted {
        output: PathBuf,
        dropped: Vec<String>,
    },
    /// Did not read, decode, convert or write.
    Failed(CliError),
}

/// `convert FOLDER`: every file under `dir` whose format converts to `to`, written under
/// `output` at the same relative path; other files are skipped, and those already of version
/// `to` are reported so (`skip IN already anp3`) and not written. Files are converted on every
/// core and reported in input order (`ok IN -> OUT`, `FAIL IN why`), then `N/M converted`.
pub fn convert_folder(
    dir: &Path,
    to: &str,
    output: &Path,
    options: ConvertOptions,
    quiet: bool,
) -> Result<ExitCode, CliError> {
    let inputs = collect_inputs(&[dir.to_owned()])?;
    let outcome_of = |input: &Input| -> FolderOutcome {
        let (bytes, format) = match read_known(input, None) {
            Ok(Some(known)) => known,
            Ok(None) => return FolderOutcome::Skipped,
            Err(e) => return FolderOutcome::Failed(e),
        };
        let Some(conversions) = CONVERSIONS
            .iter()
            .find(|c| c.format == format.id() && c.targets.contains(&to))
        else {
            return FolderOutcome::Skipped;
        };
        let relative = input.path.strip_prefix(dir).unwrap_or(&input.path);
        let target = output.join(relative);
        let written = (conversions.convert)(&input.path, &bytes, to, options).and_then(|c| {
            if c.already {
                return Ok(None);
            }
            if let Some(parent) = target.parent() {
                std::fs::create_dir_all(parent).map_err(|e| CliError::io(parent, e))?;
            }
            write_atomically(&target, &c.bytes)?;
            Ok(Some(c.dropped))
        });
        match written {
            Ok(Some(dropped)) => FolderOutcome::Converted {
                output: target,
                dropped,
            },
            Ok(None) => FolderOutcome::Already,
            Err(e) => FolderOutcome::Failed(e),
        }
    };
    let mut out = std::io::stdout().lock();
    let (mut total, mut converted, mut already) = (0usize, 0usize, 0usize);
    let mut skipped = Vec::new();
    run_ordered(&inputs, quiet, outcome_of, |input, outcome| {
        let path = input.path.display();
        let lines = match outcome {
            FolderOutcome::Skipped => {
                skipped.push(input.path.as_path());
                return Ok(());
            }
            FolderOutcome::Already => {
                already += 1;
                return writeln!(out, "skip  {path}  already {to}").map_err(CliError::Stdout);
            }
            FolderOutcome::Converted { output, dropped } => {
                converted += 1;
                std::iter::once(format!("ok    {path} -> {}", output.display()))
                    .chain(dropped.iter().map(|d| format!("      dropped {d}")))
                    .collect::<Vec<_>>()
            }
            FolderOutcome::Failed(e) => {
                vec![format!("FAIL  {path}  {}", without_path(&e, &input.path))]
            }
        };
        total += 1;
        lines
            .iter()
            .try_for_each(|line| writeln!(out, "{line}"))
            .map_err(CliError::Stdout)
    })?;
    let already_there = match already {
        0 => String::new(),
        n => format!(", {n} already {to}"),
    };
    writeln!(out, "{converted}/{total} converted to {to}{already_there}")
        .map_err(CliError::Stdout)?;
    if total == 0 && already == 0 {
        return Err(nothing_to_do(&skipped));
    }
    Ok(if converted < total {
        ExitCode::from(EXIT_ERROR)
    } else {
        ExitCode::SUCCESS
    })
}

/// GTA animation packages between ANPK (III, Vice City) and ANP3 (San Andreas).
fn convert_ifp(
    file: &Path,
    bytes: &[u8],
    to: &str,
    options: ConvertOptions,
) -> Result<Converted, CliError> {
    use skelcodec_formats::gta::{ConvertOptions as IfpOptions, IfpTarget};
    let target: IfpTarget = to.parse().map_err(CliError::Usage)?;
    let package = skelcodec_formats::ifp::Ifp::read(bytes).map_err(|source| CliError::Decode {
        path: file.to_owned(),
        source,
    })?;
    let options = IfpOptions {
        compress: options.compress,
        lossy: options.lossy,
    };
    let already = package.is_already(target);
    let converted = package
        .converted(target, options)
        .map_err(|e| CliError::Document {
            path: file.to_owned(),
            reason: e.to_string(),
        })?;
    let bytes = converted
        .ifp
        .to_bytes()
        .map_err(|source| CliError::Encode {
            path: file.to_owned(),
            source: source.into(),
        })?;
    Ok(Converted {
        bytes,
        dropped: converted.dropped.iter().map(ToString::to_string).collect(),
        already,
    })
}

/// SWAT 3 animations between exporter versions 4.1 and 4.2.
fn convert_gsa(
    file: &Path,
    bytes: &[u8],
    to: &str,
    options: ConvertOptions,
) -> Result<Converted, CliError> {
    if options.compress || options.lossy {
        // GSA versions differ only in events, which 4.1 → 4.2 adds empty and 4.2 → 4.1 can
        // only drop when there are none: there is nothing to compress or to lose.
        return Err(CliError::Usage(
            "GSA conversions take neither --compress nor --lossy".into(),
        ));
    }
    let target: skelcodec_formats::swat::GsaVersion = to.parse().map_err(CliError::Usage)?;
    let animation =
        skelcodec_formats::gsa::Gsa::read(bytes).map_err(|source| CliError::Decode {
            path: file.to_owned(),
            source,
        })?;
    let already = animation.version() == Some(target);
    let converted = animation
        .converted(target)
        .map_err(|e| CliError::Document {
            path: file.to_owned(),
            reason: e.to_string(),
        })?;
    let bytes = converted.to_bytes().map_err(|source| CliError::Encode {
        path: file.to_owned(),
        source: source.into(),
    })?;
    Ok(Converted {
        bytes,
        dropped: Vec::new(),
        already,
    })
}
