//! The GSA codec: values against what the fixtures were built with, the scanned skeleton, the
//! solved bone count, typed events, conversion between 4.1 and 4.2, and broken files.

use std::path::Path;

use serde_json::Value;
use skelcodec_formats::gsa::*;
use skelcodec_formats::swat::{ConvertError, EventKind, GsaVersion};
use skelcodec_runtime::Quat;

fn fixture(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/gsa")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn expected() -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/gsa/expected.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn floats(v: &Value) -> Vec<f32> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap() as f32)
        .collect()
}

fn quat(q: &Quat<f32>) -> Vec<f32> {
    vec![q.x, q.y, q.z, q.w]
}

#[test]
fn fixtures_decode_to_the_values_they_were_built_with() {
    let expected = expected();
    for name in [
        "v41_partial_bones.gsa",
        "v42_partial_bones_events.gsa",
        "v41_all_bones.gsa",
        "v42_all_bones_ffff_in_skeleton.gsa",
        "v42_magic22.gsa",
    ] {
        let want = &expected[name];
        let bytes = fixture(name);
        let gsa = Gsa::read(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(gsa.to_bytes().unwrap(), bytes, "{name}");
        assert_eq!(gsa.has_guid_tail == 1, want["magic_length"] == 22, "{name}");
        assert_eq!(
            i64::from(gsa.version_minor),
            want["version"]["minor"].as_i64().unwrap()
        );
        assert_eq!(
            i64::from(gsa.framerate),
            want["framerate_block"]["framerate"].as_i64().unwrap()
        );
        assert_eq!(
            i64::from(gsa.unknown1),
            want["framerate_block"]["unknown_a"]["i16"]
                .as_i64()
                .unwrap()
        );
        // The skeleton ends at the real marker, not at an earlier FF FF inside it.
        assert_eq!(
            gsa.skeleton.data.0,
            skelcodec_runtime::from_hex(want["skeleton"]["hex"].as_str().unwrap()).unwrap(),
            "{name}"
        );
        let ids: Vec<i64> = want["animated_bones"]["ids"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_i64().unwrap())
            .collect();
        assert_eq!(
            gsa.animated_bones
                .iter()
                .map(|&b| i64::from(b))
                .collect::<Vec<_>>(),
            ids
        );
        assert_eq!(
            i64::from(gsa.bones_per_frame),
            want["bones_per_frame"].as_i64().unwrap(),
            "{name}"
        );
        let frames = want["frames"].as_array().unwrap();
        assert_eq!(gsa.frames.len(), frames.len());
        for (frame, want) in gsa.frames.iter().zip(frames) {
            let p = &frame.origin_position;
            assert_eq!(vec![p.x, p.y, p.z], floats(&want["origin_position"]));
            assert_eq!(
                quat(&frame.origin_rotation),
                floats(&want["origin_rotation"])
            );
            let o = &frame.root_bone_offset;
            assert_eq!(vec![o.x, o.y, o.z], floats(&want["root_bone_offset"]));
            let rotations: Vec<Vec<f32>> = want["bone_rotations"]
                .as_array()
                .unwrap()
                .iter()
                .map(|b| floats(&b["quat"]))
                .collect();
            assert_eq!(
                frame.bone_rotations.iter().map(quat).collect::<Vec<_>>(),
                rotations
            );
            match (&frame.events, &want["events"]) {
                (None, Value::Null) => {}
                (Some(list), Value::Array(events)) => {
                    assert_eq!(list.events.len(), events.len());
                    for (event, want) in list.events.iter().zip(events) {
                        assert_eq!(event.name.text(), want["text"].as_str().unwrap());
                        assert_eq!(
                            i64::from(event.length),
                            want["stored_length"].as_i64().unwrap()
                        );
                        let kind = match (want["kind"].as_str().unwrap(), want["name"].as_str()) {
                            ("LLIFT", _) => EventKind::LeftLift,
                            ("LPLANT", _) => EventKind::LeftPlant,
                            ("RLIFT", _) => EventKind::RightLift,
                            ("RPLANT", _) => EventKind::RightPlant,
                            ("sound", Some(n)) => EventKind::Sound(n.into()),
                            ("itemsound", Some(n)) => EventKind::ItemSound(n.into()),
                            _ => {
                                EventKind::Other(want["text"].as_str().unwrap().as_bytes().to_vec())
                            }
                        };
                        assert_eq!(event.kind(), kind);
                        assert_eq!(&Event::new(&kind), event, "events re-encode exactly");
                    }
                }
                (got, want) => panic!("{name}: events {got:?} but expected {want}"),
            }
        }
    }
}

#[test]
fn the_bone_count_can_be_given_and_is_checked() {
    let bytes = fixture("v42_all_bones_ffff_in_skeleton.gsa");
    let solved = Gsa::read(&bytes).unwrap();
    assert_eq!(
        solved.bones_per_frame, 4,
        "solved: the only count that parses to the end"
    );
    assert_eq!(Gsa::read_with(&bytes, 4).unwrap(), solved);
    let err = Gsa::read_with(&bytes, 3).unwrap_err();
    assert!(err.to_string().contains("skeleton"), "{err}");
}

#[test]
fn converting_41_to_42_keeps_every_frame() {
    let old = Gsa::read(&fixture("v41_partial_bones.gsa")).unwrap();
    assert_eq!(old.version(), Some(GsaVersion::V4_1));
    let new = old.converted(GsaVersion::V4_2).unwrap();
    let bytes = new.to_bytes().unwrap();
    let reread = Gsa::read(&bytes).unwrap();
    assert_eq!(reread.version(), Some(GsaVersion::V4_2));
    assert_eq!(reread.frames.len(), old.frames.len());
    for (a, b) in reread.frames.iter().zip(&old.frames) {
        assert_eq!(
            (
                a.origin_position,
                a.origin_rotation,
                a.root_bone_offset,
                &a.bone_rotations
            ),
            (
                b.origin_position,
                b.origin_rotation,
                b.root_bone_offset,
                &b.bone_rotations
            )
        );
        assert_eq!(a.events.as_ref().map(|e| e.events.len()), Some(0));
    }
    // 2 bytes of event count per frame, nothing else changes.
    assert_eq!(
        bytes.len(),
        fixture("v41_partial_bones.gsa").len() + 2 * old.frames.len()
    );
    // And back again, byte for byte.
    assert_eq!(
        reread
            .converted(GsaVersion::V4_1)
            .unwrap()
            .to_bytes()
            .unwrap(),
        fixture("v41_partial_bones.gsa")
    );
}

#[test]
fn converting_42_to_41_refuses_to_drop_events() {
    let with_events = Gsa::read(&fixture("v42_partial_bones_events.gsa")).unwrap();
    assert_eq!(
        with_events.converted(GsaVersion::V4_1),
        Err(ConvertError::EventsWouldBeLost { frame: 1, count: 3 })
    );
}

#[test]
fn broken_files_give_clear_errors() {
    for (name, expect) in [
        ("broken/truncated_mid_frame.gsa", "frames[2].bone_rotations"),
        ("broken/missing_marker.gsa", "does not occur"),
        (
            "broken/event_length_past_end.gsa",
            "frames[2].events.events[1].name",
        ),
    ] {
        let bytes = fixture(name);
        let err = Gsa::read(&bytes).unwrap_err();
        assert!(err.to_string().contains(expect), "{name}: {err}");
        assert!(err.offset() <= bytes.len() as u64);
        assert_eq!(err.path(), "skeleton", "{name}: {err}");
    }
    let bytes = fixture("v41_partial_bones.gsa");
    for len in 0..bytes.len() {
        assert!(
            Gsa::read(&bytes[..len]).is_err(),
            "a cut at {len} must not decode"
        );
    }
}
