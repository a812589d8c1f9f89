//! Converting GTA animation packages between ANPK (III, Vice City) and ANP3 (San Andreas):
//! every key frame the target can hold comes back from the converted file as it was.

use std::path::{Path, PathBuf};

use skelcodec_formats::gta::{
    Animation, AnpkHeaders, ConvertError, ConvertOptions, IfpTarget, IfpVersion, KeyFrame,
};
use skelcodec_formats::ifp::Ifp;

const LOSSLESS: ConvertOptions = ConvertOptions {
    compress: false,
    lossy: false,
};

/// Fixtures, then corpus files, of one version.
#[track_caller]
fn files(version: &str) -> Vec<PathBuf> {
    let mut dirs = vec![
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/ifp")
            .join(version),
    ];
    if let Some(corpus) = skelcodec_runtime::testing::corpus_dir(env!("CARGO_MANIFEST_DIR")) {
        dirs.push(corpus.join("ifp").join(version));
    }
    let mut found: Vec<PathBuf> = dirs
        .iter()
        .flat_map(|dir| skelcodec_generated_tests::files_under(dir))
        .filter(|p| p.extension().is_some_and(|e| e == "ifp"))
        .collect();
    found.sort();
    found
}

/// Converts, encodes and reads back.
fn through(ifp: &Ifp, to: IfpVersion, options: ConvertOptions) -> Ifp {
    let converted = ifp.converted(to, options).unwrap();
    assert_eq!(
        converted.dropped.is_empty(),
        !options.lossy,
        "{:?}",
        converted.dropped
    );
    let bytes = converted.ifp.to_bytes().unwrap();
    let back = Ifp::read(&bytes).unwrap();
    assert_eq!(back.version(), to);
    assert!(back.check().is_empty(), "{:?}", back.check());
    back
}

/// The key frames without what one version has and the other has not (ANPK's ignored
/// scale when it is 1, and the bone id III files do not store).
fn frames(animations: &[Animation]) -> Vec<(String, String, Vec<KeyFrame>)> {
    animations
        .iter()
        .flat_map(|a| {
            a.tracks.iter().map(|t| {
                let frames = t
                    .frames
                    .iter()
                    .map(|k| KeyFrame { scale: None, ..*k })
                    .collect();
                (a.name.clone(), t.name.clone(), frames)
            })
        })
        .collect()
}

/// The key frames alone, without names.
fn key_frames(animations: &[Animation]) -> Vec<Vec<KeyFrame>> {
    frames(animations).into_iter().map(|(_, _, f)| f).collect()
}

#[test]
fn anpk_packages_convert_to_anp3_and_back_with_the_same_key_frames() {
    let mut converted = 0;
    for path in files("anpk") {
        let ifp = Ifp::read(&std::fs::read(&path).unwrap()).unwrap();
        let source = ifp.animations();
        // A scale other than 1 or a bone name longer than ANP3's 23 bytes is refused, and
        // dropped with --lossy (tested by name below); the key frames still arrive.
        let options = match ifp.converted(IfpVersion::Anp3, LOSSLESS) {
            Err(ConvertError::WouldLose(..)) => ConvertOptions {
                compress: false,
                lossy: true,
            },
            _ => LOSSLESS,
        };
        let anp3 = through(&ifp, IfpVersion::Anp3, options);
        let anpk = through(&anp3, IfpVersion::Anpk, LOSSLESS);
        for back in [&anp3, &anpk] {
            assert_eq!(
                key_frames(&back.animations()),
                key_frames(&source),
                "{}",
                path.display()
            );
        }
        if !options.lossy {
            assert_eq!(
                frames(&anpk.animations()),
                frames(&source),
                "{}",
                path.display()
            );
        }
        // The bone ids Vice City stores survive the trip.
        let ids = |a: &[Animation]| -> Vec<Option<i32>> {
            a.iter()
                .flat_map(|a| a.tracks.iter().map(|t| t.bone_id))
                .collect()
        };
        if ids(&source).iter().all(Option::is_some) {
            assert_eq!(ids(&anpk.animations()), ids(&source), "{}", path.display());
        }
        converted += 1;
    }
    eprintln!("{converted} ANPK packages converted to ANP3 and back");
    assert!(converted > 0);
}

