#![no_main]
//! QFS (RefPack) on arbitrary bytes: decompression returns without panicking, never
//! producing more than the header's size, and compression round-trips.

use libfuzzer_sys::fuzz_target;
use skelcodec_formats::qfs;

fuzz_target!(|data: &[u8]| {
    if let Ok(unpacked) = qfs::decompress(data) {
        assert!(Some(unpacked.len()) <= qfs::uncompressed_size(data));
    }
    let packed = qfs::compress(data).expect("fuzz inputs are far below 16 MiB");
    assert_eq!(qfs::decompress(&packed).as_deref().ok(), Some(data));
});
