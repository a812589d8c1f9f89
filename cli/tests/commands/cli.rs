//! End-to-end tests of the `skelcodec` binary on the project's hand-built IFP fixtures and,
//! when present, the real corpus.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::support::{Running, assert_exit, skelcodec, stderr, stdout};

/// The hand-built fixtures (see their README.md and expected.json).
const FIXTURES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../generated-tests/fixtures/ifp/"
);

fn fixture(name: &str) -> PathBuf {
    Path::new(FIXTURES).join(name)
}

/// Every `.ifp` fixture, recursively.
fn fixture_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, found: &mut Vec<PathBuf>) {
        for entry in fs::read_dir(dir).expect("fixture directory") {
            let path = entry.expect("directory entry").path();
            if path.is_dir() {
                walk(&path, found);
            } else if path.extension().is_some_and(|e| e == "ifp") {
                found.push(path);
            }
        }
    }
    let mut found = Vec::new();
    walk(Path::new(FIXTURES), &mut found);
    found.sort();
    assert!(!found.is_empty(), "no fixtures under {FIXTURES}");
    found
}

/// Runs the command with `input` on its standard input.
fn skelcodec_with_input(args: &[&dyn AsRef<std::ffi::OsStr>], input: &[u8]) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_skelcodec"))
        .args(args.iter().map(|a| a.as_ref()))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run skelcodec");
    // The command may stop reading early (an error): a closed pipe is its answer.
    let _ = child.stdin.take().expect("a pipe").write_all(input);
    child.wait_with_output().expect("skelcodec ends")
}

/// Replaces every string equal to `from` in a JSON value (names with garbage after the NUL
/// are `{"text": …, "rest": …}` maps, so this reaches their `text` too); returns how many.
fn replace_strings(value: &mut serde_json::Value, from: &str, to: &str) -> usize {
    match value {
        serde_json::Value::String(s) if s == from => {
            *s = to.to_owned();
            1
        }
        serde_json::Value::Array(items) => {
            items.iter_mut().map(|v| replace_strings(v, from, to)).sum()
        }
        serde_json::Value::Object(map) => {
            map.values_mut().map(|v| replace_strings(v, from, to)).sum()
        }
        _ => 0,
    }
}

/// Finds the first map holding both `count_key` and a non-empty array `list_key`.
fn find_counted_list<'a>(
    value: &'a mut serde_json::Value,
    count_key: &str,
    list_key: &str,
) -> Option<&'a mut serde_json::Map<String, serde_json::Value>> {
    let is_counted_list = value.get(count_key).is_some()
        && value
            .get(list_key)
            .and_then(|l| l.as_array())
            .is_some_and(|l| !l.is_empty());
    if is_counted_list {
        return value.as_object_mut();
    }
    match value {
        serde_json::Value::Object(map) => map
            .values_mut()
            .find_map(|v| find_counted_list(v, count_key, list_key)),
        serde_json::Value::Array(items) => items
            .iter_mut()
            .find_map(|v| find_counted_list(v, count_key, list_key)),
        _ => None,
    }
}

fn decode_to_json(file: &Path) -> serde_json::Value {
    let output = skelcodec(&[&"decode", &"--json", &file]);
    assert_exit(&output, 0);
    serde_json::from_slice(&output.stdout).expect("decode prints JSON")
}

#[test]
fn roundtrip_reports_every_fixture_byte_exact() {
    let count = fixture_files().len();
    let output = skelcodec(&[&"roundtrip", &FIXTURES]);
    assert_exit(&output, 0);
    let text = stdout(&output);
    for file in fixture_files() {
        let name = file.file_name().unwrap().to_str().unwrap();
        assert!(
            text.lines()
                .any(|l| l.starts_with("ok    ") && l.contains(name) && l.contains("byte-exact")),
            "no ok line for {name}:\n{text}"
        );
    }
    assert_eq!(
        text.lines().last(),
        Some(&*format!("{count}/{count} byte-exact"))
    );
    // The README and the builder script are not IFP files: skipped without a word, so the
    // output is the result lines only.
    assert_eq!(stderr(&output), "");
    assert!(!text.contains("README"), "{text}");
}

#[test]
fn decode_then_encode_reproduces_every_fixture() {
    let dir = tempfile::tempdir().unwrap();
    for file in fixture_files() {
        let original = fs::read(&file).unwrap();
        for (flag, doc_name) in [("--json", "doc.json"), ("--yaml", "doc.yaml")] {
            let doc = dir.path().join(doc_name);
            let encoded = dir.path().join("encoded.ifp");
            assert_exit(&skelcodec(&[&"decode", &flag, &file, &"-o", &doc]), 0);
            assert_exit(&skelcodec(&[&"encode", &doc, &"-o", &encoded]), 0);
            assert!(
                fs::read(&encoded).unwrap() == original,
                "{} via {flag} is not byte-exact",
                file.display()
            );
        }
    }
}

#[test]
fn decode_prints_the_format_and_value() {
    let document = decode_to_json(&fixture("anp3/anp3_quirks.ifp"));
    assert_eq!(document["format"], "ifp");
    assert!(document["value"].is_object(), "{document}");
}

#[test]
fn renaming_an_animation_changes_only_its_name_bytes() {
    let dir = tempfile::tempdir().unwrap();
    // One ANP3 name (fixed 24-byte field) and one ANPK name (NUL-terminated, padded).
    for (name, old, new) in [
        ("anp3/anp3_types_1_to_4.ifp", "four_types", "five_types"),
        ("anpk/anpk_kr00_krt0_krts.ifp", "three_types", "three_typez"),
    ] {
        let file = fixture(name);
        let original = fs::read(&file).unwrap();
        let mut document = decode_to_json(&file);
        assert_eq!(replace_strings(&mut document, old, new), 1, "{name}");

        let doc = dir.path().join("renamed.json");
        let encoded = dir.path().join("renamed.ifp");
        fs::write(&doc, serde_json::to_vec(&document).unwrap()).unwrap();
        assert_exit(&skelcodec(&[&"encode", &doc, &"-o", &encoded]), 0);

        let at = original
            .windows(old.len())
            .position(|w| w == old.as_bytes())
            .expect("name in the original bytes");
        let mut expected = original.clone();
        expected[at..at + new.len()].copy_from_slice(new.as_bytes());
        assert!(fs::read(&encoded).unwrap() == expected, "{name}");
    }
}

#[test]
fn check_reports_the_wrong_frame_data_size_and_normalize_fixes_it() {
    let quirks = fixture("anp3/anp3_quirks.ifp");
    let output = skelcodec(&[&"check", &quirks]);
    assert_exit(&output, 1);
    let text = stdout(&output);
    // Animation 1 ("bad_size") stores 64 but its five type-3 frames take 50 bytes.
    assert!(
        text.lines().any(|l| l.contains("anp3_quirks.ifp: ")
            && l.contains("animations[1].frame_data_size")
            && l.ends_with("stored 64, computed 50")),
        "{text}"
    );

    let dir = tempfile::tempdir().unwrap();
    let normalized = dir.path().join("normalized.ifp");
    // The disagreements are still reported (exit 1), and the repaired file is written.
    assert_exit(
        &skelcodec(&[&"check", &"--normalize", &"-o", &normalized, &quirks]),
        1,
    );
    let output = skelcodec(&[&"check", &normalized]);
    assert_exit(&output, 0);
    assert_eq!(
        stdout(&output).trim(),
        format!("{}: no disagreements", normalized.display())
    );
}

#[test]
fn normalize_takes_a_single_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.ifp");
    let output = skelcodec(&[&"check", &"--normalize", &"-o", &out, &FIXTURES]);
    assert_exit(&output, 2);
    assert!(!out.exists());
}

#[test]
fn truncated_file_is_a_decode_error_with_offset_and_file_name() {
    let dir = tempfile::tempdir().unwrap();
    let original = fs::read(fixture("anp3/anp3_types_1_to_4.ifp")).unwrap();
    let truncated = dir.path().join("truncated.ifp");
    fs::write(&truncated, &original[..original.len() / 2]).unwrap();

    for command in ["decode", "check"] {
        let output = skelcodec(&[&command, &truncated]);
        assert_exit(&output, 2);
        let message = stderr(&output);
        assert!(message.contains("at byte"), "{command}: {message}");
        assert!(message.contains("truncated.ifp"), "{command}: {message}");
    }

    let output = skelcodec(&[&"roundtrip", &truncated]);
    assert_exit(&output, 2);
    let text = stdout(&output);
    assert!(text.starts_with("FAIL  "), "{text}");
    assert!(
        text.contains("truncated.ifp") && text.contains("at byte"),
        "{text}"
    );
    assert!(text.ends_with("0/1 byte-exact\n"), "{text}");
}

