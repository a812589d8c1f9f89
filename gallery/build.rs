//! Compiles the gallery schemas whose real files a machine has (or a script makes) into this
//! crate: each becomes a module with its codec and an `edit` entry point. The gallery is found
//! at `$KAITAI_FORMATS`, or `../shared/kaitai-formats` beside the workspace; without it the
//! crate has no formats, and its tests say so.

use std::fmt::Write as _;
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
    println!("cargo:rerun-if-env-changed=KAITAI_FORMATS");
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default());
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap_or_default());
    let gallery = std::env::var_os("KAITAI_FORMATS")
        .map(PathBuf::from)
        .unwrap_or_else(|| manifest.join("../../shared/kaitai-formats"));
    let mut modules = String::new();
    let mut registry = String::new();
    for (schema, extensions) in FORMATS {
        let path = gallery.join(schema);
        println!("cargo:rerun-if-changed={}", path.display());
        let id = path.file_stem().unwrap_or_default().to_string_lossy();
        let status = match skelcodec_codegen::load_schema_with(
            &path,
            std::slice::from_ref(&gallery),
        ) {
            Err(e) => format!("Err({:?})", e.to_string()),
            Ok(schema) => {
                for imported in &schema.imported {
                    println!("cargo:rerun-if-changed={}", imported.display());
                }
                let root = skelcodec_codegen::sanitization::type_ident(&schema.types[0].id);
                let file = out.join(format!("{id}.rs"));
                let code = skelcodec_codegen::generate(&schema).to_string();
                std::fs::write(&file, code).expect("OUT_DIR is writable");
                let _ = writeln!(
                    modules,
                    "#[allow(warnings, clippy::all, missing_docs)] pub mod {id} {{ include!({:?}); pub fn edit(bytes: &[u8], edits: usize) -> crate::EditReport {{ crate::edit_property::<{root}>(bytes, edits) }} pub const CODEC: crate::Codec = crate::Codec {{ edit, document: crate::document::<{root}>, encode: crate::encode::<{root}> }}; }}",
                    file.display().to_string()
                );
                format!("Ok({id}::CODEC)")
            }
        };
        let _ = writeln!(
            registry,
            "Format {{ id: {id:?}, extensions: &{extensions:?}, codec: {status} }},"
        );
    }
    let source = format!(
        "{modules}\n/// The formats, with their codec's edit entry point or why the schema was not compiled.\npub static FORMATS: &[Format] = &[\n{registry}];\n/// Where the gallery was looked for.\npub const GALLERY: &str = {:?};\n",
        gallery.display().to_string()
    );
    std::fs::write(out.join("formats.rs"), source).expect("OUT_DIR is writable");
}
