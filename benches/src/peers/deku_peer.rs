//! deku 0.20, written as its documentation teaches: `DekuRead`/`DekuWrite` derives, the endian
//! passed down as context, `count`, `cond`, `ctx`, enums chosen by `id`. Counts and sizes are
//! kept as read, like skelcodec does, so every file round-trips byte for byte. Compressed
//! frames are kept raw, as skelcodec keeps them, and converted in the checksum.

use std::io::Cursor;

use deku::ctx::Endian;
use deku::prelude::*;

use crate::{Checksum, Codec, Input, fixed};

fn pad4(n: u32) -> usize {
    (n as usize + 3) & !3
}

/// A whole IFP file.
#[derive(Debug, Clone, DekuRead, DekuWrite)]
#[deku(endian = "little")]
pub struct IfpFile {
    /// ANPK or ANP3.
    pub magic: [u8; 4],
    /// The package.
    #[deku(ctx = "*magic")]
    pub body: Body,
    /// Bytes after the content.
    #[deku(read_all)]
    pub tail: Vec<u8>,
}

/// The package, by magic.
#[derive(Debug, Clone, DekuRead, DekuWrite)]
#[deku(
    endian = "endian",
    ctx = "endian: Endian, magic: [u8; 4]",
    id = "magic"
)]
pub enum Body {
    /// Version 1.
    #[deku(id = b"ANPK")]
    Anpk(Anpk),
    /// Version 2.
    #[deku(id = b"ANP3")]
    Anp3(Anp3),
}

/// ANP3 package.
#[derive(Debug, Clone, DekuRead, DekuWrite)]
#[deku(endian = "endian", ctx = "endian: Endian")]
pub struct Anp3 {
    /// End offset.
    pub end_offset: u32,
    /// Name.
    pub name: [u8; 24],
    /// Animation count.
    pub num_animations: u32,
    /// Animations.
    #[deku(count = "num_animations")]
    pub animations: Vec<Anp3Animation>,
}

/// ANP3 animation.
#[derive(Debug, Clone, DekuRead, DekuWrite)]
#[deku(endian = "endian", ctx = "endian: Endian")]
pub struct Anp3Animation {
    /// Name.
    pub name: [u8; 24],
    /// Object count.
    pub num_objects: u32,
    /// Frame bytes.
    pub frame_data_size: u32,
    /// Flags.
    pub flags: u32,
    /// Objects.
    #[deku(count = "num_objects")]
    pub objects: Vec<Anp3Object>,
}

/// ANP3 object.
#[derive(Debug, Clone, DekuRead, DekuWrite)]
#[deku(endian = "endian", ctx = "endian: Endian")]
pub struct Anp3Object {
    /// Name.
    pub name: [u8; 24],
    /// Frame type.
    pub frame_type: u32,
    /// Frame count.
    pub num_frames: u32,
    /// Bone id.
    pub bone_id: i32,
    /// Frames.
    #[deku(ctx = "*frame_type, *num_frames")]
    pub frames: Anp3Frames,
}

