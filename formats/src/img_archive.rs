//! GTA IMG archives: version 2 (San Andreas, one file starting `VER2`) and version 1 (GTA III
//! and Vice City: a `.dir` directory beside an `.img` of data). Entries are listed, extracted
//! and replaced by name; the directories are read and written by the generated codecs of
//! `schemas/img.ksy` and `schemas/img_dir.ksy`.

use skelcodec_runtime::FixedStr;

use crate::img as v2;
use crate::img_dir as v1;

/// Bytes in a sector: every entry starts at a sector and fills whole sectors.
pub const SECTOR: u64 = 2048;

/// Why an archive cannot be read or changed.
#[derive(Debug, thiserror::Error)]
pub enum ArchiveError {
    /// The directory does not decode.
    #[error(transparent)]
    Directory(#[from] skelcodec_runtime::Error),
    /// An entry's sectors lie outside the archive.
    #[error(
        "entry `{name}` claims bytes {start}..{end}, but the archive has {len} bytes{}",
        if *start < *header { " and its directory ends later" } else { "" }
    )]
    OutOfBounds {
        /// The entry.
        name: String,
        /// First byte claimed.
        start: u64,
        /// One past the last byte claimed.
        end: u64,
        /// The archive's length.
        len: u64,
        /// Where the data may start (after a version 2 directory).
        header: u64,
    },
    /// No entry has the name.
    #[error("no entry `{0}` in the archive")]
    NoEntry(String),
    /// The new data needs more sectors than the directory can record.
    #[error(
        "entry `{name}` would need {sectors} sectors, more than the directory can record ({max})"
    )]
    TooLarge {
        /// The entry.
        name: String,
        /// Sectors needed.
        sectors: u64,
        /// The most the size field holds.
        max: u64,
    },
}

/// One entry of the directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Its file name, up to the NUL (bytes that are not text are shown replaced).
    pub name: String,
    /// Where its data starts, in bytes from the start of the data file.
    pub offset: u64,
    /// Its size in bytes (whole sectors).
    pub size: u64,
}

/// An opened archive, with every byte it was read from.
#[derive(Debug, Clone, PartialEq)]
pub enum Archive {
    /// A San Andreas archive; the data follows the directory in the same file.
    V2(v2::Img),
    /// A GTA III / Vice City archive: the `.dir` and the whole `.img`.
    V1 {
        /// The `.dir`.
        directory: v1::ImgDir,
        /// The `.img`.
        data: Vec<u8>,
    },
}

/// What [`Archive::replace`] did with the entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placement {
    /// The new data fits in the entry's sectors and was written there.
    InPlace,
    /// The new data is larger and was appended at the end of the archive, sector-aligned.
    Moved {
        /// The new offset, in bytes.
        offset: u64,
    },
}

/// Bytes of a version 2 archive's header and directory, told by its first 8 bytes; `None`
/// when they do not start an archive.
pub fn directory_len_v2(first: &[u8]) -> Option<u64> {
    let count = first.strip_prefix(b"VER2")?.get(..4)?;
    let count = u32::from_le_bytes(count.try_into().ok()?);
    Some(8 + 32 * u64::from(count))
}

/// The entries of a version 2 archive from its header and directory alone
/// ([`directory_len_v2`] bytes), so that a tool can reach each entry without reading the rest.
pub fn directory_v2(header: &[u8]) -> Result<Vec<Entry>, ArchiveError> {
    Ok(Archive::V2(v2::Img::read(header)?).entries())
}

/// The entries of a version 1 archive's `.dir`.
pub fn directory_v1(directory: &[u8]) -> Result<Vec<Entry>, ArchiveError> {
    let directory = v1::ImgDir::read(directory)?;
    Ok(Archive::V1 {
        directory,
        data: Vec::new(),
    }
    .entries())
}

impl Archive {
    /// A version 2 archive (`VER2…`).
    pub fn open_v2(bytes: &[u8]) -> Result<Self, ArchiveError> {
        let archive = Archive::V2(v2::Img::read(bytes)?);
        archive.check_bounds()?;
        Ok(archive)
    }

    /// A version 1 archive from its `.dir` and `.img`.
    pub fn open_v1(directory: &[u8], data: Vec<u8>) -> Result<Self, ArchiveError> {
        let archive = Archive::V1 {
            directory: v1::ImgDir::read(directory)?,
            data,
        };
        archive.check_bounds()?;
        Ok(archive)
    }

    /// Refuses entries whose sectors lie outside the data, so that every later slice is in
    /// bounds.
    fn check_bounds(&self) -> Result<(), ArchiveError> {
        let len = self.data_len();
        for entry in self.entries() {
            let end = entry.offset.saturating_add(entry.size);
            // Real archives' last entry may end in a partial sector: the file is cut short of
            // the padding, which the game never reads.
            if entry.offset < self.data_start() || entry.offset > len || end > len + SECTOR - 1 {
                return Err(ArchiveError::OutOfBounds {
                    name: entry.name,
                    start: entry.offset,
                    end,
                    len,
                    header: self.data_start(),
                });
            }
        }
        Ok(())
    }

    /// 1 or 2.
    pub fn version(&self) -> u8 {
        match self {
            Archive::V1 { .. } => 1,
            Archive::V2(_) => 2,
        }
    }

