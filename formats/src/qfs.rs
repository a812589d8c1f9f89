//! QFS / RefPack, the LZ77 variant of The Sims 2 packages: decompression, and a greedy
//! compressor whose output the game and every reader accept.
//!
//! A compressed resource is `u32 compressed size` (the whole resource, these 4 bytes
//! included), `10 FB`, the uncompressed size as 24-bit big-endian, then opcodes. Each opcode
//! copies 0-112 literal bytes from the input, then (except for literal runs) copies 3-1028
//! bytes from up to 131072 bytes back in the output.

use std::collections::HashMap;

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
}

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
            // Byte by byte: a copy may overlap the bytes it produces.
            for i in 0..copy {
                out.push(out[from + i]);
            }
        }
        at = start + literals;
        if b0 >= 0xfc {
            return Ok(out);
        }
    }
}

/// Compresses `data` (at most 16 MiB - 1) greedily with a hash of 3-byte prefixes.
pub fn compress(data: &[u8]) -> Vec<u8> {
    const MAX_OFFSET: usize = 131_072;
    const MAX_COPY: usize = 1028;
    let mut ops = Vec::new();
    let mut heads: HashMap<[u8; 3], Vec<usize>> = HashMap::new();
    let mut literal_start = 0;
    let mut at = 0;
    while at + 3 <= data.len() {
        let key = [data[at], data[at + 1], data[at + 2]];
        let best = heads.get(&key).and_then(|candidates| {
            candidates
                .iter()
                .rev()
                .take(16)
                .filter(|&&from| at - from <= MAX_OFFSET)
                .map(|&from| {
                    let len = data[from..]
                        .iter()
                        .zip(&data[at..])
                        .take(MAX_COPY)
                        .take_while(|(a, b)| a == b)
                        .count();
                    (len, at - from)
                })
                .max_by_key(|&(len, _)| len)
        });
        heads.entry(key).or_default().push(at);
        match best {
            Some((len, offset)) if copy_fits(len, offset) => {
                emit(&mut ops, &data[literal_start..at], len, offset);
                for i in at + 1..at + len {
                    if i + 3 <= data.len() {
                        heads
                            .entry([data[i], data[i + 1], data[i + 2]])
                            .or_default()
                            .push(i);
                    }
                }
                at += len;
                literal_start = at;
            }
            _ => at += 1,
        }
    }
    // Literals left over: runs of 4..=112 (multiples of 4), then at most 3 with the stop.
    let mut rest = &data[literal_start..];
    while rest.len() > 3 {
        let n = (rest.len() & !3).min(112);
        ops.push(0xe0 | ((n - 4) >> 2) as u8);
        ops.extend_from_slice(&rest[..n]);
        rest = &rest[n..];
    }
    ops.push(0xfc | rest.len() as u8);
    ops.extend_from_slice(rest);

    let mut out = Vec::with_capacity(ops.len() + 9);
    out.extend_from_slice(&((ops.len() + 9) as u32).to_le_bytes());
    out.extend_from_slice(&[0x10, 0xfb]);
    out.extend_from_slice(&(data.len() as u32).to_be_bytes()[1..]);
    out.extend_from_slice(&ops);
    out
}

/// Copies too short for their distance cost more than literals.
fn copy_fits(len: usize, offset: usize) -> bool {
    match offset {
        0..=1024 => len >= 3,
        1025..=16_384 => len >= 4,
        _ => len >= 5,
    }
}

/// Emits `literals` and then a copy of `len` bytes from `offset` back.
fn emit(ops: &mut Vec<u8>, mut literals: &[u8], len: usize, offset: usize) {
    // Literal runs carry multiples of 4; the copy opcode carries the last 0-3.
    while literals.len() > 3 {
        let n = (literals.len() & !3).min(112);
        ops.push(0xe0 | ((n - 4) >> 2) as u8);
        ops.extend_from_slice(&literals[..n]);
        literals = &literals[n..];
    }
    let plain = literals.len();
    let o = offset - 1;
    if len <= 10 && offset <= 1024 {
        ops.push((((o >> 8) << 5) | ((len - 3) << 2) | plain) as u8);
        ops.push(o as u8);
    } else if len <= 67 && offset <= 16_384 {
        ops.push(0x80 | (len - 4) as u8);
        ops.push(((plain << 6) | (o >> 8)) as u8);
        ops.push(o as u8);
    } else {
        let l = len - 5;
        ops.push((0xc0 | ((o >> 16) << 4) | ((l >> 8) << 2) | plain) as u8);
        ops.push((o >> 8) as u8);
        ops.push(o as u8);
        ops.push(l as u8);
    }
    ops.extend_from_slice(literals);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(data: &[u8]) {
        let packed = compress(data);
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
        assert!(compress(&long_runs).len() < long_runs.len() / 10);
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
