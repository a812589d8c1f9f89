//! Schemas the mutation tester once found accepted but not compiling, kept compiling and
//! behaving.

mod look_ahead_after_substream {
    skelcodec_macros::codec!("tests/schemas/regressions/look_ahead_after_substream.ksy");
}

mod decoded_sizeof {
    skelcodec_macros::codec!("tests/schemas/regressions/decoded_sizeof.ksy");
}

#[test]
fn a_look_ahead_may_use_a_fields_stream_once_the_type_is_read() {
    use look_ahead_after_substream::LookAheadAfterSubstream;
    let value = LookAheadAfterSubstream::read(&[2, 7, 8]).unwrap();
    assert_eq!(value.first_of_header.map(|v| v.get()), Some(7));
    let value = LookAheadAfterSubstream::read(&[1, 7]).unwrap();
    assert!(value.first_of_header.is_none(), "a header of one byte");
}

#[test]
fn the_size_of_decoded_text_is_its_stored_bytes() {
    use decoded_sizeof::DecodedSizeof;
    // "hi" in UTF-16BE is 4 bytes: total is 4 + 2.
    let file = [4, 0, b'h', 0, b'i', 6];
    assert!(DecodedSizeof::read(&file).unwrap().check().is_empty());
    let mut stale = file;
    stale[5] = 4;
    let mismatches = DecodedSizeof::read(&stale).unwrap().check();
    assert_eq!(mismatches.len(), 1, "{mismatches:?}");
    assert!(
        format!("{mismatches:?}").contains("total"),
        "{mismatches:?}"
    );
}
