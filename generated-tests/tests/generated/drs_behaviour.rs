//! The DRS codec against the values every fixture was built with, field by field: the
//! container (header, node table, hierarchy) and every AnimationSet in all its versions.

use std::path::Path;

use serde_json::{Value, json};
use skelcodec_formats::battleforge::AnimationSetBlob;
use skelcodec_formats::drs::*;
use skelcodec_runtime::{Codec, Vec3};

fn fixture(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/drs")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn expected() -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/drs/expected.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

const VALID: [&str; 10] = [
    "as_v2_uk2_typeless.drs",
    "as_v2_uk0_typed.drs",
    "as_v3_atlas1.drs",
    "as_v4_atlas2_markers.drs",
    "as_v5_rev6_unknown_structs.drs",
    "as_v6_rev1.drs",
    "as_v6_rev2.drs",
    "as_v6_rev4_empty_lists.drs",
    "as_v6_rev5.drs",
    "as_v6_rev6_full_unit.drs",
];

fn vec3(v: &Vec3<f32>) -> Value {
    json!([v.x, v.y, v.z])
}

/// Inserts `key: value` when the value is present.
fn put<T: skelcodec_runtime::serde::Serialize>(
    map: &mut serde_json::Map<String, Value>,
    key: &str,
    value: Option<T>,
) {
    if let Some(value) = value {
        map.insert(key.into(), json!(value));
    }
}

/// The decoded AnimationSet in the builder's flat vocabulary (see fixtures/drs/README.md).
fn flatten(set: &AnimationSet) -> Value {
    let mut f = serde_json::Map::new();
    f.insert("length".into(), json!(set.magic_length));
    f.insert("magic".into(), json!(set.magic.text()));
    f.insert("version".into(), json!(set.version));
    f.insert("default_run_speed".into(), json!(set.default_run_speed));
    f.insert("default_walk_speed".into(), json!(set.default_walk_speed));
    if set.version == 2 {
        f.insert(
            "mode_animation_key_count".into(),
            json!(set.revision_or_key_count),
        );
        f.insert("uk".into(), json!(set.key_count_or_unknown));
    } else {
        f.insert("revision".into(), json!(set.revision_or_key_count));
        put(&mut f, "mode_change_type", set.mode_change_type);
        put(&mut f, "hovering_ground", set.hovering_ground);
        put(&mut f, "fly_bank_scale", set.fly_bank_scale);
        put(&mut f, "fly_accel_scale", set.fly_accel_scale);
        put(&mut f, "fly_hit_scale", set.fly_hit_scale);
        put(&mut f, "align_to_terrain", set.align_to_terrain);
        f.insert(
            "mode_animation_key_count".into(),
            json!(set.key_count_or_unknown),
        );
    }
    let keys: Vec<Value> = set
        .mode_animation_keys
        .iter()
        .map(|k| flatten_key(set, k))
        .collect();
    f.insert("mode_animation_keys".into(), json!(keys));
    if let Some(atlas) = &set.atlas {
        f.insert("has_atlas".into(), json!(atlas.has_atlas));
        if let Some(list) = &atlas.atlases {
            f.insert("atlas_count".into(), json!(list.count));
            let atlases: Vec<Value> = list.atlases.iter().map(flatten_atlas).collect();
            f.insert("ik_atlases".into(), json!(atlases));
        }
        if let Some(ints) = &atlas.unknown_ints {
            f.insert("uk_len".into(), json!(ints.count));
            f.insert("uk_ints".into(), json!(ints.values));
        }
    }
    if let Some(markers) = &set.markers {
        f.insert("subversion".into(), json!(markers.subversion));
        if let Some(list) = &markers.marker_sets {
            f.insert("animation_marker_count".into(), json!(list.count));
            let sets: Vec<Value> = list
                .sets
                .iter()
                .map(|s| {
                    let markers: Vec<Value> = s
                        .markers
                        .iter()
                        .map(|m| {
                            json!({"is_spawn_animation": m.is_spawn_animation, "time": m.time,
                                   "direction": vec3(&m.direction), "position": vec3(&m.position)})
                        })
                        .collect();
                    json!({"anim_id": s.anim_id, "length": s.name_length, "name": s.name.text(),
                           "animation_marker_id": s.marker_id, "marker_count": s.marker_count,
                           "markers": markers})
                })
                .collect();
            f.insert("animation_marker_sets".into(), json!(sets));
        }
        if let Some(list) = &markers.unknown_structs {
            f.insert("unknown".into(), json!(list.count));
            let structs: Vec<Value> = list
                .structs
                .iter()
                .map(|u| {
                    let rows: Vec<Value> = u.values.iter().map(|v| json!(v.values)).collect();
                    json!({"unknown": u.unknown, "length": u.name_length, "name": u.name.text(),
                           "unknown2": u.unknown2, "unknown3": u.count, "unknown_structs": rows})
                })
                .collect();
            f.insert("unknown_structs".into(), json!(structs));
        }
    }
    Value::Object(f)
}

fn flatten_key(set: &AnimationSet, key: &ModeAnimationKey) -> Value {
    let key_type = key.stored_type.unwrap_or(2);
    let mut k = serde_json::Map::new();
    k.insert("type".into(), json!(key_type));
    k.insert("type_on_disk".into(), json!(key.stored_type.is_some()));
    assert_eq!(
        key.stored_type.is_none(),
        set.version == 2 && set.key_count_or_unknown == 2
    );
    k.insert("length".into(), json!(key.file_length));
    k.insert("file".into(), json!(key.file.text()));
    k.insert("unknown".into(), json!(key.unknown));
    match &key.payload {
        ModeAnimationKeyPayload::KeyPayloadType1(p) => {
            k.insert("unknown2".into(), json!(p.unknown2));
        }
        ModeAnimationKeyPayload::KeyPayloadType25(p) => {
            k.insert("unknown2".into(), json!(p.unknown2));
            k.insert("special_mode".into(), json!(p.special_mode));
        }
        ModeAnimationKeyPayload::KeyPayloadType6(p) => {
            k.insert("unknown2".into(), json!(p.unknown2));
            k.insert("vis_job".into(), json!(p.vis_job));
            k.insert("unknown3".into(), json!(p.unknown3));
            k.insert("special_mode".into(), json!(p.special_mode));
        }
    }
    k.insert("variant_count".into(), json!(key.variant_count));
    let variants: Vec<Value> = key
        .variants
        .iter()
        .map(|v| {
            let mut m = serde_json::Map::new();
            m.insert("version".into(), json!(v.version));
            m.insert("weight".into(), json!(v.weight));
            m.insert("length".into(), json!(v.file_length));
            m.insert("file".into(), json!(v.file.text()));
            put(&mut m, "start", v.start);
            put(&mut m, "end", v.end);
            put(&mut m, "allows_ik", v.allows_ik);
            put(&mut m, "force_no_blend", v.force_no_blend);
            Value::Object(m)
        })
        .collect();
    k.insert("variants".into(), json!(variants));
    Value::Object(k)
}

fn flatten_atlas(atlas: &IkAtlas) -> Value {
    let mut a = serde_json::Map::new();
    a.insert("identifier".into(), json!(atlas.bone_id));
    a.insert("version".into(), json!(atlas.version));
    put(&mut a, "axis", atlas.axis);
    put(&mut a, "chain_order", atlas.chain_order);
    if let Some(constraints) = &atlas.constraints {
        let list: Vec<Value> = constraints
            .iter()
            .map(|c| {
                let mut m = serde_json::Map::new();
                m.insert("revision".into(), json!(c.revision));
                put(&mut m, "left_angle", c.left_angle);
                put(&mut m, "right_angle", c.right_angle);
                put(&mut m, "left_damp_start", c.left_damp_start);
                put(&mut m, "right_damp_start", c.right_damp_start);
                put(&mut m, "damp_ratio", c.damp_ratio);
                Value::Object(m)
            })
            .collect();
        a.insert("constraints".into(), json!(list));
    }
    put(&mut a, "purpose_flags", atlas.purpose_flags);
    Value::Object(a)
}

#[test]
fn every_animation_set_decodes_to_the_values_it_was_built_with() {
    let expected = expected();
    for name in VALID {
        let want = &expected[name];
        let bytes = fixture(name);
        let drs = Drs::read(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(drs.to_bytes().unwrap(), bytes, "{name}: round trip");
        assert!(drs.check().is_empty(), "{name}: {:?}", drs.check());
        assert!(
            drs.unclaimed.is_empty(),
            "{name}: every byte belongs to a part"
        );
        let sets = drs.animation_sets();
        assert_eq!(sets.len(), 1, "{name}");
        assert_eq!(flatten(sets[0]), want["animation_set"]["fields"], "{name}");

        // The blob decodes on its own to the same value.
        let (offset, size) = (
            want["animation_set"]["offset"].as_u64().unwrap() as usize,
            want["animation_set"]["size"].as_u64().unwrap() as usize,
        );
        let blob = &bytes[offset..offset + size];
        let alone = AnimationSetBlob::read(blob).unwrap();
        assert_eq!(&alone.0, sets[0], "{name}");
        assert_eq!(alone.to_bytes().unwrap(), blob);
    }
}

#[test]
fn the_container_decodes_to_the_values_it_was_built_with() {
    let expected = expected();
    for name in VALID {
        let want = &expected[name];
        let drs = Drs::read(&fixture(name)).unwrap();
        let header = &want["header"];
        assert_eq!(json!(drs.number_of_models), header["number_of_models"]);
        assert_eq!(
            json!(drs.node_information_offset),
            header["node_information_offset"]
        );
        assert_eq!(
            json!(drs.node_hierarchy_offset),
            header["node_hierarchy_offset"]
        );
        assert_eq!(json!(drs.node_count), header["node_count"]);
        let entries = want["node_informations"].as_array().unwrap();
        assert_eq!(drs.node_information.entries.len(), entries.len());
        for (entry, want) in drs.node_information.entries.iter().zip(entries) {
            assert_eq!(json!(entry.class_tag.raw()), want["magic"], "{name}");
            assert_eq!(json!(entry.identifier), want["identifier"]);
            assert_eq!(json!(entry.offset), want["offset"]);
            assert_eq!(json!(entry.size), want["size"]);
            assert_eq!(json!(entry.spacer.0.to_vec()), want["spacer"]);
            let is_set = want["class"] == "AnimationSet";
            assert_eq!(
                matches!(entry.blob, NodeInformationBlob::AnimationSet(_)),
                is_set
            );
        }
        let hierarchy = &drs.node_hierarchy;
        assert_eq!(json!(hierarchy.root_name.text()), want["root_node"]["name"]);
        let nodes = want["nodes"].as_array().unwrap();
        for (node, want) in hierarchy.nodes.iter().zip(nodes) {
            assert_eq!(json!(node.info_index), want["info_index"]);
            assert_eq!(json!(node.name.text()), want["name"], "{name}");
        }
    }
}

#[test]
fn broken_files_give_errors_with_path_and_offset() {
    for (name, path, words) in [
        (
            "broken/count_exceeds_data.drs",
            "node_information.entries[2].blob.animation_set.atlas.unknown_ints.values",
            "count 1000",
        ),
        (
            "broken/unknown_version.drs",
            "node_information.entries[2].blob.animation_set.version",
            "found 99",
        ),
        (
            "broken/node_offset_past_eof.drs",
            "node_information.entries[2].blob",
            "more bytes",
        ),
    ] {
        let bytes = fixture(name);
        let err = Drs::read(&bytes).unwrap_err();
        assert_eq!(err.path(), path, "{name}: {err}");
        assert!(err.to_string().contains(words), "{name}: {err}");
        assert!(err.offset() <= bytes.len() as u64, "{name}: {err}");
    }
}

#[test]
fn an_edited_animation_set_is_laid_out_again_by_normalize() {
    let bytes = fixture("as_v6_rev6_full_unit.drs");
    let mut drs = Drs::read(&bytes).unwrap();
    let entry = drs
        .node_information
        .entries
        .iter_mut()
        .find(|e| matches!(e.blob, NodeInformationBlob::AnimationSet(_)))
        .unwrap();
    let NodeInformationBlob::AnimationSet(set) = &mut entry.blob else {
        unreachable!()
    };
    let mut extra = set.mode_animation_keys[0].clone();
    extra.variants[0].file = "run_fast.ska".into();
    set.mode_animation_keys.push(extra);
    // Written as is, the count disagrees with the list: the writer refuses.
    assert!(drs.to_bytes().is_err());
    drs.normalize().unwrap();
    let out = drs.to_bytes().unwrap();
    let reread = Drs::read(&out).unwrap();
    assert!(reread.check().is_empty(), "{:?}", reread.check());
    assert!(reread.unclaimed.is_empty());
    assert_eq!(reread.animation_sets()[0].mode_animation_keys.len(), 6);
    assert_eq!(reread.node_information, drs.node_information);
    assert!(out.len() > bytes.len());
}

#[test]
fn many_entries_pointing_at_one_blob_cannot_amplify_memory() {
    // 2,000 node entries all pointing at the same 40 KB blob: 80 MB of copies from ~140 KB.
    // A blob that large is a view of the file, which costs nothing of the budget: the file
    // reads, and every blob shares the file's one copy.
    let entries = 2000u32;
    let blob = vec![0x55u8; 40_000];
    let info_offset = 20 + blob.len() as u32;
    let hierarchy_offset = info_offset + 32 * (entries + 1);
    let mut file = Vec::new();
    for word in [
        -981_667_554i32,
        1,
        info_offset as i32,
        hierarchy_offset as i32,
    ] {
        file.extend_from_slice(&word.to_le_bytes());
    }
    file.extend_from_slice(&(entries + 1).to_le_bytes());
    file.extend_from_slice(&blob);
    file.extend_from_slice(&[0; 16]);
    for word in [-1i32, 1, entries as i32, 0] {
        file.extend_from_slice(&word.to_le_bytes());
    }
    for i in 0..entries {
        for word in [100_449_016i32, i as i32 + 1, 20, blob.len() as i32] {
            file.extend_from_slice(&word.to_le_bytes());
        }
        file.extend_from_slice(&[0; 16]);
    }
    for word in [0i32, 0, 9] {
        file.extend_from_slice(&word.to_le_bytes());
    }
    file.extend_from_slice(b"root node");
    for i in 0..entries {
        for word in [i as i32 + 1, 1] {
            file.extend_from_slice(&word.to_le_bytes());
        }
        file.push(b'x');
        file.extend_from_slice(&0i32.to_le_bytes());
    }
    let drs = Drs::read(&file).expect("the blobs are views of the file");
    let entries = &drs.node_information.entries;
    assert_eq!(entries.len(), 2000);
    for entry in entries {
        let NodeInformationBlob::Raw(blob) = &entry.blob else {
            panic!("a geometry blob no case reads: {:?}", entry.class_tag);
        };
        assert!(blob.0.is_shared(), "a view, not a copy");
    }
}

#[test]
fn stale_bytes_added_to_an_animation_set_survive_normalize_and_move_the_blocks_after_it() {
    let bytes = fixture("as_v6_rev6_full_unit.drs");
    let mut drs = Drs::read(&bytes).unwrap();
    let before: Vec<i32> = drs
        .node_information
        .entries
        .iter()
        .map(|e| e.offset)
        .collect();
    let entry = &mut drs.node_information.entries[8];
    let NodeInformationBlob::AnimationSet(set) = &mut entry.blob else {
        panic!("entry 8 is the AnimationSet")
    };
    set.stale.0 = vec![0xde, 0xad, 0xbe, 0xef].into();
    entry.size += 4;
    // Written where it was, the blob would run into the next one: refused.
    assert!(drs.to_bytes().is_err());
    drs.normalize().unwrap();
    let after: Vec<i32> = drs
        .node_information
        .entries
        .iter()
        .map(|e| e.offset)
        .collect();
    let moved: Vec<i32> = after.iter().zip(&before).map(|(a, b)| a - b).collect();
    assert_eq!(moved, [0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 4]);
    let reread = Drs::read(&drs.to_bytes().unwrap()).unwrap();
    assert!(reread.check().is_empty(), "{:?}", reread.check());
    let NodeInformationBlob::AnimationSet(set) = &reread.node_information.entries[8].blob else {
        panic!("entry 8 is the AnimationSet")
    };
    assert_eq!(set.stale.0, [0xde, 0xad, 0xbe, 0xef]);
    assert_eq!(reread.node_information_offset, drs.node_information_offset);
}