#[test]
fn anp3_packages_convert_to_anpk_and_back_bit_for_bit() {
    let mut converted = 0;
    for path in files("anp3") {
        let bytes = std::fs::read(&path).unwrap();
        let ifp = Ifp::read(&bytes).unwrap();
        let source = ifp.animations();
        let anpk = through(&ifp, IfpVersion::Anpk, LOSSLESS);
        assert_eq!(
            frames(&anpk.animations()),
            frames(&source),
            "{}",
            path.display()
        );
        // Compressed frames come back to the same 16-bit values.
        let compressed = match &ifp.body {
            skelcodec_formats::ifp::IfpBody::Anp3(a) => {
                a.animations.iter().all(|a| a.flags & 1 == 1)
            }
            _ => unreachable!(),
        };
        let options = ConvertOptions {
            compress: compressed,
            lossy: false,
        };
        let mut again = anpk.converted(IfpVersion::Anp3, options).unwrap().ifp;
        let mut original = ifp.clone();
        // Only the layout-derived fields and what ANP3 alone stores may differ.
        original.tail = Default::default();
        again.normalize().unwrap();
        original.normalize().unwrap();
        if compressed && frames_of_types_3_and_4(&original) {
            assert_eq!(
                frame_values(&again),
                frame_values(&original),
                "{}",
                path.display()
            );
        }
        converted += 1;
    }
    eprintln!("{converted} ANP3 packages converted to ANPK and back");
    assert!(converted > 0);
}

fn frames_of_types_3_and_4(ifp: &Ifp) -> bool {
    use skelcodec_formats::ifp::{Anp3FrameType as T, IfpBody};
    match &ifp.body {
        IfpBody::Anp3(a) => a.animations.iter().flat_map(|a| &a.objects).all(|o| {
            matches!(
                o.frame_type,
                T::RotationCompressed | T::RotationTranslationCompressed
            )
        }),
        IfpBody::Anpk(_) => false,
    }
}

/// Every object's frames as stored, for comparing two ANP3 packages.
fn frame_values(ifp: &Ifp) -> Vec<String> {
    match &ifp.body {
        skelcodec_formats::ifp::IfpBody::Anp3(a) => a
            .animations
            .iter()
            .flat_map(|a| &a.objects)
            .map(|o| format!("{:?}", o.frames))
            .collect(),
        _ => Vec::new(),
    }
}

/// The hand-built fixture with a KRTS object whose second key frame scales (2, 0.5, 1.5).
fn scaled() -> Ifp {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/ifp/anpk/anpk_kr00_krt0_krts.ifp");
    Ifp::read(&std::fs::read(path).unwrap()).unwrap()
}

#[test]
fn a_scale_anp3_cannot_hold_is_refused_by_name_or_dropped_with_lossy() {
    let ifp = scaled();
    let scaled_track = ifp.animations()[0].tracks[2].name.clone();
    let err = ifp.converted(IfpVersion::Anp3, LOSSLESS).unwrap_err();
    let message = err.to_string();
    assert!(matches!(err, ConvertError::WouldLose(..)), "{message}");
    let expected = format!(
        "animation `{}`, bone `{scaled_track}`: 1 key frame scales the bone (the first by 2, 0.5, \
         1.5; the games ignore scale); San Andreas animations (anp3) cannot hold that, so \
         nothing was converted (--lossy converts without it)",
        ifp.animations()[0].name
    );
    assert_eq!(message, expected);

    let lossy = ifp
        .converted(
            IfpVersion::Anp3,
            ConvertOptions {
                compress: false,
                lossy: true,
            },
        )
        .unwrap();
    assert_eq!(lossy.dropped.len(), 1);
    assert_eq!(
        lossy.dropped[0].object.as_deref(),
        Some(scaled_track.as_str())
    );
    let back = Ifp::read(&lossy.ifp.to_bytes().unwrap()).unwrap();
    assert_eq!(frames(&back.animations()), frames(&ifp.animations()));
}

#[test]
fn compress_rounds_to_the_grid_and_refuses_what_is_out_of_range() {
    let ifp = scaled();
    let options = ConvertOptions {
        compress: true,
        lossy: true,
    };
    let compressed = ifp.converted(IfpVersion::Anp3, options).unwrap().ifp;
    let back = Ifp::read(&compressed.to_bytes().unwrap()).unwrap();
    for ((_, _, want), (_, _, got)) in frames(&ifp.animations())
        .iter()
        .zip(frames(&back.animations()))
    {
        for (w, g) in want.iter().zip(&got) {
            assert!((w.time - g.time).abs() <= 0.5 / 60.0);
            assert!((w.rotation.w - g.rotation.w).abs() <= 0.5 / 4096.0);
        }
    }
    // A translation of 100 units is beyond the 1/1024 grid's ±32.
    let mut far = ifp.clone();
    if let skelcodec_formats::ifp::IfpBody::Anpk(anpk) = &mut far.body {
        for object in &mut anpk.animations[0].objects {
            if let Some(k) = &mut object.keyframes
                && let skelcodec_formats::ifp::AnpkKeyframesFrames::AnpkKrt0(frames) = &mut k.frames
            {
                frames[0].translation.x = 100.0;
            }
        }
    }
    let err = far
        .converted(IfpVersion::Anp3, options)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("translation 100") && err.contains("key frame 0"),
        "{err}"
    );
}

