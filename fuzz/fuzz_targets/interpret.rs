#![no_main]
//! The interpreter on mutated schemas and arbitrary files: the first 8 bytes seed the mutator,
//! the next two pick one of the project's schemas and how many mutations to stack (none to
//! three), the rest is the file. A mutant the checker accepts and the interpreter takes is
//! read from the file; nothing may panic, whatever the schema or the bytes.

use std::path::PathBuf;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use skelcodec_dynamic::Interpreter;
use skelcodec_mutants::rng::Rng;
use skelcodec_mutants::{Source, mutate, sources};

static SCHEMAS: OnceLock<Vec<Source>> = OnceLock::new();

fuzz_target!(|data: &[u8]| {
    let schemas = SCHEMAS.get_or_init(|| {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
        sources(&[
            root.join("schemas"),
            root.join("generated-tests/tests/schemas"),
        ])
    });
    let (Some(seed), Some(&[pick, stack]), Some(file)) =
        (data.get(..8), data.get(8..10), data.get(10..))
    else {
        return;
    };
    let Some(source) = schemas.get(usize::from(pick) % schemas.len().max(1)) else {
        return;
    };
    let mut rng = Rng::new(u64::from_le_bytes(seed.try_into().unwrap_or_default()));
    let mut document = source.document.clone();
    for _ in 0..stack % 4 {
        mutate::mutate(&mut document, &mut rng);
    }
    let Ok(text) = serde_yaml::to_string(&document) else {
        return;
    };
    let Ok(schema) = skelcodec_codegen::parse_schema(&text, &source.path) else {
        return;
    };
    if let Ok(interpreter) = Interpreter::new(schema)
        && let Ok(value) = interpreter.read(file)
    {
        // Its document serializes (a value with no JSON form is an error, not a panic).
        let _ = serde_json::to_value(interpreter.document(&value));
    }
});
