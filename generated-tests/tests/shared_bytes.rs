//! Byte fields read from a file the value keeps are views of it: nothing is copied until one
//! is edited, and the value reads, compares, writes and travels between threads as before.

#[allow(deprecated)] // the schema's style warnings, which `schema check` lists
mod archive {
    skelcodec_macros::codec!("tests/schemas/sector_archive.ksy");
}

use archive::SectorArchive;

/// An archive (see `layout.rs`) with two files on 16-byte sectors and no names.
fn archive() -> Vec<u8> {
    let mut out = b"SARC".to_vec();
    out.extend(2u16.to_le_bytes());
    out.extend([0; 4]); // no names: offset 0, size 0
    for (sector, data) in [(2u16, &b"hello"[..]), (3, b"abc")] {
        out.extend(sector.to_le_bytes());
        out.extend((data.len() as u16).to_le_bytes());
    }
    out.resize(2 * 16, 0);
    out.extend(b"hello");
    out.resize(3 * 16, 0);
    out.extend(b"abc");
    out
}

#[test]
fn a_file_given_to_read_owned_is_shared_by_its_byte_fields() {
    let file = archive();
    let owned = SectorArchive::read_owned(file.clone()).unwrap();
    let copied = SectorArchive::read(&file).unwrap();
    assert_eq!(owned, copied, "the same value either way");
    for (data, want) in owned
        .files
        .iter()
        .map(|f| &f.data)
        .zip([&b"hello"[..], b"abc"])
    {
        assert!(data.0.is_shared(), "a view of the file");
        assert_eq!(data.0, want);
    }
    // Read from a borrowed file, nothing needs the file later: each field is its own copy.
    assert!(copied.files.iter().all(|f| !f.data.0.is_shared()));
    assert_eq!(owned.to_bytes().unwrap(), file);

    // Edited, a field is the value's own; the others stay views, and the file reads back.
    let mut edited = owned.clone();
    edited.files[0]
        .data
        .0
        .as_mut_vec()
        .extend_from_slice(b", world");
    assert!(!edited.files[0].data.0.is_shared());
    assert!(edited.files[1].data.0.is_shared());
    assert_eq!(
        owned.files[0].data.0, b"hello",
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
