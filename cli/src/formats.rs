//! `formats`: the formats the command line knows, and what each converts to.

use std::io::Write;
use std::process::ExitCode;

use crate::convert::targets_of;
use crate::error::CliError;

/// `formats`: lists the known formats.
pub fn list_formats() -> Result<ExitCode, CliError> {
    let mut out = std::io::stdout().lock();
    for format in skelcodec_formats::formats() {
        let extensions: Vec<String> = format
            .extensions()
            .iter()
            .map(|e| format!(".{e}"))
            .collect();
        let mut line = format!("{:<13}  {}", format.id(), extensions.join(" "));
        let targets = targets_of(format.id());
        if !targets.is_empty() {
            line = format!("{line:<36}  converts to {}", targets.join(", "));
        }
        writeln!(out, "{}", line.trim_end()).map_err(CliError::Stdout)?;
    }
    Ok(ExitCode::SUCCESS)
}
