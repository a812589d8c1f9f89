//! Loads a schema and every schema it imports (`meta/imports`), transitively, each file once
//! (so circular imports are fine). Relative imports are relative to the importing file;
//! absolute ones (`/common/vlq`) are looked up in the import paths, like ksc's `-I`. With
//! `ks-opaque-types`, a type named but declared nowhere is imported the same way, from the
//! schema file of that name.

use std::path::{Path, PathBuf};

use crate::error::{SchemaError, YamlPath};
use crate::ksy::KsyFile;
use crate::locate::LocationIndex;

/// A loaded schema file.
pub struct Source {
    /// The file, as given or as found.
    pub path: PathBuf,
    /// Its text, to locate errors in it.
    pub text: String,
    /// Its document.
    pub document: KsyFile,
}

/// `text` (the schema at `path`) and what it imports, the schema first.
pub fn load(text: &str, path: &Path, import_paths: &[PathBuf]) -> Result<Vec<Source>, SchemaError> {
    let mut sources = vec![parse(text.to_owned(), path.to_path_buf())?];
    let mut seen = vec![canonical(path)];
    let mut next = 0;
    while let Some(source) = sources.get(next) {
        let mut found = Vec::new();
        let imports = source
            .document
            .meta
            .imports
            .iter()
            .enumerate()
            .map(|(i, name)| {
                let at = YamlPath::root().key("meta").key("imports").index(i);
                resolve(name, &source.path, import_paths)
                    .ok_or_else(|| error_in(source, &at, not_found(name, import_paths)))
                    .map(|file| (at, file))
            });
        let opaque = source
            .document
            .opaque_types()
            .into_iter()
            .filter_map(|name| {
                let at = YamlPath::root().key("meta").key("ks-opaque-types");
                opaque_schema(&name, &source.path, import_paths).map(|file| Ok((at, file)))
            });
        for import in imports.collect::<Vec<_>>().into_iter().chain(opaque) {
            let (at, file) = import?;
            if !seen.contains(&canonical(&file)) {
                seen.push(canonical(&file));
                let text = std::fs::read_to_string(&file).map_err(|e| {
                    error_in(
                        source,
                        &at,
                        format!("cannot read `{}`: {e}", file.display()),
                    )
                })?;
                found.push((text, file));
            }
        }
        for (text, file) in found {
            sources.push(parse(text, file)?);
        }
        next += 1;
    }
    Ok(sources)
}

/// The file an import names, if it exists.
fn resolve(name: &str, importer: &Path, import_paths: &[PathBuf]) -> Option<PathBuf> {
    let file_name = format!("{name}.ksy");
    match file_name.strip_prefix('/') {
        Some(absolute) => import_paths
            .iter()
            .map(|dir| dir.join(absolute))
            .find(|candidate| candidate.is_file()),
        None => {
            let candidate = importer.parent().unwrap_or(Path::new("")).join(&file_name);
            candidate.is_file().then_some(candidate)
        }
    }
}

/// The schema of opaque type `name` (`ks-opaque-types`): `name.ksy` beside the importer, or
/// at the top of an import path, as Kaitai's own runs find the classes of opaque types among
/// the schemas compiled with it.
fn opaque_schema(name: &str, importer: &Path, import_paths: &[PathBuf]) -> Option<PathBuf> {
    resolve(name, importer, import_paths)
        .or_else(|| resolve(&format!("/{name}"), importer, import_paths))
}

fn not_found(name: &str, import_paths: &[PathBuf]) -> String {
    if name.starts_with('/') {
        let dirs: Vec<String> = import_paths
            .iter()
            .map(|d| d.display().to_string())
            .collect();
        format!(
            "cannot find the import `{name}` in the import paths ({}); add one (`-I DIR` on the command line, `import_paths = [\"DIR\"]` in `codec!`)",
            if dirs.is_empty() {
                "none given".to_owned()
            } else {
                dirs.join(", ")
            }
        )
    } else {
        format!("cannot find the import `{name}` next to this schema")
    }
}

fn canonical(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

fn parse(text: String, path: PathBuf) -> Result<Source, SchemaError> {
    match serde_yaml::from_str(&text) {
        Ok(document) => Ok(Source {
            path,
            text,
            document,
        }),
        Err(e) => Err(SchemaError {
            file: path,
            line_col: e.location().map(|l| (l.line(), l.column())),
            path: YamlPath::root(),
            message: e.to_string(),
            others: Box::default(),
        }),
    }
}

/// An error at `at` in `source`.
pub fn error_in(source: &Source, at: &YamlPath, message: String) -> SchemaError {
    SchemaError {
        file: source.path.clone(),
        line_col: LocationIndex::build(&source.text).find(at),
        path: at.in_own_file(),
        message,
        others: Box::default(),
    }
}
