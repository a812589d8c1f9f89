//! Runs one codec on one workload in a loop, for profilers (`valgrind --tool=callgrind`):
//! `cargo build --profile bench -p benches --example profile` then
//! `valgrind --tool=callgrind target/release/examples/profile WORKLOAD CODEC decode|encode [N]`.

use std::hint::black_box;

use benches::peers::{binrw_peer, deku_peer, hand, memcpy::Memcpy, skelcodec};
use benches::workloads::{self, Workload};
use benches::{Codec, Input};

#[inline(never)]
fn run<C: Codec>(w: &Workload, encode: bool, n: usize) {
    if encode {
        let values: Vec<C::Value> = w
            .inputs
            .iter()
            .map(|i| C::decode(i).expect("decodes"))
            .collect();
        for _ in 0..n {
            for v in &values {
                let _ = black_box(C::encode(black_box(v)));
            }
        }
    } else {
        for _ in 0..n {
            for i in &w.inputs {
                let _ = black_box(C::decode(black_box::<&Input>(i)));
            }
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, workload, codec, op, rest @ ..] = &args[..] else {
        eprintln!("usage: profile WORKLOAD CODEC decode|encode [N]");
        std::process::exit(2);
    };
    let n = rest.first().and_then(|s| s.parse().ok()).unwrap_or(10);
    let w = workloads::all()
        .into_iter()
        .find(|w| &w.name == workload)
        .expect("known workload");
    let encode = op == "encode";
    let skin = w.family == workloads::Family::Skin;
    match (codec.as_str(), skin) {
        ("skelcodec", false) => run::<skelcodec::Ifp>(&w, encode, n),
        ("skelcodec", true) => run::<skelcodec::Skin>(&w, encode, n),
        ("binrw", false) => run::<binrw_peer::Ifp>(&w, encode, n),
        ("binrw", true) => run::<binrw_peer::Skin>(&w, encode, n),
        ("deku", false) => run::<deku_peer::Ifp>(&w, encode, n),
        ("deku", true) => run::<deku_peer::Skin>(&w, encode, n),
        ("hand", false) => run::<hand::Ifp>(&w, encode, n),
        ("hand", true) => run::<hand::Skin>(&w, encode, n),
        ("memcpy", _) => run::<Memcpy>(&w, encode, n),
        _ => panic!("unknown codec {codec}"),
    }
}
