//! A list literal of byte arrays: indexed, its elements are byte arrays; past its end, empty.

#[allow(deprecated)] // the schema's style warnings, which `schema check` lists
mod byte_table {
    skelcodec_macros::codec!("tests/schemas/byte_table.ksy");
}

use byte_table::ByteTable;

#[test]
fn elements_of_a_byte_array_table_are_byte_arrays() {
    let value = ByteTable::read(&[1, 9, 9, 9]).unwrap();
    assert_eq!(value.word(), [3, 4, 5]);
    assert_eq!(value.body.0, [9, 9, 9]);
    let first = ByteTable::read(&[0, 7, 7]).unwrap();
    assert_eq!(first.word(), [1, 2]);
    let past = ByteTable::read(&[5]).unwrap();
    assert!(past.word().is_empty());
    assert_eq!(past.to_bytes().unwrap(), [5]);
}
