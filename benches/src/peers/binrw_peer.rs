//! binrw 0.15, written as its documentation teaches: `#[binrw]` structs over `Read + Seek`,
//! `count`, `if`, `import`/`args`, enums chosen by `pre_assert`. Counts and sizes are kept as
//! read, like skelcodec does, so every file round-trips byte for byte. Compressed frames are
//! kept raw (`[i16; 4]`), as skelcodec keeps them, and converted in the checksum.

use std::io::Cursor;

use binrw::{BinRead, BinWrite, binrw};

use crate::{Checksum, Codec, Input, fixed};

/// `Vec<u8>` to the end of the stream in one `read_to_end` (binrw's own `until_eof` reads byte
/// by byte; a user reading large tails writes this).
#[binrw::parser(reader)]
fn rest() -> binrw::BinResult<Vec<u8>> {
    let mut out = Vec::new();
    reader.read_to_end(&mut out)?;
    Ok(out)
}

fn pad4(n: u32) -> usize {
    (n as usize + 3) & !3
}

/// A whole IFP file.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone)]
pub struct IfpFile {
    /// ANPK or ANP3.
    pub magic: [u8; 4],
    /// The package.
    #[br(args(magic))]
    pub body: Body,
    /// Bytes after the content.
    #[br(parse_with = rest)]
    pub tail: Vec<u8>,
}

/// The package, by magic.
#[binrw]
#[brw(little)]
#[br(import(magic: [u8; 4]))]
#[derive(Debug, Clone)]
pub enum Body {
    /// Version 1.
    #[br(pre_assert(&magic == b"ANPK"))]
    Anpk(Anpk),
    /// Version 2.
    #[br(pre_assert(&magic == b"ANP3"))]
    Anp3(Anp3),
}

/// ANP3 package.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone)]
pub struct Anp3 {
    /// End offset.
    pub end_offset: u32,
    /// Name.
    pub name: [u8; 24],
    /// Animation count.
    pub num_animations: u32,
    /// Animations.
    #[br(count = num_animations)]
    pub animations: Vec<Anp3Animation>,
}

/// ANP3 animation.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone)]
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
    #[br(count = num_objects)]
    pub objects: Vec<Anp3Object>,
}

/// ANP3 object.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone)]
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
    #[br(args(frame_type, num_frames))]
    pub frames: Anp3Frames,
}

