//! QFS / RefPack, the LZ77 variant of The Sims 2 packages: a decompressor that never writes
//! past the size the header gives, and compression through the `refpack` crate.
//!
//! A compressed resource is `u32 compressed size` (the whole resource, these 4 bytes
//! included), `10 FB`, the uncompressed size as 24-bit big-endian, then opcodes. Each opcode
//! copies 0-112 literal bytes from the input, then (except for literal runs) copies 3-1028
//! bytes from up to 131072 bytes back in the output.

/// Why compressed bytes cannot be decompressed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum QfsError {
    /// No `10 FB` signature after the size word.
    #[error("not QFS data: no 10 FB signature at byte 4")]
    NotQfs,
    /// The data stops inside an opcode or its literals.
    #[error("QFS data ends early at byte {0}")]
    Truncated(usize),
    /// A copy reaches before the start of the output.
    #[error("a copy at byte {at} reaches {offset} bytes back, before the start of the output")]
    BadOffset {
        /// Input offset of the opcode.
        at: usize,
        /// The distance asked for.
        offset: usize,
    },
    /// The output grows beyond the size the header gives.
    #[error("the output exceeds the {0} bytes the header gives")]
    TooLong(usize),
    /// The compressor failed (refpack reports only I/O errors, which memory buffers do not
    /// raise).
    #[error("QFS compression failed: {0}")]
    Compressor(String),
    /// The data is too large for the header's 24-bit uncompressed size.
    #[error(
        "{0} bytes cannot be QFS-compressed: the header holds sizes below 16 MiB ({MAX_SIZE} bytes at most)"
    )]
    TooLarge(usize),
}

/// The largest input the header's 24-bit uncompressed size can describe.
pub const MAX_SIZE: usize = 0xff_ffff;

/// True when `data` starts like a compressed resource.
pub fn is_compressed(data: &[u8]) -> bool {
    data.get(4..6) == Some(&[0x10, 0xfb])
}

/// The uncompressed size the header gives.
pub fn uncompressed_size(data: &[u8]) -> Option<usize> {
    let b = data.get(6..9)?;
    Some((usize::from(b[0]) << 16) | (usize::from(b[1]) << 8) | usize::from(b[2]))
}

/// Decompresses a resource. The output never exceeds the header's size, so hostile data cannot
/// allocate more than 16 MiB.
pub fn decompress(data: &[u8]) -> Result<Vec<u8>, QfsError> {
    if !is_compressed(data) {
        return Err(QfsError::NotQfs);
    }
    let size = uncompressed_size(data).ok_or(QfsError::Truncated(data.len()))?;
    let mut out = Vec::with_capacity(size);
    let mut at = 9;
    let byte = |i: usize| data.get(i).copied().ok_or(QfsError::Truncated(i));
    loop {
        let b0 = byte(at)?;
        let (literals, copy, offset, len) = match b0 {
            0x00..=0x7f => {
                let b1 = usize::from(byte(at + 1)?);
                let b0 = usize::from(b0);
                (b0 & 3, ((b0 >> 2) & 7) + 3, ((b0 & 0x60) << 3) + b1 + 1, 2)
            }
            0x80..=0xbf => {
                let (b1, b2) = (usize::from(byte(at + 1)?), usize::from(byte(at + 2)?));
                (
                    (b1 >> 6) & 3,
                    usize::from(b0 & 0x3f) + 4,
                    ((b1 & 0x3f) << 8) + b2 + 1,
                    3,
                )
            }
            0xc0..=0xdf => {
                let (b1, b2, b3) = (
                    usize::from(byte(at + 1)?),
                    usize::from(byte(at + 2)?),
                    usize::from(byte(at + 3)?),
                );
                let b0 = usize::from(b0);
                (
                    b0 & 3,
                    ((b0 & 0x0c) << 6) + b3 + 5,
                    ((b0 & 0x10) << 12) + (b1 << 8) + b2 + 1,
                    4,
                )
            }
            0xe0..=0xfb => ((usize::from(b0 & 0x1f) << 2) + 4, 0, 0, 1),
            0xfc..=0xff => (usize::from(b0 & 3), 0, 0, 1),
        };
        let start = at + len;
        let literal_bytes = data
            .get(start..start + literals)
            .ok_or(QfsError::Truncated(data.len()))?;
        if out.len() + literals + copy > size {
            return Err(QfsError::TooLong(size));
        }
        out.extend_from_slice(literal_bytes);
        if copy > 0 {
            let from = out
                .len()
                .checked_sub(offset)
                .ok_or(QfsError::BadOffset { at, offset })?;
            if offset >= copy {
                out.extend_from_within(from..from + copy);
            } else {
                // The copy overlaps the bytes it produces: a run repeating the last `offset`.
                for i in 0..copy {
                    out.push(out[from + i]);
                }
            }
        }
        at = start + literals;
        if b0 >= 0xfc {
            return Ok(out);
        }
    }
}

