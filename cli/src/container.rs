//! Files that hold other files: Sims 2 packages (entries named by resource key) and GTA IMG
//! archives (by file name; version 1 is a `.dir` beside an `.img`, opened from either).
//! Commands reach an entry as `CONTAINER#ENTRY` wherever they take a file, and `package`
//! lists, extracts and replaces entries.

use std::path::{Path, PathBuf};

use skelcodec_formats::dbpf::Dbpf;
use skelcodec_formats::img::Img;
use skelcodec_formats::img_archive::{Archive, ArchiveError, Placement, SECTOR};
use skelcodec_formats::sims2::{ANIM_TYPE, ResourceError, ResourceKey, type_name};
use skelcodec_runtime::Codec;

use crate::error::CliError;
use crate::io::{Input, Source};

/// One entry, as `package list` shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntryInfo {
    /// The name that `CONTAINER#NAME` and `package extract` take.
    pub name: String,
    /// What kind of entry it is (`ANIM`), when known.
    pub kind: Option<&'static str>,
    /// Its size once extracted, when known without extracting it.
    pub size: Option<u64>,
    /// How it is stored (`QFS 1234 bytes`), when that differs from plain.
    pub stored: Option<String>,
    /// The file extension an extracted copy gets.
    pub extension: &'static str,
}

/// An opened container.
pub enum Container {
    /// A Sims 2 package.
    Package(Box<Dbpf>),
    /// A GTA IMG archive.
    Img(Archive),
}

impl Container {
    /// The container at `path` (whose bytes are `bytes`), or `None` when it is not one. A
    /// version 1 IMG archive is opened from its `.dir` or its `.img`, the other beside it.
    pub fn open(path: &Path, bytes: &[u8]) -> Result<Option<Self>, CliError> {
        if Dbpf::matches_magic(bytes) {
            let package = Dbpf::read(bytes).map_err(|source| CliError::Decode {
                path: path.to_owned(),
                source,
            })?;
            return Ok(Some(Container::Package(Box::new(package))));
        }
        let archive_error = |e: ArchiveError| CliError::Document {
            path: path.to_owned(),
            reason: e.to_string(),
        };
        if Img::matches_magic(bytes) {
            let archive = Archive::open_v2(bytes).map_err(archive_error)?;
            return Ok(Some(Container::Img(archive)));
        }
        let Some((directory, data)) = version1_pair(path) else {
            return Ok(None);
        };
        let (directory, data) = if path == directory {
            (bytes.to_vec(), crate::io::read(&data)?)
        } else {
            (crate::io::read(&directory)?, bytes.to_vec())
        };
        let archive = Archive::open_v1(&directory, data).map_err(archive_error)?;
        Ok(Some(Container::Img(archive)))
    }

    /// Its entries in stored order.
    pub fn entries(&self) -> Vec<EntryInfo> {
        match self {
            Container::Package(package) => package
                .index
                .iter()
                .map(|entry| {
                    let key = entry.key();
                    let compressed = package.is_compressed(entry);
                    let uncompressed = package
                        .directory_records()
                        .find(|r| r.lists(key))
                        .map(|r| u64::from(r.uncompressed_size));
                    EntryInfo {
                        name: key.hex_name(),
                        kind: type_name(key.type_id),
                        size: if compressed {
                            uncompressed
                        } else {
                            Some(u64::from(entry.size))
                        },
                        stored: compressed.then(|| format!("QFS {} bytes", entry.size)),
                        extension: if key.type_id == ANIM_TYPE {
                            "5an"
                        } else {
                            "bin"
                        },
                    }
                })
                .collect(),
            Container::Img(archive) => archive
                .entries()
                .into_iter()
                .map(|entry| EntryInfo {
                    // The format its extension names: what `decode` would read it as.
                    kind: crate::io::extension(Path::new(&entry.name))
                        .and_then(|ext| skelcodec_formats::detect(&[], Some(ext)))
                        .map(|format| format.id()),
                    size: Some(entry.size),
                    stored: Some(format!(
                        "sectors {}..{}",
                        entry.offset / SECTOR,
                        (entry.offset + entry.size) / SECTOR
                    )),
                    name: entry.name,
                    extension: "",
                })
                .collect(),
        }
    }

