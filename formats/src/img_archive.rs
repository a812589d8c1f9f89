//! GTA IMG archives: version 2 (San Andreas, one file starting `VER2`) and version 1 (GTA III
//! and Vice City: a `.dir` directory beside an `.img` of data). Entries are listed, extracted,
//! replaced, added and deleted by name, and archives rebuilt without holes.
//!
//! A version 2 archive is the generated codec of `schemas/img.ksy` whole: each entry's data is
//! read at `offset * 2048`, and its `-layout` derives the offsets and sizes, so that adding,
//! deleting and rebuilding are edits of the entry list followed by `normalize()`. A version 1
//! archive is two files, and a schema reads one stream: `schemas/img_dir.ksy` reads the `.dir`,
//! and the `.img` (no header, only the sectors the `.dir` places) is assembled here, with the
//! same layout step the generated code uses ([`skelcodec_runtime::__private::layout::lay_out`]).

use skelcodec_runtime::__private::layout::{Block, Laid, Start, lay_out, stored_offset};
use skelcodec_runtime::Gap;
use skelcodec_runtime::{Codec, FixedStr, RawBytes};

use crate::img as v2;
use crate::img_dir as v1;

/// Bytes in a sector: every entry starts at a sector and fills whole sectors (the schemas'
/// `pos: offset * 2048` and `align: 2048`).
pub const SECTOR: u64 = 2048;

/// The longest entry name, in bytes: the directory's 24 bytes hold it and its NUL.
pub const MAX_NAME_LEN: usize = 23;

/// Why an archive cannot be read or changed.
#[derive(Debug, thiserror::Error)]
pub enum ArchiveError {
    /// The directory does not decode, or the edited archive cannot be laid out.
    #[error(transparent)]
    Directory(#[from] skelcodec_runtime::Error),
    /// The file does not start a version 2 archive.
    #[error("not a version 2 IMG archive: it does not start with `VER2` and an entry count")]
    NotVersion2,
    /// The directory is longer than the file.
    #[error(
        "the directory of {count} entries needs {needed} bytes, but the archive has {len} bytes"
    )]
    ShortDirectory {
        /// Entries the header counts.
        count: u64,
        /// Bytes of the header and directory.
        needed: u64,
        /// The archive's length.
        len: u64,
    },
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
    /// An entry has the name already (names are compared ignoring ASCII case, as the games do).
    #[error("the archive already holds an entry `{0}`")]
    Duplicate(String),
    /// The name does not fit the directory's 24 bytes with its NUL.
    #[error(
        "the name `{name}` is {len} bytes long: IMG entry names hold at most {MAX_NAME_LEN} bytes"
    )]
    NameTooLong {
        /// The name.
        name: String,
        /// Its length in bytes.
        len: usize,
    },
    /// The name cannot be stored.
    #[error("the name `{name}` cannot be an IMG entry name: {why}")]
    BadName {
        /// The name.
        name: String,
        /// Why not.
        why: &'static str,
    },
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
    V2 {
        /// The archive, entries' data included.
        img: v2::Img,
        /// The file's length when it ended inside its last entry's last sector (real archives
        /// are cut short of that padding, which the game never reads): it was read padded with
        /// zeros, and is written cut there again until an edit lays it out anew.
        cut: Option<usize>,
    },
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

/// Bytes of a version 2 archive's header (magic and entry count) with no entries.
fn header_len_v2() -> u64 {
    let empty = v2::Img {
        num_entries: 0,
        entries: Vec::new(),
        unclaimed: Vec::new(),
    };
    empty.encoded_len() as u64
}

/// Bytes of a version 2 archive's header and directory, told by its first 8 bytes; `None`
/// when they do not start an archive.
pub fn directory_len_v2(first: &[u8]) -> Option<u64> {
    if !v2::Img::matches_magic(first) {
        return None;
    }
    let magic = v2::Img::MAGIC[0].len();
    let count = first.get(magic..magic + 4)?;
    let count = u32::from_le_bytes(count.try_into().ok()?);
    Some(header_len_v2() + v2::DirectoryEntry::SIZE as u64 * u64::from(count))
}

