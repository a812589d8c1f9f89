//! The differential test's own checks. The comparer's normalisations are unit-tested with
//! Python (`test_compare.py`, when `python3` with PyYAML is there); the whole run against Kaitai
//! Struct needs the network and Debian's producers, so it is opt-in:
//! `cargo test -p skelcodec-differential -- --ignored` runs `run.sh`, checks that every file
//! skelcodec reads writes back byte for byte, and prints the values that differ.

use std::path::Path;
use std::process::Command;

fn here() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn the_comparer_maps_only_the_documented_representation_differences() {
    let has_python = Command::new("python3")
        .args(["-c", "import yaml"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_python {
        eprintln!("note: no python3 with PyYAML here; the comparer's unit tests are not run");
        return;
    }
    let output = Command::new("python3")
        .args(["-m", "unittest", "-q", "test_compare.py"])
        .current_dir(here())
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .expect("python3 runs");
    assert!(
        output.status.success(),
        "test_compare.py failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
#[ignore = "needs the network (npm, PyPI) and the producers of the files; run with --ignored"]
fn the_differential_run_completes_and_every_file_skelcodec_reads_writes_back() {
    let status = Command::new("bash")
        .arg(here().join("run.sh"))
        .status()
        .expect("bash runs run.sh");
    assert!(status.success(), "run.sh failed");
    let dir = std::env::var("DIFFERENTIAL_DIR").unwrap_or_else(|_| "/tmp/differential".into());
    let summary: serde_json::Value = serde_json::from_slice(
        &std::fs::read(Path::new(&dir).join("summary.json")).expect("run.sh wrote summary.json"),
    )
    .expect("summary.json is JSON");
    let total = &summary["total"];
    assert_eq!(
        total["written_back"], total["skelcodec_read"],
        "every file skelcodec reads writes back byte for byte"
    );
    // Differences are reported, not failed on: some come from the reference or the schema
    // (README.md, "Differences that are not skelcodec's bugs").
    let differences: Vec<&serde_json::Value> = summary["formats"]
        .as_object()
        .into_iter()
        .flat_map(|formats| formats.values())
        .filter_map(|format| format["differ_examples"].as_array())
        .flatten()
        .collect();
    eprintln!(
        "{} leaves differ; examples: {differences:#?}",
        total["differ"]
    );
    assert!(
        total["both_read"].as_u64().unwrap_or(0) > 0,
        "no file was read by both sides"
    );
}
