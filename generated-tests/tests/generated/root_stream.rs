//! `io: _root._io`: a value read at an absolute offset of the whole file from inside a
//! substream, or inside processed data, is placed back there by the writer.

#[allow(deprecated)] // the schema's style warnings, which `schema check` lists
mod root_stream {
    skelcodec_macros::codec!("tests/schemas/root_stream.ksy");
}

use root_stream::RootStream;

/// A directory of two entries (in a 4-byte substream), a hidden directory of one entry (xor
/// 0xff), a byte no entry points at, then the three bodies.
const FILE: [u8; 16] = [
    4, 9, 2, 11, 3, // directory: (9, 2), (11, 3)
    2, !14, !2,   // hidden: (14, 2)
    0x77, // unclaimed
    b'a', b'b', // 9..11
    b'c', b'd', b'e', // 11..14
    b'x', b'y', // 14..16
];

#[test]
fn blocks_at_absolute_offsets_are_read_from_any_stream() {
    let value = RootStream::read(&FILE).unwrap();
    let bodies: Vec<&[u8]> = value
        .dir
        .entries
        .iter()
        .map(|e| e.body.get().unwrap().0.as_slice())
        .collect();
    assert_eq!(bodies, [&FILE[9..11], &FILE[11..14]]);
    let hidden = &value.hidden.value.entries[0];
    assert_eq!(
        (hidden.ofs, hidden.body.get().unwrap().0.as_slice()),
        (14, &FILE[14..16])
    );
    assert_eq!(value.to_bytes().unwrap(), FILE);
}

#[test]
fn edited_blocks_are_placed_back_and_overlaps_are_refused() {
    let mut value = RootStream::read(&FILE).unwrap();
    value.hidden.value.entries[0].body.get_mut().unwrap().0 = b"XY".to_vec().into();
    let bytes = value.to_bytes().unwrap();
    assert_eq!(&bytes[14..16], b"XY", "placed from inside processed data");
    assert_eq!(RootStream::read(&bytes).unwrap(), value);

    // Two blocks claiming the same bytes with different contents cannot both be written.
    let mut value = RootStream::read(&FILE).unwrap();
    value.dir.entries[1].ofs = 9;
    value.dir.entries[1].len = 2;
    value.dir.entries[1].body.get_mut().unwrap().0 = b"zz".to_vec().into();
    let err = value.to_bytes().unwrap_err();
    assert!(err.to_string().contains("overlaps"), "{err}");
    assert!(err.path().ends_with("body"), "{err}");
}
