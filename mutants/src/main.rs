//! `skelcodec-mutants [--seed S] [--count N] [--check] [--gallery] [--out DIR]`: makes N mutants
//! of Kaitai's suite and the project's schemas (and of the public gallery with `--gallery`),
//! judges each, with `--check` compiles every accepted one, prints the figures and exits 1
//! when any mutant made the compiler panic, was rejected without a location, or was accepted
//! with code that does not compile. Failing mutants are kept in `DIR/failures`.

use std::path::PathBuf;
use std::process::ExitCode;

use skelcodec_mutants::compile::CompileCheck;
use skelcodec_mutants::{Mutant, Verdict, keep_failure, run, sources};

fn main() -> ExitCode {
    let workspace = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut seed = 1u64;
    let mut count = 3000usize;
    let mut check = false;
    let mut gallery = false;
    let mut out = workspace.join("target/mutants");
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--seed" => seed = args.next().and_then(|s| s.parse().ok()).unwrap_or(seed),
            "--count" => count = args.next().and_then(|s| s.parse().ok()).unwrap_or(count),
            "--check" => check = true,
            "--gallery" => gallery = true,
            "--out" => out = args.next().map(PathBuf::from).unwrap_or(out),
            other => {
                eprintln!("unknown argument {other:?}; see the doc comment of mutants/src/main.rs");
                return ExitCode::from(2);
            }
        }
    }
    let shared = workspace.join("../shared");
    let suite = std::env::var_os("KAITAI_TESTS")
        .map(PathBuf::from)
        .unwrap_or_else(|| shared.join("kaitai-tests"));
    let gallery_dir = shared.join("kaitai-formats");
    let mut dirs = vec![
        suite.join("formats"),
        workspace.join("schemas"),
        workspace.join("generated-tests/tests/schemas"),
        workspace.join("examples/wav"),
    ];
    if gallery {
        dirs.extend(
            std::fs::read_dir(&gallery_dir)
                .into_iter()
                .flatten()
                .filter_map(|e| Some(e.ok()?.path()))
                .filter(|p| p.is_dir()),
        );
    }
    let schemas = sources(&dirs);
    let import_paths = [suite.join("formats/ks_path"), gallery_dir];
    // Panics are counted as failures and reported with their message; the hook would print
    // each one on its own.
    std::panic::set_hook(Box::new(|_| {}));
    let mutants = run(&schemas, seed, count, &import_paths);
    let _ = std::panic::take_hook();

    // (mutant, why) for every failure; a compile error outside every mutant has no mutant.
    let mut failures: Vec<(Option<&Mutant>, String)> = mutants
        .iter()
        .filter_map(|m| match &m.verdict {
            Verdict::Failed(why) => Some((Some(m), why.clone())),
            _ => None,
        })
        .collect();
    let accepted: Vec<(String, String)> = mutants
        .iter()
        .filter_map(|m| match &m.verdict {
            Verdict::Accepted(code) => Some((m.name.clone(), code.clone())),
            _ => None,
        })
        .collect();
    let rejected = mutants
        .iter()
        .filter(|m| matches!(m.verdict, Verdict::Rejected(_)))
        .count();
    let mut uncompilable = 0;
    if check {
        let scratch = CompileCheck {
            dir: out.join("crate"),
            workspace: workspace.clone(),
        };
        match scratch.run(&accepted) {
            Err(e) => failures.push((None, format!("the compile check could not run: {e}"))),
            Ok(errors) => {
                uncompilable = errors.len();
                for (module, error) in errors {
                    let mutant = mutants.iter().find(|m| m.name == module);
                    failures.push((mutant, format!("{module}: {error}")));
                }
            }
        }
    }
    let kept_in = out.join("failures");
    let _ = std::fs::remove_dir_all(&kept_in);
    for (mutant, why) in &failures {
        let kept = match mutant {
            Some(m) => keep_failure(&kept_in, m, why)
                .map(|p| p.display().to_string())
                .unwrap_or_else(|e| format!("not kept: {e}")),
            None => "no mutant".to_owned(),
        };
        println!("FAIL ({kept}): {}", first_line(why));
    }
    let failed = failures.len();
    println!(
        "schema mutants (seed {seed}, {} schemas): {} made, {rejected} rejected with a location, {} accepted{}; {failed} failures ({uncompilable} uncompilable)",
        schemas.len(),
        mutants.len(),
        accepted.len(),
        if check {
            " and compiled"
        } else {
            " (not compiled)"
        },
    );
    match failed {
        0 => ExitCode::SUCCESS,
        _ => ExitCode::FAILURE,
    }
}

fn first_line(text: &str) -> &str {
    text.lines().find(|l| !l.trim().is_empty()).unwrap_or("")
}
