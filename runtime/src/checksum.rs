//! Checksums a derived field can be (`-derived: crc32(a, b)`): computed by the writer over the
//! bytes it has just written for the named fields ([`crate::Writer::checksum`]). A writer
//! writes a checksum as stored and notes a disagreement (`check()`), or, recomputing, writes
//! the checksum of the bytes (`normalize()`; see [`crate::codec::recompute_checksums`]).

/// CRC-32 (ISO-HDLC: zlib, PNG, ZIP, gzip).
pub fn crc32(bytes: &[u8]) -> u32 {
    crc32fast::hash(bytes)
}

/// Adler-32 (zlib streams).
pub fn adler32(bytes: &[u8]) -> u32 {
    const MOD: u32 = 65521;
    // 5552 bytes is the most that can be summed before `b` may overflow 32 bits.
    let (mut a, mut b) = (1u32, 0u32);
    for chunk in bytes.chunks(5552) {
        for &byte in chunk {
            a += u32::from(byte);
            b += a;
        }
        a %= MOD;
        b %= MOD;
    }
    (b << 16) | a
}

/// How a checksum is computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Algorithm {
    /// [`crc32`].
    Crc32,
    /// [`adler32`].
    Adler32,
}

impl Algorithm {
    /// The checksum of `bytes`.
    pub fn of(self, bytes: &[u8]) -> u32 {
        match self {
            Algorithm::Crc32 => crc32(bytes),
            Algorithm::Adler32 => adler32(bytes),
        }
    }
}

/// A checksum written as stored that disagrees with the bytes it covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Disagreement {
    /// Where the checksum is written.
    pub offset: usize,
    /// The value stored.
    pub stored: u32,
    /// The value of the bytes it covers.
    pub computed: u32,
}

/// How a field holds a checksum: a 4-byte integer, or 4 bytes big-endian (PNG's CRC).
pub trait Held: Sized {
    /// The checksum as a number (0 for bytes that are not 4).
    fn to_u32(&self) -> u32;
    /// What the writer writes: the stored value, or the `recomputed` one.
    fn written(&self, recomputed: Option<u32>) -> Self;
}

impl Held for u32 {
    fn to_u32(&self) -> u32 {
        *self
    }

    fn written(&self, recomputed: Option<u32>) -> Self {
        recomputed.unwrap_or(*self)
    }
}

impl Held for i32 {
    fn to_u32(&self) -> u32 {
        u32::from_ne_bytes(self.to_ne_bytes())
    }

    fn written(&self, recomputed: Option<u32>) -> Self {
        recomputed.map_or(*self, |n| i32::from_ne_bytes(n.to_ne_bytes()))
    }
}

impl Held for crate::RawBytes {
    fn to_u32(&self) -> u32 {
        from_stored(&self.0).unwrap_or(0)
    }

    fn written(&self, recomputed: Option<u32>) -> Self {
        recomputed.map_or_else(
            || self.clone(),
            |n| crate::RawBytes::new(n.to_be_bytes().to_vec()),
        )
    }
}

/// A checksum stored as 4 bytes, big-endian (PNG's CRC), read as a number.
pub fn from_stored(bytes: &[u8]) -> Option<u32> {
    bytes.try_into().ok().map(u32::from_be_bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checksums_of_known_inputs() {
        // The check values of the CRC catalogue and of Adler-32's usual example.
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(adler32(b"Wikipedia"), 0x11E6_0398);
        assert_eq!(adler32(b""), 1);
        // Long enough for the sums to be reduced along the way (Python's `zlib.adler32`).
        assert_eq!(adler32(&[0xff; 100_000]), 0x149A_302C);
        assert_eq!(from_stored(&[0xCB, 0xF4, 0x39, 0x26]), Some(0xCBF4_3926));
        assert_eq!(from_stored(&[1, 2, 3]), None);
    }
}
