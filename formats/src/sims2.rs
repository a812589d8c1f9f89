//! The Sims 2 packages: listing, extracting and replacing resources, with QFS decompression
//! and the ANIM resources decoded.

use skelcodec_runtime::{Mismatch, RawBytes, Result as CodecResult, Writer};

use crate::dbpf::{Dbpf, DirectoryRecord, IndexEntry, IndexEntryData};
use crate::qfs::{self, QfsError};
use crate::sims2_anim::Sims2Anim;

/// Resource type of animations.
pub const ANIM_TYPE: u32 = 0xFB00_791E;
/// Resource type of the directory of compressed resources.
pub const DIR_TYPE: u32 = 0xE86B_1EEF;

/// Why a resource's bytes cannot be extracted.
#[derive(Debug, thiserror::Error)]
pub enum ExtractError {
    /// Its compressed bytes do not decompress.
    #[error(transparent)]
    Qfs(#[from] QfsError),
    /// The DIR records, edited, cannot be written.
    #[error(transparent)]
    Encode(#[from] skelcodec_runtime::Error),
}

/// A resource key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
pub struct ResourceKey {
    /// Type id.
    pub type_id: u32,
    /// Group id.
    pub group: u32,
    /// Instance id.
    pub instance: u32,
    /// Instance-high id (index 7.2 only).
    pub instance_hi: Option<u32>,
}

impl DirectoryRecord {
    /// True when the record is about the resource `key` (the DIR does not store the
    /// instance-high word in index 7.1 packages).
    pub fn lists(&self, key: ResourceKey) -> bool {
        (self.r#type, self.group, self.instance) == (key.type_id, key.group, key.instance)
            && self
                .instance_hi
                .is_none_or(|hi| Some(hi) == key.instance_hi)
    }
}

impl IndexEntry {
    /// The entry's key.
    pub fn key(&self) -> ResourceKey {
        ResourceKey {
            type_id: self.r#type,
            group: self.group,
            instance: self.instance,
            instance_hi: self.instance_hi,
        }
    }
}

impl Dbpf {
    /// The DIR records: which resources are stored compressed, and their sizes uncompressed.
    pub fn directory_records(&self) -> impl Iterator<Item = &DirectoryRecord> {
        self.index.iter().flat_map(|entry| match &entry.data {
            IndexEntryData::Directory(dir) => dir.records.as_slice(),
            IndexEntryData::Raw(_) => &[],
        })
    }

    /// True when the entry is stored QFS-compressed (the DIR lists it).
    pub fn is_compressed(&self, entry: &IndexEntry) -> bool {
        self.directory_records().any(|r| r.lists(entry.key()))
    }

    /// The resource's bytes, decompressed when needed.
    pub fn extract(&self, entry: &IndexEntry) -> Result<Vec<u8>, ExtractError> {
        let stored = match &entry.data {
            IndexEntryData::Raw(bytes) => bytes.0.clone(),
            IndexEntryData::Directory(dir) => {
                let mut w = Writer::new();
                dir.write_to(&mut w, entry.instance_hi.is_some())?;
                w.into_bytes()?
            }
        };
        if self.is_compressed(entry) {
            Ok(qfs::decompress(&stored)?)
        } else {
            Ok(stored)
        }
    }

    /// Every ANIM resource, decoded (or why it could not be).
    pub fn animations(&self) -> Vec<(ResourceKey, Result<Sims2Anim, String>)> {
        self.index
            .iter()
            .filter(|e| e.r#type == ANIM_TYPE)
            .map(|e| {
                let decoded = self
                    .extract(e)
                    .map_err(|err| err.to_string())
                    .and_then(|bytes| Sims2Anim::read(&bytes).map_err(|err| err.to_string()));
                (e.key(), decoded)
            })
            .collect()
    }

    /// Replaces a resource's bytes, compressing them again when the entry was compressed (the
    /// DIR's uncompressed size is updated), then lays the package out again (`normalize`).
    /// The DIR itself is replaced through its records, not as bytes.
    pub fn replace(&mut self, key: ResourceKey, bytes: &[u8]) -> CodecResult<bool> {
        let compressed = self
            .index
            .iter()
            .find(|e| e.key() == key)
            .is_some_and(|e| self.is_compressed(e));
        let Some(entry) = self.index.iter_mut().find(|e| e.key() == key) else {
            return Ok(false);
        };
        let IndexEntryData::Raw(stored) = &mut entry.data else {
            return Ok(false);
        };
        *stored = RawBytes(if compressed {
            qfs::compress(bytes)
        } else {
            bytes.to_vec()
        });
        if compressed {
            let size = u32::try_from(bytes.len()).unwrap_or(u32::MAX);
            for entry in &mut self.index {
                if let IndexEntryData::Directory(dir) = &mut entry.data {
                    for record in dir.records.iter_mut().filter(|r| r.lists(key)) {
                        record.uncompressed_size = size;
                    }
                }
            }
        }
        self.normalize()?;
        Ok(true)
    }

    /// The package's own disagreements and those of every decodable ANIM inside it, with the
    /// resource's instance in the path.
    pub fn check_all(&self) -> Vec<Mismatch> {
        let mut found = self.check();
        for (key, anim) in self.animations() {
            if let Ok(anim) = anim {
                found.extend(anim.check().into_iter().map(|m| Mismatch {
                    path: format!("resource[{:#010x}].{}", key.instance, m.path),
                    ..m
                }));
            }
        }
        found
    }
}

/// One key frame, decoded: time in ticks (none for baked keys: one per frame), the value and
/// its tangents (none, one used both ways, or in and out).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct DecodedKey {
    /// Ticks (milliseconds), with the value's borrowed bit masked off.
    pub time: Option<u16>,
    /// The value.
    pub value: f64,
    /// Tangent in (or the only tangent of a continuous key).
    pub tangent_in: Option<f64>,
    /// Tangent out (discontinuous keys).
    pub tangent_out: Option<f64>,
}

impl crate::sims2_anim::ComponentKeys {
    /// Every key frame of the component, decoded whatever its packed format.
    pub fn decoded(&self) -> Vec<DecodedKey> {
        use crate::sims2_anim::ComponentKeysKeys as Keys;
        let baked = |value: f64| DecodedKey {
            time: None,
            value,
            tangent_in: None,
            tangent_out: None,
        };
        let key = |time: i64, value: f64, tangent_in: f64, tangent_out: Option<f64>| DecodedKey {
            time: u16::try_from(time).ok(),
            value,
            tangent_in: Some(tangent_in),
            tangent_out,
        };
        match &self.keys {
            Keys::Baked87(k) => k.iter().map(|k| baked(k.value.get_f64())).collect(),
            Keys::Baked510(k) => k.iter().map(|k| baked(k.value.get_f64())).collect(),
            Keys::Baked312(k) => k.iter().map(|k| baked(k.value.get_f64())).collect(),
            Keys::BakedF32(k) => k.iter().map(|k| baked(f64::from(k.value))).collect(),
            Keys::Continuous97(k) => k
                .iter()
                .map(|k| key(k.time(), k.value(), k.tangent.get_f64(), None))
                .collect(),
            Keys::Continuous511(k) => k
                .iter()
                .map(|k| key(k.time(), k.value(), k.tangent.get_f64(), None))
                .collect(),
            Keys::Continuous313(k) => k
                .iter()
                .map(|k| key(k.time(), k.value(), k.tangent.get_f64(), None))
                .collect(),
            Keys::ContinuousF32(k) => k
                .iter()
                .map(|k| {
                    key(
                        i64::from(k.time),
                        f64::from(k.value),
                        k.tangent.get_f64(),
                        None,
                    )
                })
                .collect(),
            Keys::Discontinuous97(k) => k
                .iter()
                .map(|k| {
                    let out = Some(k.tangent_out.get_f64());
                    key(k.time(), k.value(), k.tangent_in.get_f64(), out)
                })
                .collect(),
            Keys::Discontinuous511(k) => k
                .iter()
                .map(|k| {
                    let out = Some(k.tangent_out.get_f64());
                    key(k.time(), k.value(), k.tangent_in.get_f64(), out)
                })
                .collect(),
            Keys::Discontinuous313(k) => k
                .iter()
                .map(|k| {
                    let out = Some(k.tangent_out.get_f64());
                    key(k.time(), k.value(), k.tangent_in.get_f64(), out)
                })
                .collect(),
            Keys::DiscontinuousF32(k) => k
                .iter()
                .map(|k| {
                    let out = Some(k.tangent_out.get_f64());
                    key(
                        i64::from(k.time),
                        f64::from(k.value),
                        k.tangent_in.get_f64(),
                        out,
                    )
                })
                .collect(),
        }
    }
}
