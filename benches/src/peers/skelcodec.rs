//! skelcodec's generated codecs, called as a user calls them.

use skelcodec_formats::dff::{Dff, Skin as SkinValue, SkinLayout};
use skelcodec_formats::ifp::{Anp3ObjectFrames, AnpkKeyframesFrames, Ifp as IfpValue, IfpBody};
use skelcodec_runtime::{Reader, Writer};

use crate::{Checksum, Codec, Input};

/// `skelcodec_formats::ifp::Ifp` read with `read_owned` from a copy of the input made for it
/// (in the timed region): the value keeps the copy, and its key-frame lists are views of it,
/// decoded when first looked at.
pub struct IfpOwned;

impl Codec for IfpOwned {
    type Value = IfpValue;

    fn decode(input: &Input) -> Result<IfpValue, String> {
        IfpValue::read_owned(input.bytes.clone()).map_err(|e| e.to_string())
    }

    fn encode(value: &IfpValue) -> Result<Vec<u8>, String> {
        Ifp::encode(value)
    }

    fn checksum(value: &IfpValue) -> Option<Checksum> {
        Ifp::checksum(value)
    }
}

/// `skelcodec_formats::ifp::Ifp`.
pub struct Ifp;

impl Codec for Ifp {
    type Value = IfpValue;

    fn decode(input: &Input) -> Result<IfpValue, String> {
        IfpValue::read(&input.bytes).map_err(|e| e.to_string())
    }

    fn encode(value: &IfpValue) -> Result<Vec<u8>, String> {
        value.to_bytes().map_err(|e| e.to_string())
    }

    fn checksum(value: &IfpValue) -> Option<Checksum> {
        let mut c = Checksum::default();
        match &value.body {
            IfpBody::Anp3(pack) => {
                for animation in &pack.animations {
                    c.groups += 1;
                    for object in &animation.objects {
                        c.objects += 1;
                        c.ints += i64::from(object.bone_id);
                        match &object.frames {
                            Anp3ObjectFrames::Anp3Rotation(frames) => {
                                for f in frames {
                                    c.frame(quat(f.rotation), f.time, None, None);
                                }
                            }
                            Anp3ObjectFrames::Anp3RotationTranslation(frames) => {
                                for f in frames {
                                    c.frame(
                                        quat(f.rotation),
                                        f.time,
                                        Some(vec3(f.translation)),
                                        None,
                                    );
                                }
                            }
                            Anp3ObjectFrames::Anp3RotationCompressed(frames) => {
                                for f in frames {
                                    c.frame(quat(f.rotation.to_f32()), f.time.get(), None, None);
                                }
                            }
                            Anp3ObjectFrames::Anp3RotationTranslationCompressed(frames) => {
                                for f in frames {
                                    c.frame(
                                        quat(f.rotation.to_f32()),
                                        f.time.get(),
                                        Some(vec3(f.translation.to_f32())),
                                        None,
                                    );
                                }
                            }
                        }
                    }
                }
            }
            IfpBody::Anpk(pack) => {
                for animation in &pack.animations {
                    c.groups += 1;
                    for object in &animation.objects {
                        c.objects += 1;
                        let Some(keyframes) = &object.keyframes else {
                            continue;
                        };
                        match &keyframes.frames {
                            AnpkKeyframesFrames::AnpkKr00(frames) => {
                                for f in frames {
                                    c.frame(quat(f.rotation), f.time, None, None);
                                }
                            }
                            AnpkKeyframesFrames::AnpkKrt0(frames) => {
                                for f in frames {
                                    c.frame(
                                        quat(f.rotation),
                                        f.time,
                                        Some(vec3(f.translation)),
                                        None,
                                    );
                                }
                            }
                            AnpkKeyframesFrames::AnpkKrts(frames) => {
                                for f in frames {
                                    c.frame(
                                        quat(f.rotation),
                                        f.time,
                                        Some(vec3(f.translation)),
                                        Some(vec3(f.scale)),
                                    );
                                }
                            }
                        }
                    }
                }
            }
        }
        c.raw += value.tail.0.len() as u64;
        Some(c)
    }
}

