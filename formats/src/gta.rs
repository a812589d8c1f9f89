//! GTA animation packages: key frames as the games use them, and conversion between `ANPK`
//! (GTA III, Vice City) and `ANP3` (San Andreas), done on the generated types.
//!
//! Two facts from shared/reference/formats.md (section 1) decide the mapping: ANPK stores each
//! rotation inverted (the games conjugate it on load) while ANP3 stores it ready for use, and
//! ANP3's compressed frames hold rotation, time and translation as 16-bit fixed-point values
//! (1/4096, 1/60 s, 1/1024). Uncompressed ANP3 frames hold the same `f32` values as ANPK, so a
//! conversion without `compress` keeps every key frame exactly.

use skelcodec_runtime::{Fixed, FixedStr, Quat, RawBytes, VarStr, Vec3};

use crate::ifp::{
    Anp3, Anp3Animation, Anp3FrameType, Anp3Object, Anp3ObjectFrames, Anp3Rotation,
    Anp3RotationCompressed, Anp3RotationTranslation, Anp3RotationTranslationCompressed, Anpk,
    AnpkAnimation, AnpkKeyframes, AnpkKeyframesFrames, AnpkKr00, AnpkKrt0, AnpkObject, Ifp,
    IfpBody,
};

/// The two versions of the format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IfpVersion {
    /// `ANPK`: GTA III and Vice City.
    Anpk,
    /// `ANP3`: San Andreas.
    Anp3,
}

impl std::str::FromStr for IfpVersion {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        match text.to_ascii_lowercase().as_str() {
            "anpk" => Ok(Self::Anpk),
            "anp3" => Ok(Self::Anp3),
            _ => Err(format!(
                "unknown IFP version `{text}`: use anpk (GTA III, Vice City) or anp3 (San Andreas)"
            )),
        }
    }
}

impl IfpVersion {
    /// The games whose animations this version holds, as a modder knows them.
    pub fn games(self) -> &'static str {
        match self {
            Self::Anpk => "GTA III and Vice City",
            Self::Anp3 => "San Andreas",
        }
    }
}

impl std::fmt::Display for IfpVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Anpk => "anpk",
            Self::Anp3 => "anp3",
        })
    }
}

/// The layout of an ANPK object header (its `ANIM` section).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnpkHeaders {
    /// Vice City's 44 bytes, which hold a bone id; GTA III reads them too.
    ViceCity,
    /// GTA III's 48 bytes: no bone id, and two words no game reads (real files hold the
    /// indices of the object's first child and next sibling there; they are written -1).
    Gta3,
}

impl AnpkHeaders {
    /// The size of the header's section.
    pub fn anim_size(self) -> u32 {
        match self {
            Self::ViceCity => 44,
            Self::Gta3 => 48,
        }
    }
}

/// What a conversion writes: a version, and for ANPK the layout of its object headers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IfpTarget {
    /// ANPK with the given headers; `None` keeps a package's own, and gives a converted one
    /// Vice City's.
    Anpk(Option<AnpkHeaders>),
    /// ANP3.
    Anp3,
}

impl From<IfpVersion> for IfpTarget {
    fn from(version: IfpVersion) -> Self {
        match version {
            IfpVersion::Anpk => Self::Anpk(None),
            IfpVersion::Anp3 => Self::Anp3,
        }
    }
}

impl std::str::FromStr for IfpTarget {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        match text.to_ascii_lowercase().as_str() {
            "anpk-vc" => Ok(Self::Anpk(Some(AnpkHeaders::ViceCity))),
            "anpk-iii" => Ok(Self::Anpk(Some(AnpkHeaders::Gta3))),
            _ => text.parse::<IfpVersion>().map(Self::from).map_err(|_| {
                format!(
                    "unknown IFP version `{text}`: use anpk (GTA III, Vice City; anpk-iii and \
                     anpk-vc choose GTA III's or Vice City's object headers) or anp3 (San Andreas)"
                )
            }),
        }
    }
}

