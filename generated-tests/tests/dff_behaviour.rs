//! The DFF codec on real and hand-built models: every skin decodes into sane typed values,
//! the Skin reader works on its own with parameters, and size disagreements are reported.

use std::path::{Path, PathBuf};

use skelcodec_formats::dff::*;
use skelcodec_formats::rw::{FoundSkin, version_text};
use skelcodec_runtime::{Reader, Writer};

fn fixture(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/dff")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[track_caller]
fn corpus_files() -> Vec<PathBuf> {
    let Some(dir) = skelcodec_runtime::testing::corpus_dir(env!("CARGO_MANIFEST_DIR")) else {
        return Vec::new();
    };
    let mut files: Vec<_> = std::fs::read_dir(dir.join("rw/dff"))
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("dff")));
    files.sort();
    files
}

/// The invariants every skin must satisfy; returns a description of the layout seen.
fn assert_sane_skin(name: &str, found: &FoundSkin<'_>) -> &'static str {
    let skin = found.skin;
    let view = skin.view().expect("known layout");
    let num_vertices = found.geometry_struct.num_vertices as usize;
    assert_eq!(view.bones.len(), usize::from(view.num_bones), "{name}");
    let layout = match &skin.layout {
        SkinLayout::SkinNative(_) => "native ps2",
        SkinLayout::SkinPlain(plain) if plain.num_used_bones == 0 => "old",
        SkinLayout::SkinPlain(plain) => match &plain.split {
            Some(split) if split.num_meshes != 0 => "new with split data",
            _ => "new",
        },
    };
    if !matches!(skin.layout, SkinLayout::SkinNative(_)) {
        assert_eq!(
            view.vertex_weights.len(),
            num_vertices,
            "{name}: one weight set per vertex"
        );
        assert_eq!(view.vertex_bone_indices.len(), num_vertices, "{name}");
        if view.max_weights_per_vertex > 0 {
            // Real exporters leave a few vertices unnormalized (sa_sweet: 117 of 21650, some
            // all zero), so the sum must be 1 for nearly all vertices and never exceed 1.
            let mut unnormalized = 0;
            for (v, w) in view.vertex_weights.iter().enumerate() {
                assert!(
                    w.weights.iter().all(|x| (0.0..=1.0 + 1e-3).contains(x)),
                    "{name}: vertex {v} {w:?}"
                );
                let sum: f32 = w.weights.iter().sum();
                assert!(sum <= 1.0 + 1e-3, "{name}: vertex {v} weights sum to {sum}");
                if (sum - 1.0).abs() >= 1e-3 {
                    unnormalized += 1;
                }
            }
            assert!(
                unnormalized * 100 <= num_vertices,
                "{name}: {unnormalized} of {num_vertices} vertices have weights that do not sum to 1"
            );
            if unnormalized > 0 {
                println!(
                    "{name}: {unnormalized} of {num_vertices} vertices are not normalized in the file"
                );
            }
        }
    }
    for (b, bone) in view.bones.iter().enumerate() {
        let m = bone.matrix();
        for i in 0..3 {
            for j in 0..3 {
                let dot: f32 = (0..3).map(|k| m[i][k] * m[j][k]).sum();
                let want = if i == j { 1.0 } else { 0.0 };
                assert!(
                    (dot - want).abs() < 0.02,
                    "{name}: bone {b} rotation rows {i},{j} dot {dot}"
                );
            }
        }
        if layout == "old" {
            assert_eq!(bone.marker, Some(0xDEAD_DEAD), "{name}: bone {b}");
        }
    }
    layout
}

#[test]
fn every_corpus_skin_decodes_to_sane_values() {
    let mut skins = 0;
    for path in corpus_files() {
        let name = path.display().to_string();
        let bytes = std::fs::read(&path).unwrap();
        let model = Dff::read(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(model.to_bytes().unwrap(), bytes, "{name}: round trip");
        for found in model.skins() {
            let layout = assert_sane_skin(&name, &found);
            println!("{name}: skin of geometry {} is {layout}", found.geometry);
            skins += 1;
        }
    }
    println!("{skins} skins checked");
}

/// Re-encodes a skin on its own and decodes the bytes with the standalone reader.
fn standalone_round_trip(found: &FoundSkin<'_>, original: &[u8]) {
    let g = found.geometry_struct;
    let (vertices, version, native) = (i64::from(g.num_vertices), g.version(), g.is_native);
    let mut w = Writer::new();
    found
        .skin
        .write_to(&mut w, vertices, version, native)
        .unwrap();
    let payload = w.into_bytes().unwrap();
    assert!(
        original
            .windows(payload.len())
            .any(|window| window == payload),
        "the skin payload is a run of the original file"
    );
    let alone = Skin::read_from(&mut Reader::new(&payload), vertices, version, native).unwrap();
    assert_eq!(&alone, found.skin);
}

#[test]
fn the_skin_reader_works_on_its_own_with_parameters() {
    let bytes = fixture("skin_new_layout_split.dff");
    let model = Dff::read(&bytes).unwrap();
    for found in model.skins() {
        standalone_round_trip(&found, &bytes);
    }
    for path in corpus_files() {
        let bytes = std::fs::read(&path).unwrap();
        for found in Dff::read(&bytes).unwrap().skins() {
            standalone_round_trip(&found, &bytes);
        }
    }
}

#[test]
fn fixtures_decode_to_the_values_they_were_built_with() {
    let model = Dff::read(&fixture("skin_new_layout_split.dff")).unwrap();
    let skins = model.skins();
    assert_eq!(skins.len(), 1);
    let g = skins[0].geometry_struct;
    assert_eq!(
        (g.version_text(), g.num_vertices, g.is_native),
        ("3.6.0.3".into(), 5, false)
    );
    let SkinLayout::SkinPlain(skin) = &skins[0].skin.layout else {
        panic!("plain")
    };
    assert_eq!(
        (
            skin.num_bones,
            skin.num_used_bones,
            skin.max_weights_per_vertex
        ),
        (3, 3, 2)
    );
    assert_eq!(skin.used_bones, [0, 1, 2]);
    let split = skin.split.as_ref().expect("split data");
    assert_eq!(
        (split.bone_limit, split.num_meshes, split.rle_size),
        (2, 2, 3)
    );
    assert_eq!(split.remap_indices.as_deref(), Some(&[0u8, 1, 2][..]));
    let rle: Vec<_> = split
        .rle
        .as_ref()
        .unwrap()
        .iter()
        .map(|r| (r.first, r.count))
        .collect();
    assert_eq!(rle, [(0, 2), (2, 1), (1, 1)]);

    let old = Dff::read(&fixture("skin_old_layout_pre31.dff")).unwrap();
    let found = &old.skins()[0];
    assert_eq!(found.geometry_struct.library_id, 0x310);
    assert_eq!(found.geometry_struct.version_text(), "3.1.0.0");
    assert!(found.geometry_struct.surface_properties.is_some());
    assert_eq!(
        old.clumps().next().unwrap().info.num_lights,
        None,
        "pre-3.1 clump struct holds only the atomic count"
    );
    assert_eq!(assert_sane_skin("pre31", found), "old");

    let two = Dff::read(&fixture("two_clumps.dff")).unwrap();
    assert_eq!(two.clumps().count(), 2);
    assert!(two.tail.0.is_empty());
    let padded = Dff::read(&fixture("skin_new_layout_nosplit.dff")).unwrap();
    assert_eq!(
        (padded.clumps().count(), padded.tail.0.len()),
        (1, 2048 - 922)
    );
}

#[test]
fn stale_bytes_a_skin_size_covers_are_data_that_normalize_keeps() {
    let bytes = fixture("skin_size_overstated.dff");
    let mut model = Dff::read(&bytes).unwrap();
    // The stated size counts the 8 stale bytes, so it agrees with the content.
    assert!(model.check().is_empty(), "{:?}", model.check());
    let stale = |model: &Dff| model.skins()[0].skin.stale.0.clone();
    assert_eq!(stale(&model), [0xee; 8]);
    model.normalize().unwrap();
    assert_eq!(stale(&model), [0xee; 8]);
    assert_eq!(model.to_bytes().unwrap(), bytes);
    // The clean fixtures have no disagreements at all.
    assert!(
        Dff::read(&fixture("skin_new_layout_split.dff"))
            .unwrap()
            .check()
            .is_empty()
    );
}

#[test]
fn versions_unpack_per_librw() {
    assert_eq!(version_text(0x36003), "3.6.0.3");
    let model = Dff::read(&fixture("skin_old_layout_rw33.dff")).unwrap();
    let g = model.skins()[0].geometry_struct;
    assert_eq!((g.library_id, g.version()), (0x0C02_FFFF, 0x33002));
}

#[test]
fn truncated_models_fail_with_offset_and_path() {
    let bytes = fixture("skin_new_layout_split.dff");
    for len in (0..bytes.len()).step_by(7) {
        let err = Dff::read(&bytes[..len]).expect_err("truncated");
        assert!(err.offset() <= len as u64, "{err}");
        assert!(len < 12 || !err.path().is_empty(), "{len}: {err}");
    }
}

#[test]
fn a_lying_clump_size_and_trailing_bytes_are_kept_and_reported() {
    let clean = fixture("skin_new_layout_split.dff");
    let mut bytes = clean.clone();
    // The anti-editing trick: an absurd clump size, then unrelated bytes after the clump.
    bytes[4..8].copy_from_slice(&0x00FF_FFFFu32.to_le_bytes());
    bytes.extend_from_slice(b"unrelated trailing bytes");
    let mut model = Dff::read(&bytes).expect("structures are read field by field");
    assert_eq!(model.tail.0, b"unrelated trailing bytes");
    assert_eq!(
        model.to_bytes().unwrap(),
        bytes,
        "the lie is written back verbatim"
    );
    let found: Vec<String> = model.check().iter().map(|m| m.path.clone()).collect();
    assert_eq!(found, ["chunks[0].body.clump.chunk_size"]);
    model.normalize().unwrap();
    assert_eq!(&model.to_bytes().unwrap()[..clean.len()], &clean[..]);
}

#[test]
fn an_absurd_vertex_count_fails_at_once() {
    let mut bytes = fixture("skin_new_layout_split.dff");
    let model = Dff::read(&bytes).unwrap();
    let vertices = model.skins()[0].geometry_struct.num_vertices;
    // Find the geometry struct's vertex count (format, triangles, vertices follow its header).
    let at = bytes
        .windows(4)
        .position(|w| w == 2u32.to_le_bytes())
        .expect("format flags 2")
        + 8;
    assert_eq!(bytes[at..at + 4], vertices.to_le_bytes());
    bytes[at..at + 4].copy_from_slice(&i32::MAX.to_le_bytes());
    let err = Dff::read(&bytes).unwrap_err();
    assert!(err.offset() <= bytes.len() as u64, "{err}");
    assert!(
        err.path()
            .starts_with("chunks[0].body.clump.geometry_list.geometries[0]"),
        "{err}"
    );
}

fn expected(name: &str) -> serde_json::Value {
    let text = String::from_utf8(fixture("expected.json")).unwrap();
    let all: serde_json::Value = serde_json::from_str(&text).unwrap();
    all[name].clone()
}

/// A decoded UV animation in the fixture builder's vocabulary (expected.json).
fn uv_animation_json(anim: &AnimAnimation) -> serde_json::Value {
    use serde_json::json;
    let uv = anim.uv.as_ref().expect("a UV interpolator");
    let frames: Vec<serde_json::Value> = match &uv.frames {
        UvAnimationFrames::UvLinearFrame(frames) => frames
            .iter()
            .map(|f| json!({"time": f.time, "previous": f.previous, "uv": f.uv}))
            .collect(),
        UvAnimationFrames::UvParamFrame(frames) => frames
            .iter()
            .map(|f| {
                json!({"time": f.time, "previous": f.previous, "theta": f.theta, "s0": f.s0,
                       "s1": f.s1, "skew": f.skew, "x": f.x, "y": f.y})
            })
            .collect(),
    };
    let interpolator = match anim.interpolator {
        Interpolator::UvLinear => "uv_linear",
        Interpolator::UvParam => "uv_param",
        Interpolator::Unknown(_) => "unknown",
    };
    let name_bytes: String = uv
        .name
        .as_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    json!({
        "interpolator": interpolator,
        "num_frames": anim.num_frames,
        "flags": anim.flags,
        "duration": anim.duration,
        "name": uv.name.text(),
        "name_bytes_hex": name_bytes,
        "node_to_uv_channel": uv.node_to_uv_channel,
        "frames": frames,
    })
}

#[test]
fn a_uv_animation_dictionary_before_the_clump_is_decoded() {
    let bytes = fixture("uv_dict_two_anims.dff");
    let model = Dff::read(&bytes).unwrap();
    let kinds: Vec<&str> = model
        .chunks
        .iter()
        .map(|c| match c.body {
            TopLevelChunkBody::Clump(_) => "clump",
            TopLevelChunkBody::UvAnimDict(_) => "uv_anim_dict",
            TopLevelChunkBody::TextureDictionary(_) => "texture_dictionary",
            TopLevelChunkBody::RawChunk(_) => "raw",
        })
        .collect();
    let want = expected("uv_dict_two_anims.dff");
    assert_eq!(serde_json::json!(kinds), want["top_level_chunks"]);
    let dicts: Vec<&UvAnimDict> = model.uv_anim_dicts().collect();
    let got: Vec<serde_json::Value> = dicts[0].animations.iter().map(uv_animation_json).collect();
    assert_eq!(
        serde_json::json!(got),
        want["uv_anim_dicts"][0]["animations"]
    );
    assert_eq!(dicts[0].structure.num_animations, 2);
    let skins = model.skins();
    assert_eq!(skins.len(), 1);
    assert_eq!(
        assert_sane_skin("uv_dict_two_anims", &skins[0]),
        "new with split data"
    );
    assert!(model.check().is_empty());
    assert_eq!(model.to_bytes().unwrap(), bytes);

    // A clump after the dictionary is read by layout even when its size is absurd.
    let clump_at = want["clumps"][0]["offset"].as_u64().unwrap() as usize;
    let mut lying = bytes.clone();
    lying[clump_at + 4..clump_at + 8].copy_from_slice(&0x0100_0000u32.to_le_bytes());
    let model = Dff::read(&lying).unwrap();
    assert_eq!(model.clumps().count(), 1);
    let reported: Vec<String> = model.check().iter().map(|m| m.path.clone()).collect();
    assert_eq!(reported, ["chunks[1].body.clump.chunk_size"]);
}

#[test]
fn the_corpus_scrolling_sign_names_its_uv_animation_in_its_material() {
    let Some(dir) = skelcodec_runtime::testing::corpus_dir(env!("CARGO_MANIFEST_DIR")) else {
        return;
    };
    let bytes = std::fs::read(dir.join("rw/dff/sa_vgsn_scrollsgn01_uvanimdict.dff")).unwrap();
    let model = Dff::read(&bytes).unwrap();
    let dict = model
        .uv_anim_dicts()
        .next()
        .expect("a UV animation dictionary");
    let [anim] = &dict.animations[..] else {
        panic!("one animation")
    };
    assert_eq!(anim.interpolator, Interpolator::UvParam);
    let uv = anim.uv.as_ref().unwrap();
    let UvAnimationFrames::UvParamFrame(frames) = &uv.frames else {
        panic!("param frames")
    };
    assert_eq!(frames.len(), 19);
    assert!(frames.windows(2).all(|w| w[0].time <= w[1].time));
    assert!(frames.iter().all(|f| f.time <= anim.duration));
    // The sign scrolls along U: the translation grows from 0 over the animation.
    assert_eq!(frames[0].x, 0.0);
    assert!(frames.iter().any(|f| f.x > 0.5), "{frames:?}");
    // The material's UV Animation PLG (kept raw in the material list) names the animation.
    let clump = model.clumps().next().unwrap();
    let materials = &clump.geometry_list.geometries[0].material_list.data.0;
    let name = uv.name.as_bytes();
    assert!(materials.windows(name.len()).any(|w| w == name));
}

/// The fields each lying Struct size of the fixtures is found at.
fn lying_size_path(chunk: usize, which: &str) -> String {
    let inner = match which {
        "clump_struct" => "info",
        "geometry_list_struct" => "geometry_list.structure",
        other => panic!("no path for {other}"),
    };
    format!("chunks[{chunk}].body.clump.{inner}.chunk_size")
}

#[test]
fn protected_models_are_read_by_layout_reported_and_repaired() {
    for name in [
        "protected_clump_struct.dff",
        "protected_geometry_list_struct.dff",
    ] {
        let bytes = fixture(name);
        let want = expected(name);
        let mut model = Dff::read(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(model.to_bytes().unwrap(), bytes, "{name}: byte-exact");
        let tail: String = model.tail.0.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(serde_json::json!(tail), want["tail_hex"], "{name}");

        let lies = want["clumps"][0]["lying_struct_sizes"].as_array().unwrap();
        let reported: Vec<String> = model.check().iter().map(ToString::to_string).collect();
        let expected: Vec<String> = lies
            .iter()
            .map(|lie| {
                format!(
                    "{}: stored {}, computed {}",
                    lying_size_path(0, lie["struct"].as_str().unwrap()),
                    lie["stated"],
                    lie["actual"]
                )
            })
            .collect();
        assert_eq!(reported, expected, "{name}");
        let skin = model.skins()[0].skin.clone();

        model.normalize().unwrap();
        let repaired = model.to_bytes().unwrap();
        let reread = Dff::read(&repaired).unwrap();
        assert!(reread.check().is_empty(), "{name}: {:?}", reread.check());
        assert_eq!(reread.skins()[0].skin, &skin, "{name}: the same skin");
        // Only the four bytes of the lying size change.
        let changed: Vec<usize> = (0..bytes.len())
            .filter(|&i| bytes[i] != repaired[i])
            .collect();
        assert_eq!(repaired.len(), bytes.len(), "{name}");
        assert!(
            !changed.is_empty() && changed[changed.len() - 1] - changed[0] < 4,
            "{name}: {changed:?}"
        );
    }
}
