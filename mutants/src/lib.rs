//! Schema mutation tester for the skelcodec compiler.
//!
//! Real schemas (Kaitai's conformance suite, the project's own, the public gallery where
//! present) are mutated structurally ([`mutate`]): names that collide with Rust and with
//! generated code, types swapped, expressions replaced by literals and by paths through `_io`,
//! `_parent` and `_root`, emptied lists, numbers out of range, switches, repeats, encodings,
//! processes, `valid`, instances. For every mutant the compiler must not panic, must reject
//! with a file, line and column, or must generate code that compiles ([`compile`]).

pub mod compile;
pub mod judge;
pub mod mutate;
pub mod rng;
pub mod sites;

use std::path::{Path, PathBuf};

pub use crate::judge::{Verdict, judge};
use crate::rng::Rng;

/// A schema mutants are made from.
#[derive(Debug, Clone)]
pub struct Source {
    /// Its file: imports are found beside it.
    pub path: PathBuf,
    /// Its document.
    pub document: serde_yaml::Value,
}

/// The `.ksy` files directly in each of `dirs`, parsed; files that are not YAML mappings are
/// left out.
pub fn sources(dirs: &[PathBuf]) -> Vec<Source> {
    let mut paths: Vec<PathBuf> = dirs
        .iter()
        .filter_map(|dir| std::fs::read_dir(dir).ok())
        .flatten()
        .filter_map(|entry| Some(entry.ok()?.path()))
        .filter(|path| path.extension().is_some_and(|x| x == "ksy"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .filter_map(|path| {
            let text = std::fs::read_to_string(&path).ok()?;
            let document: serde_yaml::Value = serde_yaml::from_str(&text).ok()?;
            document.is_mapping().then_some(Source { path, document })
        })
        .collect()
}

/// One mutant: which schema, what was done to it, its text and what the compiler said.
#[derive(Debug)]
pub struct Mutant {
    /// Its module name in the compile check (`m00012`).
    pub name: String,
    /// The schema it was made from.
    pub source: PathBuf,
    /// The mutations, in order.
    pub mutations: Vec<String>,
    /// The mutated schema.
    pub text: String,
    /// The compiler's answer.
    pub verdict: Verdict,
}

/// Makes and judges `count` mutants of `sources` from `seed`: the same arguments give the same
/// mutants.
pub fn run(sources: &[Source], seed: u64, count: usize, import_paths: &[PathBuf]) -> Vec<Mutant> {
    let mut rng = Rng::new(seed);
    (0..count)
        .filter_map(|i| {
            let source = rng.pick(sources)?;
            let mut document = source.document.clone();
            let mut mutations = vec![mutate::mutate(&mut document, &mut rng)];
            if rng.below(3) == 0 {
                mutations.push(mutate::mutate(&mut document, &mut rng));
            }
            let text = serde_yaml::to_string(&document).ok()?;
            let verdict = judge(&text, &source.path, import_paths);
            Some(Mutant {
                name: format!("m{i:05}"),
                source: source.path.clone(),
                mutations,
                text,
                verdict,
            })
        })
        .collect()
}

/// Keeps the report of a mutant that failed: its schema and what went wrong, in `dir`.
pub fn keep_failure(dir: &Path, mutant: &Mutant, why: &str) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let file = dir.join(format!("{}.ksy", mutant.name));
    let header: String = std::iter::once(format!("from {}", mutant.source.display()))
        .chain(mutant.mutations.iter().cloned())
        .chain(why.lines().map(str::to_owned))
        .map(|line| format!("# {line}\n"))
        .collect();
    std::fs::write(&file, format!("{header}{}", mutant.text))?;
    Ok(file)
}