/// Each object header of an ANPK package: its size, bone tag and GTA III's two words.
fn headers(ifp: &Ifp) -> Vec<(u32, Option<i32>, Option<[i32; 2]>)> {
    match &ifp.body {
        skelcodec_formats::ifp::IfpBody::Anpk(anpk) => (anpk.animations.iter())
            .flat_map(|a| &a.objects)
            .map(|o| (o.anim_size, o.bone_tag, o.extra_words))
            .collect(),
        skelcodec_formats::ifp::IfpBody::Anp3(_) => Vec::new(),
    }
}

/// Converts, through its bytes; with `--lossy` when the target refuses (what it drops is
/// checked by the caller).
fn written(ifp: &Ifp, to: IfpTarget) -> (Ifp, Vec<String>) {
    let converted = match ifp.converted(to, LOSSLESS) {
        Err(ConvertError::WouldLose(..)) => ifp.converted(to, LOSSY).unwrap(),
        other => other.unwrap(),
    };
    let back = Ifp::read(&converted.ifp.to_bytes().unwrap()).unwrap();
    let dropped = converted.dropped.iter().map(|d| d.what.clone()).collect();
    (back, dropped)
}

const LOSSY: ConvertOptions = ConvertOptions {
    compress: false,
    lossy: true,
};

#[test]
fn gta3_object_headers_are_written_when_chosen_and_kept_when_already() {
    let gta3 = IfpTarget::Anpk(Some(AnpkHeaders::Gta3));
    let mut checked = 0;
    for path in files("anpk") {
        let ifp = Ifp::read(&std::fs::read(&path).unwrap()).unwrap();
        // Vice City's bone ids do not fit GTA III's headers: only they are dropped.
        let (iii, dropped) = written(&ifp, gta3);
        assert!(
            dropped.iter().all(|d| d.starts_with("its bone id ")),
            "{}: {dropped:?}",
            path.display()
        );
        // A package that has GTA III's headers already is kept as it is, the two words with
        // it; others get -1 there.
        let kept = ifp.is_already(gta3);
        let objects = headers(&iii);
        assert!(!objects.is_empty());
        let wrong = objects.iter().find(|(size, tag, words)| {
            (*size, *tag) != (48, None) || (!kept && *words != Some([-1, -1]))
        });
        assert_eq!(wrong, None, "{}", path.display());
        if kept {
            assert_eq!(iii, ifp, "{}", path.display());
        }
        assert_eq!(key_frames(&iii.animations()), key_frames(&ifp.animations()));
        // Already GTA III's: `anpk` and `anpk-iii` leave it; `anpk-vc` gives Vice City's.
        assert!(iii.is_already(gta3) && iii.is_already(IfpVersion::Anpk.into()));
        let (vc, dropped) = written(&iii, IfpTarget::Anpk(Some(AnpkHeaders::ViceCity)));
        assert!(dropped.is_empty(), "{dropped:?}");
        let wrong = headers(&vc)
            .into_iter()
            .find(|h| *h != (44, Some(-1), None));
        assert_eq!(wrong, None, "{}", path.display());
        // Through San Andreas and back to GTA III's headers, no bone id is in the way.
        let (anp3, _) = written(&iii, IfpTarget::Anp3);
        let (again, dropped) = written(&anp3, gta3);
        assert!(dropped.is_empty(), "{}: {dropped:?}", path.display());
        let wrong = headers(&again)
            .into_iter()
            .find(|h| *h != (48, None, Some([-1, -1])));
        assert_eq!(wrong, None, "{}", path.display());
        checked += 1;
    }
    assert!(checked > 0);
}

#[test]
fn san_andreas_bone_ids_are_refused_by_gta3_headers_and_dropped_when_lossy() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/ifp/anp3/anp3_types_1_to_4.ifp");
    let ifp = Ifp::read(&std::fs::read(path).unwrap()).unwrap();
    let gta3 = IfpTarget::Anpk(Some(AnpkHeaders::Gta3));
    let refused = ifp.converted(gta3, LOSSLESS).unwrap_err().to_string();
    assert!(
        refused.contains(", bone `") && refused.contains(": its bone id "),
        "{refused}"
    );
    assert!(
        refused.ends_with(
            "GTA III's 48-byte object headers (anpk-iii) cannot hold that, so nothing was \
             converted (--lossy converts without it)"
        ),
        "{refused}"
    );
    let dropped = ifp.converted(gta3, LOSSY).unwrap().dropped;
    let with_ids = ifp
        .animations()
        .iter()
        .flat_map(|a| &a.tracks)
        .filter(|t| t.bone_id.is_some_and(|id| id != -1))
        .count();
    assert_eq!(dropped.len(), with_ids);
    assert!(with_ids > 0);
}
