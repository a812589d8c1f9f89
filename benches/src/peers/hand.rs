//! A hand-written codec over `&[u8]`: headers through a small checked cursor, and every array of
//! fixed-size elements with ONE bounds check (`count * SIZE`), then decoded with constant
//! offsets from `as_chunks`. The writer computes the exact size, allocates once and appends.

use crate::{Checksum, Codec, Input, fixed};

/// A cursor with one check per read.
struct Cur<'a> {
    b: &'a [u8],
    p: usize,
}

impl<'a> Cur<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let end = self.p.checked_add(n).filter(|&e| e <= self.b.len());
        let end = end.ok_or_else(|| format!("unexpected end of input at {}", self.p))?;
        let s = &self.b[self.p..end];
        self.p = end;
        Ok(s)
    }

    fn arr<const N: usize>(&mut self) -> Result<[u8; N], String> {
        let s = self.take(N)?;
        let mut a = [0; N];
        a.copy_from_slice(s);
        Ok(a)
    }

    fn u32(&mut self) -> Result<u32, String> {
        self.arr().map(u32::from_le_bytes)
    }

    fn i32(&mut self) -> Result<i32, String> {
        self.arr().map(i32::from_le_bytes)
    }

    /// `count` elements of `N` bytes: one bounds check, then constant offsets.
    fn elements<T, const N: usize>(
        &mut self,
        count: usize,
        decode: impl Fn(&[u8; N]) -> T,
    ) -> Result<Vec<T>, String> {
        let n = count.checked_mul(N).ok_or("count overflows")?;
        let (chunks, _) = self.take(n)?.as_chunks::<N>();
        Ok(chunks.iter().map(decode).collect())
    }

    fn rest(&mut self) -> &'a [u8] {
        let s = &self.b[self.p..];
        self.p = self.b.len();
        s
    }
}