    /// The entry `name`: as `entries` names it, ignoring case, or for a package any spelling
    /// of the same key (`ANIM:0x1C050000:0x1`).
    pub fn entry(&self, name: &str) -> Option<EntryInfo> {
        let canonical = match self {
            Container::Package(_) => resource_key(name).ok()?.hex_name(),
            Container::Img(_) => name.to_owned(),
        };
        self.entries()
            .into_iter()
            .find(|e| e.name.eq_ignore_ascii_case(&canonical))
    }

    /// The bytes of the entry `name`, decompressed.
    pub fn extract(&self, path: &Path, name: &str) -> Result<Vec<u8>, CliError> {
        match self {
            Container::Package(package) => {
                let key = resource_key(name)?;
                let entry = package
                    .index
                    .iter()
                    .find(|e| e.key() == key)
                    .ok_or_else(|| no_entry(path, name))?;
                package
                    .extract(entry)
                    .map_err(|e| resource_error(path, name, e))
            }
            Container::Img(archive) => {
                let entry = archive.entry(name).ok_or_else(|| no_entry(path, name))?;
                Ok(archive.entry_bytes(&entry).to_vec())
            }
        }
    }

    /// Replaces the entry `name` by `bytes` (compressed again when it was), and returns the
    /// container's new bytes, and for a version 1 IMG archive its new `.dir`.
    pub fn replace(&mut self, path: &Path, name: &str, bytes: &[u8]) -> Result<Replaced, CliError> {
        let encode_error = |source| CliError::Encode {
            path: entry_path(path, name),
            source: skelcodec_formats::EncodeError::Codec(source),
        };
        match self {
            Container::Package(package) => {
                let key = resource_key(name)?;
                let replaced = package
                    .replace(key, bytes)
                    .map_err(|e| resource_error(path, name, e))?;
                if !replaced {
                    return Err(no_entry(path, name));
                }
                Ok(Replaced {
                    bytes: package.to_bytes().map_err(encode_error)?,
                    directory: None,
                    note: None,
                })
            }
            Container::Img(archive) => {
                let placement = archive.replace(name, bytes).map_err(|e| match e {
                    ArchiveError::NoEntry(_) => no_entry(path, name),
                    other => CliError::Document {
                        path: entry_path(path, name),
                        reason: other.to_string(),
                    },
                })?;
                let note = match placement {
                    Placement::InPlace => None,
                    Placement::Moved { offset } => Some(format!(
                        "{name} no longer fits its sectors: moved to sector {}",
                        offset / SECTOR
                    )),
                };
                Ok(Replaced {
                    bytes: archive.to_bytes().map_err(encode_error)?,
                    directory: archive
                        .directory_bytes()
                        .transpose()
                        .map_err(encode_error)?,
                    note,
                })
            }
        }
    }
}

impl Container {
    /// Adds `bytes` as the entry `name` (for a package, its resource key, stored uncompressed)
    /// and returns the container laid out anew ([`Container::rebuild`]).
    pub fn add(&mut self, path: &Path, name: &str, bytes: &[u8]) -> Result<Replaced, CliError> {
        match self {
            Container::Package(package) => {
                let key = resource_key(name)?;
                package.add(key, bytes).map_err(|e| match e {
                    ResourceError::Duplicate(_) => duplicate(path, name),
                    e @ (ResourceError::KeyForm { .. } | ResourceError::Directory(_)) => {
                        CliError::Usage(format!(
                            "{}: {e}: nothing was written",
                            entry_path(path, name).display()
                        ))
                    }
                    other => resource_error(path, name, other),
                })?;
            }
            Container::Img(archive) => {
                archive
                    .add(name, bytes)
                    .map_err(|e| archive_edit_error(path, name, e))?;
            }
        }
        self.written(path)
    }

