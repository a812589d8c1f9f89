#![no_main]
//! Schema mutants, coverage-guided: the first 8 bytes seed the mutator, the next picks one of
//! the project's schemas and how many mutations to stack. The compiler must reject the mutant
//! with a line and column or generate code that parses; it must never panic. (Whether the code
//! compiles is the deterministic runner's job: `cargo run -p skelcodec-mutants -- --check`.)

use libfuzzer_sys::fuzz_target;
use skelcodec_fuzz::mutants::mutant;
use skelcodec_mutants::{Verdict, judge};

fuzz_target!(|data: &[u8]| {
    let Some((text, source, _)) = mutant(data, |stack| 1 + stack % 3) else {
        return;
    };
    if let Verdict::Failed(why) = judge(&text, &source.path, &[]) {
        panic!("{why}\n{text}");
    }
});
