//! Derivations of data (`docs/overlays.md`): a trailer's CRC-32 and size of the body inflated,
//! declared by an overlay with `crc32(inflated(body))` and `inflated(body).size`. The generated
//! code (`codec!(…, overlays = […])`) and the interpreter (`Interpreter::load_overlaid`) check
//! and recompute them alike, and where the body is no deflate stream neither compares them
//! and `normalize()` refuses, naming the field. Deflate streams are made here of stored blocks
//! (RFC 1951, 3.2.4), their CRCs computed with crc32fast.

use std::path::Path;

use skelcodec_codegen::Overlay;
use skelcodec_dynamic::Interpreter;
use skelcodec_runtime::RawBytes;

#[allow(deprecated)]
mod overlaid {
    skelcodec_macros::codec!(
        "tests/schemas/overlaid/deflated.ksy",
        overlays = ["tests/schemas/overlaid/deflated.overlay.yaml"],
    );
}

const SCHEMA: &str = "tests/schemas/overlaid/deflated.ksy";
const OVERLAY: &str = "tests/schemas/overlaid/deflated.overlay.yaml";

/// `data` as a raw deflate stream of stored blocks of at most 65535 bytes, the last final.
fn stored_blocks(data: &[u8]) -> Vec<u8> {
    let chunks: Vec<&[u8]> = match data.is_empty() {
        true => vec![&[]],
        false => data.chunks(65535).collect(),
    };
    let mut out = Vec::new();
    for (i, chunk) in chunks.iter().enumerate() {
        out.push(u8::from(i + 1 == chunks.len()));
        let len = chunk.len() as u16;
        out.extend(len.to_le_bytes());
        out.extend((!len).to_le_bytes());
        out.extend(*chunk);
    }
    out
}

/// The body `body`, with the trailer of `plain`.
fn file_of(body: &[u8], plain: &[u8]) -> Vec<u8> {
    let mut out = (body.len() as u32).to_le_bytes().to_vec();
    out.extend(body);
    out.extend(crc32fast::hash(plain).to_le_bytes());
    out.extend((plain.len() as u32).to_le_bytes());
    out
}

/// `plain` deflated, with its trailer.
fn file(plain: &[u8]) -> Vec<u8> {
    file_of(&stored_blocks(plain), plain)
}

/// The mismatches, sorted.
fn sorted(mut found: Vec<String>) -> Vec<String> {
    found.sort();
    found
}

/// What `check()` reports once the body of `file(b"hi")` holds `new`: its size, and the
/// trailer where `new` inflates to `plain`.
fn expected(new: &[u8], plain: Option<&[u8]>) -> Vec<String> {
    let mut found = vec![format!("len_body: stored 7, computed {}", new.len())];
    if let Some(plain) = plain {
        found.push(format!(
            "body_crc32: stored {}, computed {}",
            crc32fast::hash(b"hi"),
            crc32fast::hash(plain)
        ));
        found.push(format!("len_inflated: stored 2, computed {}", plain.len()));
    }
    sorted(found)
}

const GROWN: &[u8] = b"a text longer than the body it replaces";

#[test]
fn the_generated_code_derives_the_trailer_from_the_body_inflated() {
    let mut value = overlaid::Deflated::read(&file(b"hi")).unwrap();
    assert!(value.check().is_empty(), "{:?}", value.check());
    let new = stored_blocks(GROWN);
    value.body = RawBytes::new(new.clone());
    let found = skelcodec_generated_tests::checked(&value);
    assert_eq!(sorted(found), expected(&new, Some(GROWN)));
    value.normalize().unwrap();
    assert_eq!(value.to_bytes().unwrap(), file(GROWN));
    // Deflated in several blocks, the longest a stored block holds and more.
    let long = vec![7u8; 70_000];
    value.body = RawBytes::new(stored_blocks(&long));
    value.normalize().unwrap();
    assert_eq!(value.to_bytes().unwrap(), file(&long));
}

