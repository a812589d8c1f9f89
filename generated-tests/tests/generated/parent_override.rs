//! `parent:` overrides what a user type sees as `_parent`, in readers and writers.

mod parent_override {
    skelcodec_macros::codec!("tests/schemas/parent_override.ksy");
}

use parent_override::ParentOverride;

#[test]
fn a_child_held_through_a_wrapper_sizes_its_data_from_the_root() {
    // len 2; wrapper.inner: tag 7, "ab"; loose: tag 9, no data (no parent).
    let file = [2, 7, b'a', b'b', 9];
    let value = ParentOverride::read(&file).unwrap();
    assert_eq!(value.wrapper.inner.data.0, b"ab");
    assert_eq!((value.loose.tag, value.loose.data.0.len()), (9, 0));
    assert_eq!(value.to_bytes().unwrap(), file);
}

#[test]
fn the_writer_sizes_the_child_from_the_same_value() {
    let mut value = ParentOverride::read(&[2, 7, b'a', b'b', 9]).unwrap();
    value.len = 3;
    let err = value.to_bytes().unwrap_err().to_string();
    assert!(err.contains("wrapper.inner.data"), "{err}");
}
