#![no_main]
//! The sims2_anim reader on arbitrary bytes.

use libfuzzer_sys::fuzz_target;
use skelcodec_formats::sims2_anim::Sims2Anim;

fuzz_target!(|data: &[u8]| skelcodec_fuzz::read::<Sims2Anim>(data));
