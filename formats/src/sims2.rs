//! The Sims 2 packages: listing, extracting and replacing resources, with QFS decompression
//! and the ANIM resources decoded.

use skelcodec_runtime::{Mismatch, RawBytes, Writer};

use crate::dbpf::{Dbpf, DirectoryRecord, IndexEntry, IndexEntryData};
use crate::qfs::{self, QfsError};
use crate::sims2_anim::Sims2Anim;

/// Resource type of animations.
pub const ANIM_TYPE: u32 = 0xFB00_791E;
/// Resource type of the directory of compressed resources.
pub const DIR_TYPE: u32 = 0xE86B_1EEF;

/// Why a resource's bytes cannot be extracted or replaced.
#[derive(Debug, thiserror::Error)]
pub enum ResourceError {
    /// Its compressed bytes do not decompress, or its new bytes cannot be compressed.
    #[error(transparent)]
    Qfs(#[from] QfsError),
    /// The DIR records or the package, edited, cannot be written.
    #[error(transparent)]
    Encode(#[from] skelcodec_runtime::Error),
    /// A resource with the key is in the package already.
    #[error("the package already holds a resource {0}")]
    Duplicate(ResourceKey),
    /// No resource has the key.
    #[error("the package holds no resource {0}")]
    NoResource(ResourceKey),
    /// The key has an instance-high id where the index has none, or lacks one where it has.
    #[error(
        "the package's index {} instance-high ids: write the key as {}",
        if *has_instance_hi { "(7.2) has" } else { "(7.1) has no" },
        if *has_instance_hi { "TYPE:GROUP:INSTANCE:INSTANCE_HI" } else { "TYPE:GROUP:INSTANCE" }
    )]
    KeyForm {
        /// True when the index carries instance-high ids.
        has_instance_hi: bool,
    },
    /// The DIR cannot be added as bytes, nor deleted while it lists compressed resources.
    #[error("{0}")]
    Directory(&'static str),
}

/// A resource key: type, group, instance and (index 7.2) instance-high ids. Shown and
/// serialized in hex (`0xFB00791E`), the form modders and SimPE use, with the type's name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
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

/// Names of common resource types, from SimsWiki's "List of Sims 2 Formats by Name".
const TYPE_NAMES: &[(u32, &str)] = &[
    (0x0BF9_99E7, "LDEF"),
    (0x1C4A_276C, "TXTR"),
    (0x2523_2B11, "5SC"),
    (0x4243_4F4E, "BCON"),
    (0x4248_4156, "BHAV"),
    (0x4341_5453, "CATS"),
    (0x4354_5353, "CTSS"),
    (0x4447_5250, "DGRP"),
    (0x4641_4345, "FACE"),
    (0x4641_4D49, "FAMI"),
    (0x4643_4E53, "FCNS"),
    (0x4657_4156, "FWAV"),
    (0x474C_4F42, "GLOB"),
    (0x4959_6978, "TXMT"),
    (0x4D51_F042, "CINE"),
    (0x4F42_4A44, "OBJD"),
    (0x4F42_4A66, "OBJf"),
    (0x5354_5223, "STR#"),
    (0x5454_4142, "TTAB"),
    (0x6A97_042F, "5EL"),
    (0x7BA3_838C, "GMND"),
    (0xAC06_A66F, "5LF"),
    (0xAC06_A676, "5DS"),
    (0xAC4F_8687, "GMDC"),
    (0xAC50_6764, "3IDR"),
    (0xCCCE_F852, "LxNR"),
    (0xCDB4_67B8, "CREG"),
    (0xE519_C933, "CRES"),
    (DIR_TYPE, "DIR"),
    (0xEA51_18B0, "FX"),
    (0xED53_4136, "LIFO"),
    (ANIM_TYPE, "ANIM"),
    (0xFC6E_B1F7, "SHPE"),
];

/// The common name of a resource type (`ANIM`), if it is a known one.
pub fn type_name(type_id: u32) -> Option<&'static str> {
    TYPE_NAMES
        .iter()
        .find(|(id, _)| *id == type_id)
        .map(|(_, name)| *name)
}