#[test]
fn encode_with_a_count_that_disagrees_fails_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut document = decode_to_json(&fixture("anp3/anp3_types_1_to_4.ifp"));
    let animation = find_counted_list(&mut document, "num_objects", "objects")
        .expect("an animation with num_objects and objects");
    animation["objects"].as_array_mut().unwrap().pop();
    let doc = dir.path().join("bad_count.json");
    fs::write(&doc, serde_json::to_vec(&document).unwrap()).unwrap();

    let fresh = dir.path().join("fresh.ifp");
    let output = skelcodec(&[&"encode", &doc, &"-o", &fresh]);
    assert_exit(&output, 2);
    assert!(
        stderr(&output).contains("bad_count.json"),
        "{}",
        stderr(&output)
    );
    assert!(!fresh.exists());

    // An existing output survives a failed encode untouched.
    let existing = dir.path().join("existing.ifp");
    fs::write(&existing, b"keep me").unwrap();
    assert_exit(&skelcodec(&[&"encode", &doc, &"-o", &existing]), 2);
    assert_eq!(fs::read(&existing).unwrap(), b"keep me");

    // No temporary file is left behind either.
    let mut left: Vec<_> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    left.sort();
    assert_eq!(left, ["bad_count.json", "existing.ifp"]);
}

#[test]
fn encode_takes_the_format_from_the_document() {
    let dir = tempfile::tempdir().unwrap();
    let doc = dir.path().join("no_format.json");
    let mut document = decode_to_json(&fixture("anp3/anp3_zero_objects.ifp"));
    document.as_object_mut().unwrap().remove("format");
    fs::write(&doc, serde_json::to_vec(&document).unwrap()).unwrap();
    let out = dir.path().join("out.ifp");

    let output = skelcodec(&[&"encode", &doc, &"-o", &out]);
    assert_exit(&output, 2);
    assert!(
        stderr(&output).contains("no_format.json"),
        "{}",
        stderr(&output)
    );

    assert_exit(
        &skelcodec(&[&"encode", &"--format", &"ifp", &doc, &"-o", &out]),
        0,
    );
    assert_eq!(
        fs::read(&out).unwrap(),
        fs::read(fixture("anp3/anp3_zero_objects.ifp")).unwrap()
    );
}

#[test]
fn unknown_and_undetectable_formats_list_the_known_ids() {
    let output = skelcodec(&[
        &"decode",
        &"--format",
        &"nope",
        &fixture("anp3/anp3_quirks.ifp"),
    ]);
    assert_exit(&output, 2);
    assert!(stderr(&output).contains("`nope`") && stderr(&output).contains("ifp"));

    let readme = fixture("README.md");
    let output = skelcodec(&[&"decode", &readme]);
    assert_exit(&output, 2);
    assert!(stderr(&output).contains("README.md") && stderr(&output).contains("ifp"));
}

#[test]
fn a_directory_without_known_files_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("notes.txt"), b"not an animation").unwrap();
    for command in ["roundtrip", "check"] {
        let output = skelcodec(&[&command, &dir.path()]);
        assert_exit(&output, 2);
        assert!(stderr(&output).contains("notes.txt"), "{}", stderr(&output));
    }
}

#[test]
fn formats_lists_ifp() {
    let output = skelcodec(&[&"formats"]);
    assert_exit(&output, 0);
    assert!(
        stdout(&output)
            .lines()
            .any(|l| l.starts_with("ifp") && l.contains(".ifp"))
    );
}

/// The real game files, which are not part of the repository: `$SKELCODEC_CORPUS`, or
/// `../shared/corpus` beside the workspace (a skipped run says so).
#[test]
fn corpus_ifp_files_are_byte_exact() {
    let Some(root) = skelcodec_runtime::testing::corpus_dir(env!("CARGO_MANIFEST_DIR")) else {
        return;
    };
    let dir = root.join("ifp");
    let output = skelcodec(&[&"roundtrip", &dir]);
    let text = stdout(&output);
    let not_exact: Vec<&str> = text.lines().filter(|l| !l.starts_with("ok    ")).collect();
    let summary = text.lines().last().unwrap_or_default();
    let (exact, total) = summary
        .trim_end_matches(" byte-exact")
        .split_once('/')
        .expect("a closing N/M line");
    assert_eq!(exact, total, "{}", not_exact.join("\n"));
    assert_exit(&output, 0);
    eprintln!("corpus: {summary}");
}

const DFF_FIXTURES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../generated-tests/fixtures/dff/"
);

#[test]
fn dff_models_round_trip_and_their_skins_can_be_printed_alone() {
    let output = skelcodec(&[&"roundtrip", &DFF_FIXTURES]);
    assert_exit(&output, 0);
    assert_eq!(stdout(&output).lines().last(), Some("10/10 byte-exact"));

    let model = Path::new(DFF_FIXTURES).join("two_clumps.dff");
    let output = skelcodec(&[&"decode", &"--path", &"**.skin", &model]);
    assert_exit(&output, 0);
    let skins: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("JSON");
    let paths: Vec<&str> = skins
        .as_array()
        .expect("a list of matches")
        .iter()
        .map(|m| m["path"].as_str().expect("path"))
        .collect();
    assert_eq!(
        paths,
        [
            "chunks[0].body.clump.geometry_list.geometries[0].extension.body.plugins[0].body.skin",
            "chunks[1].body.clump.geometry_list.geometries[0].extension.body.plugins[0].body.skin",
        ]
    );
    assert!(skins[0]["value"]["layout"]["skin_plain"]["bones"].is_array());

    // Stale bytes a size covers are data: the model has no disagreement.
    let overstated = Path::new(DFF_FIXTURES).join("skin_size_overstated.dff");
    let output = skelcodec(&[&"check", &overstated]);
    assert_exit(&output, 0);
}

#[test]
fn a_protected_model_is_reported_and_repaired_by_check() {
    let protected = Path::new(DFF_FIXTURES).join("protected_clump_struct.dff");
    let output = skelcodec(&[&"check", &protected]);
    assert_exit(&output, 1);
    assert_eq!(
        stdout(&output).trim(),
        format!(
            "{}: chunks[0].body.clump.info.chunk_size: stored 16777228, computed 12",
            protected.display()
        )
    );

    let dir = tempfile::tempdir().unwrap();
    let repaired = dir.path().join("repaired.dff");
    assert_exit(
        &skelcodec(&[&"check", &"--normalize", &"-o", &repaired, &protected]),
        1,
    );
    let output = skelcodec(&[&"check", &repaired]);
    assert_exit(&output, 0);
    assert_eq!(
        stdout(&output).trim(),
        format!("{}: no disagreements", repaired.display())
    );
    let skin = |path: &Path| {
        let output = skelcodec(&[&"decode", &"--path", &"**.skin", &path]);
        assert_exit(&output, 0);
        let matches: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("JSON");
        matches[0]["value"].clone()
    };
    assert!(skin(&protected).is_object());
    assert_eq!(skin(&protected), skin(&repaired), "the same skin");
}

#[test]
fn outputs_never_replace_inputs_unless_forced() {
    let dir = tempfile::tempdir().unwrap();
    let game_file = dir.path().join("g.ifp");
    let original = std::fs::read(fixture("anp3/anp3_quirks.ifp")).unwrap();
    std::fs::write(&game_file, &original).unwrap();
    // Spelled differently from the input, but the same file.
    let same = dir.path().join(".").join("g.ifp");
    for args in [vec!["decode", "-o"], vec!["check", "--normalize", "-o"]] {
        let mut all: Vec<&dyn AsRef<std::ffi::OsStr>> = args.iter().map(|a| a as _).collect();
        all.push(&same);
        all.push(&game_file);
        let output = skelcodec(&all);
        assert_exit(&output, 2);
        assert!(
            String::from_utf8_lossy(&output.stderr).contains("is also an input"),
            "{output:?}"
        );
        assert_eq!(std::fs::read(&game_file).unwrap(), original, "untouched");
    }
    let json = dir.path().join("g.json");
    assert_exit(&skelcodec(&[&"decode", &game_file, &"-o", &json]), 0);
    let output = skelcodec(&[&"encode", &json, &"-o", &json]);
    assert_exit(&output, 2);
    // With --force, the user gets what they asked for.
    assert_exit(
        &skelcodec(&[
            &"check",
            &"--normalize",
            &"--force",
            &"-o",
            &game_file,
            &game_file,
        ]),
        1,
    );
    let output = skelcodec(&[&"check", &game_file]);
    assert_exit(&output, 0);
}

