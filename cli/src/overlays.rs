//! Overlays on the command line: the files `--overlay` names, and the overlay skelcodec ships
//! for a gallery schema it recognises by `meta/id` (`overlays/` in the repository, built into
//! the binary), applied unless `--no-overlay`. See `docs/overlays.md`.

use std::path::{Path, PathBuf};

use clap::Args;
use skelcodec_codegen::{Overlay, SchemaError};

use crate::error::CliError;

/// The overlay options of every command that reads a schema.
#[derive(Debug, Args, Clone, Default)]
pub struct OverlayArgs {
    /// An overlay adding skelcodec's keys (`-derived: crc32(…)`, `-layout`, …) to the schema or
    /// a schema it imports, by `meta/id` (docs/overlays.md); may be repeated, later ones win
    #[arg(id = "overlay", long = "overlay", value_name = "FILE.yaml")]
    pub files: Vec<PathBuf>,
    /// Read the schema without the overlay skelcodec ships for it (the gallery's png.ksy,
    /// gzip.ksy and zip.ksy: their CRCs and sizes; `skelcodec formats` does not list them;
    /// docs/overlays.md does)
    #[arg(long)]
    pub no_overlay: bool,
}

/// An overlay skelcodec ships: the `meta/id` of the gallery schema it is for, its file in the
/// repository, and its text.
struct Shipped {
    id: &'static str,
    file: &'static str,
    text: &'static str,
}

const SHIPPED: &[Shipped] = &[
    Shipped {
        id: "png",
        file: "overlays/png.yaml",
        text: include_str!("../../overlays/png.yaml"),
    },
    Shipped {
        id: "gzip",
        file: "overlays/gzip.yaml",
        text: include_str!("../../overlays/gzip.yaml"),
    },
    Shipped {
        id: "zip",
        file: "overlays/zip.yaml",
        text: include_str!("../../overlays/zip.yaml"),
    },
];

/// The name errors give a shipped overlay: where it is in skelcodec's repository.
fn shipped_name(file: &str) -> PathBuf {
    PathBuf::from(format!("(shipped with skelcodec) {file}"))
}

/// The overlay skelcodec ships for schemas of `meta/id` `id`.
pub fn shipped(id: &str) -> Option<Overlay> {
    SHIPPED
        .iter()
        .find(|s| s.id == id)
        .map(|s| Overlay::new(shipped_name(s.file), s.text))
}

/// The `meta/id` of the schema at `path`, when it reads as YAML that says one (a schema that
/// does not is reported by the load).
fn schema_id(path: &Path) -> Option<String> {
    let text = std::fs::read_to_string(path).ok()?;
    let document: serde_yaml::Value = serde_yaml::from_str(&text).ok()?;
    document.get("meta")?.get("id")?.as_str().map(str::to_owned)
}

/// Loads the schema at `schema` with `load`, given the overlays chosen: the shipped one for
/// its `meta/id` (unless `--no-overlay`), then those named. A shipped overlay that does not
/// fit the schema (a copy of the gallery's changed, or another format of the same id) is
/// left out with a warning, since the user did not ask for it.
pub fn load_with<T, E>(
    schema: &Path,
    args: &OverlayArgs,
    load: impl Fn(&[Overlay]) -> Result<T, E>,
    schema_error: impl Fn(&E) -> Option<&SchemaError>,
) -> Result<Result<T, E>, CliError> {
    let mut overlays = Vec::new();
    for file in &args.files {
        overlays.push(Overlay::read(file).map_err(|e| CliError::Usage(e.to_string()))?);
    }
    let shipped = match args.no_overlay {
        true => None,
        false => schema_id(schema).and_then(|id| shipped(&id)),
    };
    let Some(shipped) = shipped else {
        return Ok(load(&overlays));
    };
    let with_shipped: Vec<Overlay> = std::iter::once(shipped.clone())
        .chain(overlays.iter().cloned())
        .collect();
    let loaded = load(&with_shipped);
    let blamed = loaded.as_ref().err().and_then(&schema_error).and_then(|e| {
        e.all()
            .find(|error| error.file == shipped.path)
            .map(ToString::to_string)
    });
    match blamed {
        Some(error) => {
            eprintln!(
                "warning: the overlay skelcodec ships for this schema's `meta/id` does not fit {}, read without it: {error}",
                schema.display()
            );
            Ok(load(&overlays))
        }
        None => Ok(loaded),
    }
}
