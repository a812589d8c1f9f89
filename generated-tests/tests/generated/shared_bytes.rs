//! Byte fields, strings and counted lists of fixed-size elements are views of the file given
//! to `read_owned`: nothing is copied or decoded until one is looked at or edited, and the value
//! reads, compares, writes and travels between threads as a value read from a borrowed file
//! (whose fields copy their bytes and whose lists are decoded as they are read, until one copy
//! of the file costs less than copying on).

#[allow(deprecated)] // the schema's style warnings, which `schema check` lists
mod archive {
    skelcodec_macros::codec!("tests/schemas/sector_archive.ksy");
}

mod lists {
    skelcodec_macros::codec!("tests/schemas/shared_fields.ksy");
}

use archive::SectorArchive;
use lists::{Point, SharedFields};

/// The first file's data: more bytes than a value holds inline.
const LONG: &[u8] = b"hello, world: more than thirty bytes";

/// An archive (see `layout.rs`) with two files on 16-byte sectors and no names: `LONG` at
/// sector 2, "abc" at sector 8, 60 bytes of padding between.
fn archive() -> Vec<u8> {
    archive_with_second_at(8)
}

/// The archive of [`archive`] with "abc" at `sector`.
fn archive_with_second_at(sector: u16) -> Vec<u8> {
    let mut out = b"SARC".to_vec();
    out.extend(2u16.to_le_bytes());
    out.extend([0; 4]); // no names: offset 0, size 0
    for (sector, data) in [(2u16, LONG), (sector, b"abc")] {
        out.extend(sector.to_le_bytes());
        out.extend((data.len() as u16).to_le_bytes());
    }
    out.resize(2 * 16, 0);
    out.extend(LONG);
    out.resize(usize::from(sector) * 16, 0);
    out.extend(b"abc");
    out
}

#[test]
fn a_file_given_to_read_owned_is_shared_by_its_byte_fields() {
    let file = archive();
    let owned = SectorArchive::read_owned(file.clone()).unwrap();
    let copied = SectorArchive::read(&file).unwrap();
    assert_eq!(owned, copied, "the same value either way");
    let [long, short] = [&owned.files[0].data.0, &owned.files[1].data.0];
    assert!(long.is_shared(), "a view of the file");
    assert_eq!(long, LONG);
    // A few bytes are copied inline: less work than a reference to the file.
    assert!(!short.is_shared());
    assert_eq!(short, b"abc");
    // Read from a borrowed file, a field is copied unless the allocations of such copies cost
    // more than one copy of the file (`Reader::keep_file_when_cheaper`): in a file this small,
    // the first one does, and the field is a view of that copy.
    let in_file = |bytes: &[u8]| file.as_ptr_range().contains(&bytes.as_ptr());
    let long_copied = &copied.files[0].data.0;
    assert!(long_copied.is_shared() && !in_file(long_copied));
    // In a file of 64 KiB, the gaps, however long, are copied one by one; a field read by
    // position that holds a large share of the file (a 64th) is a view of one copy of it,
    // since values may point at the same bytes many times over.
    let big = archive_with_second_at(4096);
    let value = SectorArchive::read(&big).unwrap();
    let data = &value.files[0].data.0;
    assert_eq!(data.is_shared(), data.len() as u64 >= big.len() as u64 / 64);
    let widest = value.unclaimed.iter().map(|gap| &gap.bytes.0);
    let widest = widest.max_by_key(|bytes| bytes.len()).unwrap();
    assert!(widest.len() > 60_000 && !widest.is_shared());
    assert_eq!(value.to_bytes().unwrap(), big);
    // So are the bytes no field claims (the padding of the sectors): the long gap a view.
    assert!(owned.unclaimed.iter().any(|gap| gap.bytes.0.len() == 60));
    assert!(owned.unclaimed.iter().all(|gap| {
        let bytes = &gap.bytes.0;
        bytes.is_shared() == (bytes.len() > skelcodec_runtime::ByteBuf::INLINE)
    }));
    assert_eq!(owned.to_bytes().unwrap(), file);

    // Edited, a field is the value's own; the clone it came from stays a view, and the file
    // reads back.
    let mut edited = owned.clone();
    edited.files[0].data.0.as_mut_vec().extend_from_slice(b"!");
    assert!(!edited.files[0].data.0.is_shared());
    assert!(owned.files[0].data.0.is_shared());
    assert_eq!(
        owned.files[0].data.0, LONG,
        "the clone it came from unchanged"
    );
    edited.normalize().unwrap();
    let written = edited.to_bytes().unwrap();
    assert_eq!(SectorArchive::read(&written).unwrap(), edited);

    // The value owns what it shares: it outlives the file and moves to another thread.
    drop(file);
    let sent = std::thread::spawn(move || owned.files[1].data.0.to_vec());
    assert_eq!(sent.join().unwrap(), b"abc");
}

