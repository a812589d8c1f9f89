#![no_main]
//! The gsa reader on arbitrary bytes.

use libfuzzer_sys::fuzz_target;
use skelcodec_formats::gsa::Gsa;

fuzz_target!(|data: &[u8]| skelcodec_fuzz::read::<Gsa>(data));
