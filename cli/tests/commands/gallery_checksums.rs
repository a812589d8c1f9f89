//! Checksums of gallery formats edited through the unmodified gallery schemas
//! (`../shared/kaitai-formats`): a PNG text grown with the overlay skelcodec ships is accepted
//! by Pillow and pngcheck, and without it `check` names the stale CRC; a ZIP's comment grown
//! is read by Python's `zipfile`, and an entry edited without its CRC is named; a gzip file's
//! name grown is read by Python's `gzip`. Every file is made here by Python's standard
//! library, as its specification lays it out. Without the gallery, or without Pillow and
//! pngcheck, a test says so and checks nothing, except where `SKELCODEC_REQUIRE_TOOLS` is set
//! (`.ci/run` sets it, and installs them): there a missing tool fails it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

use crate::support::{assert_exit, skelcodec, stderr, stdout};

/// The gallery, or `None` (the reason printed) when it is not beside the workspace.
pub(crate) fn gallery() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/kaitai-formats");
    if dir.is_dir() {
        return Some(dir);
    }
    skelcodec_runtime::corpus::announce_skip(&format!(
        "skipped: no Kaitai gallery at {}",
        dir.display()
    ));
    None
}

/// Runs Python's `script` with `args`; Python is needed.
fn python(script: &str, args: &[&Path]) -> Output {
    Command::new("python3")
        .arg("-c")
        .arg(script)
        .args(args)
        .output()
        .expect("python3 is needed by these tests (.ci/run has it)")
}

/// Runs Python's `script`, which must succeed.
#[track_caller]
fn python_ok(script: &str, args: &[&Path]) -> String {
    let output = python(script, args);
    assert_exit(&output, 0);
    stdout(&output)
}

/// True when Pillow and pngcheck are installed; without them, says how to install them and
/// skips, or fails where `SKELCODEC_REQUIRE_TOOLS` is set.
#[track_caller]
fn png_tools() -> bool {
    let pillow = python("import PIL", &[]).status.success();
    let pngcheck = Command::new("pngcheck").arg("-h").output().is_ok();
    let missing = [
        (!pillow).then_some("Pillow (`python3 -m pip install pillow`)"),
        (!pngcheck).then_some("pngcheck (`apt-get install pngcheck`)"),
    ];
    let missing: Vec<&str> = missing.into_iter().flatten().collect();
    if missing.is_empty() {
        return true;
    }
    let why = format!("{} needed, not installed", missing.join(" and "));
    assert!(
        std::env::var_os("SKELCODEC_REQUIRE_TOOLS").is_none(),
        "{why}"
    );
    skelcodec_runtime::corpus::announce_skip(&format!(
        "skipped: {why}: {}",
        std::panic::Location::caller()
    ));
    false
}

/// Runs `skelcodec COMMAND --schema GALLERY/SCHEMA -I GALLERY OPTIONS… FILE`.
fn with_schema(
    command: &str,
    file: &Path,
    gallery: &Path,
    schema: &str,
    options: &[&str],
) -> Output {
    let schema = gallery.join(schema);
    let mut args: Vec<&dyn AsRef<std::ffi::OsStr>> =
        vec![&command, &"--schema", &schema, &"-I", &gallery];
    args.extend(options.iter().map(|o| o as &dyn AsRef<std::ffi::OsStr>));
    args.push(&file);
    skelcodec(&args)
}

/// Decodes `file` with the gallery schema `schema` and `options`, into a JSON document.
fn decode(file: &Path, gallery: &Path, schema: &str, options: &[&str]) -> Value {
    let output = with_schema("decode", file, gallery, schema, options);
    assert_exit(&output, 0);
    serde_json::from_slice(&output.stdout).expect("a JSON document")
}

/// Encodes `document` with `--normalize` into `out`; what it printed.
fn encode_normalized(document: &Value, dir: &Path, out: &Path) -> String {
    let output = encode(document, dir, out);
    assert!(
        !stderr(&output).contains("does not derive"),
        "{}",
        stderr(&output)
    );
    stdout(&output)
}

/// Runs `encode --normalize` of `document` into `out`, which must succeed.
fn encode(document: &Value, dir: &Path, out: &Path) -> Output {
    let json = dir.join("edited.json");
    std::fs::write(&json, serde_json::to_vec(document).unwrap()).unwrap();
    let output = skelcodec(&[&"encode", &"--normalize", &json, &"-o", &out]);
    assert_exit(&output, 0);
    output
}

