//! `package add`, `package delete` and `package rebuild`, run as the binary, on archives built
//! here byte by byte from the formats' descriptions (gtamods wiki "IMG archive"; the DBPF 1.1
//! header as `schemas/dbpf.ksy` cites it), and on the real corpus when present.

use std::fs;
use std::path::{Path, PathBuf};

use crate::support::{assert_exit, skelcodec, stderr, stdout};

const SECTOR: usize = 2048;

/// Runs a command that must fail with exit status 2 and write nothing to `out`; its message.
#[track_caller]
fn refused(args: &[&dyn AsRef<std::ffi::OsStr>], out: &Path) -> String {
    let output = skelcodec(args);
    assert_exit(&output, 2);
    assert!(!out.exists(), "nothing is written on a refusal");
    stderr(&output)
}

/// The names `package list` prints, in order.
fn listed(archive: &Path) -> Vec<String> {
    let output = skelcodec(&[&"package", &"list", &archive]);
    assert_exit(&output, 0);
    stdout(&output)
        .lines()
        .map(|l| l.split_whitespace().next().unwrap().to_owned())
        .collect()
}

fn extract(archive: &Path, entry: &str, dir: &Path) -> Vec<u8> {
    let out = dir.join("extracted.bin");
    assert_exit(
        &skelcodec(&[&"package", &"extract", &archive, &entry, &"-o", &out]),
        0,
    );
    let bytes = fs::read(&out).unwrap();
    fs::remove_file(out).unwrap();
    bytes
}

/// `skelcodec roundtrip` on the file: decoded and encoded again by the generated codec.
#[track_caller]
fn assert_round_trips(file: &Path) {
    let output = skelcodec(&[&"roundtrip", &file]);
    assert_exit(&output, 0);
    let text = stdout(&output);
    let first = text.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("ok") && first.contains("byte-exact"),
        "{text}"
    );
}

/// A version 1 `.dir` decoded and encoded again by the generated codec (`roundtrip` takes
/// the archive's entries, not its files: neither is a format of its own).
#[track_caller]
fn assert_dir_round_trips(file: &Path) {
    let bytes = fs::read(file).unwrap();
    let value = skelcodec_formats::img_dir::ImgDir::read(&bytes).unwrap();
    assert_eq!(value.to_bytes().unwrap(), bytes);
}

fn padded(bytes: &[u8]) -> Vec<u8> {
    let mut out = bytes.to_vec();
    out.resize(bytes.len().next_multiple_of(SECTOR), 0);
    out
}

fn name24(name: &str) -> [u8; 24] {
    let mut raw = [0u8; 24];
    raw[..name.len()].copy_from_slice(name.as_bytes());
    raw
}

/// Entry contents that are not of a known format (so that nothing decodes them).
fn content(len: usize, seed: u8) -> Vec<u8> {
    (0..len)
        .map(|i| (i as u8).wrapping_mul(31).wrapping_add(seed) | 1)
        .collect()
}

/// A version 2 archive: `a.bin` (3000 bytes, 2 sectors) at sector 1, a stale sector of 0xAB
/// no entry claims, `b.bin` (100 bytes) at sector 4; 5 sectors.
fn img_v2() -> Vec<u8> {
    let (a, b) = (content(3000, 1), content(100, 2));
    let mut file = b"VER2".to_vec();
    file.extend(2u32.to_le_bytes());
    for (offset, sectors, name) in [(1u32, 2u16, "a.bin"), (4, 1, "b.bin")] {
        file.extend(offset.to_le_bytes());
        file.extend(sectors.to_le_bytes());
        file.extend(0u16.to_le_bytes());
        file.extend(name24(name));
    }
    file.resize(SECTOR, 0);
    file.extend(padded(&a));
    file.extend([0xAB; SECTOR]);
    file.extend(padded(&b));
    assert_eq!(file.len(), 5 * SECTOR);
    file
}