#[test]
fn encode_normalize_finishes_an_edit_that_changes_a_count() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("edited.json");
    let output = skelcodec(&[&"decode", &fixture("anp3/anp3_quirks.ifp")]);
    assert_exit(&output, 0);
    let mut document: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    // Drop the last animation: the stored count no longer matches the list.
    let animations = document["value"]["body"]["anp3"]["animations"]
        .as_array_mut()
        .unwrap();
    let before = animations.len();
    animations.pop();
    std::fs::write(&json, document.to_string()).unwrap();

    let out = dir.path().join("edited.ifp");
    let output = skelcodec(&[&"encode", &json, &"-o", &out]);
    assert_exit(&output, 2);
    assert!(!out.exists(), "a refused encode writes nothing");

    let output = skelcodec(&[&"encode", &"--normalize", &json, &"-o", &out]);
    assert_exit(&output, 0);
    assert!(
        stdout(&output)
            .lines()
            .any(|l| l.starts_with("normalized body.anp3.num_animations: stored")),
        "{}",
        stdout(&output)
    );
    let output = skelcodec(&[&"decode", &out]);
    assert_exit(&output, 0);
    let reread: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(
        reread["value"]["body"]["anp3"]["animations"]
            .as_array()
            .unwrap()
            .len(),
        before - 1
    );
    assert_exit(&skelcodec(&[&"check", &out]), 0);
}

#[test]
fn unknown_keys_in_a_document_are_errors_with_their_path() {
    let dir = tempfile::tempdir().unwrap();
    let output = skelcodec(&[&"decode", &fixture("anp3/anp3_quirks.ifp")]);
    let mut document: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    document["value"]["body"]["anp3"]["animations"][0]["flagz"] = serde_json::json!(1);
    let json = dir.path().join("typo.json");
    std::fs::write(&json, document.to_string()).unwrap();
    let output = skelcodec(&[&"encode", &json, &"-o", &dir.path().join("typo.ifp")]);
    assert_exit(&output, 2);
    let message = String::from_utf8_lossy(&output.stderr);
    assert!(message.contains("at body.anp3.animations[0]"), "{message}");
    assert!(message.contains("unknown field `flagz`"), "{message}");
    // A JSON document is read straight into the value, a YAML one through its tree: the
    // same path either way (JSON's message adds the line and column).
    let yaml = dir.path().join("typo.yaml");
    std::fs::write(&yaml, serde_yaml::to_string(&document).unwrap()).unwrap();
    let output = skelcodec(&[&"encode", &yaml, &"-o", &dir.path().join("typo.ifp")]);
    assert_exit(&output, 2);
    let from_yaml = String::from_utf8_lossy(&output.stderr);
    let from_yaml = from_yaml.replace("typo.yaml", "typo.json");
    assert!(
        message.starts_with(from_yaml.trim_end()),
        "{message}\n{from_yaml}"
    );
    assert!(message.contains(" at line 1 column "), "{message}");
    // Text after the document is refused.
    std::fs::write(&json, format!("{document} {{}}")).unwrap();
    let output = skelcodec(&[&"encode", &json, &"-o", &dir.path().join("typo.ifp")]);
    assert_exit(&output, 2);
    assert!(
        stderr(&output).contains("trailing characters"),
        "{}",
        stderr(&output)
    );
}

const GSA_FIXTURES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../generated-tests/fixtures/gsa/"
);

#[test]
fn convert_upgrades_gsa_41_and_refuses_to_drop_events() {
    let dir = tempfile::tempdir().expect("temp dir");
    let old = Path::new(GSA_FIXTURES).join("v41_partial_bones.gsa");
    let upgraded = dir.path().join("upgraded.gsa");
    let output = skelcodec(&[&"convert", &"--to", &"gsa-4.2", &old, &"-o", &upgraded]);
    assert_exit(&output, 0);
    let decoded = decode_to_json(&upgraded);
    assert_eq!(decoded["value"]["version_minor"], 2);
    let frames = decoded["value"]["frames"].as_array().expect("frames");
    assert!(frames.iter().all(|f| f["events"]["num_events"] == 0));

    let with_events = Path::new(GSA_FIXTURES).join("v42_partial_bones_events.gsa");
    let refused = dir.path().join("refused.gsa");
    let output = skelcodec(&[
        &"convert",
        &"--to",
        &"gsa-4.1",
        &with_events,
        &"-o",
        &refused,
    ]);
    assert_exit(&output, 2);
    assert!(
        stderr(&output).contains("frame 1 has 3 event(s)"),
        "{}",
        stderr(&output)
    );
    assert!(!refused.exists(), "a refused conversion writes nothing");

    // A target of another format, or options the format has no use for, are refused by name.
    let output = skelcodec(&[&"convert", &"--to", &"anp3", &old, &"-o", &refused]);
    assert_exit(&output, 2);
    assert!(
        stderr(&output).contains("gsa-4.1 or gsa-4.2"),
        "{}",
        stderr(&output)
    );
    let output = skelcodec(&[
        &"convert", &"--lossy", &"--to", &"gsa-4.2", &old, &"-o", &refused,
    ]);
    assert_exit(&output, 2);
    assert!(stderr(&output).contains("--lossy"), "{}", stderr(&output));
    assert!(!refused.exists());
}

#[test]
fn formats_list_their_conversions() {
    let output = skelcodec(&[&"formats"]);
    assert_exit(&output, 0);
    let text = stdout(&output);
    let gsa = text
        .lines()
        .find(|l| l.starts_with("gsa "))
        .expect("a gsa line");
    assert!(gsa.contains("converts to gsa-4.1, gsa-4.2"), "{text}");
    let dff = text
        .lines()
        .find(|l| l.starts_with("dff "))
        .expect("a dff line");
    assert!(!dff.contains("converts"), "{text}");
}

#[test]
fn drs_containers_and_animation_set_blobs_decode() {
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../generated-tests/fixtures/drs/"
    );
    let output = skelcodec(&[&"roundtrip", &dir]);
    // The three files under broken/ are not byte-exact: they do not decode at all.
    assert_exit(&output, 2);
    assert!(
        stdout(&output).contains("10/13 byte-exact"),
        "{}",
        stdout(&output)
    );

    let expected: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(Path::new(dir).join("expected.json")).unwrap())
            .unwrap();
    let set = &expected["as_v6_rev5.drs"]["animation_set"];
    let (offset, size) = (
        set["offset"].as_u64().unwrap() as usize,
        set["size"].as_u64().unwrap() as usize,
    );
    let bytes = fs::read(Path::new(dir).join("as_v6_rev5.drs")).unwrap();
    let blob_dir = tempfile::tempdir().unwrap();
    let blob = blob_dir.path().join("set.bin");
    fs::write(&blob, &bytes[offset..offset + size]).unwrap();
    let decoded = decode_to_json(&blob);
    assert_eq!(decoded["format"], "animation_set", "detected by its magic");
    assert_eq!(decoded["value"]["version"], 6);
    let output = skelcodec(&[&"roundtrip", &blob]);
    assert_exit(&output, 0);
}

#[test]
fn sims2_packages_list_their_resources_and_decode_the_animations() {
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../generated-tests/fixtures/sims2/"
    );
    let decoded = decode_to_json(&Path::new(dir).join("anim_qfs.package"));
    assert_eq!(decoded["format"], "dbpf");
    let resources = decoded["resources"].as_array().expect("resources");
    assert_eq!(resources.len(), 3);
    assert_eq!(resources[1]["compressed"], true);
    assert!(
        resources[1]["anim"]["blocks"].is_array(),
        "the compressed ANIM is decoded"
    );
    assert!(
        resources[2]["anim"].is_null(),
        "the DIR is not an animation"
    );
    assert_eq!(resources[1]["key"]["type"], "0xFB00791E");
    assert_eq!(resources[1]["key"]["type_name"], "ANIM");
    assert_eq!(resources[2]["key"]["type_name"], "DIR");

    let broken = Path::new(dir).join("broken/anim_datasize_mismatch.5an");
    let output = skelcodec(&[&"check", &broken]);
    assert_exit(&output, 1);
    assert!(
        stdout(&output).contains("data_size: stored 1121, computed 1105"),
        "{}",
        stdout(&output)
    );
}

const DRS_FIXTURES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../generated-tests/fixtures/drs/"
);

