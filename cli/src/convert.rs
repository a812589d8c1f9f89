//! `convert`: a file to another version of its format, through the generated types. Each
//! format lists its conversions, which `skelcodec formats` prints.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use crate::commands::{extension, format_of};
use crate::container::read_input;
use crate::error::CliError;
use crate::io::write_atomically;

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
        targets: &["anpk", "anp3"],
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

/// GTA animation packages between ANPK (III, Vice City) and ANP3 (San Andreas).
fn convert_ifp(
    file: &Path,
    bytes: &[u8],
    to: &str,
    options: ConvertOptions,
) -> Result<Converted, CliError> {
    use skelcodec_formats::gta::{ConvertOptions as IfpOptions, IfpVersion};
    let target: IfpVersion = to.parse().map_err(CliError::Usage)?;
    let package = skelcodec_formats::ifp::Ifp::read(bytes).map_err(|source| CliError::Decode {
        path: file.to_owned(),
        source,
    })?;
    let options = IfpOptions {
        compress: options.compress,
        lossy: options.lossy,
    };
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
    })
}
