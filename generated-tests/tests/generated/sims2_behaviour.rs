//! The Sims 2 ANIM and package codecs: values against what the fixtures were built with,
//! invariants on the real resources, QFS, and package editing.

use std::path::{Path, PathBuf};

use serde_json::Value;
use skelcodec_formats::dbpf::{Dbpf, Hole};
use skelcodec_formats::qfs::{self, QfsError};
use skelcodec_formats::sims2::{ANIM_TYPE, ResourceError};
use skelcodec_formats::sims2_anim::*;
use skelcodec_runtime::Gap;
use skelcodec_runtime::{RawBytes, Writer};

fn fixture(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/sims2")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn expected() -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/sims2/expected.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn data(anim: &Sims2Anim) -> &AnimData {
    match &anim.blocks[0].body {
        RcolBlockBody::AnimResourceConst(block) => &block.data,
    }
}

fn hex_u32(v: &Value) -> u32 {
    u32::from_str_radix(v.as_str().unwrap().trim_start_matches("0x"), 16).unwrap()
}

/// CRC-32/MPEG-2 (poly 0x04C11DB7, MSB first, init 0xFFFFFFFF, no final xor), as the game
/// hashes bone names.
fn crc32_mpeg2(bytes: &[u8]) -> u32 {
    let mut crc = u32::MAX;
    for &b in bytes {
        crc ^= u32::from(b) << 24;
        for _ in 0..8 {
            crc = if crc & 0x8000_0000 != 0 {
                (crc << 1) ^ 0x04C1_1DB7
            } else {
                crc << 1
            };
        }
    }
    crc
}

const ANIMS: [&str; 7] = [
    "anim_curves.5an",
    "anim_ik_events.5an",
    "anim_string_runs.5an",
    "anim_string_runs_b.5an",
    "anim_string_runs_c.5an",
    "anim_string_runs_d.5an",
    "broken/anim_datasize_mismatch.5an",
];

