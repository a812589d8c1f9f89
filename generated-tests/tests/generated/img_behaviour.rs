//! GTA IMG archives: the hand-built fixtures (see fixtures/img/build_fixtures.py) and, when
//! present, the real San Andreas archive of the corpus.

use std::path::{Path, PathBuf};

use skelcodec_formats::img_archive::{Archive, ArchiveError, Placement, SECTOR};

fn fixture(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/img")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The builder's entries: a.bin holds 3000 bytes (i * 7) % 251, b.ifp an empty ANPK package.
fn a_bin() -> Vec<u8> {
    (0..3000u32).map(|i| ((i * 7) % 251) as u8).collect()
}

fn b_ifp() -> Vec<u8> {
    let mut b = b"ANPK\x0c\0\0\0INFO\x04\0\0\0\0\0\0\0".to_vec();
    b.resize(SECTOR as usize, 0);
    b
}

fn padded(mut bytes: Vec<u8>) -> Vec<u8> {
    bytes.resize(bytes.len().next_multiple_of(SECTOR as usize), 0);
    bytes
}

#[test]
fn both_versions_list_and_extract_the_builders_entries() {
    let v2 = Archive::open_v2(&fixture("two_entries.img")).unwrap();
    let v1 = Archive::open_v1(&fixture("gta3_style.dir"), fixture("gta3_style.img")).unwrap();
    for (archive, offsets) in [(&v2, [SECTOR, 4 * SECTOR]), (&v1, [0, 2 * SECTOR])] {
        let entries = archive.entries();
        let names: Vec<&str> = entries.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["a.bin", "b.ifp"]);
        assert_eq!(entries[0].offset, offsets[0]);
        assert_eq!(entries[1].offset, offsets[1]);
        assert_eq!(archive.entry_bytes(&entries[0]), padded(a_bin()));
        assert_eq!(archive.entry_bytes(&entries[1]), b_ifp());
        // Names match whatever their case, as in the games.
        assert_eq!(archive.entry("B.IFP"), Some(entries[1].clone()));
    }
    assert_eq!((v2.version(), v1.version()), (2, 1));
}

#[test]
fn archives_are_written_back_byte_for_byte() {
    let bytes = fixture("two_entries.img");
    let archive = Archive::open_v2(&bytes).unwrap();
    assert_eq!(
        archive.to_bytes().unwrap(),
        bytes,
        "the stale sector is kept too"
    );
    let v1 = Archive::open_v1(&fixture("gta3_style.dir"), fixture("gta3_style.img")).unwrap();
    assert_eq!(
        v1.directory_bytes().unwrap().unwrap(),
        fixture("gta3_style.dir")
    );
    assert_eq!(v1.to_bytes().unwrap(), fixture("gta3_style.img"));
    // The name's bytes after its NUL survive too.
    let img = skelcodec_formats::img::Img::read(&bytes).unwrap();
    assert_eq!(img.entries[0].name.after_terminator()[..2], *b"zz");
}

#[test]
fn replacing_keeps_every_other_entry_and_the_sector_grid() {
    let bytes = fixture("two_entries.img");
    let original = Archive::open_v2(&bytes).unwrap();

    // Smaller: in its own sectors, the one it no longer uses zeroed.
    let mut smaller = original.clone();
    assert_eq!(
        smaller.replace("a.bin", b"tiny").unwrap(),
        Placement::InPlace
    );
    let reread = Archive::open_v2(&smaller.to_bytes().unwrap()).unwrap();
    let a = reread.entry("a.bin").unwrap();
    assert_eq!((a.offset, a.size), (SECTOR, SECTOR));
    assert_eq!(reread.entry_bytes(&a), padded(b"tiny".to_vec()));
    assert_eq!(reread.entry_bytes(&reread.entry("b.ifp").unwrap()), b_ifp());
    let new_bytes = smaller.to_bytes().unwrap();
    assert_eq!(new_bytes.len(), bytes.len());
    assert_eq!(
        new_bytes[3 * SECTOR as usize..],
        bytes[3 * SECTOR as usize..]
    );

    // Larger: moved to the end, sector-aligned; b.ifp untouched at its place.
    let mut larger = original.clone();
    let big = vec![7u8; 5000];
    let placement = larger.replace("A.BIN", &big).unwrap();
    assert_eq!(placement, Placement::Moved { offset: 5 * SECTOR });
    let out = larger.to_bytes().unwrap();
    assert_eq!(out.len() as u64 % SECTOR, 0);
    let reread = Archive::open_v2(&out).unwrap();
    let a = reread.entry("a.bin").unwrap();
    assert_eq!((a.offset, a.size), (5 * SECTOR, 3 * SECTOR));
    assert_eq!(reread.entry_bytes(&a), padded(big));
    assert_eq!(out[..8], bytes[..8]);
    assert_eq!(
        out[4 * SECTOR as usize..5 * SECTOR as usize],
        bytes[4 * SECTOR as usize..5 * SECTOR as usize]
    );

    // Version 1: the .dir says where it went.
    let mut v1 = Archive::open_v1(&fixture("gta3_style.dir"), fixture("gta3_style.img")).unwrap();
    assert_eq!(
        v1.replace("b.ifp", &vec![1u8; 4096]).unwrap(),
        Placement::Moved { offset: 3 * SECTOR }
    );
    let dir = v1.directory_bytes().unwrap().unwrap();
    let again = Archive::open_v1(&dir, v1.to_bytes().unwrap()).unwrap();
    assert_eq!(
        again.entry_bytes(&again.entry("b.ifp").unwrap()),
        vec![1u8; 4096]
    );
    assert_eq!(
        again.entry_bytes(&again.entry("a.bin").unwrap()),
        padded(a_bin())
    );

    assert!(matches!(
        original.clone().replace("nope", b""),
        Err(ArchiveError::NoEntry(_))
    ));
}