#[test]
fn the_generated_code_derives_nothing_from_a_body_that_is_no_deflate_stream() {
    let mut value = overlaid::Deflated::read(&file(b"hi")).unwrap();
    value.body = RawBytes::new(b"not deflate".to_vec());
    let found = skelcodec_generated_tests::checked(&value);
    assert_eq!(found, expected(b"not deflate", None));
    let error = value.normalize().unwrap_err().to_string();
    assert!(
        error.contains(
            "body_crc32: `inflated(…)`: these 11 bytes are not one whole raw deflate stream"
        ),
        "{error}"
    );
    // A stream with bytes after its final block is none either.
    value.body = RawBytes::new([stored_blocks(b"hi").as_slice(), b"!"].concat());
    assert!(value.normalize().is_err());
}

/// The interpreter of the schema with the overlay.
fn interpreter() -> Interpreter {
    let overlay = Overlay::read(Path::new(OVERLAY)).unwrap();
    Interpreter::load_overlaid(Path::new(SCHEMA), &[], &[overlay]).expect("loads")
}

#[test]
fn the_interpreter_derives_the_trailer_alike() {
    let interpreter = interpreter();
    let value = interpreter.read(&file(b"hi")).unwrap();
    let mut document = serde_json::to_value(interpreter.document(&value)).unwrap();
    let new = stored_blocks(GROWN);
    document["body"] = skelcodec_runtime::to_hex(&new).into();
    let edited = interpreter.value_of(&document).unwrap();
    let found = skelcodec_generated_tests::interpreted_check(&interpreter, &edited);
    assert_eq!(sorted(found), expected(&new, Some(GROWN)));
    interpreter.normalize(&edited).unwrap();
    assert_eq!(interpreter.write(&edited).unwrap(), file(GROWN));

    document["body"] = skelcodec_runtime::to_hex(b"not deflate").into();
    let edited = interpreter.value_of(&document).unwrap();
    let found = skelcodec_generated_tests::interpreted_check(&interpreter, &edited);
    assert_eq!(found, expected(b"not deflate", None));
    let error = interpreter.normalize(&edited).unwrap_err().to_string();
    assert!(
        error.contains(
            "body_crc32: `inflated(…)`: these 11 bytes are not one whole raw deflate stream"
        ),
        "{error}"
    );
}

#[allow(deprecated)]
mod archive {
    skelcodec_macros::codec!(
        "tests/schemas/overlaid/archive.ksy",
        overlays = ["tests/schemas/overlaid/archive.overlay.yaml"],
    );
}

const ARCHIVE: &str = "tests/schemas/overlaid/archive.ksy";
const ARCHIVE_OVERLAY: &str = "tests/schemas/overlaid/archive.overlay.yaml";

/// An archive of `files` (method, text), each stored (0) or deflated (8), its index of their
/// offsets, and its end record.
fn archive_file(files: &[(u8, &[u8])]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut offsets = Vec::new();
    for (method, plain) in files {
        let data = match method {
            8 => stored_blocks(plain),
            _ => plain.to_vec(),
        };
        offsets.push(out.len() as u32);
        out.push(1);
        out.push(*method);
        out.extend(crc32fast::hash(plain).to_le_bytes());
        out.extend((data.len() as u32).to_le_bytes());
        out.extend((plain.len() as u32).to_le_bytes());
        out.extend(&data);
    }
    let ofs_index = out.len() as u32;
    for offset in offsets {
        out.push(3);
        out.extend(offset.to_le_bytes());
    }
    let len_index = out.len() as u32 - ofs_index;
    out.push(2);
    out.extend((files.len() as u16).to_le_bytes());
    out.extend(len_index.to_le_bytes());
    out.extend(ofs_index.to_le_bytes());
    out
}

const FILES: [(u8, &[u8]); 2] = [(0, b"hi"), (8, b"hello")];

/// What `check()` reports once the first file's data holds `grown`, stored, in both its
/// readings (its section and the index's `file`): its header's CRC and sizes (computed by the
/// file, the header's holder), the second file's offset in the index (which follows it), and
/// where the index starts (computed by the root).
fn stale_archive(grown: &[u8]) -> Vec<String> {
    let n = grown.len();
    let header = |path: &str, stored: String, computed: String| {
        format!("{path}.body.file.header.{stored}, computed {computed}")
    };
    // Each file is its kind, a 13-byte header and its data (the deflated one's is 10).
    let mut found = Vec::new();
    for path in ["sections[0]", "sections[2].body.index.file"] {
        let (old, new) = (crc32fast::hash(b"hi"), crc32fast::hash(grown));
        found.push(header(path, format!("crc: stored {old}"), new.to_string()));
        found.push(header(path, "len_data: stored 2".into(), n.to_string()));
        found.push(header(path, "len_plain: stored 2".into(), n.to_string()));
    }
    found.push(format!(
        "sections[3].body.index.ofs_file: stored 16, computed {}",
        16 + n - 2
    ));
    found.push(format!(
        "sections[4].body.end.ofs_index: stored 40, computed {}",
        40 + n - 2
    ));
    sorted(found)
}