/// `check --schema` of the gallery schema on `file`, with `options`.
fn check(file: &Path, gallery: &Path, schema: &str, options: &[&str]) -> Output {
    with_schema("check", file, gallery, schema, options)
}

/// A 2×2 greyscale PNG with the text chunk `Comment`: `hi` before its image data.
const MAKE_PNG: &str = r#"
import struct, sys, zlib
def chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
ihdr = struct.pack(">IIBBBBB", 2, 2, 8, 0, 0, 0, 0)
rows = b"\x00\x10\x20\x00\x30\x40"
png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"tEXt", b"Comment\x00hi")
       + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
open(sys.argv[1], "wb").write(png)
"#;

/// Pillow's reading of a PNG: its text `Comment` once every pixel is loaded.
const PILLOW_READS: &str = r#"
import sys
from PIL import Image
image = Image.open(sys.argv[1])
image.load()
print(image.text["Comment"])
"#;

/// The PNG's document with its text grown.
fn png_with_grown_text(dir: &Path, gallery: &Path, options: &[&str]) -> (Value, PathBuf) {
    let png = dir.join("small.png");
    python_ok(MAKE_PNG, &[&png]);
    let mut document = decode(&png, gallery, "image/png.ksy", options);
    let text = &mut document["value"]["chunks"][0]["body"]["text_chunk"]["text"];
    assert_eq!(text["text"], "hi", "{text}");
    *text = serde_json::json!({ "text": GROWN_TEXT });
    (document, png)
}

const GROWN_TEXT: &str = "a text grown well past its chunk's old length";

#[test]
fn a_png_text_grown_with_the_shipped_overlay_is_accepted_by_pillow_and_pngcheck() {
    let Some(gallery) = gallery() else { return };
    if !png_tools() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (document, _) = png_with_grown_text(dir.path(), &gallery, &[]);
    let grown = dir.path().join("grown.png");
    let printed = encode_normalized(&document, dir.path(), &grown);
    assert!(printed.contains("normalized chunks[0].len"), "{printed}");
    assert!(printed.contains("normalized chunks[0].crc"), "{printed}");

    assert_eq!(python_ok(PILLOW_READS, &[&grown]).trim(), GROWN_TEXT);
    let pngcheck = Command::new("pngcheck").arg(&grown).output().unwrap();
    assert_exit(&pngcheck, 0);
    let checked = check(&grown, &gallery, "image/png.ksy", &["--no-overlay"]);
    assert_exit(&checked, 0);
    assert!(stdout(&checked).ends_with("no disagreements\n"));
}

#[test]
fn without_the_overlay_the_crc_goes_stale_and_check_names_it() {
    let Some(gallery) = gallery() else { return };
    if !png_tools() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (document, png) = png_with_grown_text(dir.path(), &gallery, &["--no-overlay"]);
    assert_eq!(
        document["schema"]["no_overlay"], true,
        "recorded for encode"
    );
    let stale = dir.path().join("stale.png");
    let encoded = encode(&document, dir.path(), &stale);
    assert!(!stdout(&encoded).contains("crc"), "{}", stdout(&encoded));
    // Written, with a warning naming the checksum left stale.
    let warned = stderr(&encoded);
    assert!(
        warned.contains("stale.png: chunks[0].crc: stored") && warned.contains("does not derive"),
        "{warned}"
    );

    let pillow = python(PILLOW_READS, &[&stale]);
    assert!(!pillow.status.success(), "Pillow refuses a stale CRC");
    let pngcheck = Command::new("pngcheck").arg(&stale).output().unwrap();
    assert!(!pngcheck.status.success(), "pngcheck refuses a stale CRC");

    // Recognised on the chunks the edit left alone: the CRC-32 of their type and body.
    let checked = check(&stale, &gallery, "image/png.ksy", &["--no-overlay"]);
    assert_exit(&checked, 1);
    let report = stdout(&checked);
    assert_eq!(report.lines().count(), 1, "{report}");
    assert!(report.contains("chunks[0].crc: stored"), "{report}");
    assert!(
        report.contains("a checksum the schema does not derive (the CRC-32 of `type_raw` … `body`, as on 2 other occurrences"),
        "{report}"
    );
    // With the overlay it is a derived field like any other, and the unedited file agrees.
    let checked = check(&stale, &gallery, "image/png.ksy", &[]);
    assert_exit(&checked, 1);
    assert!(
        !stdout(&checked).contains("does not derive"),
        "{}",
        stdout(&checked)
    );
    assert!(stdout(&checked).contains("chunks[0].crc: stored"));
    assert_exit(
        &check(&png, &gallery, "image/png.ksy", &["--no-overlay"]),
        0,
    );
}