#[test]
fn a_grown_animation_set_is_refused_as_is_and_laid_out_by_encode_normalize() {
    let dir = tempfile::tempdir().expect("temp dir");
    let original = Path::new(DRS_FIXTURES).join("as_v6_rev6_full_unit.drs");
    let mut document = decode_to_json(&original);
    let entry = &mut document["value"]["node_information"]["entries"][8];
    let set = &mut entry["blob"]["animation_set"];
    // Four stale bytes, a stated size that covers them, and one more mode key.
    set["stale"] = serde_json::json!("deadbeef");
    let keys = set["mode_animation_keys"].as_array_mut().expect("keys");
    keys.push(keys[0].clone());
    entry["size"] = serde_json::json!(entry["size"].as_i64().unwrap() + 4);
    let json = dir.path().join("grown.json");
    std::fs::write(&json, document.to_string()).unwrap();

    let out = dir.path().join("grown.drs");
    let output = skelcodec(&[&"encode", &json, &"-o", &out]);
    assert_exit(&output, 2);
    assert!(!out.exists(), "a refused encode writes nothing");

    let output = skelcodec(&[&"encode", &"--normalize", &json, &"-o", &out]);
    assert_exit(&output, 0);
    let changed = stdout(&output);
    for moved in [
        "normalized node_information.entries[9].offset",
        "normalized node_information_offset",
        "normalized node_hierarchy_offset",
        "normalized node_information.entries[8].blob.animation_set.key_count_or_unknown",
    ] {
        assert!(changed.contains(moved), "{moved}: {changed}");
    }
    assert_exit(&skelcodec(&[&"check", &out]), 0);
    let reread = decode_to_json(&out);
    let set = &reread["value"]["node_information"]["entries"][8]["blob"]["animation_set"];
    assert_eq!(set["stale"], "deadbeef");
    assert_eq!(set["mode_animation_keys"].as_array().unwrap().len(), 6);
}

#[test]
fn schema_check_accepts_the_project_schemas_and_locates_a_mistake() {
    let schemas = Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas");
    let ifp = schemas.join("ifp.ksy");
    let output = skelcodec(&[&"schema", &"check", &ifp, &schemas.join("dff.ksy")]);
    assert_exit(&output, 0);
    assert_eq!(stdout(&output).lines().count(), 2);
    assert!(stdout(&output).starts_with("ok "), "{}", stdout(&output));

    let dir = tempfile::tempdir().unwrap();
    let broken = dir.path().join("broken.ksy");
    std::fs::write(
        &broken,
        "meta:\n  id: broken\n  endian: le\nseq:\n  - id: data\n    size: 4\n    process: rot13\n    type: u4\n",
    )
    .unwrap();
    let output = skelcodec(&[&"schema", &"check", &ifp, &broken]);
    assert_exit(&output, 1);
    assert_eq!(
        stdout(&output).lines().count(),
        1,
        "the good one is still ok"
    );
    assert!(
        stderr(&output).contains("broken.ksy:7:5: `process` applies to byte arrays and user types"),
        "{}",
        stderr(&output)
    );
    // Not YAML at all: still a located error, never a crash.
    std::fs::write(&broken, "meta: [\n").unwrap();
    assert_exit(&skelcodec(&[&"schema", &"check", &broken]), 1);
}

#[test]
fn schema_expand_prints_the_generated_code() {
    let gsa = Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas/gsa.ksy");
    let output = skelcodec(&[&"schema", &"expand", &gsa]);
    assert_exit(&output, 0);
    let code = stdout(&output);
    assert!(
        code.contains("pub struct Gsa"),
        "{}",
        &code[..200.min(code.len())]
    );
    assert!(code.contains("impl rt::Codec for Gsa"));
}

/// The `seq` ids of a type of `schemas/ifp.ksy`, in the schema's order.
fn schema_field_order(type_name: &str) -> Vec<String> {
    let schema = concat!(env!("CARGO_MANIFEST_DIR"), "/../schemas/ifp.ksy");
    let schema: serde_yaml::Value =
        serde_yaml::from_str(&fs::read_to_string(schema).unwrap()).unwrap();
    schema["types"][type_name]["seq"]
        .as_sequence()
        .expect("a seq")
        .iter()
        .map(|field| field["id"].as_str().expect("an id").to_owned())
        .collect()
}

#[test]
fn documents_keep_the_schemas_field_order() {
    let document = decode_to_json(&fixture("anp3/anp3_types_1_to_4.ifp"));
    let animation = &document["value"]["body"]["anp3"]["animations"][0];
    let keys: Vec<&String> = animation.as_object().unwrap().keys().collect();
    let expected = schema_field_order("anp3_animation");
    assert_eq!(keys, expected.iter().collect::<Vec<_>>());
    // Not alphabetical: `name` comes before `num_objects` and `frame_data_size`.
    let top: Vec<&String> = document.as_object().unwrap().keys().collect();
    assert_eq!(top, ["format", "value"]);
}

#[test]
fn decode_path_accepts_every_path_it_prints() {
    let file = fixture("anp3/anp3_types_1_to_4.ifp");
    let output = skelcodec(&[&"decode", &"--path", &"**", &file]);
    assert_exit(&output, 0);
    let everything: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let everything = everything.as_array().unwrap();
    assert!(everything.len() > 20, "{} parts", everything.len());
    for part in everything.iter().skip(1).step_by(7) {
        let path = part["path"].as_str().unwrap();
        let output = skelcodec(&[&"decode", &"--path", &path, &file]);
        assert_exit(&output, 0);
        let again: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(again, serde_json::json!([part]), "{path}");
    }
    let output = skelcodec(&[&"decode", &"--path", &"body.anp3.animations[0].name", &file]);
    assert_exit(&output, 0);
    let name: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(name[0]["path"], "body.anp3.animations[0].name");
}

#[test]
fn decode_path_writes_its_parts_as_the_list_of_them_is_written() {
    // The parts are written as they are found; the text is that of the whole list.
    let file = fixture("anp3/anp3_types_1_to_4.ifp");
    let dir = tempfile::tempdir().unwrap();
    for pattern in ["**.name", "body.anp3.animations[0]", "**"] {
        let output = skelcodec(&[&"decode", &"--path", &pattern, &file]);
        assert_exit(&output, 0);
        let parts: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        let pretty = serde_json::to_string_pretty(&parts).unwrap() + "\n";
        assert_eq!(stdout(&output), pretty, "{pattern}");
        let yaml = dir.path().join("parts.yaml");
        let output = skelcodec(&[&"decode", &"--path", &pattern, &file, &"-o", &yaml]);
        assert_exit(&output, 0);
        let written = std::fs::read_to_string(&yaml).unwrap();
        assert_eq!(written, serde_yaml::to_string(&parts).unwrap(), "{pattern}");
    }
    let output = skelcodec(&[&"decode", &"--yaml", &file]);
    let whole: serde_yaml::Value = serde_yaml::from_slice(&output.stdout).unwrap();
    assert_eq!(stdout(&output), serde_yaml::to_string(&whole).unwrap());
    // Nothing matched: no output file.
    let none = dir.path().join("none.json");
    let output = skelcodec(&[&"decode", &"--path", &"nope", &file, &"-o", &none]);
    assert_exit(&output, 1);
    assert!(!none.exists());
}

#[test]
fn decode_path_that_matches_nothing_exits_with_1() {
    let file = fixture("anp3/anp3_types_1_to_4.ifp");
    let output = skelcodec(&[&"decode", &"--path", &"body.anp3.animations[99]", &file]);
    assert_exit(&output, 1);
    // It says where the path stopped matching and what is there.
    assert!(
        stderr(&output).contains(
            "nothing matches the path (the path stops matching at `body.anp3.animations`, which holds a list of"
        ),
        "{}",
        stderr(&output)
    );
    let output = skelcodec(&[&"decode", &"--path", &"animations[x]", &file]);
    assert_exit(&output, 2);
    assert!(stderr(&output).contains("[x]"), "{}", stderr(&output));
}

#[test]
fn output_syntax_follows_the_extension_and_summary_shortens_lists() {
    let dir = tempfile::tempdir().unwrap();
    let file = fixture("anp3/anp3_types_1_to_4.ifp");
    let yaml = dir.path().join("doc.yml");
    assert_exit(&skelcodec(&[&"decode", &file, &"-o", &yaml]), 0);
    let text = fs::read_to_string(&yaml).unwrap();
    assert!(text.starts_with("format: ifp\n"), "{text}");
    // And back, through the YAML.
    let encoded = dir.path().join("back.ifp");
    assert_exit(&skelcodec(&[&"encode", &yaml, &"-o", &encoded]), 0);
    assert_eq!(fs::read(&encoded).unwrap(), fs::read(&file).unwrap());

    // An object with 20 key frames (built by editing the document and normalizing) is
    // summarized to its length, first frames and checksum.
    let mut document = decode_to_json(&file);
    let object = &mut document["value"]["body"]["anp3"]["animations"][0]["objects"][0];
    let frames = object["frames"]["anp3_rotation"].as_array_mut().unwrap();
    let first = frames[0].clone();
    frames.resize(20, first.clone());
    let edited_doc = dir.path().join("edited.json");
    fs::write(&edited_doc, serde_json::to_vec(&document).unwrap()).unwrap();
    let long = dir.path().join("long.ifp");
    assert_exit(
        &skelcodec(&[&"encode", &"--normalize", &edited_doc, &"-o", &long]),
        0,
    );
    let output = skelcodec(&[&"decode", &"--summary", &long]);
    assert_exit(&output, 0);
    let summary: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let object = &summary["value"]["body"]["anp3"]["animations"][0]["objects"][0];
    assert_eq!(object["num_frames"], 20, "{object}");
    let shortened = &object["frames"]["anp3_rotation"];
    assert_eq!(shortened["len"], 20, "{shortened}");
    assert_eq!(shortened["first"].as_array().unwrap().len(), 3);
    assert_eq!(shortened["first"][0], first);
    // The checksum of the whole list's compact JSON text.
    let whole = decode_to_json(&long)["value"]["body"]["anp3"]["animations"][0]["objects"][0]
        ["frames"]["anp3_rotation"]
        .to_string();
    let crc = format!("{:08x}", crc32fast::hash(whole.as_bytes()));
    assert_eq!(shortened["crc32"], crc.as_str());
    // Short lists stay whole.
    assert_eq!(
        summary["value"]["body"]["anp3"]["animations"][0]["objects"][1],
        decode_to_json(&long)["value"]["body"]["anp3"]["animations"][0]["objects"][1]
    );
}