impl std::fmt::Display for IfpTarget {
    /// What the target holds, as a modder knows it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Anpk(Some(AnpkHeaders::Gta3)) => {
                f.write_str("GTA III's 48-byte object headers (anpk-iii)")
            }
            Self::Anpk(_) => write!(f, "{} animations (anpk)", IfpVersion::Anpk.games()),
            Self::Anp3 => write!(f, "{} animations (anp3)", IfpVersion::Anp3.games()),
        }
    }
}

/// How to convert.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ConvertOptions {
    /// Write ANP3's compressed frames (values rounded to their fixed-point grid, and refused
    /// when out of its range) instead of its float ones.
    pub compress: bool,
    /// Drop what the target cannot hold (ANPK scale, names too long) and report it, instead
    /// of refusing.
    pub lossy: bool,
}

/// What a lossy conversion left out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dropped {
    /// The animation.
    pub animation: String,
    /// The object (bone), when it is about one.
    pub object: Option<String>,
    /// What was dropped.
    pub what: String,
}

impl std::fmt::Display for Dropped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "animation `{}`", self.animation)?;
        if let Some(object) = &self.object {
            write!(f, ", bone `{object}`")?;
        }
        write!(f, ": {}", self.what)
    }
}

/// A converted package and what was dropped on the way.
#[derive(Debug, Clone, PartialEq)]
pub struct Converted {
    /// The package in the target version.
    pub ifp: Ifp,
    /// What `lossy` dropped (always empty without it).
    pub dropped: Vec<Dropped>,
}

/// Why a conversion is refused.
#[derive(Debug, thiserror::Error)]
pub enum ConvertError {
    /// The target cannot hold something without losing it, and `lossy` was not given.
    #[error("{0}; {1} cannot hold that, so nothing was converted (--lossy converts without it)")]
    WouldLose(Dropped, IfpTarget),
    /// A value does not fit ANP3's compressed range.
    #[error(
        "animation `{animation}`, object `{object}`, key frame {frame}: {what} {value} is outside the compressed range {min}..={max}; nothing was converted (convert without --compress to keep floats)"
    )]
    OutOfRange {
        /// The animation.
        animation: String,
        /// The object.
        object: String,
        /// The key frame's index.
        frame: usize,
        /// Which value (`time`, `rotation`, `translation`).
        what: &'static str,
        /// The value.
        value: f64,
        /// The least value the target holds.
        min: f64,
        /// The greatest.
        max: f64,
    },
    /// The converted package does not encode.
    #[error(transparent)]
    Encode(#[from] skelcodec_runtime::Error),
}

/// One key frame as the game uses it: absolute time in seconds, the rotation ready to apply
/// (ANPK's conjugated back), the translation when the object has one, ANPK's scale when
/// stored (the games ignore it).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct KeyFrame {
    /// Seconds from the start.
    pub time: f32,
    /// Rotation.
    pub rotation: Quat<f32>,
    /// Translation.
    pub translation: Option<Vec3<f32>>,
    /// Scale (ANPK KRTS only).
    pub scale: Option<Vec3<f32>>,
}

/// The key frames of one object (bone).
#[derive(Debug, Clone, PartialEq)]
pub struct Track {
    /// The bone's name.
    pub name: String,
    /// The bone id (ANP3, Vice City's tag), when stored.
    pub bone_id: Option<i32>,
    /// Key frames in file order.
    pub frames: Vec<KeyFrame>,
}

/// One animation.
#[derive(Debug, Clone, PartialEq)]
pub struct Animation {
    /// Its name.
    pub name: String,
    /// One track per object.
    pub tracks: Vec<Track>,
}

impl Ifp {
    /// The version of the package.
    pub fn version(&self) -> IfpVersion {
        match self.body {
            IfpBody::Anpk(_) => IfpVersion::Anpk,
            IfpBody::Anp3(_) => IfpVersion::Anp3,
        }
    }

    /// The package's name.
    pub fn package_name(&self) -> String {
        match &self.body {
            IfpBody::Anpk(anpk) => anpk.name.text().into_owned(),
            IfpBody::Anp3(anp3) => anp3.name.text().into_owned(),
        }
    }