/// A ZIP of two stored entries, `one.txt` and `two.txt`.
const MAKE_ZIP: &str = r#"
import sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_STORED) as z:
    z.writestr("one.txt", b"hello one")
    z.writestr("two.txt", b"hello two")
"#;

/// `zipfile`'s reading: the comment, the first entry whose CRC is bad (`None`), each entry.
const ZIPFILE_READS: &str = r#"
import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
print(z.comment.decode(), z.testzip(), [z.read(n).decode() for n in z.namelist()])
"#;

/// The first entry `zipfile` finds a bad CRC in.
const ZIPFILE_TESTS: &str = r#"
import sys, zipfile
print(zipfile.ZipFile(sys.argv[1]).testzip())
"#;

#[test]
fn a_zip_comment_grows_and_zipfile_reads_it() {
    let Some(gallery) = gallery() else { return };
    let dir = tempfile::tempdir().unwrap();
    let zip = dir.path().join("two.zip");
    python_ok(MAKE_ZIP, &[&zip]);
    let mut commented = decode(&zip, &gallery, "archive/zip.ksy", &[]);
    let sections = commented["value"]["sections"].as_array_mut().unwrap();
    let end = &mut sections.last_mut().unwrap()["body"]["end_of_central_dir"];
    end["comment"] = "a comment the archive did not have".into();
    let grown = dir.path().join("commented.zip");
    let printed = encode_normalized(&commented, dir.path(), &grown);
    assert!(
        printed.contains("len_comment: stored 0, computed 34"),
        "{printed}"
    );
    assert_eq!(
        python_ok(ZIPFILE_READS, &[&grown]).trim(),
        "a comment the archive did not have None ['hello one', 'hello two']"
    );
}

/// A ZIP of three entries: `one.txt` deflated, `two.txt` and `three.txt` stored.
const MAKE_ZIP3: &str = r#"
import sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w") as z:
    z.writestr("one.txt", b"hello one " * 5, compress_type=zipfile.ZIP_DEFLATED)
    z.writestr("two.txt", b"hello two", compress_type=zipfile.ZIP_STORED)
    z.writestr("three.txt", b"hello three", compress_type=zipfile.ZIP_STORED)
"#;

/// `zipfile`'s reading, as JSON: the comment, the first entry whose CRC is bad (`null`), and
/// each entry's name, comment and data; or its complaint.
const ZIPFILE_READS_ALL: &str = r#"
import json, sys, zipfile
try:
    z = zipfile.ZipFile(sys.argv[1])
    entries = [[i.filename, i.comment.decode(), z.read(i).decode()] for i in z.infolist()]
    print(json.dumps([z.comment.decode(), z.testzip(), entries]))
except Exception as e:
    print(json.dumps("refused: " + str(e)))
"#;

/// What Python's `zipfile` reads from the ZIP at `path` (see [`ZIPFILE_READS_ALL`]).
fn zipfile_reads(path: &Path) -> Value {
    serde_json::from_str(&python_ok(ZIPFILE_READS_ALL, &[path])).expect("JSON")
}

/// Sets `value` at `path` in both readings of entry `k`'s local file in the document of a
/// ZIP of `n` entries: its section (`sections[k]`), and the one its central directory entry
/// (`sections[n + k]`) reads again at `ofs_local_header`.
fn set_local(document: &mut Value, (k, n): (usize, usize), path: &[&str], value: &Value) {
    let sections = &mut document["value"]["sections"];
    let central = &mut sections[n + k]["body"]["central_dir_entry"];
    let copy = &mut central["local_header"]["body"]["local_file"];
    *path.iter().fold(copy, |v, step| &mut v[*step]) = value.clone();
    let local = &mut sections[k]["body"]["local_file"];
    *path.iter().fold(local, |v, step| &mut v[*step]) = value.clone();
}

/// `text` deflated by zlib (raw deflate), in hex.
fn raw_deflate(text: &str) -> Value {
    let output = Command::new("python3")
        .args(["-c", RAW_DEFLATE, text])
        .output()
        .unwrap();
    assert_exit(&output, 0);
    stdout(&output).trim().into()
}

