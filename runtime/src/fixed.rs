//! Fixed-point ("compressed") scalars kept as their raw integers.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Raw integer types a fixed-point value can be stored in.
pub trait FixedRaw: Copy + PartialEq + fmt::Debug + Default {
    /// The smallest raw value, as f64.
    const MIN_F64: f64;
    /// The largest raw value, as f64.
    const MAX_F64: f64;
    /// The raw value as f64 (exact for every implementing type).
    fn to_f64(self) -> f64;
    /// Converts an integral f64 already known to be within `MIN_F64..=MAX_F64`.
    fn from_f64_unchecked(v: f64) -> Self;
}

macro_rules! fixed_raw {
    ($($ty:ty),*) => {
        $(
            impl FixedRaw for $ty {
                const MIN_F64: f64 = <$ty>::MIN as f64;
                const MAX_F64: f64 = <$ty>::MAX as f64;
                #[inline]
                fn to_f64(self) -> f64 {
                    f64::from(self)
                }
                #[inline]
                fn from_f64_unchecked(v: f64) -> Self {
                    // `as` saturates, so even a caller breaking the contract gets no UB or panic.
                    v as $ty
                }
            }
        )*
    };
}
fixed_raw!(i8, u8, i16, u16, i32, u32);

/// A fixed-point value stored as its raw integer `T`, worth `raw / DIV`. Kept raw so a round trip is exact.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Fixed<T, const DIV: u32>(pub T);

/// Returned when a number cannot be stored as a given fixed-point type.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
#[error("{value} is outside the range of a fixed-point value {min}..={max}")]
pub struct FixedRangeError {
    /// The number that did not fit.
    pub value: f64,
    /// The smallest representable value.
    pub min: f64,
    /// The largest representable value.
    pub max: f64,
}

impl<T: FixedRaw, const DIV: u32> Fixed<T, DIV> {
    /// Wraps a raw integer.
    #[inline]
    pub const fn from_raw(raw: T) -> Self {
        Fixed(raw)
    }

    /// The raw integer as stored in the file.
    #[inline]
    pub fn raw(self) -> T {
        self.0
    }

    /// Decoded value. Multiplies by the reciprocal when DIV is a power of two (bit-identical and faster), else divides.
    #[inline]
    pub fn get(self) -> f32 {
        if DIV.is_power_of_two() {
            // Scaling by a power of two is exact, so rounding only happens in the int-to-f32
            // conversion and the result equals the correctly rounded quotient.
            self.0.to_f64() as f32 * (1.0 / DIV as f32)
        } else {
            // Dividing in f64 and narrowing once is still correctly rounded (53 >= 2*24 + 2),
            // unlike converting a large raw to f32 first.
            (self.0.to_f64() / f64::from(DIV)) as f32
        }
    }

    /// Decoded value in double precision.
    #[inline]
    pub fn get_f64(self) -> f64 {
        if DIV.is_power_of_two() {
            self.0.to_f64() * (1.0 / f64::from(DIV))
        } else {
            self.0.to_f64() / f64::from(DIV)
        }
    }

    /// Encodes by rounding to the nearest raw value; Err(FixedRangeError) when the result does not fit T or v is not finite.
    #[inline]
    pub fn try_from_f32(v: f32) -> Result<Self, FixedRangeError> {
        Self::try_from_f64(f64::from(v))
    }

    /// Encodes by rounding to the nearest raw value; Err(FixedRangeError) when the result does not fit T or v is not finite.
    pub fn try_from_f64(v: f64) -> Result<Self, FixedRangeError> {
        let scaled = (v * f64::from(DIV)).round();
        // Written so that NaN fails the check too.
        if scaled >= T::MIN_F64 && scaled <= T::MAX_F64 && v.is_finite() {
            Ok(Fixed(T::from_f64_unchecked(scaled)))
        } else {
            Err(Self::range_error(v))
        }
    }

    #[cold]
    #[inline(never)]
    fn range_error(value: f64) -> FixedRangeError {
        FixedRangeError {
            value,
            min: T::MIN_F64 / f64::from(DIV),
            max: T::MAX_F64 / f64::from(DIV),
        }
    }
}

impl<T: FixedRaw, const DIV: u32> fmt::Display for Fixed<T, DIV> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.get_f64(), f)
    }
}

