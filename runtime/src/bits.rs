//! Bit fields (Kaitai `b1` … `b64`): integers packed across bytes, in big-endian bit order
//! (each byte from its most significant bit) or little-endian (from its least significant).
//!
//! Reading takes whole bytes from the stream and keeps the bits not used yet, so that the next
//! bit field continues inside the same byte, as Kaitai does. A byte-aligned field after bit
//! fields drops what is left of the byte ([`Reader::align_to_byte`]); the dropped bits are
//! returned so that generated values keep them, and [`Writer::align_to_byte`] writes them back:
//! a file whose unused bits are not zero still round-trips exactly.

use crate::error::{ErrorKind, Result};
use crate::reader::Reader;
use crate::writer::Writer;

pub use crate::pending_bits::PendingBits;

/// The value of a bit field (`bool` or an unsigned integer), given by value or by reference.
#[inline]
pub fn bits_of<T: Copy + Into<u64>>(value: impl std::borrow::Borrow<T>) -> u64 {
    (*value.borrow()).into()
}

fn mask(n: u32) -> u128 {
    (1u128 << n) - 1
}

/// The error of a bit field whose bit order changes in the middle of a byte: where its bits
/// would come from is not defined.
fn mixed_order(big_endian: bool) -> ErrorKind {
    ErrorKind::Invalid(format!(
        "a {} bit field continues a byte whose other bits were read in the other bit order",
        if big_endian {
            "big-endian"
        } else {
            "little-endian"
        }
    ))
}

impl Reader<'_> {
    /// The position in bits: bit fields move it by less than a byte.
    pub fn bit_pos(&self) -> u64 {
        (self.pos() as u64 * 8).saturating_sub(u64::from(self.pending.len))
    }

    /// Reads an unsigned integer of `n` bits (1 to 64) in big-endian bit order.
    pub fn read_bits_be(&mut self, n: u32) -> Result<u64> {
        self.read_bits(n, true)
    }

    /// Reads an unsigned integer of `n` bits (1 to 64) in little-endian bit order.
    pub fn read_bits_le(&mut self, n: u32) -> Result<u64> {
        self.read_bits(n, false)
    }

    fn read_bits(&mut self, n: u32, big_endian: bool) -> Result<u64> {
        let n = n.clamp(1, 64);
        let pending = self.pending;
        if !pending.is_empty() && pending.big_endian != big_endian {
            return Err(self.error(mixed_order(big_endian)));
        }
        let needed = n.saturating_sub(pending.len).div_ceil(8) as usize;
        let bytes = self.bytes(needed)?;
        let total = pending.len + 8 * needed as u32;
        let mut acc = u128::from(pending.bits);
        let value = if big_endian {
            for &b in bytes {
                acc = (acc << 8) | u128::from(b);
            }
            let left = total - n;
            let value = (acc >> left) & mask(n);
            acc &= mask(left);
            value
        } else {
            for (i, &b) in bytes.iter().enumerate() {
                acc |= u128::from(b) << (pending.len + 8 * i as u32);
            }
            let value = acc & mask(n);
            acc >>= n;
            value
        };
        self.pending = PendingBits {
            bits: acc as u64,
            len: total - n,
            big_endian,
        };
        Ok(value as u64)
    }

    /// Drops the bits left of a partly read byte, as a byte-aligned read after bit fields
    /// does, and returns them (0 when none is pending) for the value to keep.
    pub fn align_to_byte(&mut self) -> u8 {
        std::mem::take(&mut self.pending).bits as u8
    }
}

impl Writer {
    /// Writes the low `n` bits (1 to 64) of `value` in big-endian bit order; refused when
    /// `value` does not fit in `n` bits.
    pub fn write_bits_be(&mut self, n: u32, value: u64) -> Result<()> {
        self.write_bits(n, value, true)
    }

    /// Writes the low `n` bits (1 to 64) of `value` in little-endian bit order; refused when
    /// `value` does not fit in `n` bits.
    pub fn write_bits_le(&mut self, n: u32, value: u64) -> Result<()> {
        self.write_bits(n, value, false)
    }

    fn write_bits(&mut self, n: u32, value: u64, big_endian: bool) -> Result<()> {
        let n = n.clamp(1, 64);
        if u128::from(value) > mask(n) {
            return Err(crate::fields::encode_error(
                self,
                format!("{value} does not fit in {n} bits"),
            ));
        }
        let pending = self.pending;
        if !pending.is_empty() && pending.big_endian != big_endian {
            return Err(crate::error::Error::new(
                self.pos() as u64,
                mixed_order(big_endian),
            ));
        }
        let mut total = pending.len + n;
        let mut acc = u128::from(pending.bits);
        if big_endian {
            acc = (acc << n) | u128::from(value);
            while total >= 8 {
                total -= 8;
                self.write_u8((acc >> total) as u8);
            }
            acc &= mask(total);
        } else {
            acc |= u128::from(value) << pending.len;
            while total >= 8 {
                self.write_u8(acc as u8);
                acc >>= 8;
                total -= 8;
            }
        }
        self.pending = PendingBits {
            bits: acc as u64,
            len: total,
            big_endian,
        };
        Ok(())
    }

