//! BattleForge: finding AnimationSets in a DRS container, laying a container out again after an
//! edit, and the AnimationSet blob as a format of its own.

use skelcodec_runtime::{Checker, Codec, Mismatch, Reader, Result, Writer};

use crate::drs::{AnimationSet, Drs, NodeClass, NodeInformationBlob};

/// Bytes of the DRS header; blobs are laid out right after it.
const HEADER_SIZE: i32 = 20;
/// Bytes of one node-information entry (the root entry has the same size).
const NODE_INFORMATION_SIZE: i32 = 32;

impl Drs {
    /// Every decoded AnimationSet, found through the node-information table by class tag.
    pub fn animation_sets(&self) -> Vec<&AnimationSet> {
        self.node_information
            .entries
            .iter()
            .filter(|e| e.class_tag == NodeClass::AnimationSet)
            .filter_map(|e| match &e.blob {
                NodeInformationBlob::AnimationSet(set) => Some(set),
                NodeInformationBlob::Raw(_) => None,
            })
            .collect()
    }

    /// Recomputes sizes and counts (`normalize`), then lays the file out again as the add-on
    /// writes it: header, blobs in table order, the node-information table, the hierarchy.
    /// Bytes no part claimed are dropped, since their old offsets mean nothing in the new layout.
    /// Stored offsets are otherwise kept as read; this is the explicit operation that changes them.
    pub fn normalize_layout(&mut self) -> Result<()> {
        Codec::normalize(self)?;
        let mut cursor = HEADER_SIZE;
        for entry in &mut self.node_information.entries {
            entry.offset = cursor;
            cursor = cursor.saturating_add(entry.size);
        }
        self.node_information_offset = cursor;
        let entries = i32::try_from(self.node_count).unwrap_or(i32::MAX);
        self.node_hierarchy_offset =
            cursor.saturating_add(NODE_INFORMATION_SIZE.saturating_mul(entries));
        self.unclaimed.clear();
        Ok(())
    }
}

/// An AnimationSet blob on its own (as extracted from a DRS container).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
pub struct AnimationSetBlob(pub AnimationSet);

impl Codec for AnimationSetBlob {
    const FORMAT: &'static str = "animation_set";
    const MAGIC: &'static [&'static [u8]] = &[b"\x0b\x00\x00\x00Battleforge"];
    const EXTENSIONS: &'static [&'static str] = &[];

    fn read(bytes: &[u8]) -> Result<Self> {
        AnimationSet::read_from(&mut Reader::new(bytes)).map(Self)
    }

    fn write(&self, w: &mut Writer) -> Result<()> {
        self.0.write_to(w)
    }

    fn encoded_len(&self) -> usize {
        self.0.encoded_len()
    }

    fn check(&self) -> Vec<Mismatch> {
        let mut checker = Checker::new();
        self.0.check_into(&mut checker);
        checker.into_mismatches()
    }

    fn normalize(&mut self) -> Result<()> {
        self.0.normalize()
    }
}
