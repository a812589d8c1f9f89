//! Compiles the gallery schemas whose real files a machine has (or a script makes) into this
//! crate: each becomes a module with its codec and an `edit` entry point. The gallery is found
//! at `$KAITAI_FORMATS`, or `../shared/kaitai-formats` beside the workspace; without it the
//! crate has no formats, and its tests say so.

#[path = "build/codecs.rs"]
mod codecs;

use std::path::PathBuf;

/// Schema (relative to the gallery) and the file extensions its files have.
const FORMATS: &[(&str, &[&str])] = &[
    ("image/png.ksy", &["png"]),
    ("image/gif.ksy", &["gif"]),
    ("image/jpeg.ksy", &["jpg", "jpeg"]),
    ("image/ico.ksy", &["ico"]),
    ("media/wav.ksy", &["wav"]),
    ("archive/zip.ksy", &["zip", "whl", "jar"]),
    ("archive/gzip.ksy", &["gz"]),
    ("font/ttf.ksy", &["ttf"]),
    ("database/sqlite3.ksy", &["sqlite", "sqlite3", "db"]),
    ("serialization/python_pickle.ksy", &["pickle", "pkl"]),
];

fn main() {
    println!("cargo:rerun-if-changed=build/codecs.rs");
    // Without the default feature `codecs` the crate is only its library of helpers (the
    // differential crate uses it so, with formats of its own).
    let enabled = std::env::var_os("CARGO_FEATURE_CODECS").is_some();
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default());
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap_or_default());
    let schemas: Vec<(String, Vec<String>)> = FORMATS
        .iter()
        .filter(|_| enabled)
        .map(|(schema, extensions)| {
            let extensions = extensions.iter().map(|e| e.to_string()).collect();
            (schema.to_string(), extensions)
        })
        .collect();
    codecs::write_formats(&codecs::gallery_dir(&manifest), &schemas, &out);
}
