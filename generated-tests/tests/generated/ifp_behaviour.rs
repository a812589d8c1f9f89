//! Behaviour of the generated IFP codec beyond snapshots: decoded values against the values the
//! fixtures were built from, derived-field checks, and hostile input.

use std::path::{Path, PathBuf};

use skelcodec_formats::ifp::*;
use skelcodec_runtime::{Codec, ErrorKind};

fn fixture(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/ifp")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn expected() -> serde_json::Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/ifp/expected.json");
    serde_json::from_str(&std::fs::read_to_string(path).expect("expected.json")).expect("json")
}

fn anp3(bytes: &[u8]) -> Anp3 {
    match Ifp::read(bytes).expect("decodes").body {
        IfpBody::Anp3(body) => body,
        other => panic!("expected ANP3, got {other:?}"),
    }
}

/// Frame values as the builder wrote them: floats for types 1 and 2, raw integers for 3 and 4.
fn frame_values(frames: &Anp3ObjectFrames) -> Vec<Vec<f64>> {
    fn q<T: Copy>(r: &skelcodec_runtime::Quat<T>, f: impl Fn(T) -> f64) -> Vec<f64> {
        vec![f(r.x), f(r.y), f(r.z), f(r.w)]
    }
    fn v<T: Copy>(r: &skelcodec_runtime::Vec3<T>, f: impl Fn(T) -> f64) -> Vec<f64> {
        vec![f(r.x), f(r.y), f(r.z)]
    }
    let float = |x: f32| f64::from(x);
    let raw = |x: skelcodec_runtime::Fixed<i16, 4096>| f64::from(x.raw());
    let raw_t = |x: skelcodec_runtime::Fixed<i16, 1024>| f64::from(x.raw());
    match frames {
        Anp3ObjectFrames::Anp3Rotation(fs) => fs
            .iter()
            .map(|f| [q(&f.rotation, float), vec![float(f.time)]].concat())
            .collect(),
        Anp3ObjectFrames::Anp3RotationTranslation(fs) => fs
            .iter()
            .map(|f| {
                [
                    q(&f.rotation, float),
                    vec![float(f.time)],
                    v(&f.translation, float),
                ]
                .concat()
            })
            .collect(),
        Anp3ObjectFrames::Anp3RotationCompressed(fs) => fs
            .iter()
            .map(|f| [q(&f.rotation, raw), vec![f64::from(f.time.raw())]].concat())
            .collect(),
        Anp3ObjectFrames::Anp3RotationTranslationCompressed(fs) => fs
            .iter()
            .map(|f| {
                [
                    q(&f.rotation, raw),
                    vec![f64::from(f.time.raw())],
                    v(&f.translation, raw_t),
                ]
                .concat()
            })
            .collect(),
    }
}

#[test]
fn anp3_fixtures_decode_to_the_values_they_were_built_with() {
    let expected = expected();
    for name in [
        "anp3/anp3_types_1_to_4.ifp",
        "anp3/anp3_raw_tail.ifp",
        "anp3/anp3_quirks.ifp",
        "anp3/anp3_zero_objects.ifp",
    ] {
        let want = &expected[name];
        let bytes = fixture(name);
        let file = Ifp::read(&bytes).unwrap();
        let body = anp3(&bytes);
        assert_eq!(
            i64::from(body.end_offset),
            want["end_offset"].as_i64().unwrap(),
            "{name}"
        );
        assert_eq!(body.name.text(), want["name"].as_str().unwrap(), "{name}");
        let content = want["content_length"].as_u64().unwrap() as usize;
        assert_eq!(file.tail.0.len(), bytes.len() - content, "{name}: tail");
        let animations = want["animations"].as_array().unwrap();
        assert_eq!(body.animations.len(), animations.len(), "{name}");
        for (anim, want) in body.animations.iter().zip(animations) {
            assert_eq!(anim.name.text(), want["name"].as_str().unwrap());
            assert_eq!(
                i64::from(anim.frame_data_size),
                want["frame_data_size"].as_i64().unwrap()
            );
            assert_eq!(i64::from(anim.flags), want["flags"].as_i64().unwrap());
            for (object, want) in anim.objects.iter().zip(want["objects"].as_array().unwrap()) {
                assert_eq!(object.name.text(), want["name"].as_str().unwrap());
                assert_eq!(
                    object.frame_type.raw(),
                    want["frame_type"].as_i64().unwrap()
                );
                assert_eq!(i64::from(object.bone_id), want["bone_id"].as_i64().unwrap());
                let frames: Vec<Vec<f64>> = serde_json::from_value(want["frames"].clone()).unwrap();
                assert_eq!(
                    frame_values(&object.frames),
                    frames,
                    "{name}: {}",
                    object.name.text()
                );
            }
        }
    }
}

