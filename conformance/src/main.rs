//! `cargo run --release -p skelcodec-conformance -- [--tsv FILE]`: the conformance table by
//! family, and one TSV row per spec on request.

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let tsv_path = match args.as_slice() {
        [] => None,
        [flag, path] if flag == "--tsv" => Some(path.clone()),
        _ => {
            eprintln!("usage: skelcodec-conformance [--tsv FILE]");
            return ExitCode::from(2);
        }
    };
    let suite = skelcodec_conformance::suite_dir();
    if skelcodec_conformance::SPECS.is_empty() {
        eprintln!(
            "no specs: the suite was not found when this crate was built (set KAITAI_TESTS, or put it at ../shared/kaitai-tests)"
        );
    }
    let outcomes = skelcodec_conformance::run_all(&suite);
    if let Some(path) = tsv_path
        && let Err(e) = std::fs::write(&path, skelcodec_conformance::tsv(&outcomes))
    {
        eprintln!("cannot write {path}: {e}");
        return ExitCode::from(1);
    }
    println!("{}", skelcodec_conformance::report(&outcomes));
    ExitCode::SUCCESS
}