/// The entries of a version 2 archive from its header and directory alone
/// ([`directory_len_v2`] bytes), so that a tool can reach each entry without reading the rest.
pub fn directory_v2(header: &[u8]) -> Result<Vec<Entry>, ArchiveError> {
    let len = directory_len_v2(header).ok_or(ArchiveError::NotVersion2)?;
    let start = header_len_v2() as usize;
    let entries = header
        .get(start..usize::try_from(len).unwrap_or(usize::MAX))
        .ok_or(ArchiveError::ShortDirectory {
            count: (len - start as u64) / v2::DirectoryEntry::SIZE as u64,
            needed: len,
            len: header.len() as u64,
        })?;
    Ok(entries
        .chunks_exact(v2::DirectoryEntry::SIZE)
        .map(|raw| {
            let e = v2::DirectoryEntry::decode(raw.try_into().expect("chunks of SIZE"));
            entry(&e.name, e.offset, u64::from(e.streaming_size))
        })
        .collect())
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

fn entry(name: &FixedStr<24>, offset: u32, sectors: u64) -> Entry {
    Entry {
        name: name.text().into_owned(),
        offset: u64::from(offset) * SECTOR,
        size: sectors * SECTOR,
    }
}

/// Refuses entries whose sectors lie outside the data (`len` bytes, entries allowed from
/// `data_start`), so that every later slice is in bounds.
fn check_bounds(entries: &[Entry], data_start: u64, len: u64) -> Result<(), ArchiveError> {
    for entry in entries {
        let end = entry.offset.saturating_add(entry.size);
        // Real archives' last entry may end in a partial sector: the file is cut short of
        // the padding, which the game never reads.
        // An empty entry claims nothing, wherever it says it starts.
        let inside_directory = entry.offset < data_start && entry.size > 0;
        if inside_directory || entry.offset > len || end > len + SECTOR - 1 {
            return Err(ArchiveError::OutOfBounds {
                name: entry.name.clone(),
                start: entry.offset,
                end,
                len,
                header: data_start,
            });
        }
    }
    Ok(())
}

/// Keeps `bytes` at `offset` as bytes no entry claims, merged with the gaps they touch (the
/// reader would find one gap there).
fn leave_unclaimed(gaps: &mut Vec<Gap>, offset: u64, bytes: Vec<u8>) {
    if bytes.is_empty() {
        return;
    }
    gaps.push(Gap {
        offset,
        bytes: RawBytes::new(bytes),
    });
    gaps.sort_by_key(|g| g.offset);
    let mut merged: Vec<Gap> = Vec::with_capacity(gaps.len());
    for gap in gaps.drain(..) {
        match merged.last_mut() {
            Some(last) if last.offset + last.bytes.0.len() as u64 == gap.offset => {
                last.bytes.0.extend_from_slice(&gap.bytes.0);
            }
            _ => merged.push(gap),
        }
    }
    *gaps = merged;
}

/// `bytes` padded with zeros to whole sectors.
fn whole_sectors(bytes: &[u8]) -> Vec<u8> {
    let mut padded = bytes.to_vec();
    padded.resize(bytes.len().next_multiple_of(SECTOR as usize), 0);
    padded
}

impl Archive {
    /// A version 2 archive (`VER2…`).
    pub fn open_v2(bytes: &[u8]) -> Result<Self, ArchiveError> {
        let entries = directory_v2(bytes)?;
        let len = bytes.len() as u64;
        let data_start = directory_len_v2(bytes).unwrap_or(0);
        check_bounds(&entries, data_start, len)?;
        let end = entries.iter().map(|e| e.offset + e.size).max().unwrap_or(0);
        if end > len {
            // Within a sector of the end (checked above).
            let mut padded = bytes.to_vec();
            padded.resize(end as usize, 0);
            let img = v2::Img::read_owned(padded)?;
            return Ok(Archive::V2 {
                img,
                cut: Some(bytes.len()),
            });
        }
        Ok(Archive::V2 {
            img: v2::Img::read(bytes)?,
            cut: None,
        })
    }

    /// A version 1 archive from its `.dir` and `.img`.
    pub fn open_v1(directory: &[u8], data: Vec<u8>) -> Result<Self, ArchiveError> {
        let archive = Archive::V1 {
            directory: v1::ImgDir::read(directory)?,
            data,
        };
        check_bounds(&archive.entries(), 0, archive.end())?;
        Ok(archive)
    }

    /// 1 or 2.
    pub fn version(&self) -> u8 {
        match self {
            Archive::V1 { .. } => 1,
            Archive::V2 { .. } => 2,
        }
    }

    /// The entries, in directory order.
    pub fn entries(&self) -> Vec<Entry> {
        match self {
            Archive::V2 { img, .. } => img
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

    fn index_of(&self, name: &str) -> Result<usize, ArchiveError> {
        self.entries()
            .iter()
            .position(|e| e.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| ArchiveError::NoEntry(name.to_owned()))
    }

    /// The bytes of `entry` (whole sectors; in a version 1 `.img`, cut short where the file
    /// ends).
    pub fn entry_bytes(&self, entry: &Entry) -> &[u8] {
        match self {
            Archive::V2 { img, .. } => img
                .entries
                .iter()
                .find(|e| {
                    u64::from(e.offset) * SECTOR == entry.offset && e.name.text() == entry.name
                })
                .map_or(&[][..], |e| e.data.0.as_slice()),
            Archive::V1 { data, .. } => {
                let start = usize::try_from(entry.offset)
                    .unwrap_or(usize::MAX)
                    .min(data.len());
                let end = usize::try_from(entry.offset.saturating_add(entry.size))
                    .unwrap_or(usize::MAX)
                    .clamp(start, data.len());
                &data[start..end]
            }
        }
    }

    /// The most sectors an entry's size field records.
    fn max_sectors(&self) -> u64 {
        match self {
            Archive::V2 { .. } => u64::from(u16::MAX),
            Archive::V1 { .. } => u64::from(u32::MAX),
        }
    }

    /// Sectors `bytes` fill, refused when the directory cannot record them.
    fn sectors_for(&self, name: &str, bytes: &[u8]) -> Result<u64, ArchiveError> {
        let sectors = (bytes.len() as u64).div_ceil(SECTOR);
        let max = self.max_sectors();
        if sectors > max {
            return Err(ArchiveError::TooLarge {
                name: name.to_owned(),
                sectors,
                max,
            });
        }
        Ok(sectors)
    }

    /// Replaces the data of the entry `name` by `bytes`, padded with zeros to whole sectors:
    /// in its sectors when it fits (the sectors it no longer uses are zeroed), else appended
    /// at the end of the archive. Every other entry's bytes stay where they are; a moved
    /// entry's old sectors stay behind until [`Archive::rebuild`].
    pub fn replace(&mut self, name: &str, bytes: &[u8]) -> Result<Placement, ArchiveError> {
        let index = self.index_of(name)?;
        let old = self.entries()[index].clone();
        let sectors = self.sectors_for(&old.name, bytes)?;
        let placement = if sectors * SECTOR <= old.size {
            Placement::InPlace
        } else {
            Placement::Moved {
                offset: self.end().div_ceil(SECTOR) * SECTOR,
            }
        };
        let offset = match placement {
            Placement::InPlace => old.offset,
            Placement::Moved { offset } => offset,
        };
        let sector_offset: u32 = stored_offset(i128::from(offset), SECTOR)?;
        let self_end = self.end();
        match self {
            Archive::V2 { img, cut } => {
                *cut = None;
                let entry = &mut img.entries[index];
                let old_data =
                    std::mem::replace(&mut entry.data, RawBytes::new(whole_sectors(bytes)));
                entry.offset = sector_offset;
                entry.streaming_size = u16::try_from(sectors).unwrap_or(u16::MAX);
                // The sectors it no longer claims are kept as unclaimed bytes: zeroed when it
                // shrank in place, stale (as they were) when it moved.
                let freed = match placement {
                    Placement::InPlace => {
                        let kept = sectors * SECTOR;
                        (old.offset + kept, vec![0; (old.size - kept) as usize])
                    }
                    Placement::Moved { .. } => (old.offset, old_data.0.into_vec()),
                };
                leave_unclaimed(&mut img.unclaimed, freed.0, freed.1);
                // Alignment padding before the moved entry, when the file ended mid-sector.
                let end = self_end;
                if offset > end {
                    leave_unclaimed(&mut img.unclaimed, end, vec![0; (offset - end) as usize]);
                }
            }
            Archive::V1 { directory, data } => {
                let start = usize::try_from(offset).unwrap_or(usize::MAX);
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
                let entry = &mut directory.entries[index];
                entry.offset = sector_offset;
                entry.size = u32::try_from(sectors).unwrap_or(u32::MAX);
            }
        }
        Ok(placement)
    }

    /// Adds an entry `name` holding `bytes` (padded with zeros to whole sectors) at the end of
    /// the directory, and rebuilds the archive ([`Archive::rebuild`]): a longer directory may
    /// need the sectors of the first entry. Refuses a name that is taken (ignoring ASCII case,
    /// as the games do), empty, not ASCII, or longer than [`MAX_NAME_LEN`] bytes.
    pub fn add(&mut self, name: &str, bytes: &[u8]) -> Result<(), ArchiveError> {
        let bad = |why| ArchiveError::BadName {
            name: name.to_owned(),
            why,
        };
        if name.is_empty() {
            return Err(bad("it is empty"));
        }
        if !name.is_ascii() || name.contains('\0') {
            return Err(bad("names are ASCII text without NUL"));
        }
        if name.len() > MAX_NAME_LEN {
            return Err(ArchiveError::NameTooLong {
                name: name.to_owned(),
                len: name.len(),
            });
        }
        if let Some(taken) = self.entry(name) {
            return Err(ArchiveError::Duplicate(taken.name));
        }
        let sectors = self.sectors_for(name, bytes)?;
        let stored_name = FixedStr::from_text(name)?;
        match self {
            Archive::V2 { img, .. } => img.entries.push(v2::Entry {
                offset: 0,
                streaming_size: u16::try_from(sectors).unwrap_or(u16::MAX),
                archive_size: 0,
                name: stored_name,
                data: RawBytes::new(whole_sectors(bytes)),
            }),
            Archive::V1 { directory, data } => {
                // Placed at the end for now; the rebuild packs it with the others.
                let offset = (data.len() as u64).div_ceil(SECTOR) * SECTOR;
                data.resize(offset as usize, 0);
                data.extend_from_slice(&whole_sectors(bytes));
                directory.entries.push(v1::Entry {
                    offset: stored_offset(i128::from(offset), SECTOR)?,
                    size: u32::try_from(sectors).unwrap_or(u32::MAX),
                    name: stored_name,
                });
            }
        }
        self.rebuild()
    }

    /// Deletes the entries `names` (each refused, by name, when the archive has no such
    /// entry; then nothing is deleted), and rebuilds the archive ([`Archive::rebuild`]), so
    /// that their sectors are gone too.
    pub fn delete(&mut self, names: &[&str]) -> Result<(), ArchiveError> {
        let mut doomed = names
            .iter()
            .map(|name| self.index_of(name))
            .collect::<Result<Vec<_>, _>>()?;
        doomed.sort_unstable();
        doomed.dedup();
        for index in doomed.into_iter().rev() {
            match self {
                Archive::V2 { img, .. } => {
                    img.entries.remove(index);
                }
                Archive::V1 { directory, .. } => {
                    directory.entries.remove(index);
                }
            }
        }
        self.rebuild()
    }

    /// Lays the archive out again without holes: the entries in directory order, each at the
    /// next whole sector after the directory (version 2) or from the start of the `.img`
    /// (version 1), padded with zeros; bytes no entry claims (stale sectors, the old padding)
    /// are dropped. For version 2 this is the schema's `normalize()`.
    pub fn rebuild(&mut self) -> Result<(), ArchiveError> {
        match self {
            Archive::V2 { img, cut } => {
                *cut = None;
                // Stored nowhere: the layout starts right after the directory (`start:
                // stored` would keep the room before the first entry).
                for entry in &mut img.entries {
                    entry.offset = 0;
                }
                img.normalize()?;
            }
            Archive::V1 { directory, data } => {
                let entries: Vec<Vec<u8>> = directory
                    .entries
                    .iter()
                    .map(|e| {
                        let start = (u64::from(e.offset) * SECTOR).min(data.len() as u64) as usize;
                        let end = ((u64::from(e.offset) + u64::from(e.size)) * SECTOR)
                            .min(data.len() as u64) as usize;
                        let mut bytes = data[start..end.max(start)].to_vec();
                        bytes.resize((u64::from(e.size) * SECTOR) as usize, 0);
                        bytes
                    })
                    .collect();
                let blocks: Vec<Block> = entries
                    .iter()
                    .map(|bytes| Block {
                        stored: 0,
                        len: bytes.len() as u64,
                    })
                    .collect();
                let Laid { offsets, .. } = lay_out(&blocks, Start::Fields(0), SECTOR, false);
                let mut packed = Vec::new();
                for ((entry, bytes), at) in directory.entries.iter_mut().zip(&entries).zip(offsets)
                {
                    let at_byte = usize::try_from(at).unwrap_or(usize::MAX);
                    // Empty entries keep no sectors; the others follow one another.
                    packed.resize(packed.len().max(at_byte), 0);
                    packed.extend_from_slice(bytes);
                    entry.offset = stored_offset(at, SECTOR)?;
                }
                *data = packed;
            }
        }
        Ok(())
    }

    /// The archive's bytes: for version 2 the one file, for version 1 the `.img` (see
    /// [`Archive::directory_bytes`] for its `.dir`).
    pub fn to_bytes(&self) -> skelcodec_runtime::Result<Vec<u8>> {
        match self {
            Archive::V2 { img, cut } => {
                let mut bytes = img.to_bytes()?;
                if let Some(cut) = *cut
                    && bytes
                        .get(cut..)
                        .is_some_and(|tail| tail.iter().all(|&b| b == 0))
                {
                    bytes.truncate(cut);
                }
                Ok(bytes)
            }
            Archive::V1 { data, .. } => Ok(data.clone()),
        }
    }

    /// The `.dir` of a version 1 archive.
    pub fn directory_bytes(&self) -> Option<skelcodec_runtime::Result<Vec<u8>>> {
        match self {
            Archive::V1 { directory, .. } => Some(directory.to_bytes()),
            Archive::V2 { .. } => None,
        }
    }

    /// Bytes of the data file (`.img`): where the last entry or kept byte ends.
    fn end(&self) -> u64 {
        match self {
            Archive::V2 { img, .. } => {
                let entries = img
                    .entries
                    .iter()
                    .map(|e| u64::from(e.offset) * SECTOR + e.data.0.len() as u64);
                let gaps = img
                    .unclaimed
                    .iter()
                    .map(|g| g.offset + g.bytes.0.len() as u64);
                entries.chain(gaps).fold(img.encoded_len() as u64, u64::max)
            }
            Archive::V1 { data, .. } => data.len() as u64,
        }
    }
}
