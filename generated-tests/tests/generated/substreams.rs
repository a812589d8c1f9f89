//! `size` and `terminator` on a user type delimit a substream for each element of a list, as
//! in Kaitai: the reader reads each value from its own bytes, the writer refuses a value that
//! would not be read back the same, and the consumed terminator counts in the encoded length.
//! `_index` is each element's index in its own size.

mod substreams {
    skelcodec_macros::codec!("tests/schemas/substreams.ksy");
}

use substreams::Substreams;

const BYTES: &[u8] = b"ab,cd,\x01x\x02yx.\x01\x03abcd";

#[test]
fn each_element_reads_from_its_own_substream() {
    let value = Substreams::read(BYTES).unwrap();
    let words: Vec<_> = value.words.iter().map(|w| w.text.text()).collect();
    assert_eq!(
        words,
        ["ab", "cd"],
        "the terminator is not part of the value"
    );
    assert_eq!(value.blocks[1].a, 2);
    assert_eq!(value.blocks[1].rest.0, b"y");
    assert_eq!(
        value.tail.text.text(),
        "x.",
        "`include` keeps the terminator"
    );
    let names: Vec<_> = value.names.iter().map(|n| n.text()).collect();
    assert_eq!(names, ["a", "bcd"], "`size: lens[_index]`");
    assert_eq!(value.encoded_len(), BYTES.len());
    assert_eq!(value.to_bytes().unwrap(), BYTES);
}

#[test]
fn values_that_would_read_back_differently_are_refused() {
    let value = Substreams::read(BYTES).unwrap();

    let mut comma = value.clone();
    comma.words[0].text = "a,b".into();
    let err = comma.to_bytes().unwrap_err();
    assert_eq!(err.path(), "words[0]", "{err}");

    let mut long = value.clone();
    long.blocks[0].rest.0 = b"zz".to_vec().into();
    let err = long.to_bytes().unwrap_err();
    assert_eq!(err.path(), "blocks[0]", "{err}");

    let mut unterminated = value;
    unterminated.tail.text = "x".into();
    let err = unterminated.to_bytes().unwrap_err();
    assert_eq!(err.path(), "tail", "{err}");
}

#[test]
fn each_element_is_checked_against_its_own_size() {
    let mut value = Substreams::read(BYTES).unwrap();
    value.names[1] = "bc".into();
    let err = value.to_bytes().unwrap_err();
    assert_eq!(err.path(), "names[1]", "lens[1] is 3: {err}");
}
