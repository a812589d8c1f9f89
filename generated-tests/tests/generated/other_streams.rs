//! Instances read from another value's stream (`io: x._io`), including a decoded one: kept as
//! read, never written, and an edit that the bytes would not read back as is refused; so are
//! values whose position counts from the end of a stream.

mod other_streams {
    skelcodec_macros::codec!("tests/schemas/other_streams.ksy");
}

use other_streams::OtherStreams;

/// Header: table of 6 bytes, 2 records, reserved 0x0201; the table "ab\0cd\0" xor 0x55;
/// records (0, 8) and (3, 9).
fn sample() -> Vec<u8> {
    let mut file = vec![6, 2, 0x01, 0x02];
    file.extend(b"ab\0cd\0".iter().map(|b| b ^ 0x55));
    file.extend([0, 8, 3, 9]);
    file
}

#[test]
fn records_read_their_names_from_the_decoded_table() {
    let file = sample();
    let value = OtherStreams::read(&file).unwrap();
    let names: Vec<_> = value
        .records
        .iter()
        .map(|r| r.name.get().unwrap().text().into_owned())
        .collect();
    assert_eq!(names, ["ab", "cd"]);
    assert_eq!(value.header_tail.get(), Some(&0x0201));
    // From the end of the header's substream and of the file.
    assert_eq!(value.header.reserved_high.get().unwrap().0, [2]);
    // The parent's stream, and a type read where the record's sequence ended.
    assert_eq!(value.records[0].first_of_file.get().unwrap().0, [6]);
    let odd: Vec<bool> = value.records.iter().map(|r| r.is_odd()).collect();
    assert_eq!(odd, [false, true]);
    assert_eq!(value.last_byte.get().unwrap().0, [9]);
    assert_eq!(value.to_bytes().unwrap(), file);
}

#[test]
fn a_name_edited_without_its_table_is_refused() {
    let mut value = OtherStreams::read(&sample()).unwrap();
    value.records[1].name.get_mut().unwrap().set_text("zz", 1);
    let err = value.to_bytes().unwrap_err().to_string();
    assert!(err.contains("records[1].name"), "{err}");
}

#[test]
fn values_found_from_the_end_of_a_stream_are_kept_as_read() {
    let mut value = OtherStreams::read(&sample()).unwrap();
    value.last_byte.get_mut().unwrap().0 = vec![10].into();
    let err = value.to_bytes().unwrap_err().to_string();
    assert!(err.contains("last_byte"), "{err}");
    // Moving the byte they were read from moves them.
    let mut value = OtherStreams::read(&sample()).unwrap();
    value.records[1].value = 10;
    value.last_byte.get_mut().unwrap().0 = vec![10].into();
    assert_eq!(value.to_bytes().unwrap().last(), Some(&10));
}

#[test]
fn a_name_past_the_end_of_its_table_is_that_names_failure_alone() {
    let mut file = sample();
    let last = file.len() - 2;
    file[last] = 6;
    // As in Kaitai, where the instance raises only when accessed: the file reads, the name
    // keeps its error, and the file is written back as it was.
    let value = OtherStreams::read(&file).unwrap();
    let skelcodec_runtime::Instance::Failed(error) = &value.records[1].name else {
        panic!("{:?}", value.records[1].name);
    };
    assert!(error.to_string().contains("expected"), "{error}");
    assert!(value.records[0].name.get().is_some());
    assert_eq!(value.to_bytes().unwrap(), file);
}
