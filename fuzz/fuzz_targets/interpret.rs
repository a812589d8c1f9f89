#![no_main]
//! The interpreter on mutated schemas and arbitrary files: the first 8 bytes seed the mutator,
//! the next two pick one of the project's schemas and how many mutations to stack (none to
//! three), the rest is the file. A mutant the checker accepts and the interpreter takes is
//! read from the file; nothing may panic, whatever the schema or the bytes, and an error
//! points inside the file.

use libfuzzer_sys::fuzz_target;
use skelcodec_dynamic::Interpreter;
use skelcodec_fuzz::{check_error, mutants::mutant};

fuzz_target!(|data: &[u8]| {
    let Some((text, source, file)) = mutant(data, |stack| stack % 4) else {
        return;
    };
    let Ok(schema) = skelcodec_codegen::parse_schema(&text, &source.path) else {
        return;
    };
    let Ok(interpreter) = Interpreter::new(schema) else {
        return;
    };
    match interpreter.read(file) {
        // Its document serializes (a value with no JSON form is an error, not a panic).
        Ok(value) => {
            let _ = serde_json::to_value(interpreter.document(&value));
        }
        Err(e) => check_error(file, &e),
    }
});
