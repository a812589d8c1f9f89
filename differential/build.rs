//! Compiles the gallery schemas listed in `formats.tsv` into this crate, with the gallery
//! crate's generation code (`gallery/build/codecs.rs`): a rejected schema is recorded with the
//! compiler's message. Only when `SKELCODEC_DIFFERENTIAL=1` (set by `run.sh`): otherwise the
//! crate has no formats, so that building the workspace neither takes their time nor depends on
//! every gallery schema's generated code compiling. `SKELCODEC_DIFFERENTIAL_SKIP` (ids separated
//! by commas) leaves formats out: the runner fills it with those whose generated code rustc
//! refuses, so one generator bug does not stop the other formats.

#[path = "../gallery/build/codecs.rs"]
mod codecs;

use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-changed=formats.tsv");
    println!("cargo:rerun-if-changed=../gallery/build/codecs.rs");
    println!("cargo:rerun-if-env-changed=SKELCODEC_DIFFERENTIAL");
    println!("cargo:rerun-if-env-changed=SKELCODEC_DIFFERENTIAL_SKIP");
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default());
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap_or_default());
    let enabled = std::env::var("SKELCODEC_DIFFERENTIAL").is_ok_and(|v| v == "1");
    let skip = std::env::var("SKELCODEC_DIFFERENTIAL_SKIP").unwrap_or_default();
    let skip: Vec<&str> = skip.split(',').map(str::trim).collect();
    let list = std::fs::read_to_string(manifest.join("formats.tsv")).unwrap_or_default();
    let schemas: Vec<(String, Vec<String>)> = list
        .lines()
        .filter(|line| enabled && !line.starts_with('#') && !line.trim().is_empty())
        .filter_map(|line| line.split('\t').next())
        .filter(|schema| {
            let id = schema.rsplit('/').next().unwrap_or(schema);
            !skip.contains(&id.trim_end_matches(".ksy"))
        })
        .map(|schema| (schema.trim().to_string(), Vec::new()))
        .collect();
    codecs::write_formats(&codecs::gallery_dir(&manifest), &schemas, &out);
}