fn quat(q: skelcodec_runtime::Quat<f32>) -> [f32; 4] {
    [q.x, q.y, q.z, q.w]
}

fn vec3(v: skelcodec_runtime::Vec3<f32>) -> [f32; 3] {
    [v.x, v.y, v.z]
}

/// `skelcodec_formats::dff::Skin`, read on its own from a Skin PLG payload.
pub struct Skin;

/// A skin with the arguments it was read with (the writer needs them too).
pub struct SkinWithArgs {
    /// The decoded skin.
    pub skin: SkinValue,
    num_vertices: i64,
    version: i64,
}

impl Codec for Skin {
    type Value = SkinWithArgs;

    fn decode(input: &Input) -> Result<SkinWithArgs, String> {
        let (num_vertices, version) = (i64::from(input.num_vertices), i64::from(input.version));
        let skin =
            SkinValue::read_from(&mut Reader::new(&input.bytes), num_vertices, version, false)
                .map_err(|e| e.to_string())?;
        Ok(SkinWithArgs {
            skin,
            num_vertices,
            version,
        })
    }

    fn encode(value: &SkinWithArgs) -> Result<Vec<u8>, String> {
        let mut w = Writer::with_capacity(value.skin.encoded_len());
        value
            .skin
            .write_to(&mut w, value.num_vertices, value.version, false)
            .map_err(|e| e.to_string())?;
        w.into_bytes().map_err(|e| e.to_string())
    }

    fn checksum(value: &SkinWithArgs) -> Option<Checksum> {
        let mut c = Checksum {
            groups: 1,
            raw: value.skin.stale.0.len() as u64,
            ..Checksum::default()
        };
        let SkinLayout::SkinPlain(skin) = &value.skin.layout else {
            return None;
        };
        c.ints += i64::from(skin.num_bones) + i64::from(skin.num_used_bones);
        c.ints += i64::from(skin.max_weights_per_vertex);
        c.ints += skin.used_bones.iter().map(|&b| i64::from(b)).sum::<i64>();
        for v in &skin.vertex_bone_indices {
            c.ints += v.indices.iter().map(|&b| i64::from(b)).sum::<i64>();
        }
        for v in &skin.vertex_weights {
            c.units += 1;
            c.floats(&v.weights);
        }
        for bone in &skin.bones {
            c.objects += 1;
            c.ints += bone.marker.map_or(0, i64::from);
            c.floats(&bone.inverse_bind_matrix);
        }
        if let Some(split) = &skin.split {
            c.ints += i64::from(split.bone_limit)
                + i64::from(split.num_meshes)
                + i64::from(split.rle_size);
            for b in split.remap_indices.iter().flatten() {
                c.ints += i64::from(*b);
            }
            for r in split
                .rle_counts
                .iter()
                .flatten()
                .chain(split.rle.iter().flatten())
            {
                c.ints += i64::from(r.first) + i64::from(r.count);
            }
        }
        Some(c)
    }
}

/// A whole DFF model, `skelcodec_formats::dff::Dff` (no peer implements whole models).
pub struct WholeDff;

impl Codec for WholeDff {
    type Value = Dff;

    fn decode(input: &Input) -> Result<Dff, String> {
        Dff::read(&input.bytes).map_err(|e| e.to_string())
    }

    fn encode(value: &Dff) -> Result<Vec<u8>, String> {
        value.to_bytes().map_err(|e| e.to_string())
    }

    fn checksum(value: &Dff) -> Option<Checksum> {
        let mut c = Checksum::default();
        for found in value.skins() {
            c.groups += 1;
            if let Some(view) = found.skin.view() {
                c.units += view.vertex_weights.len() as u64;
                c.objects += view.bones.len() as u64;
            }
        }
        Some(c)
    }
}