#[test]
fn zip_entries_grown_renamed_and_commented_with_the_shipped_overlay_are_read_by_zipfile() {
    let Some(gallery) = gallery() else { return };
    let dir = tempfile::tempdir().unwrap();
    let zip = dir.path().join("three.zip");
    python_ok(MAKE_ZIP3, &[&zip]);
    let document = decode(&zip, &gallery, "archive/zip.ksy", &[]);
    let entries = |one: &str, two: &str, three: &str| {
        serde_json::json!([
            ["one.txt", "", one],
            ["two.txt", "", two],
            ["three.txt", "", three]
        ])
    };
    let original = serde_json::json!([
        "",
        null,
        entries(&"hello one ".repeat(5), "hello two", "hello three")
    ]);
    assert_eq!(zipfile_reads(&zip), original);

    // The first entry's deflated data replaced by a longer stream: everything after it moves.
    let longer = "the first entry, deflated anew and much longer than it was";
    let mut edited = document.clone();
    set_local(&mut edited, (0, 3), &["body"], &raw_deflate(longer));
    let first = dir.path().join("first.zip");
    let printed = encode_normalized(&edited, dir.path(), &first);
    for normalized in [
        "sections[0].body.local_file.header.crc32",
        "sections[0].body.local_file.header.len_body_compressed",
        format!(
            "sections[0].body.local_file.header.len_body_uncompressed: stored 50, computed {}",
            longer.len()
        )
        .as_str(),
        "sections[3].body.central_dir_entry.crc32",
        "sections[3].body.central_dir_entry.len_body_uncompressed",
        "sections[4].body.central_dir_entry.ofs_local_header",
        "sections[5].body.central_dir_entry.ofs_local_header",
        "sections[6].body.end_of_central_dir.ofs_central_dir",
    ] {
        assert!(
            printed.contains(&format!("normalized {normalized}")),
            "{normalized}: {printed}"
        );
    }
    let expected = serde_json::json!(["", null, entries(longer, "hello two", "hello three")]);
    assert_eq!(zipfile_reads(&first), expected);
    // Nothing is left for `check` to name, with or without the overlay.
    for options in [&[][..], &["--no-overlay"]] {
        let checked = check(&first, &gallery, "archive/zip.ksy", options);
        assert_exit(&checked, 0);
    }

    // The middle entry: its data grown, renamed (its local file and its central directory
    // entry), a comment given; and the archive's comment.
    let mut edited = document;
    set_local(
        &mut edited,
        (1, 3),
        &["body"],
        &hex(b"hello two, grown").into(),
    );
    let name: Value = "second.txt".into();
    set_local(&mut edited, (1, 3), &["header", "file_name"], &name);
    let sections = &mut edited["value"]["sections"];
    let central = &mut sections[4]["body"]["central_dir_entry"];
    central["file_name"] = name;
    central["comment"] = "an entry's comment".into();
    sections[6]["body"]["end_of_central_dir"]["comment"] = "the archive's".into();
    let middle = dir.path().join("middle.zip");
    let printed = encode_normalized(&edited, dir.path(), &middle);
    assert!(
        printed.contains("normalized sections[6].body.end_of_central_dir.len_central_dir"),
        "{printed}"
    );
    let read = zipfile_reads(&middle);
    let expected = serde_json::json!([
        "the archive's",
        null,
        [
            ["one.txt", "", "hello one ".repeat(5)],
            ["second.txt", "an entry's comment", "hello two, grown"],
            ["three.txt", "", "hello three"]
        ]
    ]);
    assert_eq!(read, expected);
    assert_exit(&check(&middle, &gallery, "archive/zip.ksy", &[]), 0);
}

#[test]
fn a_zip_entry_edited_in_one_of_its_two_readings_is_refused() {
    let Some(gallery) = gallery() else { return };
    let dir = tempfile::tempdir().unwrap();
    let zip = dir.path().join("three.zip");
    python_ok(MAKE_ZIP3, &[&zip]);
    let mut document = decode(&zip, &gallery, "archive/zip.ksy", &[]);
    // Its section alone: the central directory reads the local file again, as it was.
    document["value"]["sections"][1]["body"]["local_file"]["body"] =
        hex(b"hello two, grown").into();
    let json = dir.path().join("edited.json");
    std::fs::write(&json, serde_json::to_vec(&document).unwrap()).unwrap();
    let out = dir.path().join("refused.zip");
    let refused = skelcodec(&[&"encode", &"--normalize", &json, &"-o", &out]);
    assert_exit(&refused, 2);
    let message = stderr(&refused);
    // A local file section of `two.txt` as stored: a 30-byte header, its name and its data.
    assert!(
        message.contains("`local_header` (46 bytes at ")
            && message.contains("is bytes the file holds in sequence, read again")
            && message.contains("edit both alike"),
        "{message}"
    );
    assert!(!out.exists(), "nothing is written");
}