/// The (offset, size) in sectors of each entry of a version 2 archive, read by hand.
fn v2_directory(file: &[u8]) -> Vec<(u32, u16)> {
    let count = u32::from_le_bytes(file[4..8].try_into().unwrap()) as usize;
    (0..count)
        .map(|i| {
            let e = &file[8 + 32 * i..];
            (
                u32::from_le_bytes(e[..4].try_into().unwrap()),
                u16::from_le_bytes(e[4..6].try_into().unwrap()),
            )
        })
        .collect()
}

#[test]
fn img_version_2_add_delete_and_rebuild() {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path();
    let archive = dir.join("v2.img");
    fs::write(&archive, img_v2()).unwrap();
    let (a, b) = (content(3000, 1), content(100, 2));

    // Rebuild: the directory (72 bytes) in sector 0, a.bin at 1 and 2, b.bin at 3; the
    // stale sector is gone: 1 + 2 + 1 sectors.
    let rebuilt = dir.join("rebuilt.img");
    assert_exit(
        &skelcodec(&[&"package", &"rebuild", &archive, &"-o", &rebuilt]),
        0,
    );
    let bytes = fs::read(&rebuilt).unwrap();
    assert_eq!(bytes.len(), 4 * SECTOR);
    assert_eq!(v2_directory(&bytes), [(1, 2), (3, 1)]);
    assert_eq!(listed(&rebuilt), ["a.bin", "b.bin"]);
    assert_eq!(extract(&rebuilt, "a.bin", dir), padded(&a));
    assert_eq!(extract(&rebuilt, "b.bin", dir), padded(&b));
    assert_round_trips(&rebuilt);
    let img = skelcodec_formats::img::Img::read(&bytes).unwrap();
    assert_eq!(img.to_bytes().unwrap(), bytes);
    assert!(img.check().is_empty(), "{:?}", img.check());

    // Add: named after the file, last in the directory, at the next whole sector.
    let c = content(5000, 3);
    let file = dir.join("c.dat");
    fs::write(&file, &c).unwrap();
    let added = dir.join("added.img");
    assert_exit(
        &skelcodec(&[&"package", &"add", &archive, &file, &"-o", &added]),
        0,
    );
    let bytes = fs::read(&added).unwrap();
    assert_eq!(bytes.len(), (1 + 2 + 1 + 3) * SECTOR);
    assert_eq!(v2_directory(&bytes), [(1, 2), (3, 1), (4, 3)]);
    assert_eq!(listed(&added), ["a.bin", "b.bin", "c.dat"]);
    assert_eq!(extract(&added, "a.bin", dir), padded(&a));
    assert_eq!(extract(&added, "b.bin", dir), padded(&b));
    assert_eq!(extract(&added, "c.dat", dir), padded(&c));
    assert_round_trips(&added);

    // --name, at its longest (23 bytes), to standard output.
    let longest = "abcdefghijklmnopqrs.dat";
    assert_eq!(longest.len(), 23);
    let output = skelcodec(&[
        &"package", &"add", &archive, &file, &"--name", &longest, &"-o", &"-",
    ]);
    assert_exit(&output, 0);
    assert_eq!(v2_directory(&output.stdout), [(1, 2), (3, 1), (4, 3)]);
    assert_eq!(&output.stdout[8 + 64 + 8..8 + 64 + 8 + 24], name24(longest));

    // Delete: b.bin is all that is left, at sector 1.
    let deleted = dir.join("deleted.img");
    assert_exit(
        &skelcodec(&[&"package", &"delete", &added, &"A.BIN", &"-o", &deleted]),
        0,
    );
    let bytes = fs::read(&deleted).unwrap();
    assert_eq!(bytes.len(), (1 + 1 + 3) * SECTOR);
    assert_eq!(v2_directory(&bytes), [(1, 1), (2, 3)]);
    assert_eq!(listed(&deleted), ["b.bin", "c.dat"]);
    assert_eq!(extract(&deleted, "b.bin", dir), padded(&b));
    assert_eq!(extract(&deleted, "c.dat", dir), padded(&c));
    assert_round_trips(&deleted);

    // Refusals, each naming what is wrong; nothing written.
    let out = dir.join("refused.img");
    let message = refused(
        &[
            &"package", &"add", &archive, &file, &"--name", &"B.BIN", &"-o", &out,
        ],
        &out,
    );
    assert!(
        message.contains("already holds an entry `B.BIN`"),
        "{message}"
    );
    let too_long = "abcdefghijklmnopqrst.dat";
    let message = refused(
        &[
            &"package", &"add", &archive, &file, &"--name", &too_long, &"-o", &out,
        ],
        &out,
    );
    assert!(
        message.contains(too_long)
            && message.contains("24 bytes long")
            && message.contains("at most 23 bytes"),
        "{message}"
    );
    let message = refused(
        &[
            &"package",
            &"delete",
            &archive,
            &"b.bin",
            &"nope.dff",
            &"-o",
            &out,
        ],
        &out,
    );
    assert!(message.contains("holds no entry `nope.dff`"), "{message}");
}

