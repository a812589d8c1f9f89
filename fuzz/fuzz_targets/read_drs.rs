#![no_main]
//! The drs reader on arbitrary bytes.

use libfuzzer_sys::fuzz_target;
use skelcodec_formats::drs::Drs;

fuzz_target!(|data: &[u8]| skelcodec_fuzz::read::<Drs>(data));
