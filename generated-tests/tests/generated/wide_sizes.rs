//! A `u8` above `i64::MAX` and the value expressions compute for it (its bits taken as signed,
//! as Kaitai's 64-bit arithmetic sees it) mean the same: `check()` is clean on a Compound File
//! directory entry whose size is all ones, and `normalize()` keeps it. The generated code and
//! the interpreter alike; the files are built by hand from `tests/schemas/wide_sizes.ksy`.

mod wide_sizes {
    skelcodec_macros::codec!("tests/schemas/wide_sizes.ksy");
}

use skelcodec_generated_tests::{checked, interpreted_check, interpreter};
use wide_sizes::WideSizes;

const SCHEMA: &str = "tests/schemas/wide_sizes.ksy";

/// `kind` 0 (no body) and a size of all ones.
const NO_BODY: [u8; 9] = [0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff];

#[test]
fn an_all_ones_u8_size_agrees_with_the_value_expressions_see() {
    let mut value = WideSizes::read(&NO_BODY).expect("the file reads");
    assert_eq!(value.len_body, u64::MAX);
    assert!(checked(&value).is_empty(), "{:?}", checked(&value));
    value.normalize().expect("normalize() keeps the size");
    assert_eq!(value.len_body, u64::MAX);
    assert_eq!(value.to_bytes().unwrap(), NO_BODY);

    let interpreter = interpreter(SCHEMA);
    let read = interpreter
        .read(&NO_BODY)
        .expect("the interpreter reads it");
    assert!(interpreted_check(&interpreter, &read).is_empty());
    assert!(interpreter.normalize(&read).expect("normalizes").is_empty());
    assert_eq!(interpreter.write(&read).unwrap(), NO_BODY);
}

#[test]
fn a_size_that_disagrees_is_still_reported_and_recomputed() {
    // `kind` 1: a body of two bytes; an edit gives it three.
    let file = [1, 2, 0, 0, 0, 0, 0, 0, 0, 0xaa, 0xbb];
    let mut value = WideSizes::read(&file).expect("the file reads");
    assert!(checked(&value).is_empty());
    value.body.get_mut().expect("the body reads").0 = vec![1, 2, 3].into();
    let found = ["len_body: stored 2, computed 3"];
    assert_eq!(checked(&value), found);
    let document = serde_json::to_value(&value).unwrap();
    value.normalize().expect("normalize() sets the size");
    let written = [1, 3, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3];
    assert_eq!(value.to_bytes().unwrap(), written);
    skelcodec_generated_tests::assert_interpreter_agrees(SCHEMA, &document, &found, &written);
}