const SIMS2_FIXTURES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../generated-tests/fixtures/sims2/"
);

#[test]
fn package_list_extract_and_replace_work_on_resource_keys_in_hex() {
    let package = Path::new(SIMS2_FIXTURES).join("anim_qfs.package");
    let output = skelcodec(&[&"package", &"list", &package]);
    assert_exit(&output, 0);
    let listing = stdout(&output);
    let lines: Vec<&str> = listing.lines().collect();
    assert_eq!(lines.len(), 3, "{listing}");
    assert!(
        lines[1].starts_with("0xFB00791E:") && lines[1].contains("ANIM"),
        "{listing}"
    );
    assert!(
        lines[1].contains("QFS"),
        "the compressed one says so: {listing}"
    );
    assert!(
        lines[2].starts_with("0xE86B1EEF:") && lines[2].contains("DIR"),
        "{listing}"
    );
    let compressed_key = lines[1].split_whitespace().next().unwrap();

    // The builder wrote anim_string_runs_d.5an compressed into the package.
    let dir = tempfile::tempdir().unwrap();
    let one = dir.path().join("one.5an");
    assert_exit(
        &skelcodec(&[
            &"package",
            &"extract",
            &package,
            &compressed_key,
            &"-o",
            &one,
        ]),
        0,
    );
    let expected = fs::read(Path::new(SIMS2_FIXTURES).join("anim_string_runs_d.5an")).unwrap();
    assert_eq!(fs::read(&one).unwrap(), expected);

    // Every entry into a directory, and an entry reached as PACKAGE#ENTRY, with the type
    // spelled by name.
    let all = dir.path().join("all");
    assert_exit(
        &skelcodec(&[&"package", &"extract", &package, &"-o", &all]),
        0,
    );
    assert_eq!(fs::read_dir(&all).unwrap().count(), 3);
    let by_name = compressed_key.replacen("0xFB00791E", "ANIM", 1);
    let entry = format!("{}#{by_name}", package.display());
    let output = skelcodec(&[&"decode", &entry]);
    assert_exit(&output, 0);
    let decoded: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(decoded["format"], "sims2_anim");

    // Replace it with another animation: compressed again, the rest untouched.
    let replacement = Path::new(SIMS2_FIXTURES).join("anim_string_runs_b.5an");
    let replaced = dir.path().join("replaced.package");
    let output = skelcodec(&[
        &"package",
        &"replace",
        &package,
        &by_name,
        &replacement,
        &"-o",
        &replaced,
    ]);
    assert_exit(&output, 0);
    let output = skelcodec(&[&"package", &"list", &replaced]);
    assert!(stdout(&output).lines().nth(1).unwrap().contains("QFS"));
    let again = dir.path().join("again.5an");
    assert_exit(
        &skelcodec(&[
            &"package",
            &"extract",
            &replaced,
            &compressed_key,
            &"-o",
            &again,
        ]),
        0,
    );
    assert_eq!(fs::read(&again).unwrap(), fs::read(&replacement).unwrap());
    let first_key = lines[0].split_whitespace().next().unwrap();
    let first = |p: &Path| {
        let out = dir.path().join("first.5an");
        assert_exit(
            &skelcodec(&[&"package", &"extract", &p, &first_key, &"-o", &out]),
            0,
        );
        fs::read(out).unwrap()
    };
    assert_eq!(first(&replaced), first(&package));

    // A key the package does not hold is an error that says where to look.
    let output = skelcodec(&[
        &"package",
        &"extract",
        &package,
        &"ANIM:0x1:0x2",
        &"-o",
        &one,
    ]);
    assert_exit(&output, 2);
    assert!(
        stderr(&output).contains("package list"),
        "{}",
        stderr(&output)
    );
}

const IMG_FIXTURES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../generated-tests/fixtures/img/"
);

#[test]
fn img_archives_are_containers_for_every_command() {
    let dir = Path::new(IMG_FIXTURES);
    // roundtrip covers the archive and each entry it can decode, one line each; the .img
    // beside a .dir is covered through it.
    let output = skelcodec(&[&"roundtrip", &dir]);
    assert_exit(&output, 0);
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert!(
        lines[0].starts_with("ok") && lines[0].contains("gta3_style.dir#b.ifp"),
        "{text}"
    );
    assert!(lines[1].contains("two_entries.img "), "{text}");
    assert!(lines[2].contains("two_entries.img#b.ifp"), "{text}");
    assert_eq!(lines[3], "3/3 byte-exact");

    let archive = dir.join("two_entries.img");
    let output = skelcodec(&[&"package", &"list", &archive]);
    assert_exit(&output, 0);
    let listing = stdout(&output);
    assert!(
        listing.lines().nth(1).unwrap().starts_with("b.ifp  ifp"),
        "{listing}"
    );

    let output = skelcodec(&[&"decode", &format!("{}#B.IFP", archive.display())]);
    assert_exit(&output, 0);
    let decoded: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(decoded["value"]["magic"]["text"], "ANPK");

    // Replace with something bigger: moved, b.ifp untouched; and for version 1, the .dir too.
    let temp = tempfile::tempdir().unwrap();
    let big = temp.path().join("big.bin");
    fs::write(&big, vec![9u8; 5000]).unwrap();
    let out = temp.path().join("new.img");
    let output = skelcodec(&[
        &"package", &"replace", &archive, &"a.bin", &big, &"-o", &out,
    ]);
    assert_exit(&output, 0);
    assert!(
        stdout(&output).contains("moved to sector 5"),
        "{}",
        stdout(&output)
    );
    let extracted = temp.path().join("a.bin");
    assert_exit(
        &skelcodec(&[&"package", &"extract", &out, &"a.bin", &"-o", &extracted]),
        0,
    );
    assert_eq!(&fs::read(&extracted).unwrap()[..5000], &[9u8; 5000][..]);
    let b = |img: &Path| {
        let out = temp.path().join("b.ifp");
        assert_exit(
            &skelcodec(&[&"package", &"extract", &img, &"b.ifp", &"-o", &out]),
            0,
        );
        fs::read(out).unwrap()
    };
    assert_eq!(b(&out), b(&archive));

    let v1_out = temp.path().join("v1.img");
    let ifp = fixture("anpk/anpk_kr00_krt0_krts.ifp");
    let output = skelcodec(&[
        &"package",
        &"replace",
        &dir.join("gta3_style.dir"),
        &"b.ifp",
        &ifp,
        &"-o",
        &v1_out,
    ]);
    assert_exit(&output, 0);
    assert!(temp.path().join("v1.dir").is_file());
    let output = skelcodec(&[&"roundtrip", &temp.path().join("v1.dir")]);
    assert_exit(&output, 0);
    assert_eq!(stdout(&output).lines().last(), Some("1/1 byte-exact"));

    // An IFP entry replaced by bytes that are no IFP: refused, saying why, unless forced.
    let noise = temp.path().join("noise.ifp");
    fs::write(
        &noise,
        (0..1000u32)
            .map(|i| (i * 7919 % 251) as u8)
            .collect::<Vec<u8>>(),
    )
    .unwrap();
    let refused = temp.path().join("refused.img");
    let replace = |force: bool| {
        let mut args: Vec<&dyn AsRef<std::ffi::OsStr>> = vec![
            &"package", &"replace", &archive, &"b.ifp", &noise, &"-o", &refused,
        ];
        if force {
            args.push(&"--force");
        }
        skelcodec(&args)
    };
    let output = replace(false);
    assert_exit(&output, 2);
    assert!(
        stderr(&output).contains("does not decode as ifp") && stderr(&output).contains("--force"),
        "{}",
        stderr(&output)
    );
    assert!(!refused.exists(), "nothing is written");
    assert_exit(&replace(true), 0);
    assert!(refused.exists());
}

