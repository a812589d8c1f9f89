//! The compile check: every accepted mutant's code becomes one module of a scratch crate that
//! depends on the runtime alone, and `cargo check` must accept it. rustc may hide some errors
//! behind others, so modules that fail are taken out and the rest checked again.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// How many times the crate is checked at most: each round takes out the modules that failed.
const ROUNDS: usize = 4;

/// Where the scratch crate goes and what it depends on.
#[derive(Debug, Clone)]
pub struct CompileCheck {
    /// The scratch crate's directory (replaced).
    pub dir: PathBuf,
    /// The workspace root: its `runtime/` is the dependency, its `Cargo.lock` pins versions.
    pub workspace: PathBuf,
}

impl CompileCheck {
    /// Checks the modules (name, source); returns the first error rustc gives for each module
    /// that does not compile, or one entry named `(crate)` when cargo itself failed.
    pub fn run(&self, modules: &[(String, String)]) -> std::io::Result<BTreeMap<String, String>> {
        let src = self.dir.join("src");
        if src.exists() {
            std::fs::remove_dir_all(&src)?;
        }
        std::fs::create_dir_all(&src)?;
        let runtime = self.workspace.join("runtime");
        std::fs::write(
            self.dir.join("Cargo.toml"),
            format!(
                "[package]\nname = \"skelcodec-mutants-check\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n[dependencies]\nskelcodec-runtime = {{ path = {:?} }}\n\n[workspace]\n",
                runtime.display().to_string()
            ),
        )?;
        std::fs::copy(
            self.workspace.join("Cargo.lock"),
            self.dir.join("Cargo.lock"),
        )?;
        for (name, source) in modules {
            std::fs::write(src.join(format!("{name}.rs")), source)?;
        }
        let mut failed = BTreeMap::new();
        for _ in 0..ROUNDS {
            let mut lib = String::from("#![allow(warnings, clippy::all)]\n");
            for (name, _) in modules.iter().filter(|(n, _)| !failed.contains_key(n)) {
                let _ = writeln!(lib, "pub mod {name};");
            }
            std::fs::write(src.join("lib.rs"), lib)?;
            let errors = self.cargo_check()?;
            if errors.is_empty() {
                break;
            }
            failed.extend(errors);
            if failed.contains_key(CRATE) {
                break;
            }
        }
        Ok(failed)
    }

    /// One `cargo check`: the first error of each module that has one.
    fn cargo_check(&self) -> std::io::Result<BTreeMap<String, String>> {
        let output = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
            .args(["check", "--quiet", "--message-format=json"])
            .current_dir(&self.dir)
            .env("CARGO_TARGET_DIR", self.dir.join("target"))
            .output()?;
        let mut errors = BTreeMap::new();
        for line in String::from_utf8_lossy(&output.stdout).lines() {
            let Ok(message) = serde_json::from_str::<serde_json::Value>(line) else {
                continue;
            };
            let diagnostic = &message["message"];
            if message["reason"] != "compiler-message" || diagnostic["level"] != "error" {
                continue;
            }
            let module = diagnostic["spans"]
                .as_array()
                .into_iter()
                .flatten()
                .find_map(|span| module_of(Path::new(span["file_name"].as_str()?)))
                .unwrap_or_else(|| CRATE.to_owned());
            let text = diagnostic["rendered"]
                .as_str()
                .unwrap_or_default()
                .to_owned();
            errors.entry(module).or_insert(text);
        }
        if errors.is_empty() && !output.status.success() {
            let why = String::from_utf8_lossy(&output.stderr).into_owned();
            errors.insert(CRATE.to_owned(), why);
        }
        Ok(errors)
    }
}

/// The name of errors that belong to no mutant's module.
pub const CRATE: &str = "(crate)";

/// `m00012` for `src/m00012.rs`.
fn module_of(file: &Path) -> Option<String> {
    let stem = file.file_stem()?.to_str()?;
    (file.starts_with("src") && stem != "lib").then(|| stem.to_owned())
}
