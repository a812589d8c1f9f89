//! What the interpreter's tests share.

use std::path::Path;

use skelcodec_dynamic::Interpreter;

/// The interpreter of a schema written in a test.
pub fn interpreter(source: &str) -> Interpreter {
    let schema = skelcodec_codegen::parse_schema(source, Path::new("test.ksy"))
        .unwrap_or_else(|e| panic!("the schema checks: {e}"));
    Interpreter::new(schema).unwrap_or_else(|e| panic!("the interpreter reads it: {e}"))
}

/// Kaitai's public gallery (`../shared/kaitai-formats`, or `$KAITAI_FORMATS`).
pub fn gallery() -> std::path::PathBuf {
    std::env::var_os("KAITAI_FORMATS").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/kaitai-formats"),
        std::path::PathBuf::from,
    )
}