#[test]
fn img_version_1_add_delete_and_rebuild() {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path();
    let (a, b) = (content(3000, 4), content(2048, 5));
    // a.bin at sector 0 (2 sectors), a stale sector, b.bin at sector 3.
    let mut directory = Vec::new();
    for (offset, size, name) in [(0u32, 2u32, "a.bin"), (3, 1, "b.bin")] {
        directory.extend(offset.to_le_bytes());
        directory.extend(size.to_le_bytes());
        directory.extend(name24(name));
    }
    let mut data = padded(&a);
    data.extend([0xCD; SECTOR]);
    data.extend(&b);
    fs::write(dir.join("v1.dir"), &directory).unwrap();
    fs::write(dir.join("v1.img"), &data).unwrap();
    let archive = dir.join("v1.img");
    let v1_directory = |dir_file: &Path| -> Vec<(u32, u32)> {
        fs::read(dir_file)
            .unwrap()
            .chunks(32)
            .map(|e| {
                (
                    u32::from_le_bytes(e[..4].try_into().unwrap()),
                    u32::from_le_bytes(e[4..8].try_into().unwrap()),
                )
            })
            .collect()
    };

    // Rebuild from the .dir: the .img without the stale sector, and the .dir beside it.
    let rebuilt = dir.join("rebuilt.img");
    assert_exit(
        &skelcodec(&[&"package", &"rebuild", &dir.join("v1.dir"), &"-o", &rebuilt]),
        0,
    );
    assert_eq!(fs::read(&rebuilt).unwrap().len(), 3 * SECTOR);
    assert_eq!(v1_directory(&dir.join("rebuilt.dir")), [(0, 2), (2, 1)]);
    assert_eq!(listed(&rebuilt), ["a.bin", "b.bin"]);
    assert_eq!(extract(&rebuilt, "a.bin", dir), padded(&a));
    assert_eq!(extract(&rebuilt, "b.bin", dir), b);
    assert_dir_round_trips(&dir.join("rebuilt.dir"));

    // Add, then delete.
    let c = content(10, 6);
    let file = dir.join("c.dat");
    fs::write(&file, &c).unwrap();
    let added = dir.join("added.img");
    assert_exit(
        &skelcodec(&[
            &"package", &"add", &archive, &file, &"--name", &"c.bin", &"-o", &added,
        ]),
        0,
    );
    assert_eq!(fs::read(&added).unwrap().len(), (2 + 1 + 1) * SECTOR);
    assert_eq!(
        v1_directory(&dir.join("added.dir")),
        [(0, 2), (2, 1), (3, 1)]
    );
    assert_eq!(listed(&added), ["a.bin", "b.bin", "c.bin"]);
    assert_eq!(extract(&added, "c.bin", dir), padded(&c));
    assert_eq!(extract(&added, "a.bin", dir), padded(&a));
    assert_dir_round_trips(&dir.join("added.dir"));

    let deleted = dir.join("deleted.img");
    assert_exit(
        &skelcodec(&[&"package", &"delete", &added, &"a.bin", &"-o", &deleted]),
        0,
    );
    assert_eq!(fs::read(&deleted).unwrap().len(), 2 * SECTOR);
    assert_eq!(v1_directory(&dir.join("deleted.dir")), [(0, 1), (1, 1)]);
    assert_eq!(listed(&deleted), ["b.bin", "c.bin"]);
    assert_eq!(extract(&deleted, "b.bin", dir), b);
    assert_eq!(extract(&deleted, "c.bin", dir), padded(&c));

    // Refusals.
    let out = dir.join("refused.img");
    let message = refused(
        &[
            &"package", &"add", &archive, &file, &"--name", &"A.bin", &"-o", &out,
        ],
        &out,
    );
    assert!(
        message.contains("already holds an entry `A.bin`"),
        "{message}"
    );
    let message = refused(
        &[
            &"package",
            &"add",
            &archive,
            &file,
            &"--name",
            &"a_name_of_twenty_four.xx",
            &"-o",
            &out,
        ],
        &out,
    );
    assert!(message.contains("at most 23 bytes"), "{message}");
    let message = refused(
        &[&"package", &"delete", &archive, &"c.bin", &"-o", &out],
        &out,
    );
    assert!(message.contains("holds no entry `c.bin`"), "{message}");
    // Two files cannot go to standard output.
    let output = skelcodec(&[&"package", &"rebuild", &archive, &"-o", &"-"]);
    assert_exit(&output, 2);
    assert!(stderr(&output).contains("version 1"), "{}", stderr(&output));
    assert!(output.stdout.is_empty());
}

