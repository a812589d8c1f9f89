#![no_main]
//! An edit of a decoded value (one JSON leaf) is refused, or reads back exactly. The first
//! byte picks the format; the rest is the file.

use libfuzzer_sys::fuzz_target;
use skelcodec_formats::{
    dbpf::Dbpf, dff::Dff, drs::Drs, gsa::Gsa, ifp::Ifp, sims2_anim::Sims2Anim,
};
use skelcodec_fuzz::edit;

fuzz_target!(|data: &[u8]| {
    let Some((format, file)) = data.split_first() else {
        return;
    };
    match format % 6 {
        0 => edit::<Ifp>(file),
        1 => edit::<Dff>(file),
        2 => edit::<Drs>(file),
        3 => edit::<Gsa>(file),
        4 => edit::<Sims2Anim>(file),
        _ => edit::<Dbpf>(file),
    }
});
