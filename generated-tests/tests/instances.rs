//! Parse instances as Kaitai reads them: on their own (a failure or a cycle is the instance's
//! alone), at positions of substreams and of an imported schema's root stream, written back
//! where they were read; a value instance of the stream's position evaluated once.

mod on_their_own {
    skelcodec_macros::codec!("tests/schemas/instances/on_their_own.ksy");
}

use on_their_own::OnTheirOwn;
use skelcodec_runtime::Instance;

/// len 4; body: ofs 2, then 0x78 "hi" (its `data` is "hi", at 2 of the body's own stream);
/// chunk "ABC".
const FILE: [u8; 8] = [4, 2, 0x78, b'h', b'i', b'A', b'B', b'C'];

fn bytes(instance: &Instance<skelcodec_runtime::RawBytes>) -> &[u8] {
    &instance.get().expect("read").0
}

#[test]
fn positions_count_from_the_stream_the_value_is_read_from() {
    let value = OnTheirOwn::read(&FILE).unwrap();
    // `io: _root._io` in the imported schema is its root's stream, the body, not the file.
    assert_eq!(bytes(&value.body.data), b"hi");
    // `pos: 0` in the chunk's substream is its first byte, at offset 5 of the file.
    assert_eq!(bytes(&value.chunk.first), b"A");
    assert_eq!(value.to_bytes().unwrap(), FILE);
}

#[test]
fn a_value_instance_of_the_position_is_taken_once_where_first_used() {
    let value = OnTheirOwn::read(&FILE).unwrap();
    // First used by `mark`'s `if`, after `start`: not at the end of the chunk.
    assert_eq!(value.chunk.r#where, 1);
    assert_eq!(bytes(&value.chunk.again), b"BC");
}

#[test]
fn a_failure_and_a_cycle_are_the_instances_own() {
    let value = OnTheirOwn::read(&FILE).unwrap();
    let Instance::Failed(error) = &value.missing else {
        panic!("{:?}", value.missing);
    };
    assert!(error.starts_with("at byte 8:"), "{error}");
    // The root's type at 0 of the file is the root itself: a cycle, not read again.
    assert_eq!(value.myself, Instance::Cycle(0));
    let document = serde_json::to_value(&value).unwrap();
    assert_eq!(document["myself"], serde_json::json!({ "_cycle": 0 }));
    assert!(document["missing"]["_error"].is_string(), "{document}");
    let back: OnTheirOwn = serde_json::from_value(document).unwrap();
    assert_eq!(back, value);
    assert_eq!(back.to_bytes().unwrap(), FILE);
}

#[test]
fn an_edited_instance_that_disagrees_with_its_stream_is_refused_with_its_path() {
    let mut value = OnTheirOwn::read(&FILE).unwrap();
    value.chunk.again.get_mut().unwrap().0 = b"XY".to_vec();
    let err = value.to_bytes().unwrap_err();
    assert!(err.to_string().contains("again"), "{err}");
    let mut value = OnTheirOwn::read(&FILE).unwrap();
    value.body.data.get_mut().unwrap().0 = b"yo".to_vec();
    let err = value.to_bytes().unwrap_err();
    assert!(err.to_string().contains("data"), "{err}");
    // Edited together with the bytes that hold it, it is written where it was read.
    value.body.rest.0 = vec![0x78, b'y', b'o'];
    let written = value.to_bytes().unwrap();
    assert_eq!(written, [4, 2, 0x78, b'y', b'o', b'A', b'B', b'C']);
    assert_eq!(bytes(&OnTheirOwn::read(&written).unwrap().body.data), b"yo");
}