#[test]
fn without_the_overlay_a_zip_entry_crc_goes_stale_and_check_names_it() {
    let Some(gallery) = gallery() else { return };
    let dir = tempfile::tempdir().unwrap();
    let zip = dir.path().join("two.zip");
    python_ok(MAKE_ZIP, &[&zip]);
    let options = ["--no-overlay"];
    let mut edited = decode(&zip, &gallery, "archive/zip.ksy", &options);
    // Data of the same size, both readings edited alike: nothing moves, the CRCs go stale.
    set_local(&mut edited, (0, 2), &["body"], &hex(b"HELLO ONE").into());
    let stale = dir.path().join("stale.zip");
    let encoded = encode(&edited, dir.path(), &stale);
    assert!(
        stderr(&encoded).contains("does not derive"),
        "{}",
        stderr(&encoded)
    );
    let tested = python_ok(ZIPFILE_TESTS, &[&stale]);
    assert_eq!(tested.trim(), "one.txt", "zipfile finds the bad CRC");
    // Recognised on `two.txt`: the CRC-32 of the local file's body. The central directory's
    // copy is another field, which nothing in the file ties to the data.
    let checked = check(&stale, &gallery, "archive/zip.ksy", &options);
    assert_exit(&checked, 1);
    let report = stdout(&checked);
    let named: Vec<&str> = report
        .lines()
        .filter_map(|l| l.split(": ").nth(1))
        .collect();
    assert_eq!(
        named,
        [
            "sections[0].body.local_file.header.crc32",
            "sections[2].body.central_dir_entry.local_header.body.local_file.header.crc32",
        ],
        "{report}"
    );
    assert!(report.contains("the CRC-32 of `body`, as on 1 other occurrence of"));
    // With the overlay every copy is a derived field, the central directory's too.
    let checked = check(&stale, &gallery, "archive/zip.ksy", &[]);
    assert_exit(&checked, 1);
    let report = stdout(&checked);
    assert!(!report.contains("does not derive"), "{report}");
    assert!(
        report.contains("sections[2].body.central_dir_entry.crc32: stored"),
        "{report}"
    );
    // `encode --normalize` with the overlay mends it.
    let document = decode(&stale, &gallery, "archive/zip.ksy", &[]);
    let mended = dir.path().join("mended.zip");
    encode_normalized(&document, dir.path(), &mended);
    assert_eq!(python_ok(ZIPFILE_TESTS, &[&mended]).trim(), "None");
}

/// A gzip file of a text, named `hello.txt` in its header.
const MAKE_GZIP: &str = r#"
import gzip, sys
with open(sys.argv[1], "wb") as out:
    with gzip.GzipFile(filename="hello.txt", mode="wb", fileobj=out, mtime=0) as f:
        f.write(b"hello gzip " * 10)
"#;

/// `gzip`'s reading, and the name the header holds (RFC 1952: after 10 bytes, to a NUL).
const GZIP_READS: &str = r#"
import gzip, sys
data = open(sys.argv[1], "rb").read()
print(gzip.decompress(data) == b"hello gzip " * 10, data[10:data.index(b"\0", 10)].decode())
"#;

#[test]
fn a_gzip_name_grows_and_gzip_reads_the_file() {
    let Some(gallery) = gallery() else { return };
    let dir = tempfile::tempdir().unwrap();
    let gz = dir.path().join("hello.gz");
    python_ok(MAKE_GZIP, &[&gz]);
    let mut document = decode(&gz, &gallery, "archive/gzip.ksy", &[]);
    let name = &mut document["value"]["name"];
    assert_eq!(name["value"], hex(b"hello.txt"), "{name}");
    *name = serde_json::json!({ "value": hex(b"a-much-longer-name.txt") });
    let grown = dir.path().join("grown.gz");
    encode_normalized(&document, dir.path(), &grown);
    assert_eq!(
        python_ok(GZIP_READS, &[&grown]).trim(),
        "True a-much-longer-name.txt"
    );
    assert_exit(&check(&grown, &gallery, "archive/gzip.ksy", &[]), 0);
}