#[test]
fn hostile_directories_are_errors() {
    let mut bytes = fixture("two_entries.img");
    // An entry past the end.
    bytes[8 + 32..8 + 36].copy_from_slice(&1000u32.to_le_bytes());
    let err = Archive::open_v2(&bytes).unwrap_err().to_string();
    assert!(err.contains("b.ifp") && err.contains("bytes"), "{err}");
    // A count far beyond the file.
    let mut bytes = fixture("two_entries.img");
    bytes[4..8].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(Archive::open_v2(&bytes).is_err());
    // Data claimed inside the directory.
    let mut bytes = fixture("two_entries.img");
    bytes[8..12].copy_from_slice(&0u32.to_le_bytes());
    assert!(Archive::open_v2(&bytes).is_err());
}

#[track_caller]
fn corpus_archive() -> Option<PathBuf> {
    let dir = skelcodec_runtime::testing::corpus_dir(env!("CARGO_MANIFEST_DIR"))?;
    Some(dir.join("img/cretaceous_models_cutscene.img"))
}

#[test]
fn the_real_archive_holds_six_entries_each_byte_exact() {
    let Some(path) = corpus_archive() else {
        return;
    };
    let bytes = std::fs::read(&path).unwrap();
    let archive = Archive::open_v2(&bytes).unwrap();
    let names: Vec<String> = archive.entries().into_iter().map(|e| e.name).collect();
    // MANIFEST.tsv: 3 skinned cutscene models and their texture dictionaries.
    assert_eq!(
        names,
        [
            "csbmyap.dff",
            "csbmyap.txd",
            "csbfori.dff",
            "csbfori.txd",
            "csbfyri.dff",
            "csbfyri.txd"
        ]
    );
    assert_eq!(archive.to_bytes().unwrap(), bytes);
    // The data starts at sector 2: the sector the tool left after the directory is room to
    // grow, no disagreement; normalizing keeps every entry where it is and only zeroes the
    // room (it holds stale bytes).
    let img = skelcodec_formats::img::Img::read(&bytes).unwrap();
    assert!(img.check().is_empty(), "{:?}", img.check());
    let mut normalized = img.clone();
    normalized.normalize().unwrap();
    let normalized = normalized.to_bytes().unwrap();
    let room = 8 + 6 * 32..2 * SECTOR as usize;
    assert_eq!(normalized.len(), bytes.len());
    assert!(normalized[room.clone()].iter().all(|&b| b == 0));
    assert!(
        bytes[room.clone()].iter().any(|&b| b != 0),
        "stale bytes in the room"
    );
    assert!(normalized[..room.start] == bytes[..room.start]);
    assert!(
        normalized[room.end..] == bytes[room.end..],
        "every entry where it was"
    );
    // Rebuilt: from the sector after the directory, the entries back to back.
    let mut rebuilt = archive.clone();
    rebuilt.rebuild().unwrap();
    let sectors: u64 = archive.entries().iter().map(|e| e.size / SECTOR).sum();
    assert_eq!(
        rebuilt.to_bytes().unwrap().len() as u64,
        (1 + sectors) * SECTOR
    );
    for entry in archive.entries() {
        let data = archive.entry_bytes(&entry);
        let ext = entry.name.rsplit('.').next();
        let format = skelcodec_formats::detect(data, ext).expect("a known format");
        assert_eq!(format.id(), "dff", "{}", entry.name);
        assert_eq!(
            format.round_trip(data).unwrap(),
            skelcodec_runtime::RoundTrip::Exact,
            "{}",
            entry.name
        );
    }
}

