#![no_main]
//! The interpreter on mutated schemas and arbitrary files: the first 8 bytes seed the mutator,
//! the next two pick one of the project's schemas and how many mutations to stack (none to
//! three), the rest is the file. A mutant the checker accepts and the interpreter takes is
//! read from the file, mapped, written back and encoded from its document; nothing may panic,
//! whatever the schema or the bytes, an error points inside the file, and what is written
//! back is the file.

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
    let _ = interpreter.explain(file);
    match interpreter.read(file) {
        Ok(value) => {
            // Faithful: a value read is written back as the bytes it was read from (or
            // refused, never written otherwise).
            if let Ok(written) = interpreter.write(&value) {
                assert!(written == file, "written back otherwise");
            }
            // Its document serializes (a value with no JSON form is an error, not a panic),
            // and encodes.
            if let Ok(document) = serde_json::to_value(interpreter.document(&value))
                && let Ok(from_document) = interpreter.value_of(&document)
            {
                let _ = interpreter.write(&from_document);
            }
        }
        Err(e) => check_error(file, &e),
    }
});