    /// The entries, in directory order.
    pub fn entries(&self) -> Vec<Entry> {
        let entry = |name: &FixedStr<24>, offset: u32, size: u64| Entry {
            name: name.text().into_owned(),
            offset: u64::from(offset) * SECTOR,
            size: size * SECTOR,
        };
        match self {
            Archive::V2(img) => img
                .entries
                .iter()
                .map(|e| entry(&e.name, e.offset, u64::from(e.streaming_size)))
                .collect(),
            Archive::V1 { directory, .. } => directory
                .entries
                .iter()
                .map(|e| entry(&e.name, e.offset, u64::from(e.size)))
                .collect(),
        }
    }

    /// The entry named `name`, ignoring ASCII case as the games do.
    pub fn entry(&self, name: &str) -> Option<Entry> {
        self.entries()
            .into_iter()
            .find(|e| e.name.eq_ignore_ascii_case(name))
    }

    /// The bytes of `entry` (whole sectors, cut short where the archive ends).
    pub fn entry_bytes(&self, entry: &Entry) -> &[u8] {
        let data = self.data();
        let start = usize::try_from(entry.offset.saturating_sub(self.data_start()))
            .unwrap_or(usize::MAX)
            .min(data.len());
        let end = usize::try_from(
            entry
                .offset
                .saturating_add(entry.size)
                .saturating_sub(self.data_start()),
        )
        .unwrap_or(usize::MAX)
        .clamp(start, data.len());
        &data[start..end]
    }

    /// Replaces the data of the entry `name` by `bytes`, padded with zeros to whole sectors:
    /// in its sectors when it fits (the sectors it no longer uses are zeroed), else appended
    /// at the end of the archive. Every other entry's bytes stay where they are.
    pub fn replace(&mut self, name: &str, bytes: &[u8]) -> Result<Placement, ArchiveError> {
        let index = self
            .entries()
            .iter()
            .position(|e| e.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| ArchiveError::NoEntry(name.to_owned()))?;
        let old = &self.entries()[index];
        let sectors = (bytes.len() as u64).div_ceil(SECTOR);
        let max = match self {
            Archive::V2(_) => u64::from(u16::MAX),
            Archive::V1 { .. } => u64::from(u32::MAX),
        };
        if sectors > max {
            return Err(ArchiveError::TooLarge {
                name: old.name.clone(),
                sectors,
                max,
            });
        }
        let data_start = self.data_start();
        let placement = if sectors * SECTOR <= old.size {
            Placement::InPlace
        } else {
            let end = data_start + self.data_len();
            Placement::Moved {
                offset: end.div_ceil(SECTOR) * SECTOR,
            }
        };
        let offset = match placement {
            Placement::InPlace => old.offset,
            Placement::Moved { offset } => offset,
        };
        let data = self.data_mut();
        let start = usize::try_from(offset - data_start).unwrap_or(usize::MAX);
        let cleared = match placement {
            Placement::InPlace => old.size,
            Placement::Moved { .. } => sectors * SECTOR,
        };
        let end = start + usize::try_from(cleared).unwrap_or(usize::MAX);
        if data.len() < end {
            data.resize(end, 0);
        }
        data[start..end].fill(0);
        data[start..start + bytes.len()].copy_from_slice(bytes);
        let sector_offset = u32::try_from(offset / SECTOR).map_err(|_| ArchiveError::TooLarge {
            name: old.name.clone(),
            sectors: offset / SECTOR,
            max: u64::from(u32::MAX),
        })?;
        match self {
            Archive::V2(img) => {
                let entry = &mut img.entries[index];
                entry.offset = sector_offset;
                entry.streaming_size = u16::try_from(sectors).unwrap_or(u16::MAX);
            }
            Archive::V1 { directory, .. } => {
                let entry = &mut directory.entries[index];
                entry.offset = sector_offset;
                entry.size = u32::try_from(sectors).unwrap_or(u32::MAX);
            }
        }
        Ok(placement)
    }

    /// The archive's bytes: for version 2 the one file, for version 1 the `.img` (see
    /// [`Archive::directory_bytes`] for its `.dir`).
    pub fn to_bytes(&self) -> skelcodec_runtime::Result<Vec<u8>> {
        match self {
            Archive::V2(img) => img.to_bytes(),
            Archive::V1 { data, .. } => Ok(data.clone()),
        }
    }

    /// The `.dir` of a version 1 archive.
    pub fn directory_bytes(&self) -> Option<skelcodec_runtime::Result<Vec<u8>>> {
        match self {
            Archive::V1 { directory, .. } => Some(directory.to_bytes()),
            Archive::V2(_) => None,
        }
    }

    /// Where entry data may start: after the directory in a version 2 archive.
    fn data_start(&self) -> u64 {
        match self {
            Archive::V2(img) => 8 + 32 * img.entries.len() as u64,
            Archive::V1 { .. } => 0,
        }
    }

    fn data(&self) -> &[u8] {
        match self {
            Archive::V2(img) => &img.body.0,
            Archive::V1 { data, .. } => data,
        }
    }

    fn data_mut(&mut self) -> &mut Vec<u8> {
        match self {
            Archive::V2(img) => &mut img.body.0,
            Archive::V1 { data, .. } => data,
        }
    }

    /// Bytes of the data file after the directory.
    fn data_len(&self) -> u64 {
        self.data().len() as u64
    }
}
