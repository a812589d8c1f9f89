//! Runs one codec on one workload in a loop, for profilers (`valgrind --tool=callgrind`):
//! `cargo build --profile bench -p benches --example profile` then
//! `valgrind --tool=callgrind target/release/examples/profile WORKLOAD CODEC OP [N]`, where OP
//! is `decode`, `visit` (decode, then the checksum of every value) or `encode`.

use std::hint::black_box;

use benches::peers::{binrw_peer, deku_peer, hand, memcpy::Memcpy, skelcodec};
use benches::workloads::{self, Workload};
use benches::{Codec, Input};

#[inline(never)]
fn run<C: Codec>(w: &Workload, op: &str, n: usize) {
    if op == "visit" {
        for _ in 0..n {
            for i in &w.inputs {
                let value = C::decode(black_box::<&Input>(i)).expect("decodes");
                let _ = black_box(C::checksum(&value));
            }
        }
    } else if op == "encode" {
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
        eprintln!("usage: profile WORKLOAD CODEC decode|visit|encode [N]");
        std::process::exit(2);
    };
    let n = rest.first().and_then(|s| s.parse().ok()).unwrap_or(10);
    let w = workloads::all()
        .into_iter()
        .find(|w| &w.name == workload)
        .expect("known workload");
    let skin = w.family == workloads::Family::Skin;
    match (codec.as_str(), skin) {
        ("skelcodec", false) => run::<skelcodec::Ifp>(&w, op, n),
        ("skelcodec-owned", false) => run::<skelcodec::IfpOwned>(&w, op, n),
        ("skelcodec", true) => run::<skelcodec::Skin>(&w, op, n),
        ("binrw", false) => run::<binrw_peer::Ifp>(&w, op, n),
        ("binrw", true) => run::<binrw_peer::Skin>(&w, op, n),
        ("deku", false) => run::<deku_peer::Ifp>(&w, op, n),
        ("deku", true) => run::<deku_peer::Skin>(&w, op, n),
        ("hand", false) => run::<hand::Ifp>(&w, op, n),
        ("hand", true) => run::<hand::Skin>(&w, op, n),
        ("memcpy", _) => run::<Memcpy>(&w, op, n),
        _ => panic!("unknown codec {codec}"),
    }
}