/// A raw deflate stream (RFC 1951) of `sys.argv[1]`, by zlib (`wbits=-15`), in hex.
const RAW_DEFLATE: &str = r#"
import sys, zlib
c = zlib.compressobj(9, zlib.DEFLATED, -15)
print((c.compress(sys.argv[1].encode()) + c.flush()).hex())
"#;

/// The text a gzip body is replaced with: longer than the old one, so ISIZE changes.
const NEW_GZIP_TEXT: &str = "a body deflated by zlib, longer than the one gzip wrote";

/// `gzip`'s reading of the whole file, or its complaint.
const GZIP_DECOMPRESSES: &str = r#"
import gzip, sys
try:
    print(gzip.decompress(open(sys.argv[1], "rb").read()).decode())
except Exception as e:
    print("refused:", e)
"#;

/// The gzip file's document (decoded with `options`), its body replaced with `text` deflated
/// by zlib.
fn gzip_with_new_body(dir: &Path, gallery: &Path, options: &[&str], text: &str) -> Value {
    let gz = dir.join("hello.gz");
    python_ok(MAKE_GZIP, &[&gz]);
    let mut document = decode(&gz, gallery, "archive/gzip.ksy", options);
    let output = Command::new("python3")
        .args(["-c", RAW_DEFLATE, text])
        .output()
        .unwrap();
    assert_exit(&output, 0);
    document["value"]["body"] = stdout(&output).trim().into();
    document
}

#[test]
fn a_gzip_body_replaced_with_the_shipped_overlay_gets_its_crc_and_size_and_gzip_reads_it() {
    let Some(gallery) = gallery() else { return };
    let dir = tempfile::tempdir().unwrap();
    let document = gzip_with_new_body(dir.path(), &gallery, &[], NEW_GZIP_TEXT);
    let replaced = dir.path().join("replaced.gz");
    let printed = encode_normalized(&document, dir.path(), &replaced);
    // 110 bytes: "hello gzip " ten times, as MAKE_GZIP wrote them.
    let isize = format!(
        "normalized len_uncompressed: stored 110, computed {}",
        NEW_GZIP_TEXT.len()
    );
    assert!(printed.contains(&isize), "{printed}");
    assert!(
        printed.contains("normalized body_crc32: stored"),
        "{printed}"
    );
    assert_eq!(
        python_ok(GZIP_DECOMPRESSES, &[&replaced]).trim(),
        NEW_GZIP_TEXT
    );
    let checked = check(&replaced, &gallery, "archive/gzip.ksy", &["--no-overlay"]);
    assert_exit(&checked, 0);
    assert!(stdout(&checked).ends_with("no disagreements\n"));
}

#[test]
fn without_the_overlay_a_gzip_crc_goes_stale_and_check_names_it() {
    let Some(gallery) = gallery() else { return };
    let dir = tempfile::tempdir().unwrap();
    let options = ["--no-overlay"];
    let document = gzip_with_new_body(dir.path(), &gallery, &options, NEW_GZIP_TEXT);
    let stale = dir.path().join("stale.gz");
    let encoded = encode(&document, dir.path(), &stale);
    assert!(
        !stdout(&encoded).contains("body_crc32"),
        "{}",
        stdout(&encoded)
    );
    let warned = stderr(&encoded);
    assert!(
        warned.contains("stale.gz: body_crc32: stored") && warned.contains("does not derive"),
        "{warned}"
    );
    let gzip = python_ok(GZIP_DECOMPRESSES, &[&stale]);
    assert!(
        gzip.starts_with("refused:"),
        "gzip refuses a stale CRC: {gzip}"
    );

    // The field occurs once: its name says what it covers, the body, which is compressed.
    let checked = check(&stale, &gallery, "archive/gzip.ksy", &options);
    assert_exit(&checked, 1);
    let report = stdout(&checked);
    assert_eq!(report.lines().count(), 1, "{report}");
    let crc = python_ok(
        "import sys, zlib; print(zlib.crc32(sys.argv[1].encode()))",
        &[Path::new(NEW_GZIP_TEXT)],
    );
    let named = format!("body_crc32: stored 506778639, computed {}", crc.trim());
    assert!(report.contains(&named), "{report}");
    assert!(
        report.contains("(the CRC-32 of `body` inflated, as the field's name says)"),
        "{report}"
    );
    // With the overlay both are derived fields, reported as any other.
    let checked = check(&stale, &gallery, "archive/gzip.ksy", &[]);
    assert_exit(&checked, 1);
    let report = stdout(&checked);
    assert!(!report.contains("does not derive"), "{report}");
    assert!(report.contains(&named), "{report}");
    assert!(report.contains("len_uncompressed: stored 110"), "{report}");
}