const STR_TYPE: u32 = 0x5354_5223;

/// A DBPF 1.1 package, index 7.1 (20-byte entries): two STR# resources (10 and 7 bytes)
/// with 6 stale bytes between them that the hole index lists, then the index and the holes.
fn dbpf() -> Vec<u8> {
    let (r1, r2) = (content(10, 7), content(7, 8));
    let header = |index_offset: u32, hole_offset: u32| {
        let mut h = b"DBPF".to_vec();
        for word in [
            1u32,
            1,
            0,
            0,
            0,
            0,
            0,
            7,
            2,
            index_offset,
            40,
            1,
            hole_offset,
            8,
            1,
        ] {
            h.extend(word.to_le_bytes());
        }
        h.extend([0u8; 32]);
        h
    };
    let mut file = header(96 + 10 + 6 + 7, 96 + 10 + 6 + 7 + 40);
    assert_eq!(file.len(), 96);
    file.extend(&r1);
    file.extend([0xEE; 6]);
    file.extend(&r2);
    for (instance, offset, size) in [(1u32, 96u32, 10u32), (2, 112, 7)] {
        for word in [STR_TYPE, 0x1000, instance, offset, size] {
            file.extend(word.to_le_bytes());
        }
    }
    file.extend(106u32.to_le_bytes());
    file.extend(6u32.to_le_bytes());
    assert_eq!(file.len(), 96 + 10 + 6 + 7 + 40 + 8);
    file
}

fn word(file: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(file[at..at + 4].try_into().unwrap())
}

