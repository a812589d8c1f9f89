//! `cargo run --release -p skelcodec-conformance -- [--tsv FILE]`: the conformance table by
//! family, and one TSV row per spec on request. With `--interpreter`, the interpreter's read of
//! each spec against the generated code's instead (`--list`: the ids of those it reads alike,
//! which `interpreted.txt` keeps).

use std::process::ExitCode;

use skelcodec_conformance::interpreter::Agreement;

fn usage() -> ExitCode {
    eprintln!("usage: skelcodec-conformance [--tsv FILE | --interpreter [--list]]");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let suite = skelcodec_conformance::suite_dir();
    let tsv_path = match args.as_slice() {
        [] => None,
        [flag, path] if flag == "--tsv" => Some(path.clone()),
        [flag, rest @ ..] if flag == "--interpreter" && rest.len() <= 1 => {
            let all = skelcodec_conformance::interpreter::compare_all(&suite);
            match rest {
                // The specs the interpreter reads alike, for `interpreted.txt`.
                [list] if list == "--list" => {
                    let same = all.iter().filter(|(_, a)| *a == Agreement::Same);
                    same.for_each(|(spec, _)| println!("{}", spec.id));
                }
                [] => println!("{}", skelcodec_conformance::interpreter::report(&all)),
                _ => return usage(),
            }
            return ExitCode::SUCCESS;
        }
        _ => return usage(),
    };
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