/// Compresses `data` with the `refpack` crate's `Fast` level (2 to 4 times faster than the
/// greedy compressor skelcodec had, and 1 to 4 % smaller: `cargo bench -p benches --bench
/// qfs`); refuses data of 16 MiB or more, whose size the header cannot hold and which
/// refpack would write with a clamped size.
pub fn compress(data: &[u8]) -> Result<Vec<u8>, QfsError> {
    if data.len() > MAX_SIZE {
        return Err(QfsError::TooLarge(data.len()));
    }
    if data.is_empty() {
        // refpack refuses empty input; the stream is the header and a stop opcode.
        let mut out = 10u32.to_le_bytes().to_vec();
        out.extend_from_slice(&[0x10, 0xfb, 0, 0, 0, 0xfc]);
        return Ok(out);
    }
    refpack::easy_compress::<refpack::format::Maxis>(data, refpack::CompressionOptions::Fast)
        .map_err(|e| QfsError::Compressor(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(data: &[u8]) {
        let packed = compress(data).unwrap();
        assert_eq!(decompress(&packed).unwrap(), data);
        assert_eq!(
            u32::from_le_bytes(packed[..4].try_into().unwrap()) as usize,
            packed.len()
        );
    }

    #[test]
    fn compresses_and_decompresses() {
        round_trip(b"");
        round_trip(b"ab");
        round_trip(b"abcabcabcabcabcabcabcabc");
        let text: Vec<u8> = (0..5000u32).flat_map(|i| (i % 97).to_le_bytes()).collect();
        round_trip(&text);
        let long_runs: Vec<u8> = std::iter::repeat_n(b"skeleton-root-bone".as_slice(), 400)
            .flatten()
            .copied()
            .collect();
        round_trip(&long_runs);
        assert!(compress(&long_runs).unwrap().len() < long_runs.len() / 10);
        // Pseudo-random bytes: mostly literals.
        let mut x = 12345u32;
        let noise: Vec<u8> = (0..3000)
            .map(|_| {
                x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
                (x >> 16) as u8
            })
            .collect();
        round_trip(&noise);
    }

    #[test]
    fn sizes_the_header_cannot_hold_are_refused() {
        let too_large = vec![7u8; MAX_SIZE + 1];
        assert_eq!(compress(&too_large), Err(QfsError::TooLarge(MAX_SIZE + 1)));
    }

    #[test]
    fn hostile_data_fails_cleanly() {
        assert_eq!(decompress(b"abcd"), Err(QfsError::NotQfs));
        assert!(decompress(&[0, 0, 0, 0, 0x10, 0xfb, 0, 0, 4, 0x00]).is_err());
        // A copy before the start of the output.
        assert!(matches!(
            decompress(&[0, 0, 0, 0, 0x10, 0xfb, 0, 0, 20, 0x1c, 0x05]),
            Err(QfsError::BadOffset { .. })
        ));
        // Output beyond the stated size.
        assert_eq!(
            decompress(&[0, 0, 0, 0, 0x10, 0xfb, 0, 0, 1, 0xe0, 1, 2, 3, 4, 0xfc]),
            Err(QfsError::TooLong(1))
        );
    }
}
