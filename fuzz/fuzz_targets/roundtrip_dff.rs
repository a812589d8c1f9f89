#![no_main]
//! Whatever the dff reader accepts re-encodes to the same bytes and the same value.

use libfuzzer_sys::fuzz_target;
use skelcodec_formats::dff::Dff;

fuzz_target!(|data: &[u8]| skelcodec_fuzz::round_trip::<Dff>(data));
