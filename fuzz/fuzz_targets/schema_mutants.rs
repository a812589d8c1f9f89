#![no_main]
//! Schema mutants, coverage-guided: the first 8 bytes seed the mutator, the next picks one of
//! the project's schemas and how many mutations to stack. The compiler must reject the mutant
//! with a line and column or generate code that parses; it must never panic. (Whether the code
//! compiles is the deterministic runner's job: `cargo run -p skelcodec-mutants -- --check`.)

use std::path::PathBuf;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use skelcodec_mutants::rng::Rng;
use skelcodec_mutants::{Source, Verdict, judge, mutate, sources};

static SCHEMAS: OnceLock<Vec<Source>> = OnceLock::new();

fuzz_target!(|data: &[u8]| {
    let schemas = SCHEMAS.get_or_init(|| {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
        sources(&[
            root.join("schemas"),
            root.join("generated-tests/tests/schemas"),
        ])
    });
    let (Some(seed), Some(&[pick, stack])) = (data.get(..8), data.get(8..10)) else {
        return;
    };
    let Some(source) = schemas.get(usize::from(pick) % schemas.len().max(1)) else {
        return;
    };
    let mut rng = Rng::new(u64::from_le_bytes(seed.try_into().unwrap_or_default()));
    let mut document = source.document.clone();
    for _ in 0..=stack % 3 {
        mutate::mutate(&mut document, &mut rng);
    }
    let Ok(text) = serde_yaml::to_string(&document) else {
        return;
    };
    if let Verdict::Failed(why) = judge(&text, &source.path, &[]) {
        panic!("{why}\n{text}");
    }
});
