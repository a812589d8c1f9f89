#![no_main]
//! The dff reader on arbitrary bytes.

use libfuzzer_sys::fuzz_target;
use skelcodec_formats::dff::Dff;

fuzz_target!(|data: &[u8]| skelcodec_fuzz::read::<Dff>(data));