/// Sets the data of the first file of an archive's document in both its readings.
fn grow_first(document: &mut serde_json::Value, data: &[u8]) {
    let data: serde_json::Value = skelcodec_runtime::to_hex(data).into();
    document["sections"][0]["body"]["file"]["data"] = data.clone();
    document["sections"][2]["body"]["index"]["file"]["body"]["file"]["data"] = data;
}

#[test]
fn the_generated_code_derives_from_the_holder_and_the_root() {
    let original = archive_file(&FILES);
    let value = archive::Archive::read(&original).unwrap();
    assert!(value.check().is_empty(), "{:?}", value.check());
    assert_eq!(value.to_bytes().unwrap(), original);
    let mut document = serde_json::to_value(&value).unwrap();
    grow_first(&mut document, GROWN);
    let mut value: archive::Archive = serde_json::from_value(document).unwrap();
    let found = skelcodec_generated_tests::checked(&value);
    assert_eq!(sorted(found), stale_archive(GROWN));
    value.normalize().unwrap();
    let expected = archive_file(&[(0, GROWN), FILES[1]]);
    assert_eq!(value.to_bytes().unwrap(), expected);
    // The deflated file's data replaced by another stream, in both its readings.
    let mut document = serde_json::to_value(&value).unwrap();
    let data: serde_json::Value = skelcodec_runtime::to_hex(&stored_blocks(b"hello, hello")).into();
    document["sections"][1]["body"]["file"]["data"] = data.clone();
    document["sections"][3]["body"]["index"]["file"]["body"]["file"]["data"] = data;
    let mut value: archive::Archive = serde_json::from_value(document).unwrap();
    value.normalize().unwrap();
    let expected = archive_file(&[(0, GROWN), (8, b"hello, hello")]);
    assert_eq!(value.to_bytes().unwrap(), expected);
}

#[test]
fn the_generated_code_refuses_a_file_grown_in_one_of_its_readings() {
    let mut value = archive::Archive::read(&archive_file(&FILES)).unwrap();
    let archive::SectionBody::File(file) = &mut value.sections[0].body else {
        panic!("a file first")
    };
    file.data = RawBytes::new(GROWN.to_vec());
    let error = value.normalize().unwrap_err().to_string();
    assert!(
        error.contains("`file` (16 bytes at 0) is bytes the file holds in sequence, read again"),
        "{error}"
    );
}

#[test]
fn the_interpreter_derives_from_the_holder_and_the_root_alike() {
    let overlay = Overlay::read(Path::new(ARCHIVE_OVERLAY)).unwrap();
    let interpreter =
        Interpreter::load_overlaid(Path::new(ARCHIVE), &[], &[overlay]).expect("loads");
    let value = interpreter.read(&archive_file(&FILES)).unwrap();
    assert!(interpreter.check(&value).unwrap().is_empty());
    let mut document = serde_json::to_value(interpreter.document(&value)).unwrap();
    grow_first(&mut document, GROWN);
    let edited = interpreter.value_of(&document).unwrap();
    let found = skelcodec_generated_tests::interpreted_check(&interpreter, &edited);
    assert_eq!(sorted(found), stale_archive(GROWN));
    interpreter.normalize(&edited).unwrap();
    let expected = archive_file(&[(0, GROWN), FILES[1]]);
    assert_eq!(interpreter.write(&edited).unwrap(), expected);
    // Grown in its section alone, the file and its reading again differ: refused.
    let mut document = serde_json::to_value(interpreter.document(&value)).unwrap();
    document["sections"][0]["body"]["file"]["data"] = skelcodec_runtime::to_hex(GROWN).into();
    let edited = interpreter.value_of(&document).unwrap();
    let error = interpreter.normalize(&edited).unwrap_err().to_string();
    assert!(
        error.contains("`file` (16 bytes at 0) is bytes the file holds in sequence, read again"),
        "{error}"
    );
}
