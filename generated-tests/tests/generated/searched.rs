//! `-scan` and `-solve` read alike by both back ends: the same values, the same bytes written
//! back, the same errors when no occurrence of the marker or no candidate lets the rest read
//! to the end.

mod searched {
    skelcodec_macros::codec!("tests/schemas/searched.ksy");
}

use searched::Searched;
use skelcodec_generated_tests::{assert_interpreted_alike, interpreter};

const SCHEMA: &str = "tests/schemas/searched.ksy";

#[test]
fn a_name_runs_to_the_marker_after_which_the_solved_items_read_to_the_end() {
    // No hint; the name "a\xffbc" holds a marker too: after the first, 7 bytes remain, which
    // no count of 2-byte items takes; after the second, 4, which 2 items take.
    let file = b"\0a\xffbc\xff\x01\x00\x02\x00";
    let value = Searched::read(file).unwrap();
    assert_eq!(value.name.as_bytes(), b"a\xffbc");
    assert_eq!((value.num_items, value.items.as_slice()), (2, &[1, 2][..]));
    assert_eq!(value.to_bytes().unwrap(), file);
    let document = serde_json::to_value(&value).unwrap();
    assert_interpreted_alike(&interpreter(SCHEMA), file, &document);
}

#[test]
fn a_hint_gives_the_count_and_a_file_no_marker_fits_fails_alike() {
    // The hint (1) is the count: one item, after the first marker.
    let hinted = b"\x01a\xff\x07\x00";
    let value = Searched::read(hinted).unwrap();
    assert_eq!((value.num_items, value.items.as_slice()), (1, &[7][..]));
    assert_interpreted_alike(
        &interpreter(SCHEMA),
        hinted,
        &serde_json::to_value(&value).unwrap(),
    );
    // An odd number of bytes after every marker: no count fits.
    for file in [&b"\0a\xff\x01\x00\x02"[..], b"\0abc"] {
        let expected = Searched::read(file).unwrap_err();
        let error = interpreter(SCHEMA).read(file).unwrap_err();
        assert_eq!(error.to_string(), expected.to_string());
        assert_eq!(error.path(), "name", "{error}");
    }
}