impl<T: FixedRaw, const DIV: u32> Serialize for Fixed<T, DIV> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_f64(self.get_f64())
    }
}

impl<'de, T: FixedRaw, const DIV: u32> Deserialize<'de> for Fixed<T, DIV> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let v = f64::deserialize(deserializer)?;
        Self::try_from_f64(v).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exhaustive_i16_round_trip<const DIV: u32>() {
        for raw in i16::MIN..=i16::MAX {
            let f = Fixed::<i16, DIV>::from_raw(raw);
            let json = serde_json::to_string(&f).unwrap();
            let back: Fixed<i16, DIV> = serde_json::from_str(&json).unwrap();
            assert_eq!(back.raw(), raw, "DIV {DIV}, json {json}");
            assert_eq!(f.get_f64(), f64::from(raw) / f64::from(DIV));
            assert_eq!(f.get(), (f64::from(raw) / f64::from(DIV)) as f32);
            assert_eq!(Fixed::<i16, DIV>::try_from_f32(f.get()), Ok(f));
        }
    }

    #[test]
    fn i16_serde_round_trip_div_60() {
        exhaustive_i16_round_trip::<60>();
    }

    #[test]
    fn i16_serde_round_trip_div_1024() {
        exhaustive_i16_round_trip::<1024>();
    }

    #[test]
    fn i16_serde_round_trip_div_4096() {
        exhaustive_i16_round_trip::<4096>();
    }

    #[test]
    fn get_is_raw_over_div() {
        assert_eq!(Fixed::<i16, 4096>::from_raw(2048).get(), 0.5);
        assert_eq!(Fixed::<i16, 4096>::from_raw(-4096).get(), -1.0);
        assert_eq!(Fixed::<u16, 60>::from_raw(90).get(), 1.5);
        assert_eq!(Fixed::<i32, 60>::from_raw(20).get(), 20.0f32 / 60.0);
        // A raw too large for f32 still decodes to the correctly rounded quotient.
        let big = Fixed::<i32, 3>::from_raw(i32::MAX);
        assert_eq!(big.get(), (f64::from(i32::MAX) / 3.0) as f32);
    }

    #[test]
    fn serializes_as_decoded_value() {
        let f = Fixed::<i16, 60>::from_raw(90);
        assert_eq!(serde_json::to_string(&f).unwrap(), "1.5");
        assert_eq!(f.to_string(), "1.5");
        let back: Fixed<i16, 60> = serde_json::from_str("2").unwrap();
        assert_eq!(back.raw(), 120);
    }

    #[test]
    fn rounds_to_nearest() {
        assert_eq!(
            Fixed::<i16, 60>::try_from_f64(1.0 / 60.0 * 0.49)
                .unwrap()
                .raw(),
            0
        );
        assert_eq!(
            Fixed::<i16, 60>::try_from_f64(1.0 / 60.0 * 0.51)
                .unwrap()
                .raw(),
            1
        );
        assert_eq!(Fixed::<i16, 4>::try_from_f64(-0.3).unwrap().raw(), -1);
        assert_eq!(Fixed::<u8, 10>::try_from_f32(25.46).unwrap().raw(), 255);
    }

    #[test]
    fn range_errors() {
        let err = Fixed::<i16, 4096>::try_from_f64(8.0).unwrap_err();
        assert_eq!(err.min, -8.0);
        assert_eq!(err.max, 32767.0 / 4096.0);
        assert_eq!(err.value, 8.0);
        assert!(Fixed::<i16, 4096>::try_from_f64(-8.0).is_ok());
        assert!(Fixed::<i16, 4096>::try_from_f64(-8.001).is_err());
        assert!(Fixed::<u16, 1>::try_from_f64(-0.6).is_err());
        assert_eq!(Fixed::<u16, 1>::try_from_f64(-0.4).unwrap().raw(), 0);
        assert!(Fixed::<i16, 60>::try_from_f64(f64::NAN).is_err());
        assert!(Fixed::<i16, 60>::try_from_f64(f64::INFINITY).is_err());
        assert!(Fixed::<i32, 1>::try_from_f32(f32::NEG_INFINITY).is_err());
        assert!(serde_json::from_str::<Fixed<i8, 2>>("64").is_err());
    }
}
