//! Files that hold other files: Sims 2 packages (entries named by resource key). Commands
//! reach an entry as `CONTAINER#ENTRY` wherever they take a file, and `package` lists,
//! extracts and replaces entries.

use std::path::{Path, PathBuf};

use skelcodec_formats::dbpf::Dbpf;
use skelcodec_formats::sims2::{ANIM_TYPE, ResourceKey, type_name};
use skelcodec_runtime::Codec;

use crate::error::CliError;

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
}

impl Container {
    /// The container in `bytes`, or `None` when they are not one.
    pub fn open(path: &Path, bytes: &[u8]) -> Result<Option<Self>, CliError> {
        if Dbpf::matches_magic(bytes) {
            let package = Dbpf::read(bytes).map_err(|source| CliError::Decode {
                path: path.to_owned(),
                source,
            })?;
            return Ok(Some(Container::Package(Box::new(package))));
        }
        Ok(None)
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
        }
    }

    /// The entry `name`: as `entries` names it, ignoring case, or for a package any spelling
    /// of the same key (`ANIM:0x1C050000:0x1`).
    pub fn entry(&self, name: &str) -> Option<EntryInfo> {
        let canonical = match self {
            Container::Package(_) => resource_key(name).ok()?.hex_name(),
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
                package.extract(entry).map_err(|e| CliError::Document {
                    path: entry_path(path, name),
                    reason: e.to_string(),
                })
            }
        }
    }

    /// Replaces the entry `name` by `bytes` (compressed again when it was), and returns the
    /// container's new bytes.
    pub fn replace(&mut self, path: &Path, name: &str, bytes: &[u8]) -> Result<Vec<u8>, CliError> {
        let encode_error = |source| CliError::Encode {
            path: entry_path(path, name),
            source: skelcodec_formats::EncodeError::Codec(source),
        };
        match self {
            Container::Package(package) => {
                let key = resource_key(name)?;
                if !package.replace(key, bytes).map_err(encode_error)? {
                    return Err(no_entry(path, name));
                }
                package.to_bytes().map_err(encode_error)
            }
        }
    }
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
        let extension = crate::commands::extension(path).map(str::to_owned);
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
        .or_else(|| crate::commands::extension(Path::new(&entry)).map(str::to_owned));
    Ok((container.extract(&container_path, &entry)?, extension))
}