    /// Every animation's key frames, as the game uses them.
    pub fn animations(&self) -> Vec<Animation> {
        match &self.body {
            IfpBody::Anpk(anpk) => anpk.animations.iter().map(anpk_animation).collect(),
            IfpBody::Anp3(anp3) => anp3.animations.iter().map(anp3_animation).collect(),
        }
    }

    /// The same animations in version `to`. Without `compress`, every key frame is kept
    /// exactly; what `to` cannot hold is refused with its animation and object named, or with
    /// `lossy` dropped and reported. Converting to the package's own version (and ANPK
    /// headers) returns a copy.
    pub fn converted(
        &self,
        to: impl Into<IfpTarget>,
        options: ConvertOptions,
    ) -> Result<Converted, ConvertError> {
        let to = to.into();
        if self.is_already(to) {
            return Ok(Converted {
                ifp: self.clone(),
                dropped: Vec::new(),
            });
        }
        let mut dropped = Vec::new();
        let name = self.package_name();
        let animations = self.animations();
        let (magic, body) = match to {
            IfpTarget::Anp3 => (
                "ANP3",
                IfpBody::Anp3(to_anp3(&name, &animations, options, &mut dropped)?),
            ),
            IfpTarget::Anpk(headers) => {
                let headers = headers.unwrap_or(AnpkHeaders::ViceCity);
                let anpk = to_anpk(&name, &animations, headers, options, &mut dropped)?;
                ("ANPK", IfpBody::Anpk(anpk))
            }
        };
        let mut ifp = Ifp {
            magic: fixed_name(magic)?,
            body,
            tail: RawBytes::default(),
            _trailing: RawBytes::default(),
        };
        ifp.normalize()?;
        Ok(Converted { ifp, dropped })
    }

    /// Whether the package is already what `to` asks for (then it converts to a copy).
    pub fn is_already(&self, to: IfpTarget) -> bool {
        match (&self.body, to) {
            (IfpBody::Anp3(_), IfpTarget::Anp3) | (IfpBody::Anpk(_), IfpTarget::Anpk(None)) => true,
            (IfpBody::Anpk(anpk), IfpTarget::Anpk(Some(headers))) => (anpk.animations.iter())
                .flat_map(|a| &a.objects)
                .all(|o| o.anim_size == headers.anim_size()),
            _ => false,
        }
    }
}

/// ANPK stores the inverse rotation; the game conjugates it.
fn conjugate(q: Quat<f32>) -> Quat<f32> {
    Quat {
        x: -q.x,
        y: -q.y,
        z: -q.z,
        w: q.w,
    }
}

fn anpk_animation(animation: &AnpkAnimation) -> Animation {
    let tracks = animation
        .objects
        .iter()
        .map(|object| {
            let frame = |rotation, translation, scale, time| KeyFrame {
                time,
                rotation: conjugate(rotation),
                translation,
                scale,
            };
            let frames = match object.keyframes.as_ref().map(|k| &k.frames) {
                None => Vec::new(),
                Some(AnpkKeyframesFrames::AnpkKr00(f)) => f
                    .iter()
                    .map(|k| frame(k.rotation, None, None, k.time))
                    .collect(),
                Some(AnpkKeyframesFrames::AnpkKrt0(f)) => f
                    .iter()
                    .map(|k| frame(k.rotation, Some(k.translation), None, k.time))
                    .collect(),
                Some(AnpkKeyframesFrames::AnpkKrts(f)) => f
                    .iter()
                    .map(|k| frame(k.rotation, Some(k.translation), Some(k.scale), k.time))
                    .collect(),
            };
            Track {
                name: object.bone_name.text().into_owned(),
                bone_id: object.bone_tag,
                frames,
            }
        })
        .collect();
    Animation {
        name: animation.name.text().into_owned(),
        tracks,
    }
}

