//! Loads a schema and every schema it imports (`meta/imports`), transitively, each file once
//! (so circular imports are fine). Relative imports are relative to the importing file;
//! absolute ones (`/common/vlq`) are looked up in the import paths, like ksc's `-I`. With
//! `ks-opaque-types`, a type named but declared nowhere is imported the same way, from the
//! schema file of that name.

use std::path::{Path, PathBuf};

use crate::error::{SchemaError, YamlPath};
use crate::ksy::KsyFile;
use crate::locate::LocationIndex;
use crate::overlay::{self, Placed};

/// A loaded schema file.
pub struct Source {
    /// The file, as given or as found.
    pub path: PathBuf,
    /// Its text, to locate errors in it.
    pub text: String,
    /// Its document, with what overlays added to it.
    pub document: KsyFile,
    /// The keys overlays set in it: errors within them are the overlays'.
    pub placed: Vec<Placed>,
}

/// `text` (the schema at `path`) and what it imports, the schema first, each with the
/// overlays for its `meta/id` merged into it. An overlay that names what its schema does not
/// have, or that no schema loaded is for, is an error; every such error is reported.
pub fn load(
    text: &str,
    path: &Path,
    import_paths: &[PathBuf],
    overlays: &[overlay::Parsed],
) -> Result<Vec<Source>, SchemaError> {
    let mut overlay_errors = Vec::new();
    let mut read = |text: String, path: PathBuf| {
        let (source, errors) = parse(text, path, overlays)?;
        overlay_errors.extend(errors);
        Ok::<_, SchemaError>(source)
    };
    let mut sources = vec![read(text.to_owned(), path.to_path_buf())?];
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
            sources.push(read(text, file)?);
        }
        next += 1;
    }
    overlay_errors.extend(unused_overlays(overlays, &sources));
    match SchemaError::gathered(overlay_errors) {
        Some(error) => Err(error),
        None => Ok(sources),
    }
}

/// An error for each overlay that no loaded schema is for.
fn unused_overlays(overlays: &[overlay::Parsed], sources: &[Source]) -> Vec<SchemaError> {
    let ids: Vec<&str> = sources
        .iter()
        .map(|s| s.document.meta.id.as_str())
        .collect();
    overlays
        .iter()
        .filter(|o| !ids.contains(&o.id.as_str()))
        .map(|o| {
            let at = YamlPath::root().key("meta").key("id");
            SchemaError {
                file: o.source.path.clone(),
                line_col: LocationIndex::build(&o.source.text).find(&at),
                path: at,
                message: format!(
                    "this overlay is for the schema `{}`, and no schema loaded has that `meta/id` (loaded: {})",
                    o.id,
                    ids.join(", ")
                ),
                others: Box::default(),
            }
        })
        .collect()
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

/// Reads a schema file and merges into it the overlays for its `meta/id`: the source, and the
/// overlays' errors (the schema's own errors end the load).
fn parse(
    text: String,
    path: PathBuf,
    overlays: &[overlay::Parsed],
) -> Result<(Source, Vec<SchemaError>), SchemaError> {
    let syntax_error = |e: serde_yaml::Error| SchemaError {
        file: path.clone(),
        line_col: e.location().map(|l| (l.line(), l.column())),
        path: YamlPath::root(),
        message: e.to_string(),
        others: Box::default(),
    };
    let mut value: serde_yaml::Value = serde_yaml::from_str(&text).map_err(syntax_error)?;
    let id = value
        .get("meta")
        .and_then(|m| m.get("id"))
        .and_then(|i| i.as_str());
    let mine: Vec<&overlay::Parsed> = overlays
        .iter()
        .filter(|o| Some(o.id.as_str()) == id)
        .collect();
    if mine.is_empty() {
        // Read from the text, whose errors serde_yaml locates.
        let document = serde_yaml::from_str(&text).map_err(syntax_error)?;
        let placed = Vec::new();
        return Ok((
            Source {
                path,
                text,
                document,
                placed,
            },
            Vec::new(),
        ));
    }
    let (mut placed, mut errors) = (Vec::new(), Vec::new());
    for overlay in &mine {
        match overlay::apply(overlay, &mut value) {
            Ok(keys) => placed.extend(keys),
            Err(e) => errors.extend(e),
        }
    }
    let document = match serde_yaml::from_value(value) {
        Ok(document) => document,
        // The schema's own mistake, located in its text; or else a value an overlay set that
        // is not of the key's shape.
        Err(e) => {
            serde_yaml::from_str::<KsyFile>(&text).map_err(syntax_error)?;
            let mut error = mine[0].error_at_root(e.to_string());
            error.message = format!(
                "a key this overlay sets does not have its shape: {}",
                error.message
            );
            return Err(error);
        }
    };
    Ok((
        Source {
            path,
            text,
            document,
            placed,
        },
        errors,
    ))
}

/// An error at `at` in `source`: in the overlay that set the key it lies in, if one did.
pub fn error_in(source: &Source, at: &YamlPath, message: String) -> SchemaError {
    let in_own_file = at.in_own_file();
    if let Some(e) = source
        .placed
        .iter()
        .rev()
        .find_map(|p| p.relocate(&in_own_file, &message))
    {
        return e;
    }
    SchemaError {
        file: source.path.clone(),
        line_col: LocationIndex::build(&source.text).find(at),
        path: at.in_own_file(),
        message,
        others: Box::default(),
    }
}
