//! BattleForge: finding AnimationSets in a DRS container, and the AnimationSet blob as a
//! format of its own. Laying a container out again after an edit is the schema's `-layout`.

use skelcodec_runtime::{Checker, Codec, Mismatch, Reader, Result, Writer};

use crate::drs::{AnimationSet, Drs, NodeClass, NodeInformationBlob};

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
