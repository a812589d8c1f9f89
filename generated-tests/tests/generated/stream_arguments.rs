//! Arguments computed from the input stream: `_io.pos` is the writer's own position in the
//! stream it writes (counted from the start of a substream, as the reader counts), so writers
//! check what depends on it; a number only the stream gives (`_io.size - 2`) is one writers
//! lack: they leave out the checks that use it, and the codec reads its output back.

mod positions {
    skelcodec_macros::codec!("tests/schemas/stream_arguments/positions.ksy");
}

mod stream_sizes {
    skelcodec_macros::codec!("tests/schemas/stream_arguments/stream_sizes.ksy");
}

use positions::Positions;
use skelcodec_runtime::Codec;
use stream_sizes::StreamSizes;

/// len_items 4; items: entries at 0 and 2 of their substream; tail at 5 of the file.
const POSITIONS: [u8; 7] = [4, 0, 0xAA, 2, 0xBB, 5, 0xCC];

#[test]
fn positions_are_the_readers_in_the_stream_the_value_is_read_from() {
    let value = Positions::read(&POSITIONS).unwrap();
    let offsets: Vec<u8> = value.items.entries.iter().map(|e| e.own_ofs).collect();
    assert_eq!(offsets, [0, 2]);
    assert_eq!(value.tail.own_ofs, 5);
    assert_eq!(value.to_bytes().unwrap(), POSITIONS);
}

#[test]
fn a_writer_checks_what_depends_on_its_own_position() {
    // Checked while writing, not by reading back.
    const { assert!(!Positions::VERIFY_WRITES) };
    let mut value = Positions::read(&POSITIONS).unwrap();
    value.items.entries.remove(0);
    value.len_items = 2;
    let err = value.to_bytes().unwrap_err().to_string();
    // The first entry is now at 0 of the substream, not at 2.
    assert!(err.contains("items.entries[0].own_ofs"), "{err}");
    value.items.entries[0].own_ofs = 0;
    // The tail is now at 3 of the file.
    let err = value.to_bytes().unwrap_err().to_string();
    assert!(err.contains("tail.own_ofs"), "{err}");
    value.tail.own_ofs = 3;
    assert_eq!(value.to_bytes().unwrap(), [2, 0, 0xBB, 3, 0xCC]);
}

/// Two records (last 0 and 1), each with `extra` and `tag`, then the trailer: 8 bytes, so the
/// records end at 6.
const SIZES: [u8; 8] = [0, 1, 7, 1, 2, 8, 0xEF, 0xBE];

#[test]
fn arguments_only_the_stream_gives_are_read_as_kaitai_reads_them() {
    let value = StreamSizes::read(&SIZES).unwrap();
    assert_eq!(value.records.len(), 2);
    assert_eq!(value.records[0].extra, Some(1));
    assert_eq!(value.records[1].note.tag, Some(8));
    assert_eq!(value.trailer, 0xBEEF);
    const { assert!(StreamSizes::VERIFY_WRITES) };
    assert_eq!(value.to_bytes().unwrap(), SIZES);
}

#[test]
fn an_edit_the_stream_would_read_otherwise_is_refused_with_its_path() {
    let mut value = StreamSizes::read(&SIZES).unwrap();
    // Without the byte, the file is 7 bytes: the records still end after 4, and the reader
    // takes the tag for `extra`.
    value.records[0].extra = None;
    let err = value.to_bytes().unwrap_err().to_string();
    assert!(err.contains("records[0]"), "{err}");
    // An edit that keeps the sizes is written.
    let mut value = StreamSizes::read(&SIZES).unwrap();
    value.records[1].note.tag = Some(9);
    assert_eq!(value.to_bytes().unwrap(), [0, 1, 7, 1, 2, 9, 0xEF, 0xBE]);
}
