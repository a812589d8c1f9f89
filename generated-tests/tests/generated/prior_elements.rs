//! An element's arguments computed from the elements of its own list read before it
//! (`records[_index - 1].next_len`), in the reader and in the writer.

mod prior_elements {
    skelcodec_macros::codec!("tests/schemas/prior_elements.ksy");
}

use prior_elements::PriorElements;

#[test]
fn each_record_is_as_long_as_the_one_before_says() {
    // "a" then 3, "bcd" then 2, "ef" then 0.
    let file = [b'a', 3, b'b', b'c', b'd', 2, b'e', b'f', 0];
    let value = PriorElements::read(&file).unwrap();
    let data: Vec<&[u8]> = value.records.iter().map(|r| r.data.0.as_slice()).collect();
    assert_eq!(data, [&b"a"[..], b"bcd", b"ef"]);
    assert_eq!(value.to_bytes().unwrap(), file);
}

#[test]
fn the_writer_checks_each_size_against_the_record_before() {
    let file = [b'a', 3, b'b', b'c', b'd', 2, b'e', b'f', 0];
    let mut value = PriorElements::read(&file).unwrap();
    value.records[1].next_len = 3;
    let err = value.to_bytes().unwrap_err().to_string();
    assert!(err.contains("records[2].data"), "{err}");
}

#[test]
fn the_fourth_record_ends_the_list_whatever_it_says() {
    // Every record says the next is one byte long; the list stops after four, the rest is kept.
    let file = [b'a', 1, b'b', 1, b'c', 1, b'd', 1, b'e', 1];
    let value = PriorElements::read(&file).unwrap();
    assert_eq!(value.records.len(), 4);
    assert_eq!(value.to_bytes().unwrap(), file);
}