    /// Completes a partly written byte with `dropped`, the bits its reader dropped
    /// ([`Reader::align_to_byte`]). Refused when they do not fit in what is left of the byte
    /// (or are not 0 when no byte is partly written): they would not read back.
    pub fn align_to_byte(&mut self, dropped: u8) -> Result<()> {
        let pending = self.pending;
        let room = (8 - pending.len) % 8;
        if u32::from(dropped) >= 1 << room {
            return Err(crate::fields::encode_error(
                self,
                format!(
                    "the {room} bits that complete this byte cannot hold {dropped:#04x}: an edit moved them; set these padding bits to 0"
                ),
            ));
        }
        if room > 0 {
            self.write_bits(room, u64::from(dropped), pending.big_endian)?;
        }
        Ok(())
    }

    /// Completes a partly written byte with zeros.
    pub(crate) fn flush_bits(&mut self) {
        if !self.pending.is_empty() {
            let room = 8 - self.pending.len;
            let _ = self.write_bits(room, 0, self.pending.big_endian);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn big_endian_bits_run_from_the_top_of_each_byte() {
        // Kaitai's bits_byte_aligned: 0x50 = 010100|00, 6 bits then 2 dropped.
        let data = [0x50, 0x41];
        let mut r = Reader::new(&data);
        assert_eq!(r.read_bits_be(6).unwrap(), 0b010100);
        assert_eq!(r.pos(), 1, "the byte is taken whole");
        assert_eq!(r.align_to_byte(), 0b00);
        assert_eq!(r.read_u8().unwrap(), 0x41);
    }

    #[test]
    fn little_endian_bits_run_from_the_bottom_of_each_byte() {
        // Kaitai's bits_seq_endian_combo: 8A D4 = 100|01010 11010|100 as b5le, b6le, b5le.
        let data = [0x8a, 0xd4];
        let mut r = Reader::new(&data);
        assert_eq!(r.read_bits_le(5).unwrap(), 0b01010);
        assert_eq!(r.read_bits_le(6).unwrap(), 0b100100);
        assert_eq!(r.read_bits_le(5).unwrap(), 0b11010);
        assert!(r.is_eof());
    }

    #[test]
    fn sixty_four_bits_across_nine_bytes() {
        let data = [0xff, 0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0];
        let mut r = Reader::new(&data);
        r.read_bits_be(4).unwrap();
        assert_eq!(r.read_bits_be(64).unwrap(), 0xf123_4567_89ab_cdef);
        let mut r = Reader::new(&data);
        r.read_bits_le(4).unwrap();
        assert_eq!(r.read_bits_le(64).unwrap(), 0x0deb_c9a7_8563_412f);
        let mut short = Reader::new(&data[..8]);
        short.read_bits_be(4).unwrap();
        let err = short.read_bits_be(64).unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::UnexpectedEof { .. }),
            "{err}"
        );
    }

    #[test]
    fn writing_reproduces_the_bits_read_dropped_ones_included() {
        for big_endian in [true, false] {
            let data = [0xa7u8, 0x3c, 0x5e, 0x99];
            let mut r = Reader::new(&data);
            let mut w = Writer::new();
            for n in [3, 9, 7] {
                let v = r.read_bits(n, big_endian).unwrap();
                w.write_bits(n, v, big_endian).unwrap();
            }
            let dropped = r.align_to_byte();
            w.align_to_byte(dropped).unwrap();
            let rest = r.read_u8().unwrap();
            w.write_u8(rest);
            assert_eq!(w.into_bytes().unwrap(), data, "big_endian: {big_endian}");
        }
    }

    #[test]
    fn values_and_dropped_bits_that_do_not_fit_are_refused() {
        let mut w = Writer::new();
        assert!(w.write_bits_be(3, 8).is_err());
        w.write_bits_be(5, 1).unwrap();
        assert!(w.align_to_byte(0b1000).is_err(), "only 3 bits are left");
        assert!(
            Writer::new().align_to_byte(1).is_err(),
            "no byte is partly written"
        );
        Writer::new().align_to_byte(0).unwrap();
        let mut mixed = Writer::new();
        mixed.write_bits_be(3, 1).unwrap();
        assert!(mixed.write_bits_le(3, 1).is_err());
    }

    #[test]
    fn unfinished_bytes_are_completed_with_zeros() {
        let mut w = Writer::new();
        w.write_bits_be(3, 0b101).unwrap();
        assert_eq!(w.into_bytes().unwrap(), [0b1010_0000]);
    }
}
