//! Parse instances as Kaitai reads them: on their own (a failure or a cycle is the instance's
//! alone), at positions of substreams and of an imported schema's root stream, written back
//! where they were read; a value instance of the stream's position evaluated once.

#[allow(deprecated)] // the schema's style warnings, which `schema check` lists
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
    assert_eq!(
        (error.offset(), error.path()),
        (8, String::new()),
        "{error}"
    );
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
    value.chunk.again.get_mut().unwrap().0 = b"XY".to_vec().into();
    let err = value.to_bytes().unwrap_err();
    assert!(err.to_string().contains("again"), "{err}");
    let mut value = OnTheirOwn::read(&FILE).unwrap();
    value.body.data.get_mut().unwrap().0 = b"yo".to_vec().into();
    let err = value.to_bytes().unwrap_err();
    assert!(err.to_string().contains("data"), "{err}");
    // Edited together with the bytes that hold it, it is written where it was read.
    value.body.rest.0 = vec![0x78, b'y', b'o'].into();
    let written = value.to_bytes().unwrap();
    assert_eq!(written, [4, 2, 0x78, b'y', b'o', b'A', b'B', b'C']);
    assert_eq!(bytes(&OnTheirOwn::read(&written).unwrap().body.data), b"yo");
}

mod read_again {
    skelcodec_macros::codec!("tests/schemas/instances/read_again.ksy");
}

#[allow(deprecated)] // the schema's style warnings, which `schema check` lists
mod shared_root {
    skelcodec_macros::codec!("tests/schemas/instances/shared_root.ksy");
}

#[test]
fn instances_of_elements_see_the_whole_list_as_kaitai_evaluates_them_later() {
    use read_again::ReadAgain;
    // Offsets 4, 6 and 0 (the end); "ab" at 4 and "cd" at 6, each ending where the next starts.
    let file = [4, 6, 9, 0, b'a', b'b', b'c', b'd', b'e'];
    let value = ReadAgain::read(&file).unwrap();
    let bodies: Vec<_> = value.files.iter().map(|f| f.body.clone()).collect();
    assert_eq!(bodies[0].get().unwrap().0, b"ab");
    assert_eq!(bodies[1].get().unwrap().0, b"cde");
    // The last entry before the end has no next offset to end at; the end marker has no body.
    assert_eq!(bodies[2], Instance::Absent);
    assert_eq!(bodies[3], Instance::Absent);
    assert_eq!(value.to_bytes().unwrap(), file);
}

#[test]
fn a_root_parameter_of_a_value_reached_elsewhere_is_the_same_root() {
    use shared_root::SharedRoot;
    // pool: {len 3, alias 1}, {len 2, alias 0}; refs[0] takes pool[0]'s aliased length (2),
    // refs[1] pool[1]'s (3).
    let file = [2, 3, 1, 2, 0, 0, b'a', b'b', 1, b'c', b'd', b'e'];
    let value = SharedRoot::read(&file).unwrap();
    assert_eq!(value.refs[0].body.0, b"ab");
    assert_eq!(value.refs[1].body.0, b"cde");
    assert_eq!(value.to_bytes().unwrap(), file);
    let mut edited = value.clone();
    edited.refs[0].body.0.push(b'!');
    let err = edited.to_bytes().unwrap_err();
    assert!(err.to_string().contains("refs"), "{err}");
}

mod read_later {
    skelcodec_macros::codec!("tests/schemas/instances/read_later.ksy");
}

#[allow(deprecated)] // the schema's style warnings, which `schema check` lists
mod names_later {
    skelcodec_macros::codec!("tests/schemas/instances/names_later.ksy");
}

#[test]
fn instances_using_values_read_later_see_them_as_kaitai_evaluates_them_later() {
    use read_later::ReadLater;
    // Header: 2 sections, symbols of sections 1 and 0; sections (8, 2) and (10, 1).
    let file = [2, 2, 1, 0, 8, 2, 10, 1, b'a', b'b', b'c'];
    let value = ReadLater::read(&file).unwrap();
    let data: Vec<&[u8]> = value
        .header
        .symbols
        .iter()
        .map(|s| s.data.get().expect("read").0.as_slice())
        .collect();
    assert_eq!(data, [&b"c"[..], &b"ab"[..]]);
    assert_eq!(value.to_bytes().unwrap(), file);
    // A symbol's data written where its section now says, and refused where it disagrees.
    let mut edited = value.clone();
    edited.sections[0].ofs = 9;
    let err = edited.to_bytes().unwrap_err();
    assert!(err.to_string().contains("data"), "{err}");
}

mod storage_later {
    skelcodec_macros::codec!("tests/schemas/instances/storage_later.ksy");
}