#[test]
fn a_model_in_the_real_archive_shows_its_skin() {
    let Some(corpus) = skelcodec_runtime::testing::corpus_dir(env!("CARGO_MANIFEST_DIR")) else {
        return;
    };
    let archive = corpus.join("img/cretaceous_models_cutscene.img");
    let output = skelcodec(&[
        &"decode",
        &format!("{}#csbmyap.dff", archive.display()),
        &"--path",
        &"**.skin",
    ]);
    assert_exit(&output, 0);
    let skins: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let skin = &skins[0]["value"]["layout"]["skin_plain"];
    assert_eq!(skin["num_bones"], 32, "{skins}");
    let output = skelcodec(&[&"roundtrip", &archive]);
    assert_exit(&output, 0);
    assert_eq!(stdout(&output).lines().last(), Some("7/7 byte-exact"));
    // The archive and its entries agree with themselves: the room after the directory is
    // no disagreement.
    let output = skelcodec(&[&"check", &archive]);
    assert_exit(&output, 0);
    assert!(!stdout(&output).contains("stored"), "{}", stdout(&output));
}

#[test]
fn ifp_packages_convert_between_games_keeping_their_key_frames() {
    let dir = tempfile::tempdir().unwrap();
    let sa = fixture("anp3/anp3_types_1_to_4.ifp");
    let vc = dir.path().join("vc.ifp");
    let output = skelcodec(&[&"convert", &"--to", &"anpk", &sa, &"-o", &vc]);
    assert_exit(&output, 0);
    assert_eq!(stdout(&output), "", "nothing dropped");
    let anpk = decode_to_json(&vc);
    assert_eq!(anpk["value"]["magic"]["text"], "ANPK");
    let back = dir.path().join("sa.ifp");
    assert_exit(
        &skelcodec(&[&"convert", &"--to", &"anp3", &vc, &"-o", &back]),
        0,
    );
    // Uncompressed frames keep their floats; compressed ones become floats, exactly.
    // Compared as the f32 the game holds: compressed times print as n/60 in double precision.
    let times = |doc: &serde_json::Value| -> Vec<f32> {
        let mut found = Vec::new();
        collect_numbers(&doc["value"], "time", &mut found);
        found
    };
    let original = decode_to_json(&sa);
    assert_eq!(times(&decode_to_json(&back)), times(&original));

    // GTA III's object headers are chosen by name; they hold no bone id, which is said.
    let iii = dir.path().join("iii.ifp");
    let output = skelcodec(&[&"convert", &"--to", &"anpk-iii", &sa, &"-o", &iii]);
    assert_exit(&output, 2);
    assert!(
        stderr(&output).contains("its bone id") && stderr(&output).contains("(anpk-iii)"),
        "{}",
        stderr(&output)
    );
    let output = skelcodec(&[
        &"convert",
        &"--lossy",
        &"--to",
        &"anpk-iii",
        &sa,
        &"-o",
        &iii,
    ]);
    assert_exit(&output, 0);
    assert!(
        stdout(&output).starts_with("dropped animation `"),
        "{}",
        stdout(&output)
    );
    let objects = &decode_to_json(&iii)["value"]["body"]["anpk"]["animations"][0]["objects"];
    assert_eq!(objects[0]["anim_size"], 48, "{objects}");

    // A KRTS scale other than 1 is refused with its animation and object, or dropped and
    // reported with --lossy.
    let scaled = fixture("anpk/anpk_kr00_krt0_krts.ifp");
    let out = dir.path().join("scaled.ifp");
    let output = skelcodec(&[&"convert", &"--to", &"anp3", &scaled, &"-o", &out]);
    assert_exit(&output, 2);
    assert!(
        stderr(&output).contains("scale") && stderr(&output).contains("--lossy"),
        "{}",
        stderr(&output)
    );
    assert!(!out.exists());
    let output = skelcodec(&[
        &"convert", &"--lossy", &"--to", &"anp3", &scaled, &"-o", &out,
    ]);
    assert_exit(&output, 0);
    assert!(
        stdout(&output).starts_with("dropped animation"),
        "{}",
        stdout(&output)
    );
    assert_exit(&skelcodec(&[&"roundtrip", &out]), 0);
}

/// Every number under a key named `key`, in document order, as the f32 it stands for.
fn collect_numbers(value: &serde_json::Value, key: &str, found: &mut Vec<f32>) {
    match value {
        serde_json::Value::Object(map) => {
            for (k, v) in map {
                if k == key
                    && let Some(number) = v.as_f64()
                {
                    found.push(number as f32);
                } else {
                    collect_numbers(v, key, found);
                }
            }
        }
        serde_json::Value::Array(items) => {
            items.iter().for_each(|v| collect_numbers(v, key, found))
        }
        _ => {}
    }
}

#[test]
fn a_folder_converts_every_file_that_converts_in_input_order() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    fs::create_dir_all(input.join("vc")).unwrap();
    let anpk = [
        "anpk_kr00_krt0_krts.ifp",
        "anpk_mixed_anim44_48_zero_frames.ifp",
        "anpk_nonzero_padding.ifp",
    ];
    for name in anpk {
        fs::copy(
            fixture(&format!("anpk/{name}")),
            input.join("vc").join(name),
        )
        .unwrap();
    }
    fs::write(input.join("notes.txt"), "not an animation").unwrap();
    let out = dir.path().join("out");
    let output = skelcodec(&[
        &"convert", &"--lossy", &"--to", &"anp3", &input, &"-o", &out,
    ]);
    assert_exit(&output, 0);
    let text = stdout(&output);
    let converted: Vec<&str> = text.lines().filter(|l| l.starts_with("ok")).collect();
    assert_eq!(converted.len(), 3, "{text}");
    for (line, name) in converted.iter().zip(anpk) {
        assert!(line.contains(&format!("vc/{name} -> ")), "{line}");
        assert_eq!(
            decode_to_json(&out.join("vc").join(name))["value"]["magic"]["text"],
            "ANP3"
        );
    }
    // What --lossy dropped is reported under its file; the text file is skipped silently.
    assert!(text.contains("      dropped animation"), "{text}");
    assert!(!text.contains("notes.txt") && !out.join("notes.txt").exists());
    assert_eq!(text.lines().last(), Some("3/3 converted to anp3"));

    // Without --lossy the files holding what ANP3 cannot (a KRTS scale, a long name) fail,
    // each with its reason; the other is still written.
    let strict = dir.path().join("strict");
    let output = skelcodec(&[&"convert", &"--to", &"anp3", &input, &"-o", &strict]);
    assert_exit(&output, 2);
    let text = stdout(&output);
    assert_eq!(text.matches("FAIL").count(), 2, "{text}");
    assert!(
        text.contains("scale") && text.contains("23 bytes"),
        "{text}"
    );
    assert!(text.ends_with("1/3 converted to anp3\n"), "{text}");
    assert!(!strict.join("vc/anpk_kr00_krt0_krts.ifp").exists());
    assert!(strict.join("vc/anpk_nonzero_padding.ifp").exists());
}

/// A small schema of records, for `--schema`: a count, then records of a kind, a length and
/// the text of that length.
const RECORDS_KSY: &str = "
meta: {id: records, endian: le, encoding: ASCII, file-extension: rec}
seq:
  - {id: magic, contents: REC}
  - {id: num_records, type: u1}
  - {id: records, type: record, repeat: expr, repeat-expr: num_records}
types:
  record:
    seq:
      - {id: kind, type: u1, enum: kind}
      - {id: len, type: u2}
      - {id: text, type: str, size: len}
enums:
  kind: {1: name, 2: note}
";

