//! Inputs for comparing skelcodec's QFS (RefPack) codec with the `refpack` crate: synthetic
//! animations and skins, noise, repeats at each copy distance the opcodes encode, and the
//! corpus's files when present. The Sims 2 compresses resources of a few kilobytes to a few
//! megabytes, so the samples span that range.

use std::path::Path;

use crate::Input;
use crate::synth::{self, Rng};
use crate::workloads::{files, read};

/// Every sample, synthetic ones first, then the corpus's ANIM resources, packages, models and
/// animation packages (when `corpus` is given).
pub fn samples(corpus: Option<&Path>) -> Vec<Input> {
    let mut out = synthetic();
    if let Some(dir) = corpus {
        for (folder, ext) in [
            ("sims2", "5an"),
            ("sims2", "package"),
            ("rw", "dff"),
            ("ifp", "ifp"),
        ] {
            out.extend(files(&dir.join(folder), ext).iter().map(|p| read(p, dir)));
        }
    }
    out
}

fn synthetic() -> Vec<Input> {
    let noise = |len: usize, seed: u64| -> Vec<u8> {
        let mut rng = Rng(seed);
        (0..len).map(|_| rng.next() as u8).collect()
    };
    // A block of noise repeated at a distance: every copy has exactly that offset.
    let repeated_at = |distance: usize| -> Vec<u8> {
        let block = noise(distance, distance as u64);
        block
            .iter()
            .chain(&block)
            .chain(&block[..distance / 2])
            .copied()
            .collect()
    };
    let text: Vec<u8> = (0..20_000u32)
        .flat_map(|i| format!("bone_{:03} frame {} ", i % 61, i % 7).into_bytes())
        .collect();
    vec![
        Input::file("one-byte", vec![42]),
        Input::file("three-bytes", b"abc".to_vec()),
        Input::file("zeros-64k", vec![0; 65_536]),
        Input::file("noise-100k", noise(100_000, 1)),
        Input::file("text-300k", text),
        Input::file("repeat-at-1000", repeated_at(1_000)),
        Input::file("repeat-at-16000", repeated_at(16_000)),
        Input::file("repeat-at-131072", repeated_at(131_072)),
        Input::file("repeat-at-140000", repeated_at(140_000)),
        Input::file("anp3-syn", synth::anp3(20, 30, 60, &[1, 2, 3, 4], 11)),
        Input::file("skin-syn", synth::skin(20_000, 64, false, 12)),
    ]
}