impl std::fmt::Display for ResourceKey {
    /// `ANIM 0xFB00791E group 0x1C050000 instance 0x00000001` (plus `instance-hi` in 7.2).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let name = type_name(self.type_id).unwrap_or("?");
        write!(
            f,
            "{name:<4} 0x{:08X} group 0x{:08X} instance 0x{:08X}",
            self.type_id, self.group, self.instance
        )?;
        match self.instance_hi {
            Some(hi) => write!(f, " instance-hi 0x{hi:08X}"),
            None => Ok(()),
        }
    }
}

impl serde::Serialize for ResourceKey {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let hex = |id: u32| format!("0x{id:08X}");
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("type", &hex(self.type_id))?;
        if let Some(name) = type_name(self.type_id) {
            map.serialize_entry("type_name", name)?;
        }
        map.serialize_entry("group", &hex(self.group))?;
        map.serialize_entry("instance", &hex(self.instance))?;
        if let Some(hi) = self.instance_hi {
            map.serialize_entry("instance_hi", &hex(hi))?;
        }
        map.end()
    }
}

impl ResourceKey {
    /// The key as one word, `0xFB00791E:0x1C050000:0x00000001` (and `:0x…` for the
    /// instance-high id), which [`str::parse`] reads back.
    pub fn hex_name(&self) -> String {
        let mut name = format!(
            "0x{:08X}:0x{:08X}:0x{:08X}",
            self.type_id, self.group, self.instance
        );
        if let Some(hi) = self.instance_hi {
            name.push_str(&format!(":0x{hi:08X}"));
        }
        name
    }
}

impl std::str::FromStr for ResourceKey {
    type Err = String;

