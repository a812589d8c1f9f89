//! The bytes of a substream that its type does not read are kept (`_unread`) and written back;
//! an instance only the finished value could compute is left out, not a reason to refuse.

#[allow(deprecated)] // the schema's style warnings, which `schema check` lists
mod unread_tails {
    skelcodec_macros::codec!("tests/schemas/unread_tails.ksy");
}

use unread_tails::UnreadTails;

/// A directory of one entry in a 6-byte substream (3 bytes unread), then two 3-byte blocks
/// whose types read one byte each.
const FILE: [u8; 12] = [1, 0x34, 0x12, 0xaa, 0xbb, 0xcc, 7, 0, 0, 8, 0xee, 0xff];

#[test]
fn unread_bytes_of_substreams_are_kept_and_written_back() {
    let value = UnreadTails::read(&FILE).unwrap();
    assert_eq!(value.dir.entries, [0x1234]);
    assert_eq!(value.dir._unread.0, [0xaa, 0xbb, 0xcc]);
    let tags: Vec<u8> = value.blocks.iter().map(|b| b.tag).collect();
    assert_eq!(tags, [7, 8]);
    assert_eq!(value.blocks[1]._unread.0, [0xee, 0xff]);
    assert_eq!(value.to_bytes().unwrap(), FILE);
}

#[test]
fn an_edit_that_no_longer_fills_the_size_is_refused_with_its_path() {
    let mut value = UnreadTails::read(&FILE).unwrap();
    value.blocks[0]._unread.0.push(1);
    let error = value.to_bytes().unwrap_err().to_string();
    assert!(error.contains("blocks[0]"), "{error}");
}

#[test]
fn documents_show_kept_bytes_and_leave_empty_ones_out() {
    let mut value = UnreadTails::read(&FILE).unwrap();
    let json = serde_json::to_value(&value).unwrap();
    assert_eq!(json["dir"]["_unread"], "aabbcc");
    value.dir._unread.0.clear();
    let json = serde_json::to_value(&value).unwrap();
    assert!(json["dir"].get("_unread").is_none(), "{json}");
}

mod unread_in_place {
    skelcodec_macros::codec!("tests/schemas/unread_in_place.ksy");
}

#[test]
fn a_type_also_read_in_place_keeps_what_its_substream_leaves() {
    use unread_in_place::UnreadInPlace;
    let file = [1, 2, 3, 4, 9, 9];
    let value = UnreadInPlace::read(&file).unwrap();
    assert_eq!((value.plain.a, value.plain.b), (1, 2));
    assert!(value.plain._unread.0.is_empty());
    assert_eq!((value.sized.a, value.sized.b), (3, 4));
    assert_eq!(value.sized._unread.0, [9, 9]);
    assert_eq!(value.to_bytes().unwrap(), file);
    // In place there is no substream to hold such bytes: they would be read as what follows.
    let mut edited = value.clone();
    edited.plain._unread.0.push(7);
    let error = edited.to_bytes().unwrap_err().to_string();
    assert!(
        error.contains("plain") && error.contains("_unread"),
        "{error}"
    );
}

#[allow(deprecated)] // the schema's style warnings, which `schema check` lists
mod placed_in_unread {
    skelcodec_macros::codec!("tests/schemas/placed_in_unread.ksy");
}

#[test]
fn an_instance_placed_in_the_unread_bytes_must_agree_with_them() {
    use placed_in_unread::PlacedInUnread;
    let file = [4, 9, b'a', b'b', b'c'];
    let mut value = PlacedInUnread::read(&file).unwrap();
    assert_eq!(value.body.pair.get().unwrap().0, b"ab");
    assert_eq!(value.body._unread.0, b"abc");
    assert_eq!(value.body_size(), 1);
    assert_eq!(value.to_bytes().unwrap(), file);
    // The instance and the kept bytes say different things of the same place: refused.
    value.body.pair =
        skelcodec_runtime::Instance::from(skelcodec_runtime::RawBytes::new(b"xy".to_vec()));
    let error = value.to_bytes().unwrap_err().to_string();
    assert!(error.contains("`pair`"), "{error}");
}
