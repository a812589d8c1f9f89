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
    // A material's UV Animation PLG names the animation, in its channel 0.
    let clump = model.clumps().next().unwrap();
    let named: Vec<&MaterialUvAnimation> = clump.geometry_list.geometries[0]
        .material_list
        .materials
        .iter()
        .filter_map(|slot| slot.material.as_ref())
        .flat_map(|m| &m.extension.body.plugins)
        .filter_map(|p| match &p.body {
            MaterialPluginBody::MaterialUvAnimation(uv) => Some(uv),
            _ => None,
        })
        .collect();
    let [plugin] = &named[..] else {
        panic!("one material with a UV animation: {named:?}")
    };
    assert_eq!(plugin.channels, 1);
    assert_eq!(plugin.animation_names.len(), 1);
    assert_eq!(plugin.animation_names[0].as_bytes(), uv.name.as_bytes());
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

// ---------------------------------------------------------------- materials, frames, plugins
//
// Models built here byte by byte from librw's stream readers (`MaterialList::streamRead`,
// `Material::streamRead`, `Texture::streamRead`, `readMaterialMatFX`, `readHAnim`) and
// librwgta's (`readNodeName`, `readEnvMat`, `readSpecMat`): every expected value below is one
// the builder wrote.

/// RenderWare 3.6.0.3, as San Andreas writes it.
const LIB_36: u32 = 0x1803_FFFF;

