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
