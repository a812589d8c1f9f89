#![no_main]
//! Whatever the sims2_anim reader accepts re-encodes to the same bytes and the same value.

use libfuzzer_sys::fuzz_target;
use skelcodec_formats::sims2_anim::Sims2Anim;

fuzz_target!(|data: &[u8]| skelcodec_fuzz::round_trip::<Sims2Anim>(data));
