//! `package list|extract|replace|add|delete|rebuild`: the entries of a Sims 2 package or a
//! GTA IMG archive.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use crate::container::{Container, Replaced, entry_path};
use crate::error::CliError;
use crate::io::{read, write_atomically};

/// Opens `path` as a container, or says it is not one.
fn open(path: &Path) -> Result<Container, CliError> {
    let bytes = read(path)?;
    Container::open(path, &bytes)?.ok_or_else(|| {
        CliError::Usage(format!(
            "{} is not a package or archive of a known kind",
            path.display()
        ))
    })
}

/// `package list`: one line per entry, its name first (as `extract` and `CONTAINER#ENTRY`
/// take it), then its kind, size and how it is stored.
pub fn list(path: &Path) -> Result<ExitCode, CliError> {
    let container = open(path)?;
    let mut out = std::io::stdout().lock();
    for entry in container.entries() {
        let size = entry
            .size
            .map_or_else(|| "?".to_owned(), |size| size.to_string());
        let mut line = format!(
            "{}  {:<4}  {size:>9} bytes",
            entry.name,
            entry.kind.unwrap_or("-")
        );
        if let Some(stored) = &entry.stored {
            line.push_str(&format!("  ({stored})"));
        }
        writeln!(out, "{line}").map_err(CliError::Stdout)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `package extract`: the named entries (or all of them) into the directory `output`, or one
/// named entry into the file `output`.
pub fn extract(path: &Path, names: &[String], output: &Path) -> Result<ExitCode, CliError> {
    let container = open(path)?;
    if let [name] = names
        && !output.is_dir()
    {
        write_atomically(output, &container.extract(path, name)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    std::fs::create_dir_all(output).map_err(|e| CliError::io(output, e))?;
    let chosen: Vec<_> = if names.is_empty() {
        container.entries()
    } else {
        names
            .iter()
            .map(|name| {
                container.entry(name).ok_or_else(|| {
                    CliError::Usage(format!(
                        "{} holds no entry `{name}`",
                        entry_path(path, name).display()
                    ))
                })
            })
            .collect::<Result<_, _>>()?
    };
    let mut out = std::io::stdout().lock();
    for entry in chosen {
        let file_name = extracted_file_name(&entry.name, entry.extension);
        let target = output.join(&file_name);
        write_atomically(&target, &container.extract(path, &entry.name)?)?;
        writeln!(out, "{}", target.display()).map_err(CliError::Stdout)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `package replace`: the container with the entry `name` replaced by the file `with`,
/// written to `output` (and for a version 1 IMG archive, its `.dir` beside it). Bytes that do
/// not decode as the format of the entry they replace are refused, saying why, unless `force`.
pub fn replace(
    path: &Path,
    name: &str,
    with: &Path,
    output: &Path,
    force: bool,
) -> Result<ExitCode, CliError> {
    let mut container = open(path)?;
    let bytes = read(with)?;
    if !force {
        refuse_another_format(&container, path, name, with, &bytes)?;
    }
    let replaced = container.replace(path, name, &bytes)?;
    if let Some(directory) = &replaced.directory {
        write_atomically(&output.with_extension("dir"), directory)?;
    }
    write_atomically(output, &replaced.bytes)?;
    if let Some(note) = &replaced.note {
        println!("{note}");
    }
    Ok(ExitCode::SUCCESS)
}

/// `package add`: the container with the file `file` added as the entry `name` (by default,
/// for an IMG archive, the file's own name; a package's entry is named by its resource key),
/// laid out anew as `rebuild` lays it out, written to `output`.
pub fn add(
    path: &Path,
    file: &Path,
    name: Option<&str>,
    output: &Path,
) -> Result<ExitCode, CliError> {
    let mut container = open(path)?;
    let name = match (name, &container) {
        (Some(name), _) => name.to_owned(),
        (None, Container::Package(_)) => {
            return Err(CliError::Usage(format!(
                "a resource of {} is named by its key: give --name TYPE:GROUP:INSTANCE[:INSTANCE_HI] \
                 in hex, as `package list` prints them",
                path.display()
            )));
        }
        (None, Container::Img(_)) => file
            .file_name()
            .filter(|_| !crate::io::is_stdio(file))
            .and_then(|n| n.to_str())
            .map(str::to_owned)
            .ok_or_else(|| {
                CliError::Usage(format!(
                    "{} has no file name to give the entry: give --name NAME",
                    file.display()
                ))
            })?,
    };
    refuse_two_files_to_stdout(&container, path, output)?;
    let bytes = read(file)?;
    let edited = container.add(path, &name, &bytes)?;
    write_edited(output, &edited)
}

/// `package delete`: the container without the entries `names`, laid out anew as `rebuild`
/// lays it out, written to `output`.
pub fn delete(path: &Path, names: &[String], output: &Path) -> Result<ExitCode, CliError> {
    let mut container = open(path)?;
    refuse_two_files_to_stdout(&container, path, output)?;
    let edited = container.delete(path, names)?;
    write_edited(output, &edited)
}

/// `package rebuild`: the container without holes or stale bytes, its entries in directory
/// order, written to `output`.
pub fn rebuild(path: &Path, output: &Path) -> Result<ExitCode, CliError> {
    let mut container = open(path)?;
    refuse_two_files_to_stdout(&container, path, output)?;
    let edited = container.rebuild(path)?;
    write_edited(output, &edited)
}

/// A version 1 IMG archive is written as two files, which standard output cannot hold.
fn refuse_two_files_to_stdout(
    container: &Container,
    path: &Path,
    output: &Path,
) -> Result<(), CliError> {
    if let Container::Img(archive) = container
        && archive.version() == 1
        && crate::io::is_stdio(output)
    {
        return Err(CliError::Usage(format!(
            "{} is a version 1 IMG archive, written as an .img and a .dir: give -o a file name, \
             not `-`",
            path.display()
        )));
    }
    Ok(())
}

/// Writes an edited container to `output`: for a version 1 IMG archive, its `.dir` beside it.
fn write_edited(output: &Path, edited: &Replaced) -> Result<ExitCode, CliError> {
    if let Some(directory) = &edited.directory {
        write_atomically(&output.with_extension("dir"), directory)?;
    }
    write_atomically(output, &edited.bytes)?;
    Ok(ExitCode::SUCCESS)
}

/// Refuses `bytes` (the file `with`) as the new content of entry `name` when the entry is of a
/// known format and they do not decode as it: a typo'd file name would otherwise put anything
/// into the archive without a word.
fn refuse_another_format(
    container: &Container,
    path: &Path,
    name: &str,
    with: &Path,
    bytes: &[u8],
) -> Result<(), CliError> {
    let Some(entry) = container.entry(name) else {
        return Ok(()); // `replace` says the entry is missing.
    };
    let old = container.extract(path, name)?;
    let Some(format) = skelcodec_formats::detect(&old, Some(entry.extension)) else {
        return Ok(());
    };
    match format.decode_json(bytes) {
        Ok(_) => Ok(()),
        Err(e) => Err(CliError::Usage(format!(
            "{} does not decode as {}, the format of {} ({e}): nothing was written; add --force to \
             replace it anyway",
            with.display(),
            format.id(),
            entry_path(path, name).display()
        ))),
    }
}

/// A file name for an extracted entry: its name, made safe for every file system (no `:`,
/// `/` or `\`, no leading dot, so never `..`), with `extension` unless it already has one.
fn extracted_file_name(name: &str, extension: &str) -> String {
    let mut safe: String = name
        .chars()
        .map(|c| {
            if matches!(c, ':' | '/' | '\\') {
                '_'
            } else {
                c
            }
        })
        .collect();
    if safe.is_empty() || safe.starts_with('.') {
        safe.insert(0, '_');
    }
    if extension.is_empty() || Path::new(&safe).extension().is_some() {
        safe
    } else {
        format!("{safe}.{extension}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extracted_names_are_safe_and_keep_their_extension() {
        assert_eq!(
            extracted_file_name("0xFB00791E:0x1C050000:0x00000001", "5an"),
            "0xFB00791E_0x1C050000_0x00000001.5an"
        );
        assert_eq!(extracted_file_name("csbmyap.dff", ""), "csbmyap.dff");
        assert_eq!(extracted_file_name("../evil", "bin"), "_.._evil");
        assert_eq!(extracted_file_name("..", "bin"), "_..");
    }
}
