//! Every schema of Kaitai's public gallery (`../shared/kaitai-formats`, or `$KAITAI_FORMATS`)
//! passes the compiler's checks: a change to what the compiler decides about a schema (which
//! instances are read on their own, say) must not make a real schema fail to type. Without the
//! gallery the test says so and checks nothing.

use std::path::{Path, PathBuf};

fn gallery() -> PathBuf {
    std::env::var_os("KAITAI_FORMATS").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/kaitai-formats"),
        PathBuf::from,
    )
}

fn schemas_under(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            schemas_under(&path, out);
        } else if path.extension().is_some_and(|e| e == "ksy") {
            out.push(path);
        }
    }
}

#[test]
fn every_gallery_schema_passes_the_checks() {
    let gallery = gallery();
    let mut schemas = Vec::new();
    schemas_under(&gallery, &mut schemas);
    if schemas.is_empty() {
        skelcodec_runtime::corpus::announce_skip(&format!(
            "skipped: no gallery at {}",
            gallery.display()
        ));
        return;
    }
    schemas.sort();
    let rejected: Vec<String> = schemas
        .iter()
        .filter_map(|path| {
            let loaded = skelcodec_codegen::load_schema_with(path, std::slice::from_ref(&gallery));
            loaded.err().map(|e| format!("{}: {e}", path.display()))
        })
        .collect();
    assert!(rejected.is_empty(), "{rejected:#?}");
    assert!(schemas.len() >= 180, "{} schemas", schemas.len());
}