fn f32_at(b: &[u8], at: usize) -> f32 {
    f32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

fn i16_at(b: &[u8], at: usize) -> i16 {
    i16::from_le_bytes([b[at], b[at + 1]])
}

fn pad4(n: usize) -> usize {
    (n + 3) & !3
}

fn len(n: i64) -> Result<usize, String> {
    usize::try_from(n).map_err(|_| format!("negative length {n}"))
}

/// Key frames of both versions, floats as stored, fixed-point kept raw.
#[derive(Debug, Clone, Copy)]
pub struct Frame<const T: usize, const S: usize> {
    /// Rotation x, y, z, w.
    pub rotation: [f32; 4],
    /// Translation (when T = 3).
    pub translation: [f32; T],
    /// Scale (when S = 3).
    pub scale: [f32; S],
    /// Time.
    pub time: f32,
}

/// An ANP3 compressed key frame, kept raw.
#[derive(Debug, Clone, Copy)]
pub struct Compressed<const T: usize> {
    /// Rotation x, y, z, w in 1/4096.
    pub rotation: [i16; 4],
    /// Time in 1/60 s.
    pub time: i16,
    /// Translation in 1/1024 (when T = 3).
    pub translation: [i16; T],
}

/// ANP3 frames, one list per object.
#[derive(Debug, Clone)]
pub enum Anp3Frames {
    /// Type 1.
    Rot(Vec<Frame<0, 0>>),
    /// Type 2 (time before translation).
    RotTrans(Vec<Frame<3, 0>>),
    /// Type 3.
    RotC(Vec<Compressed<0>>),
    /// Type 4.
    RotTransC(Vec<Compressed<3>>),
}

/// ANPK frames, one list per object.
#[derive(Debug, Clone)]
pub enum AnpkFrames {
    /// KR00.
    Kr00(Vec<Frame<0, 0>>),
    /// KRT0.
    Krt0(Vec<Frame<3, 0>>),
    /// KRTS.
    Krts(Vec<Frame<3, 3>>),
}

/// An ANP3 object.
#[derive(Debug, Clone)]
pub struct Anp3Object {
    /// Name (bytes after the NUL kept).
    pub name: [u8; 24],
    /// 1 to 4.
    pub frame_type: u32,
    /// Frame count as stored.
    pub num_frames: u32,
    /// Bone id.
    pub bone_id: i32,
    /// Frames.
    pub frames: Anp3Frames,
}

/// An ANP3 animation.
#[derive(Debug, Clone)]
pub struct Anp3Animation {
    /// Name.
    pub name: [u8; 24],
    /// Object count as stored.
    pub num_objects: u32,
    /// Frame bytes as stored.
    pub frame_data_size: u32,
    /// Flags.
    pub flags: u32,
    /// Objects.
    pub objects: Vec<Anp3Object>,
}

/// An ANPK object (CPAN, ANIM and key frames).
#[derive(Debug, Clone)]
pub struct AnpkObject {
    /// CPAN, size, ANIM, size.
    pub header: [u32; 4],
    /// Bone name.
    pub bone_name: [u8; 28],
    /// Frames, unknown, last frame.
    pub counts: [i32; 3],
    /// The ANIM header beyond 40 bytes (bone tag, GTA III words, anything else).
    pub anim_extra: Vec<u8>,
    /// KR00/KRT0/KRTS and size, when there are frames.
    pub keyframes: Option<([u8; 4], u32, AnpkFrames)>,
}

/// An ANPK animation.
#[derive(Debug, Clone)]
pub struct AnpkAnimation {
    /// NAME, size.
    pub name_header: [u32; 2],
    /// Name, padded to 4.
    pub name: Vec<u8>,
    /// DGAN, size, INFO, size.
    pub info_header: [u32; 4],
    /// Object count, unknown.
    pub info: [i32; 2],
    /// INFO bytes beyond 8, padded to 4.
    pub info_extra: Vec<u8>,
    /// Objects.
    pub objects: Vec<AnpkObject>,
}

/// A package body.
#[derive(Debug, Clone)]
pub enum Body {
    /// Version 1.
    Anpk {
        /// Size, INFO, size.
        header: [u32; 3],
        /// Animation count.
        num_animations: i32,
        /// Name, padded to 4.
        name: Vec<u8>,
        /// Animations.
        animations: Vec<AnpkAnimation>,
    },
    /// Version 2.
    Anp3 {
        /// End offset.
        end_offset: u32,
        /// Name.
        name: [u8; 24],
        /// Animation count.
        num_animations: u32,
        /// Animations.
        animations: Vec<Anp3Animation>,
    },
}

/// A whole IFP file.
#[derive(Debug, Clone)]
pub struct IfpFile {
    /// ANPK or ANP3.
    pub magic: [u8; 4],
    /// The package.
    pub body: Body,
    /// Bytes after the content.
    pub tail: Vec<u8>,
}

fn rot_f(b: &[u8; 20]) -> Frame<0, 0> {
    Frame {
        rotation: [f32_at(b, 0), f32_at(b, 4), f32_at(b, 8), f32_at(b, 12)],
        translation: [],
        scale: [],
        time: f32_at(b, 16),
    }
}

fn read_anp3(c: &mut Cur<'_>) -> Result<Body, String> {
    let end_offset = c.u32()?;
    let name = c.arr()?;
    let num_animations = c.u32()?;
    let mut animations = Vec::with_capacity((num_animations as usize).min(c.b.len() / 36));
    for _ in 0..num_animations {
        let name = c.arr()?;
        let num_objects = c.u32()?;
        let frame_data_size = c.u32()?;
        let flags = c.u32()?;
        let mut objects = Vec::with_capacity((num_objects as usize).min(c.b.len() / 36));
        for _ in 0..num_objects {
            let name = c.arr()?;
            let frame_type = c.u32()?;
            let num_frames = c.u32()?;
            let bone_id = c.i32()?;
            let n = num_frames as usize;
            let frames = match frame_type {
                1 => Anp3Frames::Rot(c.elements(n, rot_f)?),
                2 => Anp3Frames::RotTrans(c.elements(n, |b: &[u8; 32]| Frame {
                    rotation: [f32_at(b, 0), f32_at(b, 4), f32_at(b, 8), f32_at(b, 12)],
                    time: f32_at(b, 16),
                    translation: [f32_at(b, 20), f32_at(b, 24), f32_at(b, 28)],
                    scale: [],
                })?),
                3 => Anp3Frames::RotC(c.elements(n, |b: &[u8; 10]| Compressed {
                    rotation: [i16_at(b, 0), i16_at(b, 2), i16_at(b, 4), i16_at(b, 6)],
                    time: i16_at(b, 8),
                    translation: [],
                })?),
                4 => Anp3Frames::RotTransC(c.elements(n, |b: &[u8; 16]| Compressed {
                    rotation: [i16_at(b, 0), i16_at(b, 2), i16_at(b, 4), i16_at(b, 6)],
                    time: i16_at(b, 8),
                    translation: [i16_at(b, 10), i16_at(b, 12), i16_at(b, 14)],
                })?),
                other => return Err(format!("unknown frame type {other}")),
            };
            objects.push(Anp3Object {
                name,
                frame_type,
                num_frames,
                bone_id,
                frames,
            });
        }
        animations.push(Anp3Animation {
            name,
            num_objects,
            frame_data_size,
            flags,
            objects,
        });
    }
    Ok(Body::Anp3 {
        end_offset,
        name,
        num_animations,
        animations,
    })
}

fn read_anpk(c: &mut Cur<'_>) -> Result<Body, String> {
    let header = [c.u32()?, c.u32()?, c.u32()?];
    let num_animations = c.i32()?;
    let name = c.take(pad4(len(i64::from(header[2]) - 4)?))?.to_vec();
    let count = len(num_animations.into())?;
    let mut animations = Vec::with_capacity(count.min(c.b.len() / 32));
    for _ in 0..count {
        let name_header = [c.u32()?, c.u32()?];
        let name = c.take(pad4(name_header[1] as usize))?.to_vec();
        let info_header = [c.u32()?, c.u32()?, c.u32()?, c.u32()?];
        let info = [c.i32()?, c.i32()?];
        let info_extra = c.take(pad4(len(i64::from(info_header[3]) - 8)?))?.to_vec();
        let count = len(info[0].into())?;
        let mut objects = Vec::with_capacity(count.min(c.b.len() / 56));
        for _ in 0..count {
            let header = [c.u32()?, c.u32()?, c.u32()?, c.u32()?];
            let bone_name = c.arr()?;
            let counts = [c.i32()?, c.i32()?, c.i32()?];
            let anim_extra = c.take(len(i64::from(header[3]) - 40)?)?.to_vec();
            let keyframes = if counts[0] != 0 {
                let kind = c.arr()?;
                let size = c.u32()?;
                let n = len(counts[0].into())?;
                let frames = match &kind {
                    b"KR00" => AnpkFrames::Kr00(c.elements(n, rot_f)?),
                    b"KRT0" => AnpkFrames::Krt0(c.elements(n, |b: &[u8; 32]| Frame {
                        rotation: [f32_at(b, 0), f32_at(b, 4), f32_at(b, 8), f32_at(b, 12)],
                        translation: [f32_at(b, 16), f32_at(b, 20), f32_at(b, 24)],
                        scale: [],
                        time: f32_at(b, 28),
                    })?),
                    b"KRTS" => AnpkFrames::Krts(c.elements(n, |b: &[u8; 44]| Frame {
                        rotation: [f32_at(b, 0), f32_at(b, 4), f32_at(b, 8), f32_at(b, 12)],
                        translation: [f32_at(b, 16), f32_at(b, 20), f32_at(b, 24)],
                        scale: [f32_at(b, 28), f32_at(b, 32), f32_at(b, 36)],
                        time: f32_at(b, 40),
                    })?),
                    other => return Err(format!("unknown key frame kind {other:?}")),
                };
                Some((kind, size, frames))
            } else {
                None
            };
            objects.push(AnpkObject {
                header,
                bone_name,
                counts,
                anim_extra,
                keyframes,
            });
        }
        animations.push(AnpkAnimation {
            name_header,
            name,
            info_header,
            info,
            info_extra,
            objects,
        });
    }
    Ok(Body::Anpk {
        header,
        num_animations,
        name,
        animations,
    })
}

/// Appends fixed-size elements: one reservation, then one `extend_from_slice` per element of
/// a stack array filled at constant offsets.
fn put<T, const N: usize>(out: &mut Vec<u8>, items: &[T], encode: impl Fn(&T) -> [u8; N]) {
    out.reserve(items.len() * N);
    for item in items {
        out.extend_from_slice(&encode(item));
    }
}

fn floats<const N: usize>(out: &mut [u8], at: usize, values: [f32; N]) {
    for (i, v) in values.iter().enumerate() {
        out[at + 4 * i..at + 4 * i + 4].copy_from_slice(&v.to_le_bytes());
    }
}

fn shorts<const N: usize>(out: &mut [u8], at: usize, values: [i16; N]) {
    for (i, v) in values.iter().enumerate() {
        out[at + 2 * i..at + 2 * i + 2].copy_from_slice(&v.to_le_bytes());
    }
}

fn words(out: &mut Vec<u8>, values: &[u32]) {
    for v in values {
        out.extend_from_slice(&v.to_le_bytes());
    }
}

fn encoded_len(file: &IfpFile) -> usize {
    let body = match &file.body {
        Body::Anp3 { animations, .. } => {
            32 + animations
                .iter()
                .map(|a| {
                    36 + a
                        .objects
                        .iter()
                        .map(|o| {
                            36 + match &o.frames {
                                Anp3Frames::Rot(f) => f.len() * 20,
                                Anp3Frames::RotTrans(f) => f.len() * 32,
                                Anp3Frames::RotC(f) => f.len() * 10,
                                Anp3Frames::RotTransC(f) => f.len() * 16,
                            }
                        })
                        .sum::<usize>()
                })
                .sum::<usize>()
        }
        Body::Anpk {
            name, animations, ..
        } => {
            16 + name.len()
                + animations
                    .iter()
                    .map(|a| {
                        32 + a.name.len()
                            + a.info_extra.len()
                            + a.objects
                                .iter()
                                .map(|o| {
                                    56 + o.anim_extra.len()
                                        + match &o.keyframes {
                                            None => 0,
                                            Some((_, _, AnpkFrames::Kr00(f))) => 8 + f.len() * 20,
                                            Some((_, _, AnpkFrames::Krt0(f))) => 8 + f.len() * 32,
                                            Some((_, _, AnpkFrames::Krts(f))) => 8 + f.len() * 44,
                                        }
                                })
                                .sum::<usize>()
                    })
                    .sum::<usize>()
        }
    };
    4 + body + file.tail.len()
}

fn write_rot_f(f: &Frame<0, 0>) -> [u8; 20] {
    let mut b = [0; 20];
    floats(&mut b, 0, f.rotation);
    floats(&mut b, 16, [f.time]);
    b
}

fn write(file: &IfpFile) -> Vec<u8> {
    let mut out = Vec::with_capacity(encoded_len(file));
    out.extend_from_slice(&file.magic);
    match &file.body {
        Body::Anp3 {
            end_offset,
            name,
            num_animations,
            animations,
        } => {
            words(&mut out, &[*end_offset]);
            out.extend_from_slice(name);
            words(&mut out, &[*num_animations]);
            for a in animations {
                out.extend_from_slice(&a.name);
                words(&mut out, &[a.num_objects, a.frame_data_size, a.flags]);
                for o in &a.objects {
                    out.extend_from_slice(&o.name);
                    words(&mut out, &[o.frame_type, o.num_frames, o.bone_id as u32]);
                    match &o.frames {
                        Anp3Frames::Rot(f) => put(&mut out, f, write_rot_f),
                        Anp3Frames::RotTrans(f) => put(&mut out, f, |f| {
                            let mut b = [0; 32];
                            floats(&mut b, 0, f.rotation);
                            floats(&mut b, 16, [f.time]);
                            floats(&mut b, 20, f.translation);
                            b
                        }),
                        Anp3Frames::RotC(f) => put(&mut out, f, |f| {
                            let mut b = [0; 10];
                            shorts(&mut b, 0, f.rotation);
                            shorts(&mut b, 8, [f.time]);
                            b
                        }),
                        Anp3Frames::RotTransC(f) => put(&mut out, f, |f| {
                            let mut b = [0; 16];
                            shorts(&mut b, 0, f.rotation);
                            shorts(&mut b, 8, [f.time]);
                            shorts(&mut b, 10, f.translation);
                            b
                        }),
                    }
                }
            }
        }
        Body::Anpk {
            header,
            num_animations,
            name,
            animations,
        } => {
            words(&mut out, header);
            words(&mut out, &[*num_animations as u32]);
            out.extend_from_slice(name);
            for a in animations {
                words(&mut out, &a.name_header);
                out.extend_from_slice(&a.name);
                words(&mut out, &a.info_header);
                words(&mut out, &[a.info[0] as u32, a.info[1] as u32]);
                out.extend_from_slice(&a.info_extra);
                for o in &a.objects {
                    words(&mut out, &o.header);
                    out.extend_from_slice(&o.bone_name);
                    words(&mut out, &o.counts.map(|c| c as u32));
                    out.extend_from_slice(&o.anim_extra);
                    if let Some((kind, size, frames)) = &o.keyframes {
                        out.extend_from_slice(kind);
                        words(&mut out, &[*size]);
                        match frames {
                            AnpkFrames::Kr00(f) => put(&mut out, f, write_rot_f),
                            AnpkFrames::Krt0(f) => put(&mut out, f, |f| {
                                let mut b = [0; 32];
                                floats(&mut b, 0, f.rotation);
                                floats(&mut b, 16, f.translation);
                                floats(&mut b, 28, [f.time]);
                                b
                            }),
                            AnpkFrames::Krts(f) => put(&mut out, f, |f| {
                                let mut b = [0; 44];
                                floats(&mut b, 0, f.rotation);
                                floats(&mut b, 16, f.translation);
                                floats(&mut b, 28, f.scale);
                                floats(&mut b, 40, [f.time]);
                                b
                            }),
                        }
                    }
                }
            }
        }
    }
    out.extend_from_slice(&file.tail);
    out
}

/// The hand-written IFP codec.
pub struct Ifp;

impl Codec for Ifp {
    type Value = IfpFile;

    fn decode(input: &Input) -> Result<IfpFile, String> {
        let mut c = Cur {
            b: &input.bytes,
            p: 0,
        };
        let magic = c.arr()?;
        let body = match &magic {
            b"ANP3" => read_anp3(&mut c)?,
            b"ANPK" => read_anpk(&mut c)?,
            other => return Err(format!("not an IFP file: {other:?}")),
        };
        Ok(IfpFile {
            magic,
            body,
            tail: c.rest().to_vec(),
        })
    }

    fn encode(value: &IfpFile) -> Result<Vec<u8>, String> {
        Ok(write(value))
    }

    fn checksum(value: &IfpFile) -> Option<Checksum> {
        let mut c = Checksum::default();
        match &value.body {
            Body::Anp3 { animations, .. } => {
                for a in animations {
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
            Body::Anpk { animations, .. } => {
                for a in animations {
                    c.groups += 1;
                    for o in &a.objects {
                        c.objects += 1;
                        match &o.keyframes {
                            None => {}
                            Some((_, _, AnpkFrames::Kr00(f))) => f
                                .iter()
                                .for_each(|f| c.frame(f.rotation, f.time, None, None)),
                            Some((_, _, AnpkFrames::Krt0(f))) => f.iter().for_each(|f| {
                                c.frame(f.rotation, f.time, Some(f.translation), None)
                            }),
                            Some((_, _, AnpkFrames::Krts(f))) => f.iter().for_each(|f| {
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

/// Split data: bone limit, mesh count, RLE size; remap indices, RLE counts, RLE.
pub type Split = ([i32; 3], Vec<u8>, Vec<[u8; 2]>, Vec<[u8; 2]>);

/// A PC-layout Skin PLG.
#[derive(Debug, Clone)]
pub struct SkinPlg {
    /// Bones, used bones, max weights, padding.
    pub header: [u8; 4],
    /// Used bone indices.
    pub used_bones: Vec<u8>,
    /// Four bone indices per vertex.
    pub indices: Vec<[u8; 4]>,
    /// Four weights per vertex.
    pub weights: Vec<[f32; 4]>,
    /// Per bone: the 0xDEADDEAD marker of old skins, and the inverse bind matrix.
    pub bones: Vec<(Option<u32>, [f32; 16])>,
    /// Bone limit, mesh count, RLE size, remap indices, RLE counts, RLE (new skins).
    pub split: Option<Split>,
    /// Bytes the chunk covers beyond the skin.
    pub stale: Vec<u8>,
    num_vertices: i32,
}

/// The hand-written Skin PLG codec.
pub struct Skin;

impl Codec for Skin {
    type Value = SkinPlg;

    fn decode(input: &Input) -> Result<SkinPlg, String> {
        let mut c = Cur {
            b: &input.bytes,
            p: 0,
        };
        let header: [u8; 4] = c.arr()?;
        let [num_bones, num_used, ..] = header;
        let used_bones = c.take(num_used.into())?.to_vec();
        let nv = len(input.num_vertices.into())?;
        let indices = c.elements(nv, |b: &[u8; 4]| *b)?;
        let weights = c.elements(nv, |b: &[u8; 16]| {
            [f32_at(b, 0), f32_at(b, 4), f32_at(b, 8), f32_at(b, 12)]
        })?;
        let old = num_used == 0;
        let bones = if old {
            c.elements(num_bones.into(), |b: &[u8; 68]| {
                let m: [f32; 16] = std::array::from_fn(|i| f32_at(b, 4 + 4 * i));
                (Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]])), m)
            })?
        } else {
            c.elements(num_bones.into(), |b: &[u8; 64]| {
                (None, std::array::from_fn(|i| f32_at(b, 4 * i)))
            })?
        };
        let split = if old {
            None
        } else {
            let head = [c.i32()?, c.i32()?, c.i32()?];
            if head[1] != 0 {
                let remap = c.take(num_bones.into())?.to_vec();
                let counts = c.elements(len(head[1].into())?, |b: &[u8; 2]| *b)?;
                let rle = c.elements(len(head[2].into())?, |b: &[u8; 2]| *b)?;
                Some((head, remap, counts, rle))
            } else {
                Some((head, Vec::new(), Vec::new(), Vec::new()))
            }
        };
        Ok(SkinPlg {
            header,
            used_bones,
            indices,
            weights,
            bones,
            split,
            stale: c.rest().to_vec(),
            num_vertices: input.num_vertices,
        })
    }

    fn encode(s: &SkinPlg) -> Result<Vec<u8>, String> {
        if s.indices.len() != s.num_vertices as usize || s.weights.len() != s.indices.len() {
            return Err("vertex arrays do not match the vertex count".into());
        }
        let split_len = s
            .split
            .as_ref()
            .map_or(0, |(_, r, c, l)| 12 + r.len() + 2 * (c.len() + l.len()));
        let bone_len = if s.header[1] == 0 { 68 } else { 64 };
        let size = 4
            + s.used_bones.len()
            + 20 * s.indices.len()
            + bone_len * s.bones.len()
            + split_len
            + s.stale.len();
        let mut out = Vec::with_capacity(size);
        out.extend_from_slice(&s.header);
        out.extend_from_slice(&s.used_bones);
        put(&mut out, &s.indices, |b| *b);
        put(&mut out, &s.weights, |w| {
            let mut b = [0; 16];
            floats(&mut b, 0, *w);
            b
        });
        for (marker, m) in &s.bones {
            if let Some(marker) = marker {
                out.extend_from_slice(&marker.to_le_bytes());
            }
            let mut b = [0; 64];
            floats(&mut b, 0, *m);
            out.extend_from_slice(&b);
        }
        if let Some((head, remap, counts, rle)) = &s.split {
            words(&mut out, &head.map(|h| h as u32));
            out.extend_from_slice(remap);
            put(&mut out, counts, |b| *b);
            put(&mut out, rle, |b| *b);
        }
        out.extend_from_slice(&s.stale);
        Ok(out)
    }

    fn checksum(s: &SkinPlg) -> Option<Checksum> {
        let mut c = Checksum {
            groups: 1,
            raw: s.stale.len() as u64,
            ..Checksum::default()
        };
        c.ints += i64::from(s.header[0]) + i64::from(s.header[1]) + i64::from(s.header[2]);
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
        for (marker, m) in &s.bones {
            c.objects += 1;
            c.ints += marker.map_or(0, i64::from);
            c.floats(m);
        }
        if let Some((head, remap, counts, rle)) = &s.split {
            c.ints += head.iter().map(|&h| i64::from(h)).sum::<i64>();
            c.ints += remap.iter().map(|&b| i64::from(b)).sum::<i64>();
            c.ints += counts
                .iter()
                .chain(rle)
                .flatten()
                .map(|&b| i64::from(b))
                .sum::<i64>();
        }
        Some(c)
    }
}
