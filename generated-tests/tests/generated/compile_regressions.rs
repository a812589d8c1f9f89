//! Schemas the mutation tester once found accepted but not compiling, kept compiling and
//! behaving.

mod look_ahead_after_substream {
    skelcodec_macros::codec!("tests/schemas/regressions/look_ahead_after_substream.ksy");
}

mod decoded_sizeof {
    skelcodec_macros::codec!("tests/schemas/regressions/decoded_sizeof.ksy");
}

mod placed_padding {
    skelcodec_macros::codec!("tests/schemas/regressions/placed_padding.ksy");
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

#[test]
fn bytes_read_by_position_are_not_resized_as_padding() {
    use placed_padding::PlacedPadding;
    use skelcodec_runtime::Codec as _;
    let file = [3, 0, 0, 0, b'a', b'b', b'c'];
    let mut value = PlacedPadding::read(&file).unwrap();
    assert!(value.check().is_empty());
    // `len` sizes both, so it is not derived: an edit of the data stays refused.
    value.data.0.push(b'd');
    value.normalize().unwrap();
    assert_eq!(value.len, 3);
    assert_eq!(
        value.pad_byte.get().map(|b| b.0.len()),
        Some(1),
        "kept as read"
    );
    assert!(value.to_bytes().is_err());
}