#[test]
fn decode_reads_with_a_schema_given_at_run_time() {
    let dir = tempfile::tempdir().unwrap();
    let schema = dir.path().join("records.ksy");
    fs::write(&schema, RECORDS_KSY).unwrap();
    let file = dir.path().join("two.rec");
    fs::write(&file, b"REC\x02\x01\x02\0hi\x02\x03\0abc").unwrap();
    let output = skelcodec(&[&"decode", &"--schema", &schema, &file]);
    assert_exit(&output, 0);
    let document: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(
        document,
        serde_json::json!({
            "format": "records",
            // The schema it was read with, for `encode` to find again.
            "schema": {"path": std::path::absolute(&schema).unwrap()},
            "value": {
                "num_records": 2,
                "records": [
                    {"kind": "name", "len": 2, "text": {"text": "hi"}},
                    {"kind": "note", "len": 3, "text": {"text": "abc"}},
                ],
            },
        })
    );
    // `--path` works on its documents as on the built-in formats'.
    let output = skelcodec(&[
        &"decode",
        &"--schema",
        &schema,
        &"--path",
        &"records[*].text",
        &file,
    ]);
    assert_exit(&output, 0);
    assert!(stdout(&output).contains("\"abc\""), "{}", stdout(&output));
    // A short file fails with the offset and the path, as a built-in format's does.
    fs::write(&file, b"REC\x01\x01\x05\0hi").unwrap();
    let output = skelcodec(&[&"decode", &"--schema", &schema, &file]);
    assert_exit(&output, 2);
    assert!(
        stderr(&output).contains("at byte 7, records[0].text"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn sizes_and_counts_of_a_plain_schema_follow_an_edit_through_encode_normalize() {
    let dir = tempfile::tempdir().unwrap();
    let schema = dir.path().join("records.ksy");
    fs::write(&schema, RECORDS_KSY).unwrap();
    let output = skelcodec(&[&"schema", &"check", &"--explain-derived", &schema]);
    assert_exit(&output, 0);
    let explained = stdout(&output);
    for line in [
        "records.num_records = records.size  (inferred: `num_records` is the count of `records`)",
        "record.len = text._sizeof  (inferred: `len` is the size of `text`)",
    ] {
        assert!(explained.contains(line), "{explained}");
    }
    let file = dir.path().join("two.rec");
    fs::write(&file, b"REC\x02\x01\x02\0hi\x02\x03\0abc").unwrap();
    let mut document = decode_to_json_with(&schema, &file);
    document["value"]["records"][0]["text"] = "a longer text".into();
    document["value"]["records"].as_array_mut().unwrap().pop();
    let edited = dir.path().join("edited.json");
    fs::write(&edited, document.to_string()).unwrap();
    let out = dir.path().join("edited.rec");
    let output = skelcodec(&[&"encode", &edited, &"-o", &out]);
    assert_exit(&output, 2);
    assert!(
        stderr(&output).contains("the count is 2 but the list has 1"),
        "{}",
        stderr(&output)
    );
    // In the command line's terms.
    assert!(
        stderr(&output).contains("`skelcodec encode --normalize` recomputes"),
        "{}",
        stderr(&output)
    );
    let output = skelcodec(&[&"encode", &"--normalize", &edited, &"-o", &out]);
    assert_exit(&output, 0);
    let changed = stdout(&output);
    assert!(
        changed.contains("normalized records[0].len: stored 2, computed 13")
            && changed.contains("normalized num_records: stored 2, computed 1"),
        "{changed}"
    );
    assert_eq!(fs::read(&out).unwrap(), b"REC\x01\x01\x0d\0a longer text");
    let output = skelcodec(&[&"check", &"--schema", &schema, &out]);
    assert_exit(&output, 0);
}

/// The document `decode --schema` prints for `file`.
fn decode_to_json_with(schema: &Path, file: &Path) -> serde_json::Value {
    let output = skelcodec(&[&"decode", &"--schema", &schema, &file]);
    assert_exit(&output, 0);
    serde_json::from_str(&stdout(&output)).unwrap()
}

#[test]
fn a_schema_the_interpreter_cannot_use_yet_is_refused_with_every_reason() {
    let dir = tempfile::tempdir().unwrap();
    let schema = dir.path().join("placed.ksy");
    fs::write(
        &schema,
        "meta: {id: placed}\nparams:\n  - {id: key, type: u1}\nseq:\n  - {id: a, size: 4, process: my_fx(key)}\n",
    )
    .unwrap();
    let file = dir.path().join("x.bin");
    fs::write(&file, [0u8; 10]).unwrap();
    let output = skelcodec(&[&"decode", &"--schema", &schema, &file]);
    assert_exit(&output, 2);
    // Each use, with its place in the schema.
    assert!(
        stderr(&output).contains("seq[0]: the custom processor `my_fx`"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn roundtrip_and_encode_with_a_schema_given_at_run_time() {
    let dir = tempfile::tempdir().unwrap();
    let schema = dir.path().join("records.ksy");
    fs::write(&schema, RECORDS_KSY).unwrap();
    let file = dir.path().join("two.rec");
    let bytes = b"REC\x02\x01\x02\0hi\x02\x03\0abc";
    fs::write(&file, bytes).unwrap();
    let output = skelcodec(&[&"roundtrip", &"--schema", &schema, &file]);
    assert_exit(&output, 0);
    assert!(
        stdout(&output).contains("1/1 byte-exact"),
        "{}",
        stdout(&output)
    );
    // Decoded as YAML, edited, encoded: the edit is in the file, the rest as it was.
    let yaml = dir.path().join("two.yaml");
    let output = skelcodec(&[&"decode", &"--schema", &schema, &"--yaml", &file]);
    assert_exit(&output, 0);
    let edited = stdout(&output)
        .replace("text: hi", "text: hey")
        .replace("len: 2", "len: 3");
    fs::write(&yaml, edited).unwrap();
    let out = dir.path().join("edited.rec");
    // The document says which schema it was read with: `encode` needs no `--schema`.
    let output = skelcodec(&[&"encode", &yaml, &"-o", &out]);
    assert_exit(&output, 0);
    assert_eq!(
        fs::read(&out).unwrap(),
        b"REC\x02\x01\x03\0hey\x02\x03\0abc"
    );
    // An edit that would not read back is refused with its path, and nothing is written.
    let json = dir.path().join("two.json");
    let output = skelcodec(&[&"decode", &"--schema", &schema, &file]);
    fs::write(&json, stdout(&output).replace("\"hi\"", "\"hey\"")).unwrap();
    let refused = dir.path().join("refused.rec");
    let output = skelcodec(&[&"encode", &"--schema", &schema, &json, &"-o", &refused]);
    assert_exit(&output, 2);
    assert!(
        stderr(&output).contains("records[0].text") && stderr(&output).contains("the size is 2"),
        "{}",
        stderr(&output)
    );
    assert!(!refused.exists());
}

#[test]
fn explain_maps_every_field_and_a_failed_read_up_to_the_failure() {
    let dir = tempfile::tempdir().unwrap();
    let schema = dir.path().join("records.ksy");
    fs::write(&schema, RECORDS_KSY).unwrap();
    let file = dir.path().join("two.rec");
    fs::write(&file, b"REC\x02\x01\x02\0hi\x02\x03\0abc").unwrap();
    let output = skelcodec(&[&"explain", &"--schema", &schema, &file]);
    assert_exit(&output, 0);
    // The second record's text: bytes 12..15 (0xc..0xf), 3 bytes.
    let line = stdout(&output)
        .lines()
        .find(|l| l.contains("records[1].text"))
        .map(str::to_owned)
        .unwrap_or_default();
    let columns: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(
        columns,
        ["0xc", "0xf", "3", "records[1].text", "str", "\"abc\""]
    );
    // Cut short, as JSON records: what was read, the error, and the tree so far.
    fs::write(&file, b"REC\x02\x01\x02\0hi\x02\x05\0ab").unwrap();
    let output = skelcodec(&[&"explain", &"--schema", &schema, &"--json", &file]);
    assert_exit(&output, 2);
    let explained: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    let last = explained["fields"]
        .as_array()
        .and_then(|f| f.last())
        .cloned();
    assert_eq!(
        last,
        Some(
            serde_json::json!({"path": "records[1].len", "start": 10, "end": 12, "type": "u2le", "value": 5})
        )
    );
    assert_eq!(explained["error"]["offset"], 12);
    assert_eq!(explained["error"]["path"], "records[1].text");
    assert_eq!(explained["partial"]["records"][0]["text"]["text"], "hi");
}

/// Bit fields, a zlib-compressed value and values read by position (a parse instance and a
/// look-ahead), for `explain`.
const PLACED_KSY: &str = "
meta: {id: ex, endian: le}
seq:
  - {id: flags, type: b3}
  - {id: kind, type: b5}
  - {id: len_packed, type: u1}
  - {id: packed, size: len_packed, process: zlib, type: inner}
  - {id: ofs, type: u1}
instances:
  at_ofs: {pos: ofs, type: u2}
  raw_at: {pos: 0, size: 2}
types:
  inner:
    seq: [{id: a, type: u2}, {id: b, type: u2}]
";

/// A file of `PLACED_KSY`: flags 101 and kind 00011 in byte 0; 12 bytes of zlib (those of
/// Python's `zlib.compress`) holding the u2le 7 and 9; `ofs` 0.
const PLACED: &[u8] = b"\xa3\x0c\x78\x9c\x63\x67\xe0\x64\x00\x00\x00\x32\x00\x11\x00";

#[test]
fn explain_shows_bits_decoded_streams_and_values_read_by_position_where_they_are() {
    let dir = tempfile::tempdir().unwrap();
    let schema = dir.path().join("ex.ksy");
    fs::write(&schema, PLACED_KSY).unwrap();
    let file = dir.path().join("ex.bin");
    fs::write(&file, PLACED).unwrap();
    let output = skelcodec(&[&"explain", &"--schema", &schema, &file]);
    assert_exit(&output, 0);
    insta::assert_snapshot!("explain_placed_table", stdout(&output));
    let output = skelcodec(&[&"explain", &"--schema", &schema, &"--json", &file]);
    assert_exit(&output, 0);
    let explained: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    let field = |path: &str| {
        let fields = explained["fields"].as_array().cloned().unwrap_or_default();
        let found = fields.into_iter().find(|f| f["path"] == path);
        found.unwrap_or_else(|| panic!("no {path} in {explained:#}"))
    };
    // The 3 high bits of byte 0, then its 5 low ones.
    assert_eq!(
        field("kind"),
        serde_json::json!({"path": "kind", "start": 0, "end": 1, "start_bit": 3, "end_bit": 8,
            "type": "b5be", "value": 3})
    );
    assert_eq!(
        (
            field("flags")["start_bit"].clone(),
            field("flags")["end_bit"].clone()
        ),
        (0.into(), 3.into())
    );
    // Offsets in the decoded bytes, with where they are stored (bytes 2 to 14).
    assert_eq!(
        field("packed.b"),
        serde_json::json!({"path": "packed.b", "start": 2, "end": 4, "type": "u2le", "value": 9,
            "stream": {"path": "packed", "stored_start": 2, "stored_end": 14}})
    );
    // Both read at offset 0 of the file: a3 0c.
    assert_eq!(field("raw_at")["start"], 0);
    assert_eq!(field("raw_at")["end"], 2);
    assert_eq!(field("at_ofs")["end"], 2);
    assert_eq!(field("at_ofs")["value"], 0x0ca3);
}

#[test]
fn explain_watch_reads_again_when_the_schema_changes() {
    let dir = tempfile::tempdir().unwrap();
    let schema = dir.path().join("records.ksy");
    fs::write(&schema, RECORDS_KSY).unwrap();
    let file = dir.path().join("two.rec");
    fs::write(&file, b"REC\x02\x01\x02\0hi\x02\x03\0abc").unwrap();
    let mut watching = Running::start(&[&"explain", &"--watch", &"--schema", &schema, &file]);
    let first = watching.wait_for("records[1].text");
    // A field renamed in the schema: the next explanation names it so.
    fs::write(&schema, RECORDS_KSY.replace("id: text", "id: words")).unwrap();
    let again = watching.wait_for("records[1].words");
    assert!(first, "the first explanation: {}", watching.output());
    assert!(
        again,
        "no explanation after the edit: {}",
        watching.output()
    );
}

#[cfg(unix)]
#[test]
fn an_output_that_is_a_device_is_written_not_replaced() {
    use std::os::unix::fs::FileTypeExt;
    let file = fixture("anp3/anp3_types_1_to_4.ifp");
    let decoded = skelcodec(&[&"decode", &file, &"-o", &"/dev/null"]);
    assert_exit(&decoded, 0);
    let null = std::fs::metadata("/dev/null").expect("/dev/null is there");
    assert!(null.file_type().is_char_device(), "/dev/null was replaced");
}

#[test]
fn a_dash_is_standard_input_and_output() {
    let file = fixture("anp3/anp3_types_1_to_4.ifp");
    let bytes = std::fs::read(&file).unwrap();
    // decode - < file, then encode - -o - (the document, JSON or YAML, from standard input).
    let json = skelcodec_with_input(&[&"decode", &"-"], &bytes);
    assert_exit(&json, 0);
    assert_eq!(
        serde_json::from_slice::<serde_json::Value>(&json.stdout).unwrap(),
        decode_to_json(&file)
    );
    let encoded = skelcodec_with_input(&[&"encode", &"-", &"-o", &"-"], &json.stdout);
    assert_exit(&encoded, 0);
    assert_eq!(encoded.stdout, bytes);
    let yaml = skelcodec(&[&"decode", &"--yaml", &file, &"-o", &"-"]);
    assert_exit(&yaml, 0);
    assert!(
        stdout(&yaml).starts_with("format: ifp"),
        "{}",
        stdout(&yaml)
    );
    let encoded = skelcodec_with_input(&[&"encode", &"-", &"-o", &"-"], &yaml.stdout);
    assert_eq!(encoded.stdout, bytes);
    // check and roundtrip read standard input too; no file named `-` is made.
    let checked = skelcodec_with_input(&[&"check", &"-"], &bytes);
    assert_exit(&checked, 0);
    assert!(
        stdout(&checked).contains("-: no disagreements"),
        "{}",
        stdout(&checked)
    );
    assert!(!Path::new("-").exists());
}

#[test]
fn an_output_whose_extension_names_another_syntax_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let file = fixture("anp3/anp3_types_1_to_4.ifp");
    let out = dir.path().join("f.json");
    let output = skelcodec(&[&"decode", &"--yaml", &file, &"-o", &out]);
    assert_exit(&output, 2);
    assert!(
        stderr(&output).contains("names a JSON file, but --yaml writes YAML"),
        "{}",
        stderr(&output)
    );
    assert!(!out.exists(), "nothing is written");
    let out = dir.path().join("f.yml");
    assert_exit(&skelcodec(&[&"decode", &"--json", &file, &"-o", &out]), 2);
    // Without a flag, the extension chooses.
    assert_exit(&skelcodec(&[&"decode", &file, &"-o", &out]), 0);
    assert!(
        std::fs::read_to_string(&out)
            .unwrap()
            .starts_with("format: ifp")
    );
}

#[test]
fn a_closed_pipe_ends_the_command_with_the_status_of_sigpipe() {
    use std::io::{BufRead, BufReader};
    // `check DIR | head -1`, with more lines than a pipe holds (64 KiB): the command cannot
    // have finished when the reader goes.
    let dir = tempfile::tempdir().unwrap();
    let bytes = std::fs::read(fixture("anp3/anp3_types_1_to_4.ifp")).unwrap();
    for i in 0..1500 {
        std::fs::write(
            dir.path().join(format!("file_with_a_long_name_{i:05}.ifp")),
            &bytes,
        )
        .unwrap();
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_skelcodec"))
        .arg("check")
        .arg(dir.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run skelcodec");
    let mut first = String::new();
    BufReader::new(child.stdout.take().expect("a pipe"))
        .read_line(&mut first)
        .unwrap();
    assert!(first.contains("no disagreements"), "{first}");
    let output = child.wait_with_output().unwrap();
    assert_exit(&output, 141);
    assert!(stderr(&output).is_empty(), "{}", stderr(&output));
}

#[test]
fn convert_folder_reports_files_already_of_the_target_version() {
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("in");
    std::fs::create_dir(&source).unwrap();
    std::fs::copy(fixture("anp3/anp3_types_1_to_4.ifp"), source.join("a.ifp")).unwrap();
    let out = dir.path().join("out");
    let output = skelcodec(&[&"convert", &"--to", &"anp3", &source, &"-o", &out]);
    assert_exit(&output, 0);
    assert!(
        stdout(&output).contains("already anp3"),
        "{}",
        stdout(&output)
    );
    assert!(
        stdout(&output).contains("0/0 converted to anp3, 1 already anp3"),
        "{}",
        stdout(&output)
    );
    assert!(
        !out.join("a.ifp").exists(),
        "a file already of the version is not written"
    );
}

#[test]
fn a_document_of_the_wrong_shape_says_what_fits_in_the_user_s_terms() {
    let dir = tempfile::tempdir().unwrap();
    let file = fixture("anp3/anp3_types_1_to_4.ifp");
    let out = dir.path().join("out.ifp");
    let encode_with = |edit: &dyn Fn(&mut serde_json::Value)| {
        let mut document = decode_to_json(&file);
        edit(&mut document["value"]["body"]["anp3"]["animations"][0]);
        let doc = dir.path().join("edited.json");
        fs::write(&doc, document.to_string()).unwrap();
        let output = skelcodec(&[&"encode", &doc, &"-o", &out]);
        assert_exit(&output, 2);
        stderr(&output)
    };
    // A name that is a number: what a string may be, not serde's untagged enum.
    let error = encode_with(&|animation| animation["name"] = 5.into());
    assert!(error.contains("animations[0].name"), "{error}");
    assert!(error.contains("expected a string"), "{error}");
    assert!(!error.contains("untagged"), "{error}");
    // An enum's value misspelt: the names it has.
    let error = encode_with(&|animation| animation["objects"][0]["frame_type"] = "rot_comp".into());
    assert!(
        error.contains("unknown variant `rot_comp`, expected one of"),
        "{error}"
    );
    assert!(error.contains("`rotation`"), "{error}");
    // A case the frame type does not call for: the selector and the case held.
    let error = encode_with(&|animation| {
        animation["objects"][0]["frame_type"] = "rotation_translation".into()
    });
    assert!(
        error.contains("`frame_type` calls for the case `anp3_rotation_translation`, but the value holds `anp3_rotation`"),
        "{error}"
    );
}
