//! Strings in Shift_JIS, UTF-16LE (with its two-byte NUL), IBM437 and windows-1251: the value
//! is the decoded text; its bytes are kept, so that text whose bytes do not survive a decode and
//! encode round trip is written back exactly until it is edited; edits are encoded, and text
//! the encoding cannot hold is refused with its path.

mod text_encodings {
    skelcodec_macros::codec!("tests/schemas/text_encodings.ksy");
}

use text_encodings::TextEncodings;

/// こんにちは in Shift_JIS, "Aé" in UTF-16LE and its NUL, ╔═╗░ in IBM437, "Мир" in
/// windows-1251 padded with spaces.
fn file(greeting: &[u8]) -> Vec<u8> {
    let mut bytes = vec![greeting.len() as u8];
    bytes.extend(greeting);
    bytes.extend([0x41, 0x00, 0xe9, 0x00, 0x00, 0x00]);
    bytes.extend([0xc9, 0xcd, 0xbb, 0xb0]);
    bytes.extend([0xcc, 0xe8, 0xf0, 0x20, 0x20, 0x20]);
    bytes
}

const HELLO_SJIS: &[u8] = &[0x82, 0xb1, 0x82, 0xf1, 0x82, 0xc9, 0x82, 0xbf, 0x82, 0xcd];

#[test]
fn text_is_decoded_from_its_encoding() {
    let fixture = include_bytes!("../../fixtures/features/text_encodings.bin");
    assert_eq!(
        file(HELLO_SJIS),
        fixture,
        "the fixture the mutation test uses"
    );
    let value = TextEncodings::read(&file(HELLO_SJIS)).unwrap();
    assert_eq!(value.greeting.value.text(), "こんにちは");
    assert!(value.greets());
    assert_eq!(value.title.value.text(), "Aé");
    assert_eq!(value.r#box.value.text(), "╔═╗░");
    assert_eq!(value.padded.value.text(), "Мир", "the padding is not text");
    assert_eq!(value.to_bytes().unwrap(), file(HELLO_SJIS));
}

#[test]
fn bytes_that_do_not_survive_a_round_trip_are_kept_until_edited() {
    // ED 40 is an IBM extension that Shift_JIS decodes but encodes otherwise.
    let odd = file(&[0xed, 0x40]);
    let value = TextEncodings::read(&odd).unwrap();
    assert_eq!(value.to_bytes().unwrap(), odd);
}

#[test]
fn edited_text_is_encoded() {
    let mut value = TextEncodings::read(&file(HELLO_SJIS)).unwrap();
    value.greeting.value = "さようなら".into();
    value.title.value = "日本".into();
    value.padded.value = "Да".into();
    let bytes = value.to_bytes().unwrap();
    let sayonara = [0x82, 0xb3, 0x82, 0xe6, 0x82, 0xa4, 0x82, 0xc8, 0x82, 0xe7];
    assert_eq!(bytes[1..11], sayonara);
    assert_eq!(
        bytes[11..17],
        [0xe5, 0x65, 0x2c, 0x67, 0x00, 0x00],
        "日本 and its NUL"
    );
    assert_eq!(
        bytes[bytes.len() - 6..],
        [0xc4, 0xe0, 0x20, 0x20, 0x20, 0x20]
    );
    let back = TextEncodings::read(&bytes).unwrap();
    assert_eq!(back.greeting.value, value.greeting.value);
    assert_eq!(back.title.value, value.title.value);
    assert_eq!(back.padded.value, value.padded.value);
}

#[test]
fn text_the_encoding_cannot_hold_is_refused_with_its_path() {
    let mut value = TextEncodings::read(&file(HELLO_SJIS)).unwrap();
    value.r#box.value = "€uro".into();
    let err = value.to_bytes().unwrap_err().to_string();
    assert!(err.contains("box") && err.contains("IBM437"), "{err}");
}

#[test]
fn a_missing_utf16_terminator_is_an_error() {
    let bytes = file(HELLO_SJIS);
    let cut = &bytes[..bytes.len() - 12];
    let err = TextEncodings::read(cut).unwrap_err().to_string();
    assert!(err.contains("title"), "{err}");
}

#[allow(deprecated)] // the schema's style warnings, which `schema check` lists
mod unknown_encoding {
    skelcodec_macros::codec!("tests/schemas/unknown_encoding.ksy");
}

#[test]
fn text_in_an_unknown_encoding_fails_where_it_is_read() {
    // Kaitai warns of the label and raises where the text is read: here an instance, so the
    // file reads, the instance holds the failure, and the bytes are written back as read.
    let bytes = [2, b'h', b'i'];
    let value = unknown_encoding::UnknownEncoding::read(&bytes).unwrap();
    match &value.as_text {
        skelcodec_runtime::Instance::Failed(message) => {
            assert!(
                message.to_string().contains("unknown encoding `KLINGON-1`"),
                "{message}"
            );
        }
        other => panic!("expected a failed instance, got {other:?}"),
    }
    assert_eq!(value.to_bytes().unwrap(), bytes);
}

#[test]
fn edited_text_is_measured_and_stored_as_its_new_bytes() {
    // `greeting_len` is inferred from `greeting`: it measures the bytes the text is written as;
    // the bytes kept with the text are those of the old text until normalized.
    let mut value = TextEncodings::read(&file(HELLO_SJIS)).unwrap();
    value.greeting.value = "はい".into();
    let expected = [
        "greeting_len: stored 10, computed 4",
        "greeting.stored: stored 10, computed 4",
    ];
    let found = skelcodec_generated_tests::checked(&value);
    assert_eq!(found, expected);
    let document = serde_json::to_value(&value).unwrap();
    value.normalize().unwrap();
    let hai = file(&[0x82, 0xcd, 0x82, 0xa2]);
    assert_eq!(value.to_bytes().unwrap(), hai);
    assert_eq!(
        TextEncodings::read(&hai).unwrap(),
        value,
        "it reads back as itself"
    );
    skelcodec_generated_tests::assert_interpreter_agrees(
        "tests/schemas/text_encodings.ksy",
        &document,
        &expected,
        &hai,
    );
}

#[test]
fn stored_bytes_the_text_does_not_encode_to_are_reported_and_encoded_again() {
    // さようなら's bytes kept with こんにちは: the text is what the value holds.
    let mut value = TextEncodings::read(&file(HELLO_SJIS)).unwrap();
    value.greeting.stored.0 =
        vec![0x82, 0xb3, 0x82, 0xe6, 0x82, 0xa4, 0x82, 0xc8, 0x82, 0xe7].into();
    let found = skelcodec_generated_tests::checked(&value);
    assert_eq!(
        found,
        [
            "greeting.stored: its 10 bytes differ from those the values read from them are written as"
        ]
    );
    value.normalize().unwrap();
    assert_eq!(value.check(), Vec::new());
    assert_eq!(value.to_bytes().unwrap(), file(HELLO_SJIS));
}