    /// Parses `TYPE:GROUP:INSTANCE[:INSTANCE_HI]`, each in hex (`0x` optional); the type may
    /// also be a known name (`ANIM:0x1C050000:0x1`).
    fn from_str(text: &str) -> Result<Self, String> {
        let parts: Vec<&str> = text.split(':').collect();
        let hex = |part: &str| {
            let digits = part.trim_start_matches("0x").trim_start_matches("0X");
            u32::from_str_radix(digits, 16)
                .map_err(|_| format!("`{part}` in `{text}` is not a 32-bit hex number"))
        };
        let type_id = |part: &str| match TYPE_NAMES.iter().find(|(_, name)| *name == part) {
            Some((id, _)) => Ok(*id),
            None => hex(part),
        };
        match parts.as_slice() {
            [t, g, i] => Ok(Self {
                type_id: type_id(t)?,
                group: hex(g)?,
                instance: hex(i)?,
                instance_hi: None,
            }),
            [t, g, i, hi] => Ok(Self {
                type_id: type_id(t)?,
                group: hex(g)?,
                instance: hex(i)?,
                instance_hi: Some(hex(hi)?),
            }),
            _ => Err(format!(
                "`{text}` is not a resource key: write TYPE:GROUP:INSTANCE[:INSTANCE_HI] in hex, as `package list` prints them"
            )),
        }
    }
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
    pub fn extract(&self, entry: &IndexEntry) -> Result<Vec<u8>, ResourceError> {
        let stored = match &entry.data {
            IndexEntryData::Raw(bytes) => bytes.0.to_vec(),
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

    /// Every resource as `decode` and `package list` show it, with each ANIM decoded.
    pub fn resources(&self) -> Vec<ListedResource> {
        self.index
            .iter()
            .map(|entry| ListedResource {
                key: entry.key(),
                compressed: self.is_compressed(entry),
                stored_size: entry.size,
                anim: (entry.r#type == ANIM_TYPE).then(|| {
                    match self
                        .extract(entry)
                        .map_err(|e| e.to_string())
                        .and_then(|bytes| Sims2Anim::read(&bytes).map_err(|e| e.to_string()))
                    {
                        Ok(anim) => DecodedAnim::Anim(Box::new(anim)),
                        Err(error) => DecodedAnim::Error { error },
                    }
                }),
            })
            .collect()
    }

    /// Replaces a resource's bytes, compressing them again when the entry was compressed (the
    /// DIR's uncompressed size is updated), then lays the package out again (`normalize`).
    /// The DIR itself is replaced through its records, not as bytes.
    pub fn replace(&mut self, key: ResourceKey, bytes: &[u8]) -> Result<bool, ResourceError> {
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
        *stored = RawBytes::new(if compressed {
            qfs::compress(bytes)?
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
        self.lay_out_again()?;
        Ok(true)
    }

    /// `normalize`, and a hole index that the new layout emptied stored at offset 0, as
    /// packages without holes store it: the layout skips an absent block, so its old offset
    /// (often the old end of the file) would stay, past the new end.
    fn lay_out_again(&mut self) -> Result<(), ResourceError> {
        self.normalize()?;
        if self.holes.is_none() {
            self.hole_offset = 0;
        }
        Ok(())
    }

    /// Adds the resource `key` holding `bytes`, stored uncompressed (so no DIR record), at the
    /// end of the index, then lays the package out again (`normalize`). Refuses a key that is
    /// taken, a key whose instance-high id the index does not carry (or lacks one it does),
    /// and the DIR's type, which the package keeps itself.
    pub fn add(&mut self, key: ResourceKey, bytes: &[u8]) -> Result<(), ResourceError> {
        if key.instance_hi.is_some() != self.has_instance_hi() {
            return Err(ResourceError::KeyForm {
                has_instance_hi: self.has_instance_hi(),
            });
        }
        if key.type_id == DIR_TYPE {
            return Err(ResourceError::Directory(
                "the DIR (type 0xE86B1EEF) lists the package's compressed resources and is kept \
                 by the package itself: it cannot be added as a file",
            ));
        }
        if self.index.iter().any(|e| e.key() == key) {
            return Err(ResourceError::Duplicate(key));
        }
        self.index.push(IndexEntry {
            r#type: key.type_id,
            group: key.group,
            instance: key.instance,
            instance_hi: key.instance_hi,
            offset: 0,
            size: 0,
            data: IndexEntryData::Raw(RawBytes::new(bytes.to_vec())),
        });
        self.lay_out_again()
    }

    /// Deletes the resources `keys` (refusing, by key, one the package does not hold; then
    /// nothing is deleted) and their DIR records, then lays the package out again
    /// (`normalize`). The DIR itself is refused while it lists a resource that stays.
    pub fn delete(&mut self, keys: &[ResourceKey]) -> Result<(), ResourceError> {
        if let Some(missing) = keys
            .iter()
            .find(|k| !self.index.iter().any(|e| e.key() == **k))
        {
            return Err(ResourceError::NoResource(*missing));
        }
        let deleting_dir = keys.iter().any(|k| k.type_id == DIR_TYPE);
        if deleting_dir
            && self.directory_records().any(|r| {
                self.index
                    .iter()
                    .any(|e| r.lists(e.key()) && !keys.contains(&e.key()))
            })
        {
            return Err(ResourceError::Directory(
                "the DIR lists compressed resources that stay: without it they could not be \
                 decompressed (delete them too, or keep the DIR)",
            ));
        }
        self.index.retain(|e| !keys.contains(&e.key()));
        for entry in &mut self.index {
            if let IndexEntryData::Directory(dir) = &mut entry.data {
                dir.records.retain(|r| !keys.iter().any(|k| r.lists(*k)));
            }
        }
        self.lay_out_again()
    }

    /// Lays the package out again without holes (`normalize`): the resources in index order,
    /// packed after the header, then the index; the hole index emptied.
    pub fn rebuild(&mut self) -> Result<(), ResourceError> {
        self.lay_out_again()
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

/// One resource of a package, as listed.
#[derive(Debug, Clone, serde::Serialize)]
pub struct ListedResource {
    /// Its key.
    pub key: ResourceKey,
    /// True when stored QFS-compressed.
    pub compressed: bool,
    /// Bytes in the package.
    pub stored_size: u32,
    /// The decoded animation, for ANIM resources.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub anim: Option<DecodedAnim>,
}

/// An ANIM resource, decoded, or why it does not decode.
#[derive(Debug, Clone, serde::Serialize)]
#[serde(untagged)]
pub enum DecodedAnim {
    /// The animation.
    Anim(Box<Sims2Anim>),
    /// Why it does not decode (decompression or reading).
    Error {
        /// The message, with byte offset and field path.
        error: String,
    },
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
