//! Property tests of the runtime's value types and primitive codecs: fixed-point encode and
//! decode, string padding and serde forms, .NET 7-bit lengths, quaternion conversions, and the
//! reader's promise that every error points inside its input.

use proptest::prelude::*;
use skelcodec_runtime::__private::fields::{read_vlq, vlq_len};
use skelcodec_runtime::{
    ErrorKind, Fixed, FixedStr, Quat, Reader, Text, VarStr, Vec3, Writer, pad_to_multiple,
    sims2_run_pad_bytes, sims2_run_pad_len,
};

/// Fixed-point laws for one raw type and divisor: every raw value survives a trip through
/// f64, f32 and JSON; rounding is to the nearest step; anything out of range is refused.
macro_rules! fixed_laws {
    ($name:ident, $raw:ty, $div:expr) => {
        mod $name {
            use super::*;
            type F = Fixed<$raw, { $div }>;

            proptest! {
                #[test]
                fn every_raw_round_trips(raw in any::<$raw>()) {
                    let f = F::from_raw(raw);
                    prop_assert_eq!(F::try_from_f64(f.get_f64()).unwrap().raw(), raw);
                    let json = serde_json::to_string(&f).unwrap();
                    prop_assert_eq!(serde_json::from_str::<F>(&json).unwrap().raw(), raw);
                }

                #[test]
                fn f32_round_trips_while_exact(raw in any::<$raw>()) {
                    // An f32 holds 24 bits, so `get` rounds by less than half a step while raw < 2^23.
                    let f = F::from_raw(raw);
                    if (raw as f64).abs() < f64::from(1u32 << 22) {
                        prop_assert_eq!(F::try_from_f32(f.get()).unwrap().raw(), raw);
                    }
                }

                #[test]
                fn encoding_rounds_to_the_nearest_step(v in -1.0e10f64..1.0e10) {
                    let div = f64::from($div as u32);
                    let (min, max) = (<$raw>::MIN as f64 / div, <$raw>::MAX as f64 / div);
                    match F::try_from_f64(v) {
                        Ok(f) => {
                            prop_assert!((f.get_f64() - v).abs() <= 0.5 / div + 1e-9 * v.abs());
                        }
                        Err(e) => {
                            // Refused only when rounding lands outside the raw range.
                            let scaled = (v * div).round();
                            prop_assert!(scaled < <$raw>::MIN as f64 || scaled > <$raw>::MAX as f64);
                            prop_assert_eq!((e.min, e.max), (min, max));
                            prop_assert!(
                                serde_json::from_str::<F>(&v.to_string()).is_err(),
                                "JSON must refuse {} too", v
                            );
                        }
                    }
                }
            }

            #[test]
            fn non_finite_values_are_refused() {
                for v in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
                    assert!(F::try_from_f64(v).is_err(), "{v}");
                }
                assert!(F::try_from_f32(f32::NAN).is_err());
            }
        }
    };
}

fixed_laws!(fixed_i16_4096, i16, 4096);
fixed_laws!(fixed_i16_1024, i16, 1024);
fixed_laws!(fixed_u8_255, u8, 255);
fixed_laws!(fixed_i8_127, i8, 127);
fixed_laws!(fixed_u16_65535, u16, 65535);
fixed_laws!(fixed_i32_1000, i32, 1000);
fixed_laws!(fixed_u32_3, u32, 3);

/// Text without NUL bytes.
fn text(max: usize) -> impl Strategy<Value = String> {
    proptest::collection::vec(any::<char>().prop_filter("no NUL", |c| *c != '\0'), 0..max)
        .prop_map(|chars| chars.into_iter().collect())
}

