//! Generation of gallery codecs, shared by the build scripts of `skelcodec-gallery` and
//! `skelcodec-differential` (each includes this file as a module): every schema goes through
//! the skelcodec compiler into `OUT_DIR`, and becomes a module of the including crate with its
//! codec seen through documents; a schema the compiler rejects is recorded with its message.
//! The including crate's root must have `Format`, `Codec`, `EditReport`, `Normalize`,
//! `document`, `encode` and `edit_property` (the gallery's own, re-exported by the differential crate).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Where the gallery is: `$KAITAI_FORMATS`, or `shared/kaitai-formats` beside the workspace.
pub fn gallery_dir(manifest: &Path) -> PathBuf {
    println!("cargo:rerun-if-env-changed=KAITAI_FORMATS");
    std::env::var_os("KAITAI_FORMATS")
        .map(PathBuf::from)
        .unwrap_or_else(|| manifest.join("../../shared/kaitai-formats"))
}

/// Compiles each schema (a path relative to `gallery`, and the file extensions its files have)
/// and writes `OUT_DIR/formats.rs`: one module per accepted schema and the list `FORMATS`.
pub fn write_formats(gallery: &Path, schemas: &[(String, Vec<String>)], out: &Path) {
    let mut modules = String::new();
    let mut registry = String::new();
    for (schema, extensions) in schemas {
        let path = gallery.join(schema);
        println!("cargo:rerun-if-changed={}", path.display());
        let id = path.file_stem().unwrap_or_default().to_string_lossy();
        let status = match skelcodec_codegen::load_schema_with(
            &path,
            std::slice::from_ref(&gallery.to_path_buf()),
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
                    "#[allow(warnings, clippy::all, missing_docs)] pub mod {id} {{ include!({:?}); pub fn edit(bytes: &[u8], edits: usize, normalize: crate::Normalize) -> crate::EditReport {{ crate::edit_property::<{root}>(bytes, edits, normalize) }} pub const CODEC: crate::Codec = crate::Codec {{ edit, document: crate::document::<{root}>, encode: crate::encode::<{root}>, read: crate::read::<{root}>, read_owned: crate::read_owned::<{root}> }}; }}",
                    file.display().to_string()
                );
                format!("Ok({id}::CODEC)")
            }
        };
        let extensions: Vec<&str> = extensions.iter().map(String::as_str).collect();
        let _ = writeln!(
            registry,
            "crate::Format {{ id: {id:?}, extensions: &{extensions:?}, codec: {status} }},"
        );
    }
    let source = format!(
        "{modules}\n/// The formats, with their codec's edit entry point or why the schema was not compiled.\npub static FORMATS: &[crate::Format] = &[\n{registry}];\n/// Where the gallery was looked for.\npub const GALLERY: &str = {:?};\n",
        gallery.display().to_string()
    );
    std::fs::write(out.join("formats.rs"), source).expect("OUT_DIR is writable");
}
