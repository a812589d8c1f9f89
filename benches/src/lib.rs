//! Benchmarks of skelcodec's generated codecs against the codecs a Rust programmer would
//! otherwise write: binrw and deku derives, a hand-written reader with one bounds check per
//! array, and `memcpy` of the same bytes as the floor.
//!
//! Every implementation decodes the same inputs into its own types; before anything is timed,
//! [`workloads::verify`] demands that each one produces the same [`Checksum`] of decoded values
//! and re-encodes every input byte for byte.

pub mod alloc;
pub mod peers;
pub mod png;
pub mod qfs;
pub mod report;
pub mod synth;
pub mod workloads;

/// What a decoder decodes: a whole file, or a Skin PLG payload with what its geometry tells.
#[derive(Debug, Clone)]
pub struct Input {
    /// Where the bytes come from (a corpus path or a synthetic name).
    pub name: String,
    /// The bytes to decode.
    pub bytes: Vec<u8>,
    /// For a skin payload: the geometry's vertex count.
    pub num_vertices: i32,
    /// For a skin payload: the geometry's RenderWare version (0x3MNRR).
    pub version: u32,
}

impl Input {
    /// A whole file.
    pub fn file(name: impl Into<String>, bytes: Vec<u8>) -> Self {
        Input {
            name: name.into(),
            bytes,
            num_vertices: 0,
            version: 0,
        }
    }
}

/// A summary of decoded values that every implementation must reproduce exactly: the sum of
/// every decoded float (fixed-point converted to f32 first) taken in one canonical order, and
/// counts.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Checksum {
    /// Sum of all decoded float values, as f64, in canonical order.
    pub sum: f64,
    /// Number of float values summed.
    pub values: u64,
    /// Sum of integer values (bone ids, bone indices, RLE entries).
    pub ints: i64,
    /// Key frames (IFP) or vertices (skin).
    pub units: u64,
    /// Objects (IFP) or bones (skin).
    pub objects: u64,
    /// Animations (IFP) or skins.
    pub groups: u64,
    /// Bytes kept raw after the content (tails, stale bytes).
    pub raw: u64,
}

impl Checksum {
    /// Adds float values in order.
    #[inline]
    pub fn floats(&mut self, values: &[f32]) {
        for v in values {
            self.sum += f64::from(*v);
        }
        self.values += values.len() as u64;
    }

    /// Adds one key frame, in canonical order: rotation, time, translation, scale.
    #[inline]
    pub fn frame(
        &mut self,
        rotation: [f32; 4],
        time: f32,
        translation: Option<[f32; 3]>,
        scale: Option<[f32; 3]>,
    ) {
        self.units += 1;
        self.floats(&rotation);
        self.floats(&[time]);
        if let Some(t) = translation {
            self.floats(&t);
        }
        if let Some(s) = scale {
            self.floats(&s);
        }
    }
}

/// Conversions of SA's compressed key frames, as a programmer using binrw, deku or their own
/// reader writes them (bit-identical to skelcodec's `Fixed::get`, which the checksum verifies).
pub mod fixed {
    /// A rotation component stored as 1/4096.
    #[inline]
    pub fn rotation(raw: i16) -> f32 {
        f32::from(raw) * (1.0 / 4096.0)
    }
    /// A time stored in 1/60 s ticks.
    #[inline]
    pub fn time(raw: i16) -> f32 {
        f32::from(raw) / 60.0
    }
    /// A translation component stored as 1/1024.
    #[inline]
    pub fn translation(raw: i16) -> f32 {
        f32::from(raw) * (1.0 / 1024.0)
    }
    /// Four rotation components.
    #[inline]
    pub fn quat(raw: [i16; 4]) -> [f32; 4] {
        raw.map(rotation)
    }
    /// Three translation components.
    #[inline]
    pub fn vec3(raw: [i16; 3]) -> [f32; 3] {
        raw.map(translation)
    }
}

/// One codec under test for one family of inputs.
pub trait Codec {
    /// Its decoded value.
    type Value;
    /// Decodes one input.
    fn decode(input: &Input) -> Result<Self::Value, String>;
    /// Encodes a decoded value back to bytes.
    fn encode(value: &Self::Value) -> Result<Vec<u8>, String>;
    /// The checksum of a decoded value; `None` for the memcpy floor, which decodes nothing
    /// (its copy is compared with the input instead).
    fn checksum(value: &Self::Value) -> Option<Checksum>;
}