proptest! {
    #[test]
    fn fixed_str_keeps_every_byte_through_json(raw in any::<[u8; 24]>()) {
        let s = FixedStr::from_raw(raw);
        let json = serde_json::to_string(&s).unwrap();
        let back: FixedStr<24> = serde_json::from_str(&json).unwrap();
        prop_assert_eq!(back.as_bytes(), &raw, "{}", json);
    }

    #[test]
    fn fixed_str_with_zero_tail_is_its_text_alone(t in text(12)) {
        // Some texts are longer than 24 bytes in UTF-8; those must be refused.
        match FixedStr::<24>::from_text(&t) {
            Ok(s) => {
                prop_assert!(t.len() <= 24);
                prop_assert_eq!(s.text(), t.as_str());
                prop_assert!(s.as_bytes()[t.len()..].iter().all(|&b| b == 0));
                prop_assert_eq!(serde_json::to_value(s).unwrap(), serde_json::json!({"text": t}));
            }
            Err(e) => {
                prop_assert!(t.len() > 24);
                prop_assert!(matches!(e.kind(), ErrorKind::Encode(_)));
            }
        }
    }

    #[test]
    fn fixed_str_set_text_keeps_the_tail_it_does_not_cover(
        raw in any::<[u8; 16]>(),
        t in "[a-z]{0,16}",
    ) {
        let mut s = FixedStr::from_raw(raw);
        let old_end = raw.iter().position(|&b| b == 0).unwrap_or(16);
        s.set_text(&t).unwrap();
        prop_assert_eq!(s.text(), t.as_str());
        let bytes = s.as_bytes();
        for i in 0..16 {
            if i < t.len() {
                prop_assert_eq!(bytes[i], t.as_bytes()[i]);
            } else if i == t.len() || i < old_end {
                prop_assert_eq!(bytes[i], 0, "byte {}", i);
            } else {
                prop_assert_eq!(bytes[i], raw[i], "stale byte {} kept", i);
            }
        }
    }

    #[test]
    fn fixed_str_refuses_text_that_does_not_fit(t in "[a-z]{17,40}") {
        let mut s = FixedStr::<16>::default();
        prop_assert!(s.set_text(&t).is_err());
        prop_assert_eq!(s, FixedStr::<16>::default(), "a refused edit changes nothing");
        prop_assert!(serde_json::from_value::<FixedStr<16>>(serde_json::json!(t)).is_err());
    }

    #[test]
    fn var_str_pads_to_its_alignment(t in text(20), align in 0usize..9) {
        let s = VarStr::from_text(&t, align);
        let unpadded = t.len() + 1;
        prop_assert_eq!(s.len(), unpadded + pad_to_multiple(unpadded, align));
        if align > 1 {
            prop_assert_eq!(s.len() % align, 0);
        }
        prop_assert_eq!(s.text(), t.as_str());
        prop_assert!(s.as_bytes()[t.len()..].iter().all(|&b| b == 0));
    }

    #[test]
    fn var_str_set_text_keeps_length_when_it_fits(raw in proptest::collection::vec(any::<u8>(), 0..32), t in "[a-z]{0,40}", align in 1usize..5) {
        let mut s = VarStr::from_raw(raw.clone());
        s.set_text(&t, align);
        prop_assert_eq!(s.text(), t.as_str());
        let had_nul = raw.contains(&0);
        if t.len() < raw.len() || (t.len() == raw.len() && !had_nul) {
            prop_assert_eq!(s.len(), raw.len());
        } else {
            let fresh = VarStr::from_text(&t, align);
            prop_assert_eq!(s.as_bytes(), fresh.as_bytes());
        }
        // A terminated string stays terminated.
        if had_nul {
            prop_assert!(s.as_bytes().contains(&0));
        }
    }

    #[test]
    fn var_str_and_text_keep_every_byte_through_json(raw in proptest::collection::vec(any::<u8>(), 0..40)) {
        let s = VarStr::from_raw(raw.clone());
        let back: VarStr = serde_json::from_str(&serde_json::to_string(&s).unwrap()).unwrap();
        prop_assert_eq!(back.as_bytes(), raw.as_slice());
        let t = Text::from_raw(raw.clone());
        let back: Text = serde_json::from_str(&serde_json::to_string(&t).unwrap()).unwrap();
        prop_assert_eq!(back.as_bytes(), raw.as_slice());
    }

    #[test]
    fn padding_reaches_the_next_multiple(len in 0usize..1 << 40, align in 0usize..4097) {
        let pad = pad_to_multiple(len, align);
        if align <= 1 {
            prop_assert_eq!(pad, 0);
        } else {
            prop_assert!(pad < align);
            prop_assert_eq!((len + pad) % align, 0);
        }
    }

    #[test]
    fn sims2_string_runs_pad_with_00_01_02(len in 0usize..1 << 20) {
        let pad = sims2_run_pad_bytes(len);
        prop_assert_eq!(pad.len(), sims2_run_pad_len(len));
        prop_assert_eq!(pad.len(), len % 4);
        prop_assert_eq!(pad, &[0u8, 1, 2][..len % 4]);
    }

    #[test]
    fn seven_bit_lengths_round_trip(value in any::<u32>()) {
        let mut w = Writer::new();
        w.write_7bit_u32(value);
        let bytes = w.into_bytes().unwrap();
        let bits = 32 - value.leading_zeros() as usize;
        prop_assert_eq!(bytes.len(), bits.div_ceil(7).max(1));
        prop_assert_eq!(bytes.len(), vlq_len(value));
        prop_assert!(bytes[..bytes.len() - 1].iter().all(|b| b & 0x80 != 0));
        prop_assert_eq!(bytes[bytes.len() - 1] & 0x80, 0);
        let mut r = Reader::new(&bytes);
        prop_assert_eq!(r.read_7bit_u32().unwrap(), value);
        prop_assert!(r.is_eof());
        prop_assert_eq!(read_vlq(&mut Reader::new(&bytes)).unwrap(), value);
    }

    /// On any bytes, the strict reader either fails where the integer began or reads exactly the bytes the writer would write for that value.
    #[test]
    fn seven_bit_reader_accepts_only_what_the_writer_writes(bytes in proptest::collection::vec(any::<u8>(), 0..8)) {
        let mut r = Reader::new(&bytes);
        match read_vlq(&mut r) {
            Ok(value) => {
                let mut w = Writer::new();
                w.write_7bit_u32(value);
                prop_assert_eq!(&bytes[..r.pos()], w.as_slice());
            }
            // The position after a refused non-minimal encoding is not asserted: `read_vlq`
            // leaves the reader past the bytes it refused (reported with issue #8).
            Err(e) => prop_assert_eq!(e.offset(), 0),
        }
        // The lenient reader never reads past 5 bytes and fails where the integer began.
        let mut r = Reader::new(&bytes);
        match r.read_7bit_u32() {
            Ok(_) => prop_assert!(r.pos() <= 5 && r.pos() >= 1),
            Err(e) => {
                prop_assert_eq!(e.offset(), 0);
                prop_assert_eq!(r.pos(), 0);
            }
        }
    }

    #[test]
    fn fixed_quaternions_round_trip(x in any::<i16>(), y in any::<i16>(), z in any::<i16>(), w in any::<i16>()) {
        let q: Quat<Fixed<i16, 4096>> = Quat {
            x: Fixed::from_raw(x),
            y: Fixed::from_raw(y),
            z: Fixed::from_raw(z),
            w: Fixed::from_raw(w),
        };
        prop_assert_eq!(Quat::<Fixed<i16, 4096>>::try_from_f32(q.to_f32()).unwrap(), q);
        let v: Vec3<Fixed<i16, 1024>> = Vec3 {
            x: Fixed::from_raw(x),
            y: Fixed::from_raw(y),
            z: Fixed::from_raw(z),
        };
        prop_assert_eq!(Vec3::<Fixed<i16, 1024>>::try_from_f32(v.to_f32()).unwrap(), v);
    }

    #[test]
    fn fixed_quaternion_encoding_refuses_what_does_not_fit(
        c in prop_oneof![-7.99f32..7.99, Just(8.0f32), Just(-8.5f32), Just(f32::NAN), Just(1e6f32)],
        which in 0usize..4,
    ) {
        let mut q = Quat::<f32>::identity();
        match which {
            0 => q.x = c,
            1 => q.y = c,
            2 => q.z = c,
            _ => q.w = c,
        }
        let fits = c.is_finite() && (c * 4096.0).round() >= -32768.0 && (c * 4096.0).round() <= 32767.0;
        prop_assert_eq!(Quat::<Fixed<i16, 4096>>::try_from_f32(q).is_ok(), fits);
    }

    #[test]
    fn quaternion_helpers_hold(x in -1e3f32..1e3, y in -1e3f32..1e3, z in -1e3f32..1e3, w in -1e3f32..1e3) {
        let q = Quat { x, y, z, w };
        prop_assert_eq!(q.conjugate().conjugate(), q);
        prop_assert_eq!(q.conjugate().norm(), q.norm());
        let n = q.normalized();
        if q.norm() > 1e-3 {
            prop_assert!((n.norm() - 1.0).abs() < 1e-4, "{:?}", n);
        }
        prop_assert!(n.norm().is_finite());
    }

    /// Whatever sequence of reads runs over whatever bytes, an error names an offset inside
    /// the input and a failed read consumes nothing.
    #[test]
    fn reader_errors_point_inside_the_input(
        data in proptest::collection::vec(any::<u8>(), 0..64),
        ops in proptest::collection::vec((0u8..8, any::<u32>()), 0..16),
    ) {
        let mut r = Reader::new(&data);
        for (op, arg) in ops {
            let before = r.pos();
            let result = match op {
                0 => r.read_u32_le().map(drop),
                1 => r.read_u8().map(drop),
                2 => r.bytes(arg as usize % 80).map(drop),
                3 => r.elements(u64::from(arg), 1 + arg as usize % 16).map(drop),
                4 => r.seek(arg as usize % 80),
                5 => r.until(0, arg % 2 == 0, arg % 3 == 0, arg % 5 == 0).map(drop),
                6 => r.sub(arg as usize % 80).map(drop),
                _ => r.read_7bit_u32().map(drop),
            };
            if let Err(e) = result {
                prop_assert!(e.offset() <= data.len() as u64, "{}", e);
                prop_assert_eq!(r.pos(), before, "a failed read consumed input");
            }
            prop_assert!(r.pos() <= data.len());
            let min_size = 1 + op as usize;
            prop_assert!(r.capacity_hint(u64::from(arg), min_size) <= r.remaining() / min_size);
        }
    }
}