fn words(values: &[u32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

fn floats(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// A chunk: type, size of the payload, library id, payload.
fn chunk(chunk_type: u32, payload: &[u8]) -> Vec<u8> {
    let mut out = words(&[chunk_type, payload.len() as u32, LIB_36]);
    out.extend_from_slice(payload);
    out
}

fn cat(parts: &[&[u8]]) -> Vec<u8> {
    parts.concat()
}

/// A String chunk: the bytes as given (text, NUL, padding or garbage).
fn string_chunk(stored: &[u8]) -> Vec<u8> {
    assert_eq!(stored.len() % 4, 0, "RenderWare pads strings to 4 bytes");
    chunk(0x02, stored)
}

/// A Texture chunk: filtering word, name, mask name, an empty extension.
fn texture_chunk(filtering: u32, name: &[u8], mask: &[u8]) -> Vec<u8> {
    chunk(
        0x06,
        &cat(&[
            &chunk(0x01, &words(&[filtering])),
            &string_chunk(name),
            &string_chunk(mask),
            &chunk(0x03, &[]),
        ]),
    )
}

/// A Material chunk of RenderWare 3.6: Struct (flags, colour, unused, textured, surface
/// properties), the texture when there is one, the extension's plugins.
fn material_chunk(color: [u8; 4], texture: Option<Vec<u8>>, plugins: &[u8]) -> Vec<u8> {
    let mut structure = words(&[0]);
    structure.extend_from_slice(&color);
    structure.extend(words(&[0, u32::from(texture.is_some())]));
    structure.extend(floats(&[1.0, 0.25, 0.75]));
    chunk(
        0x07,
        &cat(&[
            &chunk(0x01, &structure),
            &texture.unwrap_or_default(),
            &chunk(0x03, plugins),
        ]),
    )
}

/// The filtering word: linear mip linear (6), wrap (1) in U, clamp (3) in V, mipmaps stored.
const FILTERING: u32 = 6 | 1 << 8 | 3 << 12 | 1 << 16;

/// Rockstar's specular material: specularity 0.75, a 24-byte texture name "spec".
fn specular_plugin() -> Vec<u8> {
    let mut specular = floats(&[0.75]);
    specular.extend_from_slice(b"spec\0");
    specular.resize(4 + 24, 0);
    chunk(0x253F2F6, &specular)
}

/// A one-geometry clump: two frames (named, with an HAnim hierarchy of two nodes on the
/// first), a triangle whose material list holds three materials, the second an instance of
/// the first, the third untextured with a specular plugin, and one atomic.
fn hand_built_model(frame_names: [&str; 2]) -> Vec<u8> {
    hand_built_model_with(frame_names, &specular_plugin())
}

/// The same, with the given plugins on the third material.
fn hand_built_model_with(frame_names: [&str; 2], third_plugins: &[u8]) -> Vec<u8> {
    // Frames: identity rotation, position, parent, flags.
    let frame = |parent: i32| {
        let mut f = floats(&[1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0]);
        f.extend(words(&[parent as u32, 0]));
        f
    };
    let frame_list_struct = cat(&[&words(&[2]), &frame(-1), &frame(0)]);
    // HAnim: version 0x100, node id, node count; the root adds flags, key-frame size and
    // (node id, index, flags) per node.
    let hanim_root = words(&[0x100, 10, 2, 0, 36, 10, 0, 0, 11, 1, 1]);
    let hanim_child = words(&[0x100, 11, 0]);
    let frame_ext = |hanim: &[u8], name: &str| {
        chunk(
            0x03,
            &cat(&[&chunk(0x11E, hanim), &chunk(0x253F2FE, name.as_bytes())]),
        )
    };
    let frame_list = chunk(
        0x0E,
        &cat(&[
            &chunk(0x01, &frame_list_struct),
            &frame_ext(&hanim_root, frame_names[0]),
            &frame_ext(&hanim_child, frame_names[1]),
        ]),
    );

    // Geometry: positions only (flags 0x2), one triangle, three vertices, one morph target.
    let geometry_struct = cat(&[
        &words(&[0x2, 1, 3, 1]),
        // v0 << 16 | v1, then v2 << 16 | material: vertices 0, 1, 2 with material 2.
        &words(&[1, 2 << 16 | 2]),
        &floats(&[0.5, 0.5, 0.0, 1.0]),
        &words(&[1, 0]),
        &floats(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0]),
    ]);
    // Material effects: an environment map (effects 2; slot 1: env map, coefficient 0.5,
    // frame-buffer alpha 0, with a texture; slot 2: nothing).
    let matfx = cat(&[
        &words(&[2, 2]),
        &floats(&[0.5]),
        &words(&[0, 1]),
        &texture_chunk(2 | 1 << 8, b"envmap\0\0", b"\0\0\0\0"),
        &words(&[0]),
    ]);
    // Rockstar's reflection material: scale, translation scale, shininess, 0.
    let reflection = cat(&[&floats(&[1.0, 1.0, 0.5, 0.5, 0.25]), &words(&[0])]);
    let textured = material_chunk(
        [0x10, 0x20, 0x30, 0xFF],
        Some(texture_chunk(
            FILTERING,
            b"body_tex\0\0\0\0",
            b"mask\0\xAA\xBB\xCC", // garbage after the NUL, kept
        )),
        &cat(&[
            &chunk(0x120, &matfx),
            &chunk(0x253F2FC, &reflection),
            &chunk(0x12345, b"unknown plugin"),
        ]),
    );
    let plain = material_chunk([1, 2, 3, 4], None, third_plugins);
    let material_list = chunk(
        0x08,
        &cat(&[
            &chunk(0x01, &words(&[3, -1i32 as u32, 0, -1i32 as u32])),
            &textured,
            &plain,
        ]),
    );
    // Bin mesh: triangle lists, one mesh of three indices with material 2.
    let bin_mesh = words(&[0, 1, 3, 3, 2, 0, 1, 2]);
    let geometry = chunk(
        0x0F,
        &cat(&[
            &chunk(0x01, &geometry_struct),
            &material_list,
            &chunk(0x03, &chunk(0x50E, &bin_mesh)),
        ]),
    );
    let geometry_list = chunk(0x1A, &cat(&[&chunk(0x01, &words(&[1])), &geometry]));
    // Atomic: frame 0, geometry 0, flags 5, unused; Right To Render (skin, 1), MatFX on.
    let atomic = chunk(
        0x14,
        &cat(&[
            &chunk(0x01, &words(&[0, 0, 5, 0])),
            &chunk(
                0x03,
                &cat(&[
                    &chunk(0x1F, &words(&[0x116, 1])),
                    &chunk(0x120, &words(&[1])),
                ]),
            ),
        ]),
    );
    chunk(
        0x10,
        &cat(&[
            &chunk(0x01, &words(&[1, 0, 0])),
            &frame_list,
            &geometry_list,
            &atomic,
            &chunk(0x03, &[]),
        ]),
    )
}

/// Adds `grow` to the stated size of the first chunk of this type (a header whose library id
/// is [`LIB_36`]).
fn grow_first_chunk(bytes: &mut [u8], chunk_type: u32, grow: u32) {
    let word = |bytes: &[u8], i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().unwrap());
    let at = (0..bytes.len() - 12)
        .find(|&i| word(bytes, i) == chunk_type && word(bytes, i + 8) == LIB_36)
        .unwrap_or_else(|| panic!("no chunk {chunk_type:#x}"));
    let size = word(bytes, at + 4) + grow;
    bytes[at + 4..at + 8].copy_from_slice(&size.to_le_bytes());
}

fn only_clump(model: &Dff) -> &Clump {
    let clumps: Vec<&Clump> = model.clumps().collect();
    assert_eq!(clumps.len(), 1);
    clumps[0]
}

#[test]
fn a_hand_built_material_list_decodes_to_what_was_written() {
    let bytes = hand_built_model(["root", "bone1"]);
    let model = Dff::read(&bytes).unwrap();
    assert!(model.check().is_empty(), "{:?}", model.check());
    assert_eq!(model.to_bytes().unwrap(), bytes, "byte-exact");
    let clump = only_clump(&model);
    let list = &clump.geometry_list.geometries[0].material_list;
    assert_eq!(list.structure.num_materials, 3);
    assert_eq!(list.structure.indices, [-1, 0, -1]);
    let own: Vec<bool> = list
        .materials
        .iter()
        .map(|s| s.material.is_some())
        .collect();
    assert_eq!(
        own,
        [true, false, true],
        "index 0 instances the first material"
    );
    let resolved = list.resolved();
    let (first, plain) = (resolved[0].unwrap(), resolved[2].unwrap());
    assert!(
        std::ptr::eq(resolved[1].unwrap(), first),
        "the instance is the first material"
    );

    // The textured material: colour, surface properties (RenderWare 3.6 stores them).
    let s = &first.structure;
    assert_eq!(
        (s.color.r, s.color.g, s.color.b, s.color.a),
        (0x10, 0x20, 0x30, 0xFF)
    );
    let props = s
        .surface_properties
        .as_ref()
        .expect("3.6 has surface properties");
    assert_eq!(
        (props.ambient, props.specular, props.diffuse),
        (1.0, 0.25, 0.75)
    );
    let texture = first.texture.as_ref().expect("textured");
    let t = &texture.structure;
    assert_eq!(
        (t.filter_mode, t.address_u, t.address_v, t.has_mipmaps),
        (6, 1, 3, true)
    );
    assert_eq!((t.unused_bits, t.unused_high), (0, 0));
    assert_eq!(first.texture_name().as_deref(), Some("body_tex"));
    assert_eq!(texture.name.chunk_size, 12);
    assert_eq!(texture.mask_name.value.text(), "mask");
    assert_eq!(texture.mask_name.value.after_terminator(), b"\xAA\xBB\xCC");

    // Its plugins: an environment map, a reflection material, an unknown plugin kept raw.
    let plugins = &first.extension.body.plugins;
    assert_eq!(plugins.len(), 3);
    let MaterialPluginBody::MatfxMaterial(matfx) = &plugins[0].body else {
        panic!("material effects: {:?}", plugins[0])
    };
    assert_eq!(matfx.effects, MatfxEffect::EnvMap);
    assert_eq!(matfx.slots[0].effect, MatfxEffect::EnvMap);
    let MatfxSlotData::MatfxEnvMap(env) = &matfx.slots[0].data else {
        panic!("env map: {:?}", matfx.slots[0])
    };
    assert_eq!((env.coefficient, env.use_frame_buffer_alpha), (0.5, 0));
    let env_texture = env.texture.as_ref().expect("an environment texture");
    assert_eq!(env_texture.name.value.text(), "envmap");
    assert_eq!(
        (
            env_texture.structure.filter_mode,
            env_texture.structure.address_u
        ),
        (2, 1)
    );
    assert_eq!(matfx.slots[1].effect, MatfxEffect::Nothing);
    assert!(matfx.stale.0.is_empty());
    let MaterialPluginBody::ReflectionMaterial(reflection) = &plugins[1].body else {
        panic!("reflection: {:?}", plugins[1])
    };
    assert_eq!(
        (
            reflection.scale_x,
            reflection.trans_scale_y,
            reflection.shininess
        ),
        (1.0, 0.5, 0.25)
    );
    assert_eq!(plugins[2].chunk_type, SectionType::Unknown(0x12345));
    let MaterialPluginBody::Raw(raw) = &plugins[2].body else {
        panic!("an unknown plugin stays raw: {:?}", plugins[2])
    };
    assert_eq!(raw.0, b"unknown plugin");

    // The untextured material and its specular plugin.
    assert!(plain.texture.is_none());
    assert_eq!(plain.structure.is_textured, 0);
    let MaterialPluginBody::SpecularMaterial(specular) = &plain.extension.body.plugins[0].body
    else {
        panic!("specular")
    };
    assert_eq!(specular.specularity, 0.75);
    assert_eq!(specular.texture_name.text(), "spec");

    // The geometry's Bin Mesh PLG and the atomic's plugins.
    let GeometryPluginBody::BinMesh(mesh) =
        &clump.geometry_list.geometries[0].extension.body.plugins[0].body
    else {
        panic!("bin mesh")
    };
    assert_eq!((mesh.flags, mesh.num_meshes, mesh.total_indices), (0, 1, 3));
    assert_eq!(mesh.meshes[0].material, 2);
    assert_eq!(mesh.meshes[0].indices.as_deref(), Some(&[0u32, 1, 2][..]));
    let atomic_plugins = &clump.atomics[0].extension.body.plugins;
    let AtomicPluginBody::RightToRender(rights) = &atomic_plugins[0].body else {
        panic!("rights")
    };
    assert_eq!(
        (rights.plugin_id, rights.extra_data),
        (SectionType::Skin, 1)
    );
    let AtomicPluginBody::MatfxAtomic(on) = &atomic_plugins[1].body else {
        panic!("atomic matfx")
    };
    assert_eq!(on.effects_enabled, 1);
}

#[test]
fn hand_built_frames_have_their_names_and_hanim_hierarchy() {
    let model = Dff::read(&hand_built_model(["root", "bone1"])).unwrap();
    let frames = &only_clump(&model).frame_list;
    let names: Vec<String> = frames
        .extensions
        .iter()
        .map(|e| e.name().expect("a name").name.text().into_owned())
        .collect();
    assert_eq!(names, ["root", "bone1"]);
    let root = frames.extensions[0].hanim().expect("HAnim on the root");
    assert_eq!((root.version, root.node_id, root.num_nodes), (0x100, 10, 2));
    assert_eq!((root.flags, root.key_frame_size), (Some(0), Some(36)));
    let nodes: Vec<(i32, i32, u32)> = root
        .nodes
        .iter()
        .map(|n| (n.node_id, n.node_index, n.flags))
        .collect();
    assert_eq!(nodes, [(10, 0, 0), (11, 1, 1)]);
    let child = frames.extensions[1].hanim().expect("HAnim on the bone");
    assert_eq!((child.node_id, child.num_nodes), (11, 0));
    assert_eq!((child.flags, child.key_frame_size), (None, None));
    assert!(child.nodes.is_empty());
}

#[test]
fn longer_names_normalize_every_size_that_holds_them() {
    let bytes = hand_built_model(["root", "bone1"]);
    let mut model = Dff::read(&bytes).unwrap();
    {
        let clump = model.clumps_mut().next().unwrap();
        let material = clump.geometry_list.geometries[0].material_list.materials[0]
            .material
            .as_mut()
            .unwrap();
        let name = &mut material.texture.as_mut().unwrap().name.value;
        // 26 letters, a NUL and one byte of padding: 28 bytes where 12 were.
        name.set_text("a_much_longer_texture_name", 4);
        let FramePluginBody::FrameName(frame_name) =
            &mut clump.frame_list.extensions[1].body.plugins[1].body
        else {
            panic!("frame name")
        };
        frame_name.name = "a_longer_bone_name".into();
    }
    let reported: Vec<String> = model.check().iter().map(|m| m.path.clone()).collect();
    for want in [
        "chunks[0].body.clump.chunk_size",
        "chunks[0].body.clump.frame_list.extensions[1].body.plugins[1].chunk_size",
        "chunks[0].body.clump.geometry_list.geometries[0].material_list.materials[0].material.texture.name.chunk_size",
    ] {
        assert!(reported.iter().any(|p| p == want), "{want} in {reported:?}");
    }
    model.normalize().unwrap();
    assert!(model.check().is_empty(), "{:?}", model.check());
    let written = model.to_bytes().unwrap();
    assert_eq!(
        written.len(),
        bytes.len() + (28 - 12) + ("a_longer_bone_name".len() - "bone1".len())
    );
    // The same model built with those names from the start, byte for byte.
    let mut expected = hand_built_model(["root", "a_longer_bone_name"]);
    let old = b"body_tex\0\0\0\0";
    let at = expected
        .windows(old.len())
        .position(|w| w == old)
        .expect("the name");
    let mut new = b"a_much_longer_texture_name".to_vec();
    new.resize(28, 0);
    expected.splice(at..at + old.len(), new);
    let reread = Dff::read(&written).unwrap();
    assert_eq!(reread, model, "reads back as the edited model");
    let clump = only_clump(&reread);
    let list = &clump.geometry_list.geometries[0].material_list;
    let material = list.materials[0].material.as_ref().unwrap();
    assert_eq!(
        material.texture_name().as_deref(),
        Some("a_much_longer_texture_name")
    );
    assert_eq!(material.texture.as_ref().unwrap().name.chunk_size, 28);
    assert_eq!(
        clump.frame_list.extensions[1]
            .name()
            .unwrap()
            .name
            .text()
            .as_ref(),
        "a_longer_bone_name"
    );
    // The String chunk grows by 16, and with it the texture, material, material list,
    // geometry, geometry list and clump that hold it (the first chunk of each type).
    for ty in [0x02, 0x06, 0x07, 0x08, 0x0F, 0x1A, 0x10] {
        grow_first_chunk(&mut expected, ty, 16);
    }
    assert_eq!(written, expected);
}

/// The Bin Mesh PLG of the hand-built model's geometry.
fn bin_mesh(model: &mut Dff) -> &mut BinMesh {
    let clump = model.clumps_mut().next().unwrap();
    match &mut clump.geometry_list.geometries[0].extension.body.plugins[0].body {
        GeometryPluginBody::BinMesh(mesh) => mesh,
        other => panic!("bin mesh: {other:?}"),
    }
}

#[test]
fn indices_added_to_a_mesh_are_written_once_their_counts_say_so() {
    let mut model = Dff::read(&hand_built_model(["root", "bone1"])).unwrap();
    bin_mesh(&mut model).meshes[0]
        .indices
        .as_mut()
        .unwrap()
        .extend([2, 1, 0]);
    // The mesh's count no longer matches its list: refused, never written wrong.
    assert!(model.to_bytes().is_err());
    let mesh = bin_mesh(&mut model);
    mesh.meshes[0].num_indices = 6;
    mesh.total_indices = 6;
    let reported: Vec<String> = model.check().iter().map(|m| m.path.clone()).collect();
    let plugin = "chunks[0].body.clump.geometry_list.geometries[0].extension.body.plugins[0]";
    assert!(
        reported.contains(&format!("{plugin}.chunk_size")),
        "{reported:?}"
    );
    model.normalize().unwrap();
    assert!(model.check().is_empty(), "{:?}", model.check());
    let reread = Dff::read(&model.to_bytes().unwrap()).unwrap();
    assert_eq!(reread, model);
    let GeometryPluginBody::BinMesh(mesh) = &only_clump(&reread).geometry_list.geometries[0]
        .extension
        .body
        .plugins[0]
        .body
    else {
        panic!("bin mesh")
    };
    assert_eq!(
        mesh.meshes[0].indices.as_deref(),
        Some(&[0u32, 1, 2, 2, 1, 0][..])
    );
}

#[test]
fn a_lying_material_struct_size_is_read_by_layout_and_repaired() {
    let bytes = hand_built_model(["root", "bone1"]);
    // The first Material's Struct: a Material chunk header, then the Struct's header.
    let at = (0..bytes.len() - 12)
        .find(|&i| {
            bytes[i..i + 4] == 7u32.to_le_bytes() && bytes[i + 12..i + 16] == 1u32.to_le_bytes()
        })
        .expect("a material")
        + 12;
    assert_eq!(bytes[at + 4..at + 8], 28u32.to_le_bytes());
    let mut lying = bytes.clone();
    lying[at + 4..at + 8].copy_from_slice(&0x0100_0000u32.to_le_bytes());
    let mut model = Dff::read(&lying).expect("read by layout");
    assert_eq!(model.to_bytes().unwrap(), lying, "the lie is written back");
    let reported: Vec<String> = model.check().iter().map(ToString::to_string).collect();
    assert_eq!(
        reported,
        [
            "chunks[0].body.clump.geometry_list.geometries[0].material_list.materials[0].material.structure.chunk_size: stored 16777216, computed 28"
        ]
    );
    model.normalize().unwrap();
    assert_eq!(model.to_bytes().unwrap(), bytes);
}

/// The Material Effects PLG of the hand-built model's third material, built with `payload`.
fn third_material_matfx(payload: &[u8]) -> MatfxMaterial {
    let bytes = hand_built_model_with(["root", "bone1"], &chunk(0x120, payload));
    let model = Dff::read(&bytes).unwrap();
    assert!(model.check().is_empty(), "{:?}", model.check());
    assert_eq!(model.to_bytes().unwrap(), bytes);
    let list = &only_clump(&model).geometry_list.geometries[0].material_list;
    let plugins = &list.materials[2]
        .material
        .as_ref()
        .unwrap()
        .extension
        .body
        .plugins;
    match &plugins[0].body {
        MaterialPluginBody::MatfxMaterial(matfx) => matfx.clone(),
        other => panic!("material effects: {other:?}"),
    }
}

#[test]
fn bump_environment_and_dual_texture_effects_decode_per_librw() {
    // Bump and environment map (3): a bump slot (coefficient 0.8, no bumped texture, a
    // texture), then an environment slot (coefficient 0.3, frame-buffer alpha 1, no texture).
    let matfx = third_material_matfx(&cat(&[
        &words(&[3, 1]),
        &floats(&[0.8]),
        &words(&[0, 1]),
        &texture_chunk(2, b"bump\0\0\0\0", b"\0\0\0\0"),
        &words(&[2]),
        &floats(&[0.3]),
        &words(&[1, 0]),
    ]));
    assert_eq!(matfx.effects, MatfxEffect::BumpEnvMap);
    let MatfxSlotData::MatfxBumpMap(bump) = &matfx.slots[0].data else {
        panic!("bump: {:?}", matfx.slots[0])
    };
    assert_eq!((bump.coefficient, bump.has_bumped_texture), (0.8, 0));
    assert!(bump.bumped_texture.is_none());
    let texture = bump.texture.as_ref().expect("a bump texture");
    assert_eq!(texture.name.value.text(), "bump");
    let MatfxSlotData::MatfxEnvMap(env) = &matfx.slots[1].data else {
        panic!("env: {:?}", matfx.slots[1])
    };
    assert_eq!((env.coefficient, env.use_frame_buffer_alpha), (0.3, 1));
    assert!(env.texture.is_none());
    assert!(matfx.stale.0.is_empty());

    // Dual texture (4): blend functions 5 (source alpha) and 6 (inverse source alpha), a
    // texture; the second slot empty.
    let matfx = third_material_matfx(&cat(&[
        &words(&[4, 4, 5, 6, 1]),
        &texture_chunk(2, b"dual\0\0\0\0", b"\0\0\0\0"),
        &words(&[0]),
    ]));
    assert_eq!(matfx.effects, MatfxEffect::Dual);
    let MatfxSlotData::MatfxDual(dual) = &matfx.slots[0].data else {
        panic!("dual: {:?}", matfx.slots[0])
    };
    assert_eq!((dual.src_blend, dual.dst_blend), (5, 6));
    assert_eq!(dual.texture.as_ref().unwrap().name.value.text(), "dual");
    assert_eq!(matfx.slots[1].effect, MatfxEffect::Nothing);
}

#[test]
fn undocumented_material_effects_keep_their_bytes() {
    // Effects 0x63 (undocumented); slots of types 9 and 9 read nothing; 8 bytes remain.
    let matfx = third_material_matfx(&cat(&[&words(&[0x63, 9, 9]), &[0xEE; 8]]));
    assert_eq!(matfx.effects, MatfxEffect::Unknown(0x63));
    assert_eq!(matfx.slots.len(), 2);
    assert!(
        matfx
            .slots
            .iter()
            .all(|s| s.effect == MatfxEffect::Unknown(9) && s.data == MatfxSlotData::Nothing(()))
    );
    assert_eq!(matfx.stale.0, [0xEE; 8]);
}

/// Reads a real model and asserts what its materials, frames and HAnim data must be; prints
/// and returns the counts (materials, textures, frame names, HAnim nodes).
fn assert_decoded_contents(name: &str, bytes: &[u8]) -> [usize; 4] {
    let printable = |s: &str| !s.is_empty() && s.chars().all(|c| (' '..='~').contains(&c));
    let model = Dff::read(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(model.to_bytes().unwrap(), bytes, "{name}: round trip");
    let (mut materials, mut textures, mut frame_names, mut hanim_nodes) = (0, 0, 0, 0);
    for clump in model.clumps() {
        for geometry in &clump.geometry_list.geometries {
            let list = &geometry.material_list;
            assert_eq!(
                list.materials.len(),
                list.structure.num_materials as usize,
                "{name}"
            );
            assert!(
                list.resolved().iter().all(Option::is_some),
                "{name}: every index resolves"
            );
            for material in list.materials.iter().filter_map(|s| s.material.as_ref()) {
                materials += 1;
                assert_eq!(
                    material.texture.is_some(),
                    material.structure.is_textured != 0,
                    "{name}"
                );
                if let Some(texture) = material.texture_name() {
                    textures += 1;
                    assert!(printable(&texture), "{name}: texture name {texture:?}");
                }
            }
            // Every triangle's material is one of the list.
            assert!(
                geometry
                    .structure
                    .triangles
                    .iter()
                    .all(|t| usize::from(t.material) < list.materials.len()),
                "{name}"
            );
        }
        let frames = &clump.frame_list;
        let names: Vec<Option<String>> = frames
            .extensions
            .iter()
            .map(|e| e.name().map(|n| n.name.text().into_owned()))
            .collect();
        if names.iter().any(Option::is_some) {
            // Every frame but the clump's root (parent -1) is named.
            for (i, (frame, name_of)) in frames.structure.frames.iter().zip(&names).enumerate() {
                match name_of {
                    // Some exporters count a NUL in the name (sa_rc20's "unnamed\0").
                    Some(n) => assert!(
                        printable(n.trim_end_matches('\0').trim()),
                        "{name}: frame {i} {n:?}"
                    ),
                    None => assert_eq!(frame.parent, -1, "{name}: frame {i} has no name"),
                }
            }
        }
        frame_names += names.iter().flatten().count();
        // The HAnim hierarchy: one per clump at most, its nodes the frames' node ids.
        let hierarchies: Vec<&Hanim> = frames
            .extensions
            .iter()
            .filter_map(FrameExtension::hanim)
            .filter(|h| h.num_nodes > 0)
            .collect();
        assert!(hierarchies.len() <= 1, "{name}");
        if let Some(hierarchy) = hierarchies.first() {
            assert_eq!(hierarchy.version, 0x100, "{name}");
            hanim_nodes += hierarchy.nodes.len();
            let mut ids: Vec<i32> = frames
                .extensions
                .iter()
                .filter_map(FrameExtension::hanim)
                .map(|h| h.node_id)
                .filter(|&id| id >= 0)
                .collect();
            let mut node_ids: Vec<i32> = hierarchy.nodes.iter().map(|n| n.node_id).collect();
            ids.sort_unstable();
            node_ids.sort_unstable();
            assert_eq!(ids, node_ids, "{name}: each node is a frame's");
            for found in model.skins() {
                let view = found.skin.view().expect("known layout");
                assert_eq!(
                    usize::from(view.num_bones),
                    hierarchy.nodes.len(),
                    "{name}: one HAnim node per bone"
                );
            }
        }
    }
    assert!(materials > 0 && textures > 0 && frame_names > 0, "{name}");
    println!(
        "{name}: {materials} materials, {textures} textures, {frame_names} frame names, {hanim_nodes} HAnim nodes"
    );
    [materials, textures, frame_names, hanim_nodes]
}

#[test]
fn corpus_models_decode_materials_frame_names_and_hanim() {
    let files = corpus_files();
    if files.is_empty() {
        skelcodec_runtime::corpus::announce_skip("skipped: no DFF files in the corpus (rw/dff)");
        return;
    }
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        assert_decoded_contents(&name, &std::fs::read(&path).unwrap());
    }
}

#[test]
fn the_cutscene_archive_models_decode_their_materials_frame_names_and_hanim() {
    let Some(dir) = skelcodec_runtime::testing::corpus_dir(env!("CARGO_MANIFEST_DIR")) else {
        skelcodec_runtime::corpus::announce_skip("skipped: no DFF files in the corpus (rw/dff)");
        return;
    };
    let bytes = std::fs::read(dir.join("img/cretaceous_models_cutscene.img")).unwrap();
    let archive = skelcodec_formats::img_archive::Archive::open_v2(&bytes).unwrap();
    let mut models = 0;
    for entry in archive.entries() {
        if entry.name.ends_with(".dff") {
            let [_, _, names, nodes] =
                assert_decoded_contents(&entry.name, archive.entry_bytes(&entry));
            // MANIFEST.tsv: skinned cutscene models.
            assert!(names > 0 && nodes > 0, "{}", entry.name);
            models += 1;
        }
    }
    assert_eq!(models, 3);
}