#[test]
fn dbpf_add_delete_and_rebuild() {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path();
    let package = dir.join("p.package");
    fs::write(&package, dbpf()).unwrap();
    let (r1, r2) = (content(10, 7), content(7, 8));
    let key1 = "0x53545223:0x00001000:0x00000001";
    let key2 = "0x53545223:0x00001000:0x00000002";
    assert_eq!(listed(&package), [key1, key2]);

    // Rebuild: packed after the header, the index after them, no holes.
    let rebuilt = dir.join("rebuilt.package");
    assert_exit(
        &skelcodec(&[&"package", &"rebuild", &package, &"-o", &rebuilt]),
        0,
    );
    let bytes = fs::read(&rebuilt).unwrap();
    assert_eq!(bytes.len(), 96 + 10 + 7 + 40);
    assert_eq!(word(&bytes, 40), 96 + 10 + 7, "index offset");
    assert_eq!(word(&bytes, 48), 0, "hole count");
    assert_eq!(&bytes[96..106], &r1[..]);
    assert_eq!(&bytes[106..113], &r2[..]);
    assert_eq!(extract(&rebuilt, key1, dir), r1);
    assert_eq!(extract(&rebuilt, key2, dir), r2);
    assert_round_trips(&rebuilt);
    let value = skelcodec_formats::dbpf::Dbpf::read(&bytes).unwrap();
    assert_eq!(value.to_bytes().unwrap(), bytes);
    assert!(value.check().is_empty(), "{:?}", value.check());

    // Add, named by its key (the type spelled by name), to standard output.
    let r3 = content(5, 9);
    let file = dir.join("r3.bin");
    fs::write(&file, &r3).unwrap();
    let output = skelcodec(&[
        &"package",
        &"add",
        &package,
        &file,
        &"--name",
        &"STR#:0x1000:0x3",
        &"-o",
        &"-",
    ]);
    assert_exit(&output, 0);
    let added = dir.join("added.package");
    fs::write(&added, &output.stdout).unwrap();
    assert_eq!(output.stdout.len(), 96 + 10 + 7 + 5 + 3 * 20);
    let key3 = "0x53545223:0x00001000:0x00000003";
    assert_eq!(listed(&added), [key1, key2, key3]);
    assert_eq!(extract(&added, key1, dir), r1);
    assert_eq!(extract(&added, key2, dir), r2);
    assert_eq!(extract(&added, key3, dir), r3);
    assert_round_trips(&added);

    // Delete the first.
    let deleted = dir.join("deleted.package");
    assert_exit(
        &skelcodec(&[&"package", &"delete", &added, &key1, &"-o", &deleted]),
        0,
    );
    assert_eq!(fs::read(&deleted).unwrap().len(), 96 + 7 + 5 + 2 * 20);
    assert_eq!(listed(&deleted), [key2, key3]);
    assert_eq!(extract(&deleted, key2, dir), r2);
    assert_eq!(extract(&deleted, key3, dir), r3);
    assert_round_trips(&deleted);

    // Refusals.
    let out = dir.join("refused.package");
    let message = refused(&[&"package", &"add", &package, &file, &"-o", &out], &out);
    assert!(message.contains("--name TYPE:GROUP:INSTANCE"), "{message}");
    let message = refused(
        &[
            &"package", &"add", &package, &file, &"--name", &"r3.bin", &"-o", &out,
        ],
        &out,
    );
    assert!(message.contains("is not a resource key"), "{message}");
    let message = refused(
        &[
            &"package",
            &"add",
            &package,
            &file,
            &"--name",
            &"STR#:0x1000:0x3:0x1",
            &"-o",
            &out,
        ],
        &out,
    );
    assert!(
        message.contains("(7.1) has no instance-high ids"),
        "{message}"
    );
    let message = refused(
        &[
            &"package", &"add", &package, &file, &"--name", &key2, &"-o", &out,
        ],
        &out,
    );
    assert!(
        message.contains(&format!("already holds an entry `{key2}`")),
        "{message}"
    );
    let message = refused(
        &[
            &"package",
            &"delete",
            &package,
            &"STR#:0x1000:0x9",
            &"-o",
            &out,
        ],
        &out,
    );
    assert!(
        message.contains("holds no entry `STR#:0x1000:0x9`"),
        "{message}"
    );
}

/// A corpus file (`relative` to the corpus), its bytes, a scratch directory and the entries
/// `package list` shows; `None`, said, without a corpus.
fn corpus_archive(relative: &str) -> Option<(PathBuf, Vec<u8>, tempfile::TempDir, Vec<String>)> {
    // Without a corpus, `corpus_dir` has said so.
    let dir = skelcodec_runtime::testing::corpus_dir(env!("CARGO_MANIFEST_DIR"))?;
    let archive = dir.join(relative);
    let bytes = fs::read(&archive).unwrap();
    let entries = listed(&archive);
    Some((archive, bytes, tempfile::tempdir().unwrap(), entries))
}