fn anp3_animation(animation: &Anp3Animation) -> Animation {
    let tracks = animation
        .objects
        .iter()
        .map(|object| {
            let frame = |rotation, translation, time| KeyFrame {
                time,
                rotation,
                translation,
                scale: None,
            };
            let quat = |q: &Quat<Fixed<i16, 4096>>| Quat {
                x: q.x.get(),
                y: q.y.get(),
                z: q.z.get(),
                w: q.w.get(),
            };
            let vec = |v: &Vec3<Fixed<i16, 1024>>| Vec3 {
                x: v.x.get(),
                y: v.y.get(),
                z: v.z.get(),
            };
            let frames = match &object.frames {
                Anp3ObjectFrames::Anp3Rotation(f) => {
                    f.iter().map(|k| frame(k.rotation, None, k.time)).collect()
                }
                Anp3ObjectFrames::Anp3RotationTranslation(f) => f
                    .iter()
                    .map(|k| frame(k.rotation, Some(k.translation), k.time))
                    .collect(),
                Anp3ObjectFrames::Anp3RotationCompressed(f) => f
                    .iter()
                    .map(|k| frame(quat(&k.rotation), None, k.time.get()))
                    .collect(),
                Anp3ObjectFrames::Anp3RotationTranslationCompressed(f) => f
                    .iter()
                    .map(|k| frame(quat(&k.rotation), Some(vec(&k.translation)), k.time.get()))
                    .collect(),
            };
            Track {
                name: object.name.text().into_owned(),
                bone_id: Some(object.bone_id),
                frames,
            }
        })
        .collect();
    Animation {
        name: animation.name.text().into_owned(),
        tracks,
    }
}

/// A name in a fixed field of `N` bytes (with its NUL), or why it does not fit.
fn fixed_name<const N: usize>(text: &str) -> Result<FixedStr<N>, ConvertError> {
    Ok(FixedStr::from_text(text)?)
}

/// `text` if it fits a field of `N` bytes with its NUL; else refused, or with `lossy` cut
/// (at a character boundary) and reported.
/// What `to` cannot hold: refused, or with `lossy` dropped and reported.
fn lose(
    loss: Dropped,
    to: IfpTarget,
    options: ConvertOptions,
    dropped: &mut Vec<Dropped>,
) -> Result<(), ConvertError> {
    if !options.lossy {
        return Err(ConvertError::WouldLose(loss, to));
    }
    dropped.push(loss);
    Ok(())
}

fn fitted_name<const N: usize>(
    text: &str,
    animation: &str,
    object: Option<&str>,
    to: IfpTarget,
    options: ConvertOptions,
    dropped: &mut Vec<Dropped>,
) -> Result<FixedStr<N>, ConvertError> {
    if text.len() < N {
        return fixed_name(text);
    }
    let loss = Dropped {
        animation: animation.to_owned(),
        object: object.map(str::to_owned),
        what: format!("the end of the name `{text}`, longer than {} bytes", N - 1),
    };
    lose(loss, to, options, dropped)?;
    let mut end = N - 1;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    fixed_name(&text[..end])
}

fn to_anp3(
    name: &str,
    animations: &[Animation],
    options: ConvertOptions,
    dropped: &mut Vec<Dropped>,
) -> Result<Anp3, ConvertError> {
    let to = IfpTarget::Anp3;
    let mut converted = Vec::with_capacity(animations.len());
    for animation in animations {
        let mut objects = Vec::with_capacity(animation.tracks.len());
        for track in &animation.tracks {
            let scales: Vec<Vec3<f32>> = (track.frames.iter())
                .filter_map(|k| k.scale.filter(|s| (s.x, s.y, s.z) != (1.0, 1.0, 1.0)))
                .collect();
            if let Some(first) = scales.first() {
                let frames = match scales.len() {
                    1 => "1 key frame scales".to_owned(),
                    n => format!("{n} key frames scale"),
                };
                let loss = Dropped {
                    animation: animation.name.clone(),
                    object: Some(track.name.clone()),
                    what: format!(
                        "{frames} the bone (the first by {}, {}, {}; the games ignore scale)",
                        first.x, first.y, first.z
                    ),
                };
                lose(loss, to, options, dropped)?;
            }
            let frames = anp3_frames(animation, track, options)?;
            objects.push(Anp3Object {
                name: fitted_name(
                    &track.name,
                    &animation.name,
                    Some(&track.name),
                    to,
                    options,
                    dropped,
                )?,
                frame_type: anp3_frame_type(&frames),
                num_frames: 0,
                bone_id: track.bone_id.unwrap_or(-1),
                frames,
            });
        }
        converted.push(Anp3Animation {
            name: fitted_name(&animation.name, &animation.name, None, to, options, dropped)?,
            num_objects: 0,
            frame_data_size: 0,
            // Bit 0 tells the game the frames are compressed.
            flags: u32::from(options.compress),
            objects,
        });
    }
    Ok(Anp3 {
        end_offset: 0,
        name: fitted_name(name, name, None, to, options, dropped)?,
        num_animations: 0,
        animations: converted,
    })
}

