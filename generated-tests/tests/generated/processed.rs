//! `process` (xor, rol, zlib) and a user type framed by `pad-right` and a terminator within its
//! size: values read from their decoded bytes, written back exactly while untouched (an
//! uncompressed zlib stream is not recompressed, garbage after the terminator survives), and
//! encoded and framed anew after an edit.

#[allow(deprecated)] // the schema's style warnings, which `schema check` lists
mod processed {
    skelcodec_macros::codec!("tests/schemas/processed.ksy");
}

use processed::Processed;

/// zlib of "hello" in one stored (uncompressed) block: recompressing would change it.
const STORED_HELLO: &[u8] = b"\x78\x01\x01\x05\x00\xfa\xffhello\x06\x2c\x02\x15";

fn file() -> Vec<u8> {
    let mut bytes = vec![0x55];
    bytes.extend([1u8, 2, 3, 4].map(|b| b ^ 0x55));
    // 0x10 and 0x20 rotated right by 3: decoding rotates them left again.
    bytes.extend([0x02, 0x04]);
    bytes.extend((STORED_HELLO.len() as u16).to_le_bytes());
    bytes.extend(STORED_HELLO);
    bytes.extend(b"abc\0zz  ");
    bytes
}

#[test]
fn values_are_read_from_their_decoded_bytes() {
    let fixture = include_bytes!("../../fixtures/features/processed.bin");
    assert_eq!(file(), fixture, "the fixture the mutation test uses");
    let value = Processed::read(&file()).unwrap();
    assert_eq!(value.masked.value.0, [1, 2, 3, 4]);
    assert_eq!((value.rotated.value.a, value.rotated.value.b), (0x10, 0x20));
    assert_eq!(value.packed.value.0, b"hello");
    assert_eq!(value.label.value.text.text(), "abc");
    assert_eq!(value.masked_first(), 1);
    assert_eq!(value.pair_sum(), 0x30);
    assert_eq!(value.packed_size(), 5);
}

#[test]
fn untouched_values_write_back_exactly() {
    let bytes = file();
    let value = Processed::read(&bytes).unwrap();
    assert_eq!(
        value.label.stored.0, b"abc\0zz  ",
        "the frame keeps its garbage"
    );
    assert_eq!(value.encoded_len(), bytes.len());
    assert_eq!(value.to_bytes().unwrap(), bytes);
}

#[test]
fn edited_values_are_encoded_and_framed() {
    let mut value = Processed::read(&file()).unwrap();
    value.masked.value.0 = vec![9, 8, 7, 6].into();
    value.rotated.value.a = 0x81;
    value.label.value.text = "xy".into();
    let bytes = value.to_bytes().unwrap();
    assert_eq!(bytes[1..5], [9 ^ 0x55, 8 ^ 0x55, 7 ^ 0x55, 6 ^ 0x55]);
    assert_eq!(bytes[5], 0x81u8.rotate_right(3));
    assert_eq!(
        &bytes[bytes.len() - 8..],
        b"xy\0     ",
        "terminated, then padded"
    );
    let back = Processed::read(&bytes).unwrap();
    assert_eq!(back.masked.value, value.masked.value);
    assert_eq!(back.rotated.value, value.rotated.value);
    assert_eq!(back.label.value, value.label.value);
}

#[test]
fn an_edit_that_cannot_be_stored_exactly_is_refused_with_its_path() {
    let mut longer = Processed::read(&file()).unwrap();
    longer.packed.value.0 = b"hello, world".to_vec().into();
    let err = longer.to_bytes().unwrap_err().to_string();
    assert!(err.contains("packed"), "{err}");

    let mut too_long = Processed::read(&file()).unwrap();
    too_long.label.value.text = "far too long".into();
    let err = too_long.to_bytes().unwrap_err().to_string();
    assert!(err.contains("label"), "{err}");

    let mut terminator_inside = Processed::read(&file()).unwrap();
    terminator_inside.label.value.text = rt_text("a\0b");
    let err = terminator_inside.to_bytes().unwrap_err().to_string();
    assert!(err.contains("would not read back"), "{err}");
}

fn rt_text(text: &str) -> skelcodec_runtime::Text {
    skelcodec_runtime::Text::from_raw(text.as_bytes().to_vec())
}

#[test]
fn hostile_input_is_an_error_naming_the_field() {
    let mut bad_zlib = file();
    bad_zlib[9] ^= 0xff;
    let err = Processed::read(&bad_zlib).unwrap_err().to_string();
    assert!(err.contains("packed") && err.contains("zlib"), "{err}");

    let truncated = &file()[..file().len() - 3];
    let err = Processed::read(truncated).unwrap_err().to_string();
    assert!(err.contains("label"), "{err}");
}

#[test]
fn documents_round_trip_and_may_leave_out_the_stored_bytes() {
    let value = Processed::read(&file()).unwrap();
    let json = serde_json::to_value(&value).unwrap();
    let back: Processed = serde_json::from_value(json.clone()).unwrap();
    assert_eq!(back, value);
    let mut edited = json;
    edited["masked"] = serde_json::json!({ "value": "0a0b0c0d" });
    let from_value: Processed = serde_json::from_value(edited).unwrap();
    let bytes = from_value.to_bytes().unwrap();
    assert_eq!(
        bytes[1..5],
        [0x0a ^ 0x55, 0x0b ^ 0x55, 0x0c ^ 0x55, 0x0d ^ 0x55]
    );
}
