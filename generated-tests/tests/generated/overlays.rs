//! Overlays (`docs/overlays.md`): a plain schema whose CRC and Adler-32 an overlay declares,
//! one overlay for the schema and one for the schema it imports. The generated code
//! (`codec!(…, overlays = […])`) and the interpreter (`Interpreter::load_overlaid`) check and
//! recompute both; without the overlays they are plain numbers. The file is built here from
//! the layout the schema reads, its checksums computed with crc32fast and by the definition
//! of Adler-32.

use std::path::{Path, PathBuf};

use skelcodec_codegen::Overlay;
use skelcodec_dynamic::Interpreter;
use skelcodec_runtime::RawBytes;

#[allow(deprecated)] // the schema's style warnings, which `schema check` lists
mod overlaid {
    skelcodec_macros::codec!(
        "tests/schemas/overlaid/framed.ksy",
        overlays = [
            "tests/schemas/overlaid/framed.overlay.yaml",
            "tests/schemas/overlaid/tail.overlay.yaml",
        ],
    );
}

#[allow(deprecated)]
mod plain {
    skelcodec_macros::codec!("tests/schemas/overlaid/framed.ksy");
}

const SCHEMA: &str = "tests/schemas/overlaid/framed.ksy";
const OVERLAYS: [&str; 2] = [
    "tests/schemas/overlaid/framed.overlay.yaml",
    "tests/schemas/overlaid/tail.overlay.yaml",
];

fn adler32(bytes: &[u8]) -> u32 {
    let (a, b) = bytes.iter().fold((1u32, 0u32), |(a, b), &byte| {
        let a = (a + u32::from(byte)) % 65521;
        (a, (b + a) % 65521)
    });
    (b << 16) | a
}

/// `FRM1`, a `TEXT` frame of `body`, the `END ` frame, and the tail `abc` with its sum.
fn file(body: &[u8]) -> Vec<u8> {
    let mut out = b"FRM1".to_vec();
    for (kind, body) in [(b"TEXT", body), (b"END ", &b""[..])] {
        out.extend((body.len() as u16).to_be_bytes());
        out.extend(kind);
        out.extend(body);
        let covered: Vec<u8> = kind.iter().chain(body).copied().collect();
        out.extend(crc32fast::hash(&covered).to_be_bytes());
    }
    out.extend(b"abc");
    out.extend(adler32(b"abc").to_le_bytes());
    out
}

#[test]
fn the_generated_code_recomputes_what_the_overlays_declare() {
    let mut value = overlaid::Framed::read(&file(b"hi")).unwrap();
    assert!(value.check().is_empty(), "{:?}", value.check());
    // Checksums are computed by writing, which a stale size stops: edits of the same length.
    value.frames[0].body = RawBytes::new(b"ho".to_vec());
    value.tail.note = RawBytes::new(b"xyz".to_vec());
    let stale: Vec<String> = value.check().iter().map(|m| m.path.clone()).collect();
    assert_eq!(stale, ["frames[0].crc", "tail.sum"]);
    value.frames[0].body = RawBytes::new(b"hello, overlays".to_vec());
    value.normalize().unwrap();
    let mut expected = file(b"hello, overlays");
    let n = expected.len();
    expected[n - 7..n - 4].copy_from_slice(b"xyz");
    expected[n - 4..].copy_from_slice(&adler32(b"xyz").to_le_bytes());
    assert_eq!(value.to_bytes().unwrap(), expected);
}

#[test]
fn without_the_overlays_the_checksums_are_plain_numbers() {
    let mut value = plain::Framed::read(&file(b"hi")).unwrap();
    value.frames[0].body = RawBytes::new(b"hello".to_vec());
    let stale: Vec<String> = value.check().iter().map(|m| m.path.clone()).collect();
    assert_eq!(stale, ["frames[0].len"]);
    value.normalize().unwrap();
    let written = value.to_bytes().unwrap();
    assert_ne!(written, file(b"hello"), "the CRC is left as it was");
    assert_eq!(
        written[..written.len() - 23],
        file(b"hello")[..written.len() - 23]
    );
}

#[test]
fn the_interpreter_loads_the_same_overlays() {
    let overlays: Vec<Overlay> = OVERLAYS
        .iter()
        .map(|p| Overlay::read(Path::new(p)).unwrap())
        .collect();
    let interpreter =
        Interpreter::load_overlaid(&PathBuf::from(SCHEMA), &[], &overlays).expect("loads");
    let value = interpreter.read(&file(b"hi")).unwrap();
    let mut document = serde_json::to_value(interpreter.document(&value)).unwrap();
    document["frames"][0]["body"] = serde_json::json!("686f");
    let edited = interpreter.value_of(&document).unwrap();
    let stale: Vec<String> = interpreter
        .check(&edited)
        .unwrap()
        .iter()
        .map(|m| m.path.clone())
        .collect();
    assert_eq!(stale, ["frames[0].crc"]);
    document["frames"][0]["body"] = serde_json::json!("68656c6c6f2c206f7665726c617973");
    let edited = interpreter.value_of(&document).unwrap();
    interpreter.normalize(&edited).unwrap();
    assert_eq!(
        interpreter.write(&edited).unwrap(),
        file(b"hello, overlays")
    );
}

#[test]
fn the_interpreter_names_a_stale_crc_the_schema_does_not_derive_where_it_recognises_it() {
    let interpreter = skelcodec_generated_tests::interpreter(SCHEMA);
    assert!(interpreter.unstated_checksums(&file(b"hi")).is_empty());
    // The first frame's body edited, its CRC left: the `END ` frame's CRC is the CRC-32 of
    // its kind and body, so the first frame's should be too.
    let mut stale = file(b"hi");
    stale[10..12].copy_from_slice(b"ho");
    let found = interpreter.unstated_checksums(&stale);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].path, "frames[0].crc");
    assert_eq!(found[0].computed, crc32fast::hash(b"TEXTho"));
    assert_eq!(found[0].covers, "`kind` … `body`");
    assert_eq!(found[0].recognised_on, 1);
    // With both frames stale, nothing shows what the CRC covers: nothing is said.
    let end = stale.len() - 11;
    stale[end] ^= 0xff;
    assert!(interpreter.unstated_checksums(&stale).is_empty());
}
