//! `_sizeof` of a field read already (`len_header - header._sizeof`): readers know it from the
//! value, writers from the edited value.

mod sizes_while_reading {
    skelcodec_macros::codec!("tests/schemas/sizes_while_reading.ksy");
}

use sizes_while_reading::SizesWhileReading;

#[test]
fn sizes_of_fields_read_already_steer_reads_and_writes() {
    // "AB", len 9 = magic 2 + head 5 (len 2, "hi\0") + body 2.
    let bytes = [b'A', b'B', 9, 0, b'h', b'i', 0, 0xaa, 0xbb];
    let value = SizesWhileReading::read(&bytes).unwrap();
    assert_eq!(value.body.0, [0xaa, 0xbb]);
    assert_eq!(value.to_bytes().unwrap(), bytes);

    // A longer name leaves less room for the body under the same `len`.
    let mut edited = value.clone();
    edited.head.name.set_text("hey", 1);
    let err = edited.to_bytes().unwrap_err();
    assert_eq!(err.path(), "body", "{err}");
    edited.body.0.as_mut_vec().pop();
    let written = edited.to_bytes().unwrap();
    assert_eq!(SizesWhileReading::read(&written).unwrap(), edited);
}