#[test]
fn a_gzip_body_that_is_no_deflate_stream_is_not_normalized() {
    let Some(gallery) = gallery() else { return };
    let dir = tempfile::tempdir().unwrap();
    let mut document = gzip_with_new_body(dir.path(), &gallery, &[], NEW_GZIP_TEXT);
    document["value"]["body"] = hex(b"not deflate").into();
    let json = dir.path().join("edited.json");
    std::fs::write(&json, serde_json::to_vec(&document).unwrap()).unwrap();
    let out = dir.path().join("garbage.gz");
    let refused = skelcodec(&[&"encode", &"--normalize", &json, &"-o", &out]);
    assert_exit(&refused, 2);
    let message = stderr(&refused);
    assert!(
        message.contains(
            "body_crc32: `inflated(…)`: these 11 bytes are not one whole raw deflate stream"
        ),
        "{message}"
    );
    assert!(!out.exists(), "nothing is written");
    // Written as stored without `--normalize`; `check` has no CRC to compare it with.
    let written = skelcodec(&[&"encode", &json, &"-o", &out]);
    assert_exit(&written, 0);
    assert_exit(&check(&out, &gallery, "archive/gzip.ksy", &[]), 0);
}

#[test]
fn overlays_on_the_command_line_are_listed_checked_and_recorded() {
    let Some(gallery) = gallery() else { return };
    let png_ksy = gallery.join("image/png.ksy");
    let explain = |options: &[&str]| {
        let mut args: Vec<&dyn AsRef<std::ffi::OsStr>> =
            vec![&"schema", &"check", &"--explain-derived"];
        args.extend(options.iter().map(|o| o as &dyn AsRef<_>));
        args.push(&png_ksy);
        let output = skelcodec(&args);
        assert_exit(&output, 0);
        stdout(&output)
    };
    let shipped = explain(&[]);
    assert!(
        shipped.contains("chunk.crc = crc32(type_raw, body)  (declared)"),
        "{shipped}"
    );
    assert!(shipped.contains("png.ihdr_crc = crc32(ihdr_type, ihdr)  (declared)"));
    assert!(!explain(&["--no-overlay"]).contains("crc32"));

    let dir = tempfile::tempdir().unwrap();
    let overlay = dir.path().join("mine.yaml");
    std::fs::write(
        &overlay,
        "meta:\n  id: png\ntypes:\n  chunk:\n    seq:\n      crc:\n        -derived: crc32(type_raw)\n      kind:\n        -derived: false\n",
    )
    .unwrap();
    let output = skelcodec(&[&"schema", &"check", &"--overlay", &overlay, &png_ksy]);
    assert_exit(&output, 1);
    let message = stderr(&output);
    assert!(
        message.contains("mine.yaml:8:7: the schema's `seq` here has no attribute `kind`"),
        "{message}"
    );

    std::fs::write(
        &overlay,
        "meta:\n  id: png\ntypes:\n  chunk:\n    seq:\n      crc:\n        -derived: crc32(body)\n",
    )
    .unwrap();
    let png = dir.path().join("small.png");
    python_ok(MAKE_PNG, &[&png]);
    let overlay_arg = overlay.to_str().unwrap();
    let document = decode(&png, &gallery, "image/png.ksy", &["--overlay", overlay_arg]);
    let recorded = &document["schema"]["overlays"][0];
    assert_eq!(recorded.as_str(), Some(overlay_arg), "{document}");
    // The later overlay wins: the CRC said to cover the body alone disagrees everywhere.
    let checked = check(&png, &gallery, "image/png.ksy", &["--overlay", overlay_arg]);
    assert_exit(&checked, 1);
    assert_eq!(stdout(&checked).lines().count(), 3, "{}", stdout(&checked));

    let output = skelcodec(&[&"check", &"--overlay", &overlay, &png]);
    assert_exit(&output, 2);
    assert!(stderr(&output).contains("--overlay and --no-overlay go with --schema"));
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
