#![no_main]
//! The animation_set reader on arbitrary bytes.

use libfuzzer_sys::fuzz_target;
use skelcodec_formats::battleforge::AnimationSetBlob;

fuzz_target!(|data: &[u8]| skelcodec_fuzz::read::<AnimationSetBlob>(data));
