#![no_main]
//! The ifp reader on arbitrary bytes.

use libfuzzer_sys::fuzz_target;
use skelcodec_formats::ifp::Ifp;

fuzz_target!(|data: &[u8]| skelcodec_fuzz::read::<Ifp>(data));
