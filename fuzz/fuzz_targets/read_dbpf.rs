#![no_main]
//! The dbpf reader on arbitrary bytes, then what tools do with a package: extract (QFS
//! decompression) and decode every ANIM resource, check the whole package.

use libfuzzer_sys::fuzz_target;
use skelcodec_formats::dbpf::Dbpf;

fuzz_target!(|data: &[u8]| {
    skelcodec_fuzz::read::<Dbpf>(data);
    if let Ok(package) = Dbpf::read(data) {
        for entry in &package.index {
            let _ = package.extract(entry);
        }
        let _ = package.animations();
        let _ = package.check_all();
    }
});
