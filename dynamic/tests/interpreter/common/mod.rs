//! What the interpreter's tests share.

use std::path::Path;

use skelcodec_dynamic::Interpreter;

/// The interpreter of a schema written in a test.
pub fn interpreter(source: &str) -> Interpreter {
    let schema = skelcodec_codegen::parse_schema(source, Path::new("test.ksy"))
        .unwrap_or_else(|e| panic!("the schema checks: {e}"));
    Interpreter::new(schema).unwrap_or_else(|e| panic!("the interpreter reads it: {e}"))
}