#[test]
fn fixtures_decode_to_the_values_they_were_built_with() {
    let expected = expected();
    for name in ANIMS {
        let want = &expected[name];
        let bytes = fixture(name);
        let anim = Sims2Anim::read(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(anim.to_bytes().unwrap(), bytes, "{name}");
        let d = data(&anim);
        assert_eq!(
            d.skeleton_tag.text(),
            want["skeleton_tag"].as_str().unwrap(),
            "{name}"
        );
        assert_eq!(
            i64::from(d.duration_ticks),
            want["header"]["duration_ticks"].as_i64().unwrap()
        );
        for (run, pad) in [
            ("A", &d.run_a_padding),
            ("B", &d.run_b_padding),
            ("C", &d.run_c_padding),
        ] {
            let want_pad: Vec<u8> =
                serde_json::from_value(want["string_runs"][run]["pad"].clone()).unwrap();
            assert_eq!(pad.0, want_pad, "{name}: run {run}");
        }
        // Targets, then channels and components in file order.
        let targets = want["anim_targets"].as_array().unwrap();
        let want_channels: Vec<&Value> = targets
            .iter()
            .flat_map(|t| t["channels"].as_array().unwrap())
            .collect();
        assert_eq!(d.channels.len(), want_channels.len(), "{name}");
        let mut component = 0;
        for ((channel, channel_name), want) in
            d.channels.iter().zip(&d.channel_names).zip(&want_channels)
        {
            assert_eq!(channel_name.text(), want["name"].as_str().unwrap());
            assert_eq!(channel.bone_hash, hex_u32(&want["bone_hash"]));
            assert_eq!(channel.bone_hash, crc32_mpeg2(channel_name.text_bytes()));
            let flags = &want["flags_decoded"];
            assert_eq!(
                i64::from(channel.duration),
                flags["duration_ticks"].as_i64().unwrap()
            );
            assert_eq!(
                i64::from(channel.animated_attribute),
                flags["animated_attribute"].as_i64().unwrap()
            );
            assert_eq!(
                i64::from(channel.channel_type),
                flags["channel_type"].as_i64().unwrap()
            );
            assert_eq!(
                i64::from(channel.ik_chain_index),
                flags["ik_chain_index"].as_i64().unwrap()
            );
            assert_eq!(
                i64::from(channel.num_components),
                flags["num_components"].as_i64().unwrap()
            );
            for want in want["components"].as_array().unwrap() {
                let (c, keys) = (&d.components[component], &d.keyframes[component]);
                component += 1;
                assert_eq!(
                    i64::from(c.packed_type),
                    i64::from(hex_u32(&want["packed_type"]))
                );
                let decoded = keys.decoded();
                let want_keys = want["keyframes"].as_array().unwrap();
                assert_eq!(
                    decoded.len(),
                    want_keys.len(),
                    "{name}: {}",
                    channel_name.text()
                );
                for (key, want) in decoded.iter().zip(want_keys) {
                    // Values are stored as f32 at most: compare at that precision.
                    assert_eq!(
                        key.value as f32,
                        want["value"].as_f64().unwrap() as f32,
                        "{name}: {want}"
                    );
                    assert_eq!(
                        key.time.map(i64::from),
                        want["time"].as_i64(),
                        "{name}: {want}"
                    );
                    let tangents: Vec<f64> = [key.tangent_in, key.tangent_out]
                        .into_iter()
                        .flatten()
                        .collect();
                    let want_tangents: Vec<f64> =
                        serde_json::from_value(want["tangents"].clone()).unwrap_or_default();
                    assert_eq!(tangents, want_tangents, "{name}: {want}");
                }
                // The raw words are written back exactly (float32 values are not words).
                if !want["packed_decoded"]["is_float"].as_bool().unwrap() {
                    let mut w = Writer::new();
                    keys.write_to(&mut w, c.num_keyframes.into(), c.packed_type.into())
                        .unwrap();
                    let words: Vec<u64> = w
                        .into_bytes()
                        .unwrap()
                        .chunks_exact(2)
                        .map(|p| u64::from(u16::from_le_bytes([p[0], p[1]])))
                        .collect();
                    let want_words: Vec<u64> = want_keys
                        .iter()
                        .flat_map(|k| {
                            k["raw_words"]
                                .as_array()
                                .unwrap()
                                .iter()
                                .map(|w| w.as_u64().unwrap())
                        })
                        .collect();
                    assert_eq!(words, want_words, "{name}");
                }
            }
        }
        let events = want["events"].as_array().unwrap();
        assert_eq!(d.events.len(), events.len());
        for ((event, text), want) in d.events.iter().zip(&d.event_strings).zip(events) {
            assert_eq!(i64::from(event.ticks), want["ticks"].as_i64().unwrap());
            assert_eq!(i64::from(event.r#type), want["type"].as_i64().unwrap());
            assert_eq!(text.text(), want["string"].as_str().unwrap());
        }
        let chains: Vec<&Value> = targets
            .iter()
            .flat_map(|t| t["ik_chains"].as_array().unwrap())
            .collect();
        assert_eq!(d.ik_chains.len(), chains.len(), "{name}");
        for (chain, want) in d.ik_chains.iter().zip(&chains) {
            assert_eq!(chain.ik_strategy, hex_u32(&want["ik_strategy"]));
            assert_eq!(
                i64::from(chain.num_ik_targets),
                want["num_ik_targets"].as_i64().unwrap()
            );
        }
        let ik_targets: Vec<&Value> = chains
            .iter()
            .flat_map(|c| c["targets"].as_array().unwrap())
            .collect();
        for (target, want) in d.ik_targets.iter().zip(ik_targets) {
            assert_eq!(target.rotation.crc, hex_u32(&want["rotation"]["crc"]));
            assert_eq!(target.translation.crc, hex_u32(&want["translation"]["crc"]));
        }
    }
}

#[test]
fn check_reports_the_data_size_that_disagrees() {
    let mut anim = Sims2Anim::read(&fixture("broken/anim_datasize_mismatch.5an")).unwrap();
    let found: Vec<String> = anim.check().iter().map(ToString::to_string).collect();
    assert_eq!(
        found,
        ["blocks[0].body.anim_resource_const.data_size: stored 1121, computed 1105"]
    );
    anim.normalize().unwrap();
    assert!(anim.check().is_empty());
    assert_eq!(
        anim.to_bytes().unwrap(),
        fixture("anim_ik_events.5an"),
        "normalize gives the sound file back"
    );
    assert!(Sims2Anim::read(&fixture("broken/anim_truncated.5an")).is_err());
}

#[test]
fn padding_that_breaks_the_rule_is_kept_and_reported() {
    let mut bytes = fixture("anim_curves.5an");
    // Run B of anim_curves is 7 bytes long: its 3 pad bytes 00 01 02 sit right after it.
    let run_b = bytes
        .windows(10)
        .position(|w| w == b"fxctrl\0\x00\x01\x02")
        .expect("run B");
    bytes[run_b + 9] = 0x7f;
    let mut anim = Sims2Anim::read(&bytes).unwrap();
    assert_eq!(anim.to_bytes().unwrap(), bytes, "kept as read");
    let found: Vec<String> = anim.check().iter().map(ToString::to_string).collect();
    assert_eq!(
        found,
        ["blocks[0].body.anim_resource_const.data.run_b_padding: stored 127, computed 2"]
    );
    anim.normalize().unwrap();
    assert_eq!(anim.to_bytes().unwrap(), fixture("anim_curves.5an"));
}

#[track_caller]
fn corpus_dir() -> Option<PathBuf> {
    let dir = skelcodec_runtime::testing::corpus_dir(env!("CARGO_MANIFEST_DIR"))?.join("sims2");
    dir.is_dir().then_some(dir)
}

/// Channel names are readable, key counts match the records, key times never decrease within a
/// component, bone hashes match the names, padding reads 00 01 02.
fn assert_sane(name: &str, anim: &Sims2Anim) {
    let d = data(anim);
    assert!(anim.check().is_empty(), "{name}: {:?}", anim.check());
    for pad in [&d.run_a_padding, &d.run_b_padding, &d.run_c_padding] {
        assert!(
            pad.0.iter().enumerate().all(|(i, &b)| usize::from(b) == i),
            "{name}: {pad:?}"
        );
    }
    for (channel, channel_name) in d.channels.iter().zip(&d.channel_names) {
        let text = channel_name.text();
        assert!(
            !text.is_empty() && text.chars().all(|c| c.is_ascii_graphic()),
            "{name}: {text:?}"
        );
        assert_eq!(
            channel.bone_hash,
            crc32_mpeg2(channel_name.text_bytes()),
            "{name}: {text}"
        );
    }
    for (c, keys) in d.components.iter().zip(&d.keyframes) {
        let decoded = keys.decoded();
        assert_eq!(decoded.len(), usize::from(c.num_keyframes), "{name}");
        let times: Vec<u16> = decoded.iter().filter_map(|k| k.time).collect();
        assert!(
            times.windows(2).all(|w| w[0] <= w[1]),
            "{name}: times {times:?}"
        );
    }
}

#[test]
fn real_resources_are_sane_alone_and_inside_their_package() {
    let Some(dir) = corpus_dir() else {
        return;
    };
    let mut raw = Vec::new();
    for i in 0..3 {
        let path = dir.join(format!("opents2_anim_{i}.5an"));
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        let anim = Sims2Anim::read(&bytes).unwrap();
        assert_eq!(anim.to_bytes().unwrap(), bytes);
        assert_sane(&path.display().to_string(), &anim);
        raw.push(anim);
    }
    let Ok(bytes) = std::fs::read(dir.join("opents2_animation.package")) else {
        return;
    };
    let package = Dbpf::read(&bytes).unwrap();
    assert_eq!(package.to_bytes().unwrap(), bytes);
    let anims = package.animations();
    assert_eq!(anims.len(), 3);
    for (key, anim) in &anims {
        let anim = anim.as_ref().unwrap();
        assert_eq!(key.type_id, ANIM_TYPE);
        assert_sane("package", anim);
        assert!(
            raw.contains(anim),
            "the package holds the same resources as the .5an files"
        );
    }
}

#[test]
fn packages_list_extract_and_replace_resources() {
    let pair = Dbpf::read(&fixture("anim_pair.package")).unwrap();
    assert_eq!((pair.index_minor_version, pair.index.len()), (1, 2));
    assert_eq!(
        pair.extract(&pair.index[0]).unwrap(),
        fixture("anim_curves.5an")
    );
    assert_eq!(
        pair.extract(&pair.index[1]).unwrap(),
        fixture("anim_ik_events.5an")
    );

    let bytes = fixture("anim_qfs.package");
    let mut packed = Dbpf::read(&bytes).unwrap();
    let compressed = &packed.index[1];
    assert!(packed.is_compressed(compressed) && !packed.is_compressed(&packed.index[0]));
    assert_eq!(
        packed.extract(compressed).unwrap(),
        fixture("anim_string_runs_d.5an")
    );
    assert_eq!(
        packed.to_bytes().unwrap(),
        bytes,
        "an unmodified compressed entry keeps its bytes"
    );

    // Replace the compressed resource with another animation: compressed again, DIR updated.
    let key = packed.index[1].key();
    let replacement = fixture("anim_string_runs_b.5an");
    assert!(packed.replace(key, &replacement).unwrap());
    let reread = Dbpf::read(&packed.to_bytes().unwrap()).unwrap();
    assert!(reread.check_all().is_empty(), "{:?}", reread.check_all());
    assert_eq!(reread.extract(&reread.index[1]).unwrap(), replacement);
    assert_eq!(
        reread.extract(&reread.index[0]).unwrap(),
        fixture("anim_string_runs.5an")
    );
    let anims = reread.animations();
    assert!(anims.iter().all(|(_, a)| a.is_ok()));
}

#[test]
fn the_directory_is_decoded_and_follows_a_replaced_resource() {
    let mut packed = Dbpf::read(&fixture("anim_qfs.package")).unwrap();
    let records: Vec<_> = packed.directory_records().cloned().collect();
    assert_eq!(records.len(), 1);
    assert_eq!(
        (records[0].r#type, records[0].uncompressed_size),
        (ANIM_TYPE, fixture("anim_string_runs_d.5an").len() as u32)
    );
    let key = packed.index[1].key();
    let replacement = fixture("anim_string_runs_b.5an");
    packed.replace(key, &replacement).unwrap();
    let sizes: Vec<u32> = packed
        .directory_records()
        .map(|r| r.uncompressed_size)
        .collect();
    assert_eq!(sizes, [replacement.len() as u32]);
}

#[test]
fn a_compressed_resource_too_large_for_qfs_is_refused_and_the_package_kept() {
    let bytes = fixture("anim_qfs.package");
    let mut packed = Dbpf::read(&bytes).unwrap();
    let key = packed.index[1].key();
    let too_large = vec![0u8; qfs::MAX_SIZE + 1];
    assert!(matches!(
        packed.replace(key, &too_large),
        Err(ResourceError::Qfs(QfsError::TooLarge(size))) if size == qfs::MAX_SIZE + 1
    ));
    assert_eq!(packed.to_bytes().unwrap(), bytes);
}

#[test]
fn holes_describe_the_stored_layout_and_a_new_layout_has_none() {
    let bytes = fixture("anim_pair.package");
    let mut package = Dbpf::read(&bytes).unwrap();
    assert_eq!((package.hole_count, package.holes.as_ref()), (0, None));
    // A hole record after the index, describing 4 free bytes after it.
    let end = bytes.len() as u32;
    package.holes = Some(
        vec![Hole {
            offset: end + 8,
            size: 4,
        }]
        .into(),
    );
    (package.hole_count, package.hole_offset, package.hole_size) = (1, end, 8);
    package.unclaimed.push(Gap {
        offset: u64::from(end) + 8,
        bytes: RawBytes::new(vec![0xfe; 4]),
    });
    let with_hole = package.to_bytes().unwrap();
    assert_eq!(with_hole.len(), bytes.len() + 12);
    let reread = Dbpf::read(&with_hole).unwrap();
    assert_eq!(reread.holes, package.holes);
    assert!(reread.check().is_empty(), "{:?}", reread.check());

    // Laid out again: the free space is gone, and so are the records describing it.
    let mut relaid = reread;
    relaid.normalize().unwrap();
    assert_eq!(
        (relaid.hole_count, relaid.hole_size, &relaid.holes),
        (0, 0, &None)
    );
    // The offset of an absent block means nothing and is kept.
    let mut expected = bytes.clone();
    expected[52..56].copy_from_slice(&end.to_le_bytes());
    assert!(
        relaid.to_bytes().unwrap() == expected,
        "the package as it was"
    );
}

#[test]
fn adding_and_deleting_resources_keeps_the_directory_consistent() {
    use skelcodec_formats::sims2::{DIR_TYPE, ResourceKey};
    let bytes = fixture("anim_qfs.package");
    let original = Dbpf::read(&bytes).unwrap();
    // The builder's package: an uncompressed ANIM, a compressed one, and the DIR listing it.
    let keys: Vec<ResourceKey> = original.index.iter().map(|e| e.key()).collect();
    assert_eq!(keys[2].type_id, DIR_TYPE);
    assert!(original.is_compressed(&original.index[1]));
    let extracted = |p: &Dbpf, key: ResourceKey| {
        p.extract(p.index.iter().find(|e| e.key() == key).unwrap())
            .unwrap()
    };

    // Added: stored as given, uncompressed, so the DIR does not list it.
    let mut added = original.clone();
    let new_key = ResourceKey {
        type_id: ANIM_TYPE,
        group: 0x1C05_0000,
        instance: 0x99,
        instance_hi: keys[0].instance_hi,
    };
    let anim = fixture("anim_curves.5an");
    added.add(new_key, &anim).unwrap();
    let reread = Dbpf::read(&added.to_bytes().unwrap()).unwrap();
    assert!(reread.check().is_empty(), "{:?}", reread.check());
    let entry = reread.index.last().unwrap();
    assert_eq!((entry.key(), entry.size as usize), (new_key, anim.len()));
    assert!(!reread.is_compressed(entry));
    assert_eq!(reread.directory_records().count(), 1);
    assert_eq!(extracted(&reread, new_key), anim);
    assert_eq!(extracted(&reread, keys[1]), extracted(&original, keys[1]));
    assert!(matches!(
        added.clone().add(new_key, &anim),
        Err(ResourceError::Duplicate(k)) if k == new_key
    ));

    // The DIR cannot go while it lists a resource that stays, nor be added as bytes.
    assert!(matches!(
        original.clone().delete(&[keys[2]]),
        Err(ResourceError::Directory(_))
    ));
    let dir_key = ResourceKey {
        instance: 7,
        ..keys[2]
    };
    assert!(matches!(
        original.clone().add(dir_key, b""),
        Err(ResourceError::Directory(_))
    ));

    // Deleted: the compressed resource and its DIR record; the other resource as it was.
    let mut deleted = original.clone();
    deleted.delete(&[keys[1]]).unwrap();
    let reread = Dbpf::read(&deleted.to_bytes().unwrap()).unwrap();
    assert!(reread.check().is_empty(), "{:?}", reread.check());
    assert_eq!(
        reread.index.iter().map(|e| e.key()).collect::<Vec<_>>(),
        [keys[0], keys[2]]
    );
    assert_eq!(reread.directory_records().count(), 0);
    assert_eq!(extracted(&reread, keys[0]), extracted(&original, keys[0]));
    // Both gone, the DIR with what it listed: the header, the first resource and the index.
    let mut both = original.clone();
    both.delete(&[keys[1], keys[2]]).unwrap();
    let out = both.to_bytes().unwrap();
    let entry_len = if keys[0].instance_hi.is_some() {
        24
    } else {
        20
    };
    assert_eq!(out.len(), 96 + original.index[0].size as usize + entry_len);
    assert!(matches!(
        original.clone().delete(&[new_key]),
        Err(ResourceError::NoResource(k)) if k == new_key
    ));
}
