//! Decoded views of RenderWare values that the schema keeps in their stored form.

use std::borrow::Cow;

use crate::dff::{
    Clump, Dff, FrameExtension, FrameName, FramePluginBody, GeometryPluginBody, GeometryStruct,
    Hanim, Material, MaterialList, Skin, SkinBone, SkinLayout, SkinNativeBody, TopLevelChunkBody,
    UvAnimDict,
};

/// A RenderWare version 0x3MNRR as `3.M.N.RR` (0x36003 → `3.6.0.3`).
pub fn version_text(version: i64) -> String {
    format!(
        "{}.{}.{}.{}",
        (version >> 16) & 0xf,
        (version >> 12) & 0xf,
        (version >> 8) & 0xf,
        version & 0xff
    )
}

impl GeometryStruct {
    /// The geometry's RenderWare version as `3.M.N.RR`.
    pub fn version_text(&self) -> String {
        version_text(self.version())
    }
}

impl SkinBone {
    /// The inverse bind matrix as 4 rows of 4.
    pub fn matrix(&self) -> [[f32; 4]; 4] {
        let m = &self.inverse_bind_matrix;
        std::array::from_fn(|row| std::array::from_fn(|col| m[row * 4 + col]))
    }
}

impl MaterialList {
    /// The material each index of the list stands for, as RenderWare resolves them: a
    /// negative index's own material, or, for an index >= 0, the material already resolved
    /// at that index (`None` when it names no earlier material).
    pub fn resolved(&self) -> Vec<Option<&Material>> {
        let mut resolved: Vec<Option<&Material>> = Vec::with_capacity(self.materials.len());
        for (slot, &index) in self.materials.iter().zip(&self.structure.indices) {
            let material = match (&slot.material, usize::try_from(index)) {
                (Some(own), _) => Some(own),
                (None, Ok(earlier)) => resolved.get(earlier).copied().flatten(),
                (None, Err(_)) => None,
            };
            resolved.push(material);
        }
        resolved
    }
}

impl Material {
    /// The name of the material's texture, when it has one.
    pub fn texture_name(&self) -> Option<Cow<'_, str>> {
        self.texture.as_ref().map(|t| t.name.value.text())
    }
}

impl FrameExtension {
    /// The frame's node-name plugin, when it has one.
    pub fn name(&self) -> Option<&FrameName> {
        self.body.plugins.iter().find_map(|p| match &p.body {
            FramePluginBody::FrameName(name) => Some(name),
            _ => None,
        })
    }

    /// The frame's HAnim plugin, when it has one.
    pub fn hanim(&self) -> Option<&Hanim> {
        self.body.plugins.iter().find_map(|p| match &p.body {
            FramePluginBody::Hanim(hanim) => Some(hanim),
            _ => None,
        })
    }
}

/// The parts of a skin every layout has.
#[derive(Debug, Clone, Copy)]
pub struct SkinView<'a> {
    /// Bones in the skeleton.
    pub num_bones: u8,
    /// Bone indices used by the skin.
    pub used_bones: &'a [u8],
    /// Maximum non-zero weights per vertex (0: count them).
    pub max_weights_per_vertex: u8,
    /// Per vertex, four bone indices; empty for native skins, which keep them in native data.
    pub vertex_bone_indices: &'a [crate::dff::VertexBones],
    /// Per vertex, four weights; empty for native skins.
    pub vertex_weights: &'a [crate::dff::VertexWeights],
    /// One inverse bind matrix per bone.
    pub bones: &'a [SkinBone],
}

impl Skin {
    /// The common view of the skin, or `None` for a native platform kept raw.
    pub fn view(&self) -> Option<SkinView<'_>> {
        match &self.layout {
            SkinLayout::SkinPlain(skin) => Some(SkinView {
                num_bones: skin.num_bones,
                used_bones: &skin.used_bones,
                max_weights_per_vertex: skin.max_weights_per_vertex,
                vertex_bone_indices: &skin.vertex_bone_indices,
                vertex_weights: &skin.vertex_weights,
                bones: &skin.bones,
            }),
            SkinLayout::SkinNative(native) => match &native.body {
                SkinNativeBody::SkinPs2(skin) => Some(SkinView {
                    num_bones: skin.num_bones,
                    used_bones: &skin.used_bones,
                    max_weights_per_vertex: skin.max_weights_per_vertex,
                    vertex_bone_indices: &[],
                    vertex_weights: &[],
                    bones: &skin.bones,
                }),
                SkinNativeBody::Raw(_) => None,
            },
        }
    }
}

/// A skin found in a model, with what it was read with.
#[derive(Debug, Clone, Copy)]
pub struct FoundSkin<'a> {
    /// Index of the clump among the stream's clumps.
    pub clump: usize,
    /// Index of the geometry in its clump's geometry list.
    pub geometry: usize,
    /// The geometry's struct: vertex count, version, native flag.
    pub geometry_struct: &'a GeometryStruct,
    /// The skin.
    pub skin: &'a Skin,
}

impl Dff {
    /// The clumps of the stream, in order.
    pub fn clumps(&self) -> impl Iterator<Item = &Clump> {
        self.chunks.iter().filter_map(|chunk| match &chunk.body {
            TopLevelChunkBody::Clump(clump) => Some(clump),
            _ => None,
        })
    }

    /// The clumps of the stream, in order, for editing.
    pub fn clumps_mut(&mut self) -> impl Iterator<Item = &mut Clump> {
        self.chunks
            .iter_mut()
            .filter_map(|chunk| match &mut chunk.body {
                TopLevelChunkBody::Clump(clump) => Some(clump),
                _ => None,
            })
    }

    /// The UV animation dictionaries of the stream, in order.
    pub fn uv_anim_dicts(&self) -> impl Iterator<Item = &UvAnimDict> {
        self.chunks.iter().filter_map(|chunk| match &chunk.body {
            TopLevelChunkBody::UvAnimDict(dict) => Some(dict),
            _ => None,
        })
    }

    /// Every Skin PLG of every geometry of every clump.
    pub fn skins(&self) -> Vec<FoundSkin<'_>> {
        let mut found = Vec::new();
        for (clump_index, clump) in self.clumps().enumerate() {
            for (geometry_index, geometry) in clump.geometry_list.geometries.iter().enumerate() {
                for plugin in &geometry.extension.body.plugins {
                    if let GeometryPluginBody::Skin(skin) = &plugin.body {
                        found.push(FoundSkin {
                            clump: clump_index,
                            geometry: geometry_index,
                            geometry_struct: &geometry.structure,
                            skin,
                        });
                    }
                }
            }
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_read_as_text() {
        assert_eq!(version_text(0x36003), "3.6.0.3");
        assert_eq!(version_text(0x33002), "3.3.0.2");
        assert_eq!(version_text(0x31000), "3.1.0.0");
    }
}
