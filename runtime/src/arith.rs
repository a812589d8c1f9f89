//! Integer helpers for compiled schema expressions. Expressions compute in `i64`, like Kaitai
//! Struct; these functions keep hostile values from panicking and turn them into errors where
//! a length or a stored field needs them.

use crate::error::{Error, ErrorKind, Result};
use crate::reader::Reader;

/// Kaitai integer division (floor for positive divisors); 0 when dividing by 0, which no valid
/// file needs and which must not panic.
#[inline]
pub fn div(a: i64, b: i64) -> i64 {
    a.checked_div_euclid(b).unwrap_or(0)
}

/// Kaitai modulo: the result takes the sign of a positive divisor (`-5 % 3 == 1`); 0 for a
/// divisor of 0.
#[inline]
pub fn modulo(a: i64, b: i64) -> i64 {
    a.checked_rem_euclid(b).unwrap_or(0)
}

/// A byte length or element count computed while reading; negative values are an error at
/// the reader's position.
#[inline]
pub fn length(value: i64, r: &Reader<'_>) -> Result<usize> {
    usize::try_from(value).map_err(|_| {
        r.error(ErrorKind::Invalid(format!(
            "expected a length or count, found the negative value {value}"
        )))
    })
}

/// A computed value converted to the integer type of the field or parameter that stores it.
/// Expressions compute in `i64`, where a `u8` above `i64::MAX` reads as its bits taken as
/// signed (Kaitai's 64-bit arithmetic), so a negative value stored in a `u64` is those bits.
#[inline]
pub fn narrow<T: TryFrom<i64> + TryFrom<u64>>(value: i64, at: usize) -> Result<T> {
    let wrapped = || match value < 0 {
        true => T::try_from(value as u64).ok(),
        false => None,
    };
    T::try_from(value).ok().or_else(wrapped).ok_or_else(|| {
        Error::new(
            at as u64,
            ErrorKind::Encode(format!(
                "{value} does not fit the {} it is stored in",
                std::any::type_name::<T>()
            )),
        )
    })
}

/// True when a stored integer and the value computed for it mean the same: equal, or a `u8`
/// above `i64::MAX` and its bits taken as signed, the value expressions see (see [`narrow`]).
#[inline]
pub fn agrees(stored: i128, computed: i128) -> bool {
    stored == computed || (stored > i128::from(i64::MAX) && i128::from(stored as i64) == computed)
}

/// A value computed while reading, converted to the integer type that keeps it; out of range
/// is an error at the reader's position.
#[inline]
pub fn fit<T: TryFrom<i64>>(value: i64, r: &Reader<'_>) -> Result<T> {
    T::try_from(value).map_err(|_| {
        r.error(ErrorKind::Invalid(format!(
            "the computed value {value} does not fit a {}",
            std::any::type_name::<T>()
        )))
    })
}

/// True when `items` are exactly the integers of `list`, in order (a list or byte array
/// compared with a literal such as `[0x50, 0x4b]`).
pub fn ints_match(items: impl ExactSizeIterator<Item = i64>, list: &[i64]) -> bool {
    items.len() == list.len() && items.zip(list).all(|(a, b)| a == *b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_u8_above_i64_max_is_its_bits_taken_as_signed() {
        assert_eq!(narrow::<u64>(-1, 0).unwrap(), u64::MAX);
        assert_eq!(narrow::<i64>(-1, 0).unwrap(), -1);
        assert!(
            narrow::<u32>(-1, 0).is_err(),
            "a narrower field holds no such bits"
        );
        assert!(agrees(i128::from(u64::MAX), -1));
        assert!(!agrees(i128::from(u32::MAX), -1));
        assert!(!agrees(i128::from(u64::MAX), i128::from(u64::MAX) - 1));
    }

    #[test]
    fn kaitai_division_and_modulo() {
        assert_eq!(div(7, 2), 3);
        assert_eq!(div(-7, 2), -4);
        assert_eq!(div(1, 0), 0);
        assert_eq!(modulo(-5, 3), 1);
        assert_eq!(modulo(5, 0), 0);
        assert_eq!(modulo(i64::MIN, -1), 0);
    }

    #[test]
    fn negative_lengths_and_narrowing_fail() {
        let r = Reader::new(&[0; 8]);
        assert_eq!(length(5, &r).unwrap(), 5);
        let err = length(-1, &r).unwrap_err();
        assert!(err.to_string().contains("negative value -1"), "{err}");
        assert_eq!(narrow::<u8>(255, 0).unwrap(), 255);
        assert!(
            narrow::<u8>(256, 3)
                .unwrap_err()
                .to_string()
                .contains("256")
        );
    }
}