#[test]
fn the_real_archive_rebuilds_at_its_compact_size_and_takes_edits() {
    let Some((archive, original, temp, names)) =
        corpus_archive("img/cretaceous_models_cutscene.img")
    else {
        return;
    };
    let dir = temp.path();
    assert_eq!(names.len(), 6);
    // Entry sizes in sectors, from the directory.
    let sectors: Vec<usize> = v2_directory(&original)
        .iter()
        .map(|&(_, s)| usize::from(s))
        .collect();

    // The directory (8 + 6 * 32 bytes) fits one sector; the entries follow it in order.
    let rebuilt = dir.join("rebuilt.img");
    assert_exit(
        &skelcodec(&[&"package", &"rebuild", &archive, &"-o", &rebuilt]),
        0,
    );
    let bytes = fs::read(&rebuilt).unwrap();
    assert_eq!(bytes.len(), (1 + sectors.iter().sum::<usize>()) * SECTOR);
    assert_eq!(listed(&rebuilt), names);
    for name in &names {
        assert_eq!(
            extract(&rebuilt, name, dir),
            extract(&archive, name, dir),
            "{name}"
        );
    }
    let output = skelcodec(&[&"roundtrip", &rebuilt]);
    assert_exit(&output, 0);
    assert_eq!(stdout(&output).lines().last(), Some("7/7 byte-exact"));

    // Delete one and add it back under another name: the same bytes, last.
    let deleted = dir.join("deleted.img");
    assert_exit(
        &skelcodec(&[&"package", &"delete", &archive, &names[1], &"-o", &deleted]),
        0,
    );
    assert_eq!(
        fs::read(&deleted).unwrap().len(),
        (1 + sectors.iter().sum::<usize>() - sectors[1]) * SECTOR
    );
    let txd = dir.join("entry.txd");
    fs::write(&txd, extract(&archive, &names[1], dir)).unwrap();
    let added = dir.join("added.img");
    assert_exit(
        &skelcodec(&[
            &"package",
            &"add",
            &deleted,
            &txd,
            &"--name",
            &"again.txd",
            &"-o",
            &added,
        ]),
        0,
    );
    assert_eq!(fs::read(&added).unwrap().len(), bytes.len());
    let mut expected: Vec<String> = names.clone();
    expected.remove(1);
    expected.push("again.txd".into());
    assert_eq!(listed(&added), expected);
    assert_eq!(
        extract(&added, "again.txd", dir),
        extract(&archive, &names[1], dir)
    );
    let output = skelcodec(&[&"roundtrip", &added]);
    assert_exit(&output, 0);
    assert_eq!(stdout(&output).lines().last(), Some("7/7 byte-exact"));
}

#[test]
fn the_real_package_takes_edits() {
    let Some((package, original, temp, keys)) = corpus_archive("sims2/opents2_animation.package")
    else {
        return;
    };
    let dir = temp.path();
    assert_eq!(keys.len(), 3);

    // Already packed in index order, the index last: a rebuild is the same file.
    let output = skelcodec(&[&"package", &"rebuild", &package, &"-o", &"-"]);
    assert_exit(&output, 0);
    assert_eq!(output.stdout, original);

    // Index 7.2: 24-byte entries, keys with an instance-high id.
    let anim = package.with_file_name("opents2_anim_1.5an");
    let anim_bytes = fs::read(&anim).unwrap();
    let added = dir.join("added.package");
    let key = "0xFB00791E:0x1C0532FA:0x00000001:0x00000002";
    assert_exit(
        &skelcodec(&[
            &"package", &"add", &package, &anim, &"--name", &key, &"-o", &added,
        ]),
        0,
    );
    assert_eq!(
        fs::read(&added).unwrap().len(),
        original.len() + anim_bytes.len() + 24
    );
    let mut expected = keys.clone();
    expected.push(key.into());
    assert_eq!(listed(&added), expected);
    assert_eq!(extract(&added, key, dir), anim_bytes);
    for k in &keys {
        assert_eq!(extract(&added, k, dir), extract(&package, k, dir), "{k}");
    }
    let output = skelcodec(&[&"roundtrip", &added]);
    assert_exit(&output, 0);
    assert!(
        stdout(&output).contains("byte-exact"),
        "{}",
        stdout(&output)
    );

    let deleted = dir.join("deleted.package");
    assert_exit(
        &skelcodec(&[
            &"package", &"delete", &added, &keys[0], &key, &"-o", &deleted,
        ]),
        0,
    );
    // The first index entry's size: type, group, instance, instance-high, offset, size.
    let stored_first = word(&original, word(&original, 40) as usize + 20) as usize;
    assert_eq!(
        fs::read(&deleted).unwrap().len(),
        original.len() - stored_first - 24
    );
    assert_eq!(listed(&deleted), keys[1..]);
}