#[test]
fn anpk_fixture_decodes_headers_and_frames() {
    let bytes = fixture("anpk/anpk_mixed_anim44_48_zero_frames.ifp");
    let IfpBody::Anpk(pack) = Ifp::read(&bytes).unwrap().body else {
        panic!("expected ANPK")
    };
    assert_eq!(pack.name.text(), "ped");
    let names: Vec<_> = pack
        .animations
        .iter()
        .map(|a| a.name.text().into_owned())
        .collect();
    assert_eq!(names, ["walk", "run_fst", "sprint_1"]);
    let walk = &pack.animations[0];
    let sizes: Vec<u32> = walk.objects.iter().map(|o| o.anim_size).collect();
    assert_eq!(sizes, [44, 48, 48, 44]);
    let zero = &walk.objects[1];
    assert_eq!((zero.num_frames, zero.keyframes.is_none()), (0, true));
    assert_eq!(walk.objects[2].extra_words, Some([7, -1]));
    assert_eq!(walk.objects[0].bone_tag, Some(0));
    let Some(keys) = &walk.objects[0].keyframes else {
        panic!("frames")
    };
    let AnpkKeyframesFrames::AnpkKrt0(frames) = &keys.frames else {
        panic!("KRT0")
    };
    assert_eq!(frames[1].translation.y, 0.5);
    assert!(
        Ifp::read(&bytes).unwrap().check().is_empty(),
        "a well-formed fixture has no disagreements"
    );
}

#[test]
fn check_reports_and_normalize_fixes_frame_data_size() {
    let bytes = fixture("anp3/anp3_quirks.ifp");
    let mut file = Ifp::read(&bytes).unwrap();
    let found = file.check();
    let paths: Vec<_> = found.iter().map(|m| m.to_string()).collect();
    assert!(
        paths.contains(
            &"body.anp3.animations[1].frame_data_size: stored 64, computed 50".to_owned()
        ),
        "{paths:?}"
    );
    assert!(
        paths.contains(&"body.anp3.end_offset: stored 390, computed 290".to_owned()),
        "{paths:?}"
    );
    file.normalize().unwrap();
    assert!(file.check().is_empty(), "{:?}", file.check());
    let IfpBody::Anp3(body) = &file.body else {
        panic!()
    };
    assert_eq!(body.animations[1].frame_data_size, 50);
    // Only the two derived words changed.
    let out = file.to_bytes().unwrap();
    let changed: Vec<usize> = (0..bytes.len()).filter(|&i| bytes[i] != out[i]).collect();
    assert!(
        changed.iter().all(|&i| (4..8).contains(&i) || i < 200),
        "{changed:?}"
    );
}