/// The title: more bytes than a value holds inline.
const TITLE: &[u8] = b"two, and more than thirty bytes";

/// Three points, two little-endian floats, two big-endian words and two strings.
fn lists_file() -> Vec<u8> {
    let mut out = 3u16.to_le_bytes().to_vec();
    for (x, y) in [(1i16, -1i16), (2, -2), (300, -300)] {
        out.extend(x.to_le_bytes());
        out.extend(y.to_le_bytes());
    }
    out.extend(1.5f32.to_le_bytes());
    out.extend((-0.0f32).to_le_bytes());
    out.extend([0x12, 0x34, 0xab, 0xcd]);
    out.extend(b"one\0");
    out.push(TITLE.len() as u8);
    out.extend(TITLE);
    out
}

#[test]
fn counted_lists_of_fixed_elements_are_views_decoded_when_looked_at() {
    let file = lists_file();
    let value = SharedFields::read_owned(file.clone()).unwrap();
    assert!(value.points.is_shared() && value.weights.is_shared() && value.words.is_shared());
    assert_eq!(value.points.len(), 3, "the count, known without decoding");
    assert_eq!(value.points.stored_bytes(), Some(&file[2..14]));
    assert_eq!(value.points[2], Point { x: 300, y: -300 });
    assert_eq!(
        value.words,
        [0x1234, 0xabcd],
        "each list with its own byte order"
    );
    assert_eq!(value.weights[0], 1.5);
    assert_eq!(
        (value.label.text(), value.title.text()),
        ("one".into(), std::str::from_utf8(TITLE).unwrap().into())
    );
    // The title is bytes 31.. of the file, where the points' bytes start at 2.
    let points_at = value.points.stored_bytes().unwrap().as_ptr();
    assert_eq!(
        value.title.as_bytes().as_ptr(),
        points_at.wrapping_add(29),
        "a view"
    );
    assert_eq!(
        value.to_bytes().unwrap(),
        file,
        "unchanged lists write their bytes"
    );
    let decoded = SharedFields::read(&file).unwrap();
    assert_eq!(decoded, value, "the same value either way");
    // Read from a borrowed file this small, decoding the first list (an allocation) costs
    // more than copying the file (`Reader::keep_file_when_cheaper`): the lists are views of
    // one copy.
    let in_file = |bytes: &[u8]| file.as_ptr_range().contains(&bytes.as_ptr());
    let points = decoded.points.stored_bytes().expect("a view");
    assert!(decoded.words.is_shared() && !in_file(points));

    // The document is the list's; read back from it, the lists are the value's own.
    let json = serde_json::to_value(&value).unwrap();
    assert_eq!(json["points"][1], serde_json::json!({"x": 2, "y": -2}));
    assert_eq!(json["words"], serde_json::json!([0x1234, 0xabcd]));
    let from_json: SharedFields = serde_json::from_value(json).unwrap();
    assert!(from_json.points.stored_bytes().is_none());
    assert_eq!(from_json.to_bytes().unwrap(), file);

    // An edit makes that list the value's own and leaves the clone it came from as read.
    let mut edited = value.clone();
    edited.points[0].x = 7;
    assert!(edited.points.stored_bytes().is_none() && edited.words.is_shared());
    assert_eq!(value.points[0].x, 1);
    let written = edited.to_bytes().unwrap();
    assert_eq!(written[2..4], 7i16.to_le_bytes());
    assert_eq!(written[4..], file[4..]);
    assert_eq!(SharedFields::read(&written).unwrap(), edited);
    // A list that grows is counted again by `normalize()`; the lists counted by that count
    // must agree before it writes.
    edited.points.push(Point { x: 4, y: 5 });
    assert_eq!(edited.check().len(), 1, "{:?}", edited.check());
    edited.normalize().unwrap();
    let refused = edited.to_bytes().unwrap_err().to_string();
    assert!(refused.contains("weights"), "2 weights, not 3: {refused}");
    edited.weights.push(0.5);
    edited.words.push(9);
    assert_eq!(
        SharedFields::read(&edited.to_bytes().unwrap()).unwrap(),
        edited
    );

    // The lists own what they share: they outlive the file and move to another thread.
    drop(file);
    let sent = std::thread::spawn(move || value.points.iter().map(|p| p.y).sum::<i16>());
    assert_eq!(sent.join().unwrap(), -303);
}
