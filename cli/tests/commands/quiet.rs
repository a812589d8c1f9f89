//! Commands print what concerns the file: a schema's style warnings only when asked for
//! (`schema check` always prints them), and with `--quiet` nothing for a file that is fine.

use std::path::{Path, PathBuf};

use crate::support::{assert_exit, skelcodec, stderr, stdout};

/// The public gallery's PNG schema, whose imports (`icc_4`, `exif`) draw style warnings.
fn gallery_png() -> Option<PathBuf> {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/kaitai-formats/image/png.ksy");
    if !path.exists() {
        skelcodec_runtime::corpus::announce_skip(&format!(
            "skipped: no gallery at {} (../shared/kaitai-formats)",
            path.display()
        ));
        return None;
    }
    Some(path)
}

/// A PNG chunk: length, type, data and the CRC-32 of type and data.
fn chunk(kind: &[u8; 4], data: &[u8]) -> Vec<u8> {
    let mut crc = crc32fast::Hasher::new();
    crc.update(kind);
    crc.update(data);
    let len = u32::try_from(data.len()).unwrap();
    [
        &len.to_be_bytes()[..],
        kind,
        data,
        &crc.finalize().to_be_bytes(),
    ]
    .concat()
}

/// A 1x1 greyscale PNG: signature, `IHDR`, an `IDAT` of one zlib-compressed row, `IEND`.
fn tiny_png() -> Vec<u8> {
    let header = [0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0];
    // zlib: header, one stored block holding the filter byte 0 and the pixel 0, Adler-32.
    let pixels = [
        0x78, 0x01, 0x01, 0x02, 0x00, 0xfd, 0xff, 0x00, 0x00, 0x00, 0x02, 0x00, 0x01,
    ];
    [
        &b"\x89PNG\r\n\x1a\n"[..],
        &chunk(b"IHDR", &header),
        &chunk(b"IDAT", &pixels),
        &chunk(b"IEND", &[]),
    ]
    .concat()
}

#[test]
fn a_valid_file_decodes_with_a_gallery_schema_and_nothing_on_stderr() {
    let Some(schema) = gallery_png() else { return };
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("tiny.png");
    std::fs::write(&file, tiny_png()).unwrap();

    let decoded = skelcodec(&[&"decode", &file, &"--schema", &schema]);
    assert_exit(&decoded, 0);
    assert_eq!(stderr(&decoded), "", "nothing but the document");
    assert!(
        stdout(&decoded).contains("\"width\": 1"),
        "{}",
        stdout(&decoded)
    );

    let warned = skelcodec(&[&"decode", &file, &"--schema", &schema, &"--warnings"]);
    assert_exit(&warned, 0);
    assert!(stderr(&warned).contains("warning: "), "{}", stderr(&warned));
    assert!(stderr(&warned).contains("icc_4.ksy"), "{}", stderr(&warned));
}

#[test]
fn quiet_prints_nothing_for_files_that_are_fine() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../generated-tests/fixtures/ifp");
    let loud = skelcodec(&[&"roundtrip", &fixtures]);
    assert_exit(&loud, 0);
    assert!(stdout(&loud).contains("byte-exact"), "{}", stdout(&loud));

    let quiet = skelcodec(&[&"roundtrip", &fixtures, &"--quiet"]);
    assert_exit(&quiet, 0);
    assert_eq!(stdout(&quiet), "");
}

#[test]
fn quiet_still_prints_disagreements() {
    // One fixture's stored sizes disagree with its content on purpose.
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../generated-tests/fixtures/ifp");
    let loud = skelcodec(&[&"check", &fixtures]);
    assert!(
        stdout(&loud).contains("no disagreements"),
        "{}",
        stdout(&loud)
    );
    let quiet = skelcodec(&[&"check", &"-q", &fixtures]);
    assert_exit(&quiet, 1);
    let printed = stdout(&quiet);
    assert!(!printed.contains("no disagreements"), "{printed}");
    assert!(
        printed
            .lines()
            .all(|line| line.contains("anp3_quirks.ifp: ")),
        "{printed}"
    );
    assert_eq!(printed.lines().count(), 2, "{printed}");
}

#[test]
fn quiet_still_prints_a_file_that_fails() {
    let dir = tempfile::tempdir().unwrap();
    let broken = dir.path().join("broken.ifp");
    // An ANP3 header promising more than the file holds.
    std::fs::write(&broken, b"ANP3\xff\xff\x00\x00").unwrap();
    let quiet = skelcodec(&[&"roundtrip", &"-q", &broken]);
    assert_exit(&quiet, 2);
    assert!(stdout(&quiet).starts_with("FAIL"), "{}", stdout(&quiet));
}