fn anp3_frame_type(frames: &Anp3ObjectFrames) -> Anp3FrameType {
    match frames {
        Anp3ObjectFrames::Anp3Rotation(_) => Anp3FrameType::Rotation,
        Anp3ObjectFrames::Anp3RotationTranslation(_) => Anp3FrameType::RotationTranslation,
        Anp3ObjectFrames::Anp3RotationCompressed(_) => Anp3FrameType::RotationCompressed,
        Anp3ObjectFrames::Anp3RotationTranslationCompressed(_) => {
            Anp3FrameType::RotationTranslationCompressed
        }
    }
}

/// A track's key frames in the ANP3 layout: with translation when any frame has one.
fn anp3_frames(
    animation: &Animation,
    track: &Track,
    options: ConvertOptions,
) -> Result<Anp3ObjectFrames, ConvertError> {
    let translated = track.frames.iter().any(|k| k.translation.is_some());
    let translation = |k: &KeyFrame| {
        k.translation.unwrap_or(Vec3 {
            x: 0.0,
            y: 0.0,
            z: 0.0,
        })
    };
    if !options.compress {
        return Ok(if translated {
            Anp3ObjectFrames::Anp3RotationTranslation(
                track
                    .frames
                    .iter()
                    .map(|k| Anp3RotationTranslation {
                        rotation: k.rotation,
                        time: k.time,
                        translation: translation(k),
                    })
                    .collect(),
            )
        } else {
            Anp3ObjectFrames::Anp3Rotation(
                track
                    .frames
                    .iter()
                    .map(|k| Anp3Rotation {
                        rotation: k.rotation,
                        time: k.time,
                    })
                    .collect(),
            )
        });
    }
    let mut rotations = Vec::with_capacity(track.frames.len());
    let mut translated_frames = Vec::with_capacity(track.frames.len());
    for (index, k) in track.frames.iter().enumerate() {
        let rotation = Quat {
            x: fixed(animation, track, index, "rotation", k.rotation.x)?,
            y: fixed(animation, track, index, "rotation", k.rotation.y)?,
            z: fixed(animation, track, index, "rotation", k.rotation.z)?,
            w: fixed(animation, track, index, "rotation", k.rotation.w)?,
        };
        let time = fixed(animation, track, index, "time", k.time)?;
        if translated {
            let t = translation(k);
            translated_frames.push(Anp3RotationTranslationCompressed {
                rotation,
                time,
                translation: Vec3 {
                    x: fixed(animation, track, index, "translation", t.x)?,
                    y: fixed(animation, track, index, "translation", t.y)?,
                    z: fixed(animation, track, index, "translation", t.z)?,
                },
            });
        } else {
            rotations.push(Anp3RotationCompressed { rotation, time });
        }
    }
    Ok(if translated {
        Anp3ObjectFrames::Anp3RotationTranslationCompressed(translated_frames.into())
    } else {
        Anp3ObjectFrames::Anp3RotationCompressed(rotations.into())
    })
}

