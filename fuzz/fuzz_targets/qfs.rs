#![no_main]
//! QFS (RefPack) on arbitrary bytes: decompression returns, and compression round-trips.

use libfuzzer_sys::fuzz_target;
use skelcodec_formats::qfs;

fuzz_target!(|data: &[u8]| {
    let _ = qfs::decompress(data);
    let packed = qfs::compress(data);
    assert_eq!(qfs::decompress(&packed).as_deref().ok(), Some(data));
});