#[test]
fn adding_deleting_and_rebuilding_leave_no_holes() {
    // two_entries.img: header sector, a.bin in sectors 1-2, a stale sector, b.ifp in 4.
    let mut v2 = Archive::open_v2(&fixture("two_entries.img")).unwrap();
    v2.rebuild().unwrap();
    let bytes = v2.to_bytes().unwrap();
    assert_eq!(bytes.len() as u64, 4 * SECTOR, "1 + 2 + 1 sectors");
    let reread = Archive::open_v2(&bytes).unwrap();
    let offsets: Vec<u64> = reread.entries().iter().map(|e| e.offset).collect();
    assert_eq!(offsets, [SECTOR, 3 * SECTOR]);
    assert_eq!(
        reread.entry_bytes(&reread.entry("a.bin").unwrap()),
        padded(a_bin())
    );
    assert_eq!(reread.entry_bytes(&reread.entry("b.ifp").unwrap()), b_ifp());
    // The name's bytes after its NUL stay with the entry.
    let img = skelcodec_formats::img::Img::read(&bytes).unwrap();
    assert_eq!(img.entries[0].name.after_terminator()[..2], *b"zz");
    assert!(img.check().is_empty(), "{:?}", img.check());

    // Added last, at the next sector; deleted, the rest moves up.
    let mut added = Archive::open_v2(&fixture("two_entries.img")).unwrap();
    added.add("c.bin", &[5u8; 10]).unwrap();
    let names: Vec<String> = added.entries().into_iter().map(|e| e.name).collect();
    assert_eq!(names, ["a.bin", "b.ifp", "c.bin"]);
    let c = added.entry("c.bin").unwrap();
    assert_eq!((c.offset, c.size), (4 * SECTOR, SECTOR));
    assert_eq!(added.to_bytes().unwrap().len() as u64, 5 * SECTOR);
    added.delete(&["A.BIN"]).unwrap();
    let reread = Archive::open_v2(&added.to_bytes().unwrap()).unwrap();
    let layout: Vec<(String, u64)> = reread
        .entries()
        .into_iter()
        .map(|e| (e.name, e.offset / SECTOR))
        .collect();
    assert_eq!(layout, [("b.ifp".into(), 1), ("c.bin".into(), 2)]);
    assert_eq!(
        reread.entry_bytes(&reread.entry("c.bin").unwrap()),
        padded(vec![5u8; 10])
    );

    // Refusals: the archive unchanged.
    let original = Archive::open_v2(&fixture("two_entries.img")).unwrap();
    let mut refused = original.clone();
    assert!(matches!(refused.add("B.IFP", b"x"), Err(ArchiveError::Duplicate(n)) if n == "b.ifp"));
    let long = "x".repeat(24);
    let err = refused.add(&long, b"x").unwrap_err();
    assert!(matches!(err, ArchiveError::NameTooLong { len: 24, .. }));
    assert!(err.to_string().contains("at most 23 bytes"), "{err}");
    // 23 bytes and the NUL fill the field; an empty entry takes no sectors.
    let mut longest = original.clone();
    let name = "y".repeat(23);
    longest.add(&name, b"").unwrap();
    let reread = Archive::open_v2(&longest.to_bytes().unwrap()).unwrap();
    assert_eq!(reread.entry(&name).map(|e| e.size), Some(0));
    let mut refused = original.clone();
    assert!(matches!(
        refused.delete(&["a.bin", "nope"]),
        Err(ArchiveError::NoEntry(n)) if n == "nope"
    ));
    assert_eq!(refused, original, "nothing deleted");

    // Version 1: the .img packed from sector 0.
    let mut v1 = Archive::open_v1(&fixture("gta3_style.dir"), fixture("gta3_style.img")).unwrap();
    v1.add("c.bin", &[6u8; 3000]).unwrap();
    v1.delete(&["a.bin"]).unwrap();
    let dir = v1.directory_bytes().unwrap().unwrap();
    let reread = Archive::open_v1(&dir, v1.to_bytes().unwrap()).unwrap();
    let layout: Vec<(String, u64, u64)> = reread
        .entries()
        .into_iter()
        .map(|e| (e.name, e.offset / SECTOR, e.size / SECTOR))
        .collect();
    assert_eq!(layout, [("b.ifp".into(), 0, 1), ("c.bin".into(), 1, 2)]);
    assert_eq!(reread.to_bytes().unwrap().len() as u64, 3 * SECTOR);
    assert_eq!(reread.entry_bytes(&reread.entry("b.ifp").unwrap()), b_ifp());
}

#[test]
fn an_archive_cut_short_of_its_last_sector_round_trips() {
    // b.ifp's 20 bytes, then the file ends: the padding of its sector is not stored.
    let mut bytes = fixture("two_entries.img");
    bytes.truncate(4 * SECTOR as usize + 20);
    let archive = Archive::open_v2(&bytes).unwrap();
    assert_eq!(archive.to_bytes().unwrap(), bytes);
    let b = archive.entry("b.ifp").unwrap();
    assert_eq!(&archive.entry_bytes(&b)[..20], &b_ifp()[..20]);
    // Rebuilt, every sector is whole.
    let mut rebuilt = archive.clone();
    rebuilt.rebuild().unwrap();
    assert_eq!(rebuilt.to_bytes().unwrap().len() as u64, 4 * SECTOR);
}