#[test]
fn an_instance_in_a_stream_read_later_is_read_with_it_though_a_reader_uses_it() {
    use storage_later::StorageLater;
    // Records at 1 and 3 of the storage (9 2 9 5), whose first body (2) sizes the tail.
    let file = [2, 1, 3, 9, 2, 9, 5, 0xaa, 0xbb];
    let value = StorageLater::read(&file).unwrap();
    let bodies: Vec<Option<&u8>> = value.records.iter().map(|r| r.body.get()).collect();
    assert_eq!(bodies, [Some(&2), Some(&5)]);
    assert_eq!(value.tail.0, [0xaa, 0xbb]);
    assert_eq!(value.to_bytes().unwrap(), file);
}

#[test]
fn a_table_located_by_the_entries_that_name_themselves_in_it_is_read_between_their_reads() {
    use names_later::NamesLater;
    // Two entries (at 1): the first locates the names (7, 6) and is named at 0 of them, the
    // second at 3; the names "ab\0cd\0" at 7.
    let file = [2, 7, 6, 0, 0, 0, 3, b'a', b'b', 0, b'c', b'd', 0];
    let value = NamesLater::read(&file).unwrap();
    let names: Vec<String> = value
        .entries
        .iter()
        .map(|e| e.name.get().expect("read").text().into_owned())
        .collect();
    assert_eq!(names, ["ab", "cd"]);
    assert_eq!(value.names.all.0, b"ab\0cd\0");
    assert_eq!(value.to_bytes().unwrap(), file);
}

#[allow(deprecated)] // the schema's style warnings, which `schema check` lists
mod listed_twice {
    skelcodec_macros::codec!("tests/schemas/instances/listed_twice.ksy");
}

#[test]
fn a_list_read_again_once_complete_and_once_its_table_is_read_reads_alike_with_both_back_ends() {
    use listed_twice::ListedTwice;
    // Two entries (at 2), the second locating the names "ab\0cd\0" (10, 6): the first is
    // named at 0 of them and its body at 16 is sized by the second's length (6), which only
    // the list read again once complete shows it; the second is named at 3, its body at 10
    // sized by the first's length (0).
    let file = [
        2, 1, 16, 0, 0, 1, 10, 6, 3, 0, b'a', b'b', 0, b'c', b'd', 0, b'u', b'v', b'w', b'x', b'y',
        b'z',
    ];
    let value = ListedTwice::read(&file).unwrap();
    let names: Vec<String> = (value.entries.iter())
        .map(|e| e.name.get().expect("read").text().into_owned())
        .collect();
    assert_eq!(names, ["ab", "cd"]);
    let bodies: Vec<&[u8]> = (value.entries.iter())
        .map(|e| e.body.get().expect("read").0.as_slice())
        .collect();
    assert_eq!(bodies, [&b"uvwxyz"[..], &b""[..]]);
    assert_eq!(value.to_bytes().unwrap(), file);
    let document = serde_json::to_value(&value).unwrap();
    skelcodec_generated_tests::assert_interpreted_alike(
        &skelcodec_generated_tests::interpreter("tests/schemas/instances/listed_twice.ksy"),
        &file,
        &document,
    );
}

mod evaluated_once {
    skelcodec_macros::codec!("tests/schemas/instances/evaluated_once.ksy");
}

/// first 1; second 7 (`ahead`, at 1, is the byte at 2: 0); third 0 (`ahead` kept: at 2 it
/// would be 0x44); part 0x44 0x44 (`peeked`, its last byte, is 0x44, so `last` is read);
/// last 9.
const ONCE: [u8; 6] = [1, 7, 0, 0x44, 0x44, 9];

#[test]
fn a_look_ahead_is_read_once_where_first_needed() {
    let value = evaluated_once::EvaluatedOnce::read(&ONCE).unwrap();
    assert_eq!((value.second, value.third), (Some(7), Some(0)));
    assert_eq!(value.ahead.get(), 0);
    // Needed by the root's reader through `part.peeked`, kept in the part.
    assert_eq!(value.part.peeked.get(), 0x44);
    assert_eq!(value.last, Some(9));
    // Never needed while reading: read at the end, where `_io.pos - 1` is `last`.
    assert_eq!(value.at_end.map(|v| v.get()), Some(9));
    assert_eq!(value.to_bytes().unwrap(), ONCE);
}

#[test]
fn an_instance_read_from_another_stream_sizes_itself_by_its_own() {
    let value = evaluated_once::EvaluatedOnce::read(&ONCE).unwrap();
    // `size: _io.size` is the part's 2 bytes, though read from the file's stream.
    assert_eq!(value.part.from_file.get().unwrap().0, [1, 7]);
}