#[track_caller]
fn corpus() -> Option<PathBuf> {
    skelcodec_runtime::testing::corpus_dir(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn corpus_grenade_frame_data_sizes_are_reported_with_paths() {
    let Some(dir) = corpus() else { return };
    let path = dir.join("ifp/anp3/sa_grenade_fdsmismatch.ifp");
    let Ok(bytes) = std::fs::read(&path) else {
        skelcodec_runtime::corpus::announce_skip(&format!("skipped: {} absent", path.display()));
        return;
    };
    let mut file = Ifp::read(&bytes).unwrap();
    let found: Vec<_> = file
        .check()
        .into_iter()
        .filter(|m| m.path.ends_with("frame_data_size"))
        .collect();
    assert_eq!(found.len(), 3, "{found:?}");
    for (i, m) in found.iter().enumerate() {
        assert_eq!(m.path, format!("body.anp3.animations[{i}].frame_data_size"));
        assert_ne!(m.stored, m.computed);
    }
    file.normalize().unwrap();
    assert!(
        file.check()
            .iter()
            .all(|m| !m.path.ends_with("frame_data_size"))
    );
}

/// Every error names an offset inside the input and a field path; nothing panics.
fn assert_clean_error(bytes: &[u8], what: &str) {
    match Ifp::read(bytes) {
        Ok(_) => {}
        Err(e) => {
            assert!(
                e.offset() <= bytes.len() as u64,
                "{what}: offset {} past {}",
                e.offset(),
                bytes.len()
            );
            assert!(
                !e.path().is_empty() || e.offset() == 0,
                "{what}: no path in {e}"
            );
        }
    }
}

#[test]
fn hostile_input_gives_errors_with_offset_and_path() {
    let bytes = fixture("anp3/anp3_types_1_to_4.ifp");
    // Every truncation fails cleanly, in the field that needs the missing byte.
    for len in 0..bytes.len() {
        let err = Ifp::read(&bytes[..len]).expect_err("truncated input cannot decode");
        assert!(err.offset() <= len as u64, "{err}");
        if len > 4 {
            assert!(err.path().starts_with("body"), "{len}: {err}");
        }
    }
    // Flipping each byte never panics.
    for i in 0..bytes.len() {
        let mut flipped = bytes.clone();
        flipped[i] ^= 0xFF;
        assert_clean_error(&flipped, &format!("flip at {i}"));
    }
    // An absurd count fails at once, at the count's element list.
    let mut huge = bytes.clone();
    huge[32..36].copy_from_slice(&u32::MAX.to_le_bytes());
    let err = Ifp::read(&huge).unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::CountTooLarge { .. }),
        "{err}"
    );
    assert_eq!(err.path(), "body.anp3.animations");
    let first_object_num_frames = 36 + 36 + 28;
    let mut huge = bytes.clone();
    huge[first_object_num_frames..first_object_num_frames + 4]
        .copy_from_slice(&u32::MAX.to_le_bytes());
    let err = Ifp::read(&huge).unwrap_err();
    assert_eq!(
        err.path(),
        "body.anp3.animations[0].objects[0].frames.anp3_rotation",
        "{err}"
    );
    assert!(err.to_string().starts_with("at byte "), "{err}");
}

#[test]
fn an_unknown_frame_type_names_the_expected_cases() {
    let mut bytes = fixture("anp3/anp3_types_1_to_4.ifp");
    bytes[36 + 36 + 24..36 + 36 + 28].copy_from_slice(&9u32.to_le_bytes());
    let err = Ifp::read(&bytes).unwrap_err();
    assert_eq!(err.path(), "body.anp3.animations[0].objects[0].frames");
    assert!(err.to_string().contains("rotation_compressed"), "{err}");
}

#[test]
fn the_writer_refuses_counts_that_disagree_with_lists() {
    let bytes = fixture("anp3/anp3_types_1_to_4.ifp");
    let mut file = Ifp::read(&bytes).unwrap();
    let IfpBody::Anp3(body) = &mut file.body else {
        panic!()
    };
    body.animations[0].objects.pop();
    let err = file.to_bytes().unwrap_err();
    assert_eq!(err.path(), "body.anp3.animations[0].objects", "{err}");
    file.normalize().unwrap();
    let again = Ifp::read(&file.to_bytes().unwrap()).unwrap();
    assert_eq!(again, file);
}

#[test]
fn codec_metadata_comes_from_the_schema() {
    assert_eq!(Ifp::FORMAT, "ifp");
    assert!(Ifp::matches_magic(b"ANP3...."));
    assert!(!Ifp::matches_magic(b"RIFF"));
}