    /// Deletes the entries `names` (refusing, by name, one the container does not hold; then
    /// nothing is deleted) and returns the container laid out anew ([`Container::rebuild`]).
    pub fn delete(&mut self, path: &Path, names: &[String]) -> Result<Replaced, CliError> {
        match self {
            Container::Package(package) => {
                let keys = names
                    .iter()
                    .map(|name| {
                        let key = resource_key(name)?;
                        match package.index.iter().any(|e| e.key() == key) {
                            true => Ok(key),
                            false => Err(no_entry(path, name)),
                        }
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                package.delete(&keys).map_err(|e| match e {
                    e @ ResourceError::Directory(_) => {
                        CliError::Usage(format!("{}: {e}: nothing was written", path.display()))
                    }
                    other => package_error(path, other),
                })?;
            }
            Container::Img(archive) => {
                let names: Vec<&str> = names.iter().map(String::as_str).collect();
                archive.delete(&names).map_err(|e| match e {
                    ArchiveError::NoEntry(name) => no_entry(path, &name),
                    other => CliError::Document {
                        path: path.to_owned(),
                        reason: other.to_string(),
                    },
                })?;
            }
        }
        self.written(path)
    }

    /// The container laid out without holes: its entries in directory order, packed (a
    /// package) or each at the next whole sector (an IMG archive); stale bytes dropped.
    pub fn rebuild(&mut self, path: &Path) -> Result<Replaced, CliError> {
        match self {
            Container::Package(package) => package.rebuild().map_err(|e| package_error(path, e))?,
            Container::Img(archive) => archive.rebuild().map_err(|e| CliError::Document {
                path: path.to_owned(),
                reason: e.to_string(),
            })?,
        }
        self.written(path)
    }

    /// The container's bytes, and for a version 1 IMG archive its `.dir`.
    fn written(&self, path: &Path) -> Result<Replaced, CliError> {
        let encode_error = |source| CliError::Encode {
            path: path.to_owned(),
            source: skelcodec_formats::EncodeError::Codec(source),
        };
        Ok(match self {
            Container::Package(package) => Replaced {
                bytes: package.to_bytes().map_err(encode_error)?,
                directory: None,
                note: None,
            },
            Container::Img(archive) => Replaced {
                bytes: archive.to_bytes().map_err(encode_error)?,
                directory: archive
                    .directory_bytes()
                    .transpose()
                    .map_err(encode_error)?,
                note: None,
            },
        })
    }
}

/// The error for a package that cannot be laid out or written.
fn package_error(path: &Path, error: ResourceError) -> CliError {
    CliError::Document {
        path: path.to_owned(),
        reason: error.to_string(),
    }
}

/// The error for an IMG archive edit that names the entry `name`.
fn archive_edit_error(path: &Path, name: &str, error: ArchiveError) -> CliError {
    match error {
        ArchiveError::NoEntry(_) => no_entry(path, name),
        ArchiveError::Duplicate(_) => duplicate(path, name),
        ArchiveError::NameTooLong { .. } | ArchiveError::BadName { .. } => {
            CliError::Usage(format!(
                "{}: {error} (nothing was written; give another with --name)",
                path.display()
            ))
        }
        other => CliError::Document {
            path: entry_path(path, name),
            reason: other.to_string(),
        },
    }
}

/// The error for an entry name the container holds already.
fn duplicate(path: &Path, name: &str) -> CliError {
    CliError::Usage(format!(
        "{} already holds an entry `{name}`: nothing was written (`package replace` changes its \
         content; `package delete` removes it)",
        path.display()
    ))
}

/// A container with an entry replaced.
pub struct Replaced {
    /// The container's bytes (the `.img` of a version 1 archive).
    pub bytes: Vec<u8>,
    /// The new `.dir` of a version 1 archive.
    pub directory: Option<Vec<u8>>,
    /// What the user should know (an entry that moved).
    pub note: Option<String>,
}

/// The `.dir` and `.img` of a version 1 IMG archive that `path` is one of, when both exist.
pub fn version1_pair(path: &Path) -> Option<(PathBuf, PathBuf)> {
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    let (directory, data) = match ext.as_str() {
        "dir" => (path.to_owned(), path.with_extension("img")),
        "img" => (path.with_extension("dir"), path.to_owned()),
        _ => return None,
    };
    (directory.is_file() && data.is_file()).then_some((directory, data))
}

/// A resource key as `package list` prints it (or with the type's name).
fn resource_key(name: &str) -> Result<ResourceKey, CliError> {
    name.parse().map_err(CliError::Usage)
}

/// The error for an entry name the container does not hold.
fn no_entry(path: &Path, name: &str) -> CliError {
    CliError::Usage(format!(
        "{} holds no entry `{name}` (see `skelcodec package list {}`)",
        path.display(),
        path.display()
    ))
}

/// The error for a package resource that cannot be decompressed, compressed or laid out.
fn resource_error(path: &Path, name: &str, error: ResourceError) -> CliError {
    CliError::Document {
        path: entry_path(path, name),
        reason: error.to_string(),
    }
}

/// `CONTAINER#ENTRY`, the name of an entry in messages and output.
pub fn entry_path(container: &Path, entry: &str) -> PathBuf {
    let mut path = container.as_os_str().to_owned();
    path.push("#");
    path.push(entry);
    PathBuf::from(path)
}

/// Splits `CONTAINER#ENTRY` when `path` is not an existing file itself.
pub fn split_entry_path(path: &Path) -> Option<(PathBuf, String)> {
    if path.exists() {
        return None;
    }
    let text = path.to_str()?;
    let (container, entry) = text.rsplit_once('#')?;
    (!entry.is_empty() && Path::new(container).is_file())
        .then(|| (PathBuf::from(container), entry.to_owned()))
}

/// The bytes of a file, or of an entry named `CONTAINER#ENTRY`, with the extension that
/// tells their format (the file's, or the one the entry's kind implies).
pub fn read_input(path: &Path) -> Result<(Vec<u8>, Option<String>), CliError> {
    let Some((container_path, entry)) = split_entry_path(path) else {
        let extension = crate::io::extension(path).map(str::to_owned);
        return Ok((crate::io::read(path)?, extension));
    };
    let bytes = crate::io::read(&container_path)?;
    let container = Container::open(&container_path, &bytes)?.ok_or_else(|| {
        CliError::Usage(format!(
            "{} is not a package or archive, so `#{entry}` names nothing in it",
            container_path.display()
        ))
    })?;
    let extension = container
        .entry(&entry)
        .map(|e| e.extension)
        .filter(|e| !e.is_empty())
        .map(str::to_owned)
        .or_else(|| crate::io::extension(Path::new(&entry)).map(str::to_owned));
    Ok((container.extract(&container_path, &entry)?, extension))
}

/// The inputs with every IMG archive's entries after it, each to be read on its own: the
/// archive's directory is all that is read here. A version 1 archive is expanded from its
/// `.dir` (its `.img`, found by walking a directory, has nothing of its own to check).
pub fn with_archive_entries(inputs: Vec<Input>) -> Result<Vec<Input>, CliError> {
    use rayon::prelude::*;
    // Each input is opened to look for an archive header: on every core, as the work after.
    let expanded: Vec<Vec<Input>> = inputs
        .into_par_iter()
        .map(|input| {
            let entries = archive_entries(&input)?;
            // A version 1 archive's files are not of a format of their own: its entries are.
            let own = version1_pair(&input.path).is_none().then_some(input);
            Ok(own.into_iter().chain(entries).collect())
        })
        .collect::<Result<_, CliError>>()?;
    Ok(expanded.into_iter().flatten().collect())
}

/// The entries of the IMG archive `input` is, as inputs of their own (none when it is not one).
fn archive_entries(input: &Input) -> Result<Vec<Input>, CliError> {
    use skelcodec_formats::img_archive::{directory_len_v2, directory_v1, directory_v2};
    if input.source != Source::File {
        return Ok(Vec::new());
    }
    let path = &input.path;
    let archive_error = |e: ArchiveError| CliError::Document {
        path: path.clone(),
        reason: e.to_string(),
    };
    let (entries, data_file) = if let Some((directory, data)) = version1_pair(path) {
        if input.walked && *path == data {
            return Ok(Vec::new());
        }
        let entries = directory_v1(&crate::io::read(&directory)?).map_err(archive_error)?;
        (entries, data)
    } else {
        let mut first = [0u8; 8];
        let Ok(()) = std::fs::File::open(path).and_then(|mut f| {
            use std::io::Read;
            f.read_exact(&mut first)
        }) else {
            return Ok(Vec::new());
        };
        let Some(len) = directory_len_v2(&first) else {
            return Ok(Vec::new());
        };
        let header = crate::io::read_prefix(path, len)?;
        (directory_v2(&header).map_err(archive_error)?, path.clone())
    };
    Ok(entries
        .into_iter()
        .map(|entry| Input {
            path: entry_path(path, &entry.name),
            walked: true,
            source: Source::Range {
                file: data_file.clone(),
                offset: entry.offset,
                size: entry.size,
            },
        })
        .collect())
}