/// ANP3 frames by frame type.
#[derive(Debug, Clone, DekuRead, DekuWrite)]
#[deku(
    endian = "endian",
    ctx = "endian: Endian, frame_type: u32, count: u32",
    id = "frame_type"
)]
pub enum Anp3Frames {
    /// Type 1.
    #[deku(id = "1")]
    Rot(#[deku(count = "count")] Vec<RotF>),
    /// Type 2.
    #[deku(id = "2")]
    RotTrans(#[deku(count = "count")] Vec<RotTimeTransF>),
    /// Type 3.
    #[deku(id = "3")]
    RotC(#[deku(count = "count")] Vec<RotC>),
    /// Type 4.
    #[deku(id = "4")]
    RotTransC(#[deku(count = "count")] Vec<RotTransC>),
}

/// Rotation and time (ANP3 type 1, ANPK KR00).
#[derive(Debug, Clone, Copy, DekuRead, DekuWrite)]
#[deku(endian = "endian", ctx = "endian: Endian")]
pub struct RotF {
    /// Rotation.
    pub rotation: [f32; 4],
    /// Time.
    pub time: f32,
}

/// ANP3 type 2.
#[derive(Debug, Clone, Copy, DekuRead, DekuWrite)]
#[deku(endian = "endian", ctx = "endian: Endian")]
pub struct RotTimeTransF {
    /// Rotation.
    pub rotation: [f32; 4],
    /// Time.
    pub time: f32,
    /// Translation.
    pub translation: [f32; 3],
}

/// ANP3 type 3.
#[derive(Debug, Clone, Copy, DekuRead, DekuWrite)]
#[deku(endian = "endian", ctx = "endian: Endian")]
pub struct RotC {
    /// Rotation in 1/4096.
    pub rotation: [i16; 4],
    /// Time in 1/60 s.
    pub time: i16,
}

/// ANP3 type 4.
#[derive(Debug, Clone, Copy, DekuRead, DekuWrite)]
#[deku(endian = "endian", ctx = "endian: Endian")]
pub struct RotTransC {
    /// Rotation in 1/4096.
    pub rotation: [i16; 4],
    /// Time in 1/60 s.
    pub time: i16,
    /// Translation in 1/1024.
    pub translation: [i16; 3],
}

/// ANPK package.
#[derive(Debug, Clone, DekuRead, DekuWrite)]
#[deku(endian = "endian", ctx = "endian: Endian")]
pub struct Anpk {
    /// Size.
    pub size: u32,
    /// "INFO".
    pub info_fourcc: [u8; 4],
    /// INFO size.
    pub info_size: u32,
    /// Animation count.
    pub num_animations: i32,
    /// Name, padded to 4.
    #[deku(count = "pad4(*info_size - 4)")]
    pub name: Vec<u8>,
    /// Animations.
    #[deku(count = "num_animations")]
    pub animations: Vec<AnpkAnimation>,
}

/// ANPK animation.
#[derive(Debug, Clone, DekuRead, DekuWrite)]
#[deku(endian = "endian", ctx = "endian: Endian")]
pub struct AnpkAnimation {
    /// "NAME".
    pub name_fourcc: [u8; 4],
    /// Name size.
    pub name_size: u32,
    /// Name, padded to 4.
    #[deku(count = "pad4(*name_size)")]
    pub name: Vec<u8>,
    /// "DGAN".
    pub dgan_fourcc: [u8; 4],
    /// DGAN size.
    pub dgan_size: u32,
    /// "INFO".
    pub info_fourcc: [u8; 4],
    /// INFO size.
    pub info_size: u32,
    /// Object count.
    pub num_objects: i32,
    /// Unknown.
    pub info_unknown: i32,
    /// INFO bytes beyond 8.
    #[deku(count = "pad4(*info_size - 8)")]
    pub info_extra: Vec<u8>,
    /// Objects.
    #[deku(count = "num_objects")]
    pub objects: Vec<AnpkObject>,
}

/// ANPK object.
#[derive(Debug, Clone, DekuRead, DekuWrite)]
#[deku(endian = "endian", ctx = "endian: Endian")]
pub struct AnpkObject {
    /// "CPAN".
    pub cpan_fourcc: [u8; 4],
    /// CPAN size.
    pub cpan_size: u32,
    /// "ANIM".
    pub anim_fourcc: [u8; 4],
    /// ANIM size.
    pub anim_size: u32,
    /// Bone name.
    pub bone_name: [u8; 28],
    /// Frame count.
    pub num_frames: i32,
    /// Unknown.
    pub unknown: i32,
    /// Last frame.
    pub last_frame: i32,
    /// Vice City bone tag.
    #[deku(cond = "*anim_size == 44")]
    pub bone_tag: Option<i32>,
    /// GTA III words.
    #[deku(cond = "*anim_size == 48")]
    pub extra_words: Option<[i32; 2]>,
    /// Any other ANIM size.
    #[deku(
        cond = "*anim_size != 44 && *anim_size != 48",
        count = "*anim_size - 40"
    )]
    pub anim_extra: Option<Vec<u8>>,
    /// Key frames.
    #[deku(cond = "*num_frames != 0", ctx = "*num_frames")]
    pub keyframes: Option<AnpkKeyframes>,
}

/// ANPK key frame section.
#[derive(Debug, Clone, DekuRead, DekuWrite)]
#[deku(endian = "endian", ctx = "endian: Endian, num_frames: i32")]
pub struct AnpkKeyframes {
    /// KR00, KRT0 or KRTS.
    pub kind: [u8; 4],
    /// Size.
    pub size: u32,
    /// Frames.
    #[deku(ctx = "*kind, num_frames")]
    pub frames: AnpkFrames,
}

/// ANPK frames by kind.
#[derive(Debug, Clone, DekuRead, DekuWrite)]
#[deku(
    endian = "endian",
    ctx = "endian: Endian, kind: [u8; 4], count: i32",
    id = "kind"
)]
pub enum AnpkFrames {
    /// KR00.
    #[deku(id = b"KR00")]
    Kr00(#[deku(count = "count")] Vec<RotF>),
    /// KRT0.
    #[deku(id = b"KRT0")]
    Krt0(#[deku(count = "count")] Vec<RotTransTimeF>),
    /// KRTS.
    #[deku(id = b"KRTS")]
    Krts(#[deku(count = "count")] Vec<RotTransScaleTimeF>),
}

/// KRT0.
#[derive(Debug, Clone, Copy, DekuRead, DekuWrite)]
#[deku(endian = "endian", ctx = "endian: Endian")]
pub struct RotTransTimeF {
    /// Rotation.
    pub rotation: [f32; 4],
    /// Translation.
    pub translation: [f32; 3],
    /// Time.
    pub time: f32,
}

/// KRTS.
#[derive(Debug, Clone, Copy, DekuRead, DekuWrite)]
#[deku(endian = "endian", ctx = "endian: Endian")]
pub struct RotTransScaleTimeF {
    /// Rotation.
    pub rotation: [f32; 4],
    /// Translation.
    pub translation: [f32; 3],
    /// Scale.
    pub scale: [f32; 3],
    /// Time.
    pub time: f32,
}

/// The deku IFP codec.
pub struct Ifp;

impl Codec for Ifp {
    type Value = IfpFile;

    fn decode(input: &Input) -> Result<IfpFile, String> {
        let ((rest, _), value) =
            IfpFile::from_bytes((&input.bytes, 0)).map_err(|e| e.to_string())?;
        if rest.is_empty() {
            Ok(value)
        } else {
            Err(format!("{} bytes left", rest.len()))
        }
    }

    fn encode(value: &IfpFile) -> Result<Vec<u8>, String> {
        value.to_bytes().map_err(|e| e.to_string())
    }

    fn checksum(value: &IfpFile) -> Option<Checksum> {
        let mut c = Checksum::default();
        match &value.body {
            Body::Anp3(pack) => {
                for a in &pack.animations {
                    c.groups += 1;
                    for o in &a.objects {
                        c.objects += 1;
                        c.ints += i64::from(o.bone_id);
                        match &o.frames {
                            Anp3Frames::Rot(f) => f
                                .iter()
                                .for_each(|f| c.frame(f.rotation, f.time, None, None)),
                            Anp3Frames::RotTrans(f) => f.iter().for_each(|f| {
                                c.frame(f.rotation, f.time, Some(f.translation), None)
                            }),
                            Anp3Frames::RotC(f) => f.iter().for_each(|f| {
                                c.frame(fixed::quat(f.rotation), fixed::time(f.time), None, None)
                            }),
                            Anp3Frames::RotTransC(f) => f.iter().for_each(|f| {
                                c.frame(
                                    fixed::quat(f.rotation),
                                    fixed::time(f.time),
                                    Some(fixed::vec3(f.translation)),
                                    None,
                                )
                            }),
                        }
                    }
                }
            }
            Body::Anpk(pack) => {
                for a in &pack.animations {
                    c.groups += 1;
                    for o in &a.objects {
                        c.objects += 1;
                        match o.keyframes.as_ref().map(|k| &k.frames) {
                            None => {}
                            Some(AnpkFrames::Kr00(f)) => f
                                .iter()
                                .for_each(|f| c.frame(f.rotation, f.time, None, None)),
                            Some(AnpkFrames::Krt0(f)) => f.iter().for_each(|f| {
                                c.frame(f.rotation, f.time, Some(f.translation), None)
                            }),
                            Some(AnpkFrames::Krts(f)) => f.iter().for_each(|f| {
                                c.frame(f.rotation, f.time, Some(f.translation), Some(f.scale))
                            }),
                        }
                    }
                }
            }
        }
        c.raw += value.tail.len() as u64;
        Some(c)
    }
}

/// A PC-layout Skin PLG payload.
#[derive(Debug, Clone, DekuRead, DekuWrite)]
#[deku(endian = "endian", ctx = "endian: Endian, num_vertices: i32")]
pub struct SkinPlg {
    /// Bones.
    pub num_bones: u8,
    /// Used bones.
    pub num_used_bones: u8,
    /// Max weights per vertex.
    pub max_weights_per_vertex: u8,
    /// Padding.
    pub padding: u8,
    /// Used bone indices.
    #[deku(count = "num_used_bones")]
    pub used_bones: Vec<u8>,
    /// Four bone indices per vertex.
    #[deku(count = "num_vertices")]
    pub indices: Vec<[u8; 4]>,
    /// Four weights per vertex.
    #[deku(count = "num_vertices")]
    pub weights: Vec<[f32; 4]>,
    /// Bones.
    #[deku(count = "num_bones", ctx = "*num_used_bones == 0")]
    pub bones: Vec<SkinBone>,
    /// Split data (new skins).
    #[deku(cond = "*num_used_bones != 0", ctx = "*num_bones")]
    pub split: Option<SkinSplit>,
    /// Bytes the chunk covers beyond the skin.
    #[deku(read_all)]
    pub stale: Vec<u8>,
}

/// A bone.
#[derive(Debug, Clone, DekuRead, DekuWrite)]
#[deku(endian = "endian", ctx = "endian: Endian, has_marker: bool")]
pub struct SkinBone {
    /// 0xDEADDEAD in old skins.
    #[deku(cond = "has_marker")]
    pub marker: Option<u32>,
    /// Inverse bind matrix.
    pub matrix: [f32; 16],
}

/// Split data.
#[derive(Debug, Clone, DekuRead, DekuWrite)]
#[deku(endian = "endian", ctx = "endian: Endian, num_bones: u8")]
pub struct SkinSplit {
    /// Bone limit.
    pub bone_limit: i32,
    /// Mesh count.
    pub num_meshes: i32,
    /// RLE size.
    pub rle_size: i32,
    /// Remap indices.
    #[deku(cond = "*num_meshes != 0", count = "num_bones")]
    pub remap: Option<Vec<u8>>,
    /// RLE counts.
    #[deku(cond = "*num_meshes != 0", count = "num_meshes")]
    pub rle_counts: Option<Vec<[u8; 2]>>,
    /// RLE.
    #[deku(cond = "*num_meshes != 0", count = "rle_size")]
    pub rle: Option<Vec<[u8; 2]>>,
}

/// The deku Skin PLG codec (context-taking types are read with `DekuReader::from_reader_with_ctx`).
pub struct Skin;

/// A skin with the vertex count it was read with.
pub struct SkinWithArgs {
    /// The skin.
    pub skin: SkinPlg,
    num_vertices: i32,
}

impl Codec for Skin {
    type Value = SkinWithArgs;

    fn decode(input: &Input) -> Result<SkinWithArgs, String> {
        let mut cursor = Cursor::new(&input.bytes[..]);
        let mut reader = deku::reader::Reader::new(&mut cursor);
        let skin = SkinPlg::from_reader_with_ctx(&mut reader, (Endian::Little, input.num_vertices))
            .map_err(|e| e.to_string())?;
        Ok(SkinWithArgs {
            skin,
            num_vertices: input.num_vertices,
        })
    }

    fn encode(value: &SkinWithArgs) -> Result<Vec<u8>, String> {
        let mut out = Cursor::new(Vec::new());
        let mut writer = deku::writer::Writer::new(&mut out);
        value
            .skin
            .to_writer(&mut writer, (Endian::Little, value.num_vertices))
            .map_err(|e| e.to_string())?;
        writer.finalize().map_err(|e| e.to_string())?;
        Ok(out.into_inner())
    }

    fn checksum(v: &SkinWithArgs) -> Option<Checksum> {
        let s = &v.skin;
        let mut c = Checksum {
            groups: 1,
            raw: s.stale.len() as u64,
            ..Checksum::default()
        };
        c.ints += i64::from(s.num_bones)
            + i64::from(s.num_used_bones)
            + i64::from(s.max_weights_per_vertex);
        c.ints += s.used_bones.iter().map(|&b| i64::from(b)).sum::<i64>();
        c.ints += s
            .indices
            .iter()
            .flatten()
            .map(|&b| i64::from(b))
            .sum::<i64>();
        for w in &s.weights {
            c.units += 1;
            c.floats(w);
        }
        for b in &s.bones {
            c.objects += 1;
            c.ints += b.marker.map_or(0, i64::from);
            c.floats(&b.matrix);
        }
        if let Some(split) = &s.split {
            c.ints += i64::from(split.bone_limit)
                + i64::from(split.num_meshes)
                + i64::from(split.rle_size);
            c.ints += split
                .remap
                .iter()
                .flatten()
                .map(|&b| i64::from(b))
                .sum::<i64>();
            let pairs = split
                .rle_counts
                .iter()
                .flatten()
                .chain(split.rle.iter().flatten());
            c.ints += pairs.flatten().map(|&b| i64::from(b)).sum::<i64>();
        }
        Some(c)
    }
}
