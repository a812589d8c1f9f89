//! Prints the Rust code generated for a schema, formatted: what `cargo expand` would show.
//!
//! `cargo run -p skelcodec-codegen --example expand -- schemas/ifp.ksy`

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(path) = std::env::args_os().nth(1).map(PathBuf::from) else {
        eprintln!("usage: expand SCHEMA.ksy");
        return ExitCode::from(2);
    };
    let schema = match skelcodec_codegen::load_schema(&path) {
        Ok(schema) => schema,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(1);
        }
    };
    match skelcodec_codegen::generate_source(&schema) {
        Ok(source) => {
            print!("{source}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("generated code does not parse: {e}");
            ExitCode::from(1)
        }
    }
}