/// `value` on the fixed-point grid of `DIV`, or the range error naming where it is.
fn fixed<const DIV: u32>(
    animation: &Animation,
    track: &Track,
    frame: usize,
    what: &'static str,
    value: f32,
) -> Result<Fixed<i16, DIV>, ConvertError> {
    Fixed::try_from_f32(value).map_err(|e| ConvertError::OutOfRange {
        animation: animation.name.clone(),
        object: track.name.clone(),
        frame,
        what,
        value: e.value,
        min: e.min,
        max: e.max,
    })
}

fn to_anpk(
    name: &str,
    animations: &[Animation],
    headers: AnpkHeaders,
    options: ConvertOptions,
    dropped: &mut Vec<Dropped>,
) -> Result<Anpk, ConvertError> {
    let to = IfpTarget::Anpk(Some(headers));
    let mut converted = Vec::with_capacity(animations.len());
    for animation in animations {
        let mut objects = Vec::with_capacity(animation.tracks.len());
        for track in &animation.tracks {
            let num_frames = i32::try_from(track.frames.len()).unwrap_or(i32::MAX);
            let translated = track.frames.iter().any(|k| k.translation.is_some());
            let frames = if translated {
                AnpkKeyframesFrames::AnpkKrt0(
                    track
                        .frames
                        .iter()
                        .map(|k| AnpkKrt0 {
                            rotation: conjugate(k.rotation),
                            translation: k.translation.unwrap_or(Vec3 {
                                x: 0.0,
                                y: 0.0,
                                z: 0.0,
                            }),
                            time: k.time,
                        })
                        .collect(),
                )
            } else {
                AnpkKeyframesFrames::AnpkKr00(
                    track
                        .frames
                        .iter()
                        .map(|k| AnpkKr00 {
                            rotation: conjugate(k.rotation),
                            time: k.time,
                        })
                        .collect(),
                )
            };
            let bone_name = fitted_name(
                &track.name,
                &animation.name,
                Some(&track.name),
                to,
                options,
                dropped,
            )?;
            let (bone_tag, extra_words) = match headers {
                AnpkHeaders::ViceCity => (Some(track.bone_id.unwrap_or(-1)), None),
                AnpkHeaders::Gta3 => {
                    let bone_id = track.bone_id.filter(|&id| id != -1);
                    if let Some(id) = bone_id {
                        let loss = Dropped {
                            animation: animation.name.clone(),
                            object: Some(track.name.clone()),
                            what: format!("its bone id {id} (GTA III finds bones by name)"),
                        };
                        lose(loss, to, options, dropped)?;
                    }
                    (None, Some([-1, -1]))
                }
            };
            objects.push(AnpkObject {
                cpan_fourcc: fixed_name("CPAN")?,
                cpan_size: 0,
                anim_fourcc: fixed_name("ANIM")?,
                anim_size: headers.anim_size(),
                bone_name,
                num_frames,
                // Two words the games ignore, written as the only known writer (Psycrow's)
                // writes them.
                unknown: 0,
                last_frame: num_frames - 1,
                bone_tag,
                extra_words,
                anim_extra: None,
                keyframes: (num_frames != 0)
                    .then(|| -> Result<_, ConvertError> {
                        Ok(AnpkKeyframes {
                            kind: fixed_name(if translated { "KRT0" } else { "KR00" })?,
                            size: 0,
                            frames,
                        })
                    })
                    .transpose()?,
            });
        }
        converted.push(AnpkAnimation {
            name_fourcc: fixed_name("NAME")?,
            name_size: 0,
            name: VarStr::from_text(&animation.name, 4),
            dgan_fourcc: fixed_name("DGAN")?,
            dgan_size: 0,
            info_fourcc: fixed_name("INFO")?,
            info_size: 8,
            num_objects: 0,
            info_unknown: 0,
            info_extra: RawBytes::default(),
            objects,
        });
    }
    Ok(Anpk {
        size: 0,
        info_fourcc: fixed_name("INFO")?,
        info_size: 0,
        num_animations: 0,
        name: VarStr::from_text(name, 4),
        animations: converted,
    })
}
