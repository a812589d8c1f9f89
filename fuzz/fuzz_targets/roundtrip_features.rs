#![no_main]
//! The feature schemas' codecs (bit fields, processed values, encoded text, values read from
//! other streams, a recursive type): the first byte picks one, the rest is the file; whatever
//! decodes re-encodes to the same bytes and value, and hostile nesting ends in an error.

use libfuzzer_sys::fuzz_target;
use skelcodec_fuzz::features::{bit_fields, other_streams, processed, recursion, text_encodings};

fuzz_target!(|data: &[u8]| {
    let Some((&pick, file)) = data.split_first() else {
        return;
    };
    match pick % 5 {
        0 => skelcodec_fuzz::round_trip::<bit_fields::BitFields>(file),
        1 => skelcodec_fuzz::round_trip::<processed::Processed>(file),
        2 => skelcodec_fuzz::round_trip::<other_streams::OtherStreams>(file),
        3 => skelcodec_fuzz::round_trip::<text_encodings::TextEncodings>(file),
        _ => skelcodec_fuzz::round_trip::<recursion::Recursion>(file),
    }
});
