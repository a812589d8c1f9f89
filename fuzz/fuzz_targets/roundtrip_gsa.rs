#![no_main]
//! Whatever the gsa reader accepts re-encodes to the same bytes and the same value.

use libfuzzer_sys::fuzz_target;
use skelcodec_formats::gsa::Gsa;

fuzz_target!(|data: &[u8]| skelcodec_fuzz::round_trip::<Gsa>(data));