/// ANP3 frames by frame type.
#[binrw]
#[brw(little)]
#[br(import(frame_type: u32, count: u32))]
#[derive(Debug, Clone)]
pub enum Anp3Frames {
    /// Type 1.
    #[br(pre_assert(frame_type == 1))]
    Rot(#[br(count = count)] Vec<RotF>),
    /// Type 2.
    #[br(pre_assert(frame_type == 2))]
    RotTrans(#[br(count = count)] Vec<RotTimeTransF>),
    /// Type 3.
    #[br(pre_assert(frame_type == 3))]
    RotC(#[br(count = count)] Vec<RotC>),
    /// Type 4.
    #[br(pre_assert(frame_type == 4))]
    RotTransC(#[br(count = count)] Vec<RotTransC>),
}

/// Rotation and time (ANP3 type 1, ANPK KR00).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Copy)]
pub struct RotF {
    /// Rotation.
    pub rotation: [f32; 4],
    /// Time.
    pub time: f32,
}

/// ANP3 type 2.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Copy)]
pub struct RotTimeTransF {
    /// Rotation.
    pub rotation: [f32; 4],
    /// Time.
    pub time: f32,
    /// Translation.
    pub translation: [f32; 3],
}

/// ANP3 type 3.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Copy)]
pub struct RotC {
    /// Rotation in 1/4096.
    pub rotation: [i16; 4],
    /// Time in 1/60 s.
    pub time: i16,
}

/// ANP3 type 4.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Copy)]
pub struct RotTransC {
    /// Rotation in 1/4096.
    pub rotation: [i16; 4],
    /// Time in 1/60 s.
    pub time: i16,
    /// Translation in 1/1024.
    pub translation: [i16; 3],
}

/// ANPK package.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone)]
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
    #[br(count = pad4(info_size - 4))]
    pub name: Vec<u8>,
    /// Animations.
    #[br(count = num_animations)]
    pub animations: Vec<AnpkAnimation>,
}

/// ANPK animation.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone)]
pub struct AnpkAnimation {
    /// "NAME".
    pub name_fourcc: [u8; 4],
    /// Name size.
    pub name_size: u32,
    /// Name, padded to 4.
    #[br(count = pad4(name_size))]
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
    #[br(count = pad4(info_size - 8))]
    pub info_extra: Vec<u8>,
    /// Objects.
    #[br(count = num_objects)]
    pub objects: Vec<AnpkObject>,
}

/// ANPK object.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone)]
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
    #[br(if(anim_size == 44))]
    pub bone_tag: Option<i32>,
    /// GTA III words.
    #[br(if(anim_size == 48))]
    pub extra_words: Option<[i32; 2]>,
    /// Any other ANIM size.
    #[br(if(anim_size != 44 && anim_size != 48), count = anim_size - 40)]
    pub anim_extra: Option<Vec<u8>>,
    /// Key frames.
    #[br(if(num_frames != 0), args(num_frames))]
    pub keyframes: Option<AnpkKeyframes>,
}

/// ANPK key frame section.
#[binrw]
#[brw(little)]
#[br(import(num_frames: i32))]
#[derive(Debug, Clone)]
pub struct AnpkKeyframes {
    /// KR00, KRT0 or KRTS.
    pub kind: [u8; 4],
    /// Size.
    pub size: u32,
    /// Frames.
    #[br(args(kind, num_frames))]
    pub frames: AnpkFrames,
}

/// ANPK frames by kind.
#[binrw]
#[brw(little)]
#[br(import(kind: [u8; 4], count: i32))]
#[derive(Debug, Clone)]
pub enum AnpkFrames {
    /// KR00.
    #[br(pre_assert(&kind == b"KR00"))]
    Kr00(#[br(count = count)] Vec<RotF>),
    /// KRT0.
    #[br(pre_assert(&kind == b"KRT0"))]
    Krt0(#[br(count = count)] Vec<RotTransTimeF>),
    /// KRTS.
    #[br(pre_assert(&kind == b"KRTS"))]
    Krts(#[br(count = count)] Vec<RotTransScaleTimeF>),
}

/// KRT0.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Copy)]
pub struct RotTransTimeF {
    /// Rotation.
    pub rotation: [f32; 4],
    /// Translation.
    pub translation: [f32; 3],
    /// Time.
    pub time: f32,
}

/// KRTS.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Copy)]
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

/// The binrw IFP codec.
pub struct Ifp;

impl Codec for Ifp {
    type Value = IfpFile;

    fn decode(input: &Input) -> Result<IfpFile, String> {
        IfpFile::read(&mut Cursor::new(&input.bytes[..])).map_err(|e| e.to_string())
    }

    fn encode(value: &IfpFile) -> Result<Vec<u8>, String> {
        let mut out = Cursor::new(Vec::new());
        value.write(&mut out).map_err(|e| e.to_string())?;
        Ok(out.into_inner())
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
#[binrw]
#[brw(little)]
#[br(import(num_vertices: i32))]
#[derive(Debug, Clone)]
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
    #[br(count = num_used_bones)]
    pub used_bones: Vec<u8>,
    /// Four bone indices per vertex.
    #[br(count = num_vertices)]
    pub indices: Vec<[u8; 4]>,
    /// Four weights per vertex.
    #[br(count = num_vertices)]
    pub weights: Vec<[f32; 4]>,
    /// Bones.
    #[br(count = num_bones, args { inner: (num_used_bones == 0,) })]
    #[bw(args(*num_used_bones == 0))]
    pub bones: Vec<SkinBone>,
    /// Split data (new skins).
    #[br(if(num_used_bones != 0), args(num_bones))]
    pub split: Option<SkinSplit>,
    /// Bytes the chunk covers beyond the skin.
    #[br(parse_with = rest)]
    pub stale: Vec<u8>,
}

/// A bone.
#[binrw]
#[brw(little, import(has_marker: bool))]
#[derive(Debug, Clone)]
pub struct SkinBone {
    /// 0xDEADDEAD in old skins.
    #[br(if(has_marker))]
    pub marker: Option<u32>,
    /// Inverse bind matrix.
    pub matrix: [f32; 16],
}

/// Split data.
#[binrw]
#[brw(little)]
#[br(import(num_bones: u8))]
#[derive(Debug, Clone)]
pub struct SkinSplit {
    /// Bone limit.
    pub bone_limit: i32,
    /// Mesh count.
    pub num_meshes: i32,
    /// RLE size.
    pub rle_size: i32,
    /// Remap indices.
    #[br(if(num_meshes != 0), count = num_bones)]
    pub remap: Option<Vec<u8>>,
    /// RLE counts.
    #[br(if(num_meshes != 0), count = num_meshes)]
    pub rle_counts: Option<Vec<[u8; 2]>>,
    /// RLE.
    #[br(if(num_meshes != 0), count = rle_size)]
    pub rle: Option<Vec<[u8; 2]>>,
}

/// The binrw Skin PLG codec.
pub struct Skin;

impl Codec for Skin {
    type Value = SkinPlg;

    fn decode(input: &Input) -> Result<SkinPlg, String> {
        SkinPlg::read_args(&mut Cursor::new(&input.bytes[..]), (input.num_vertices,))
            .map_err(|e| e.to_string())
    }

    fn encode(value: &SkinPlg) -> Result<Vec<u8>, String> {
        let mut out = Cursor::new(Vec::new());
        value.write(&mut out).map_err(|e| e.to_string())?;
        Ok(out.into_inner())
    }

    fn checksum(s: &SkinPlg) -> Option<Checksum> {
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
