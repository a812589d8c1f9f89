//! Derived fields that depend on each other's sizes settle in both back ends
//! (`tests/schemas/settling.ksy`): `normalize()` measures again until nothing changes, so a
//! size recomputed before a base-128 length grows still counts the length's new bytes.

mod settling {
    skelcodec_macros::codec!("tests/schemas/settling.ksy");
}

use settling::Settling;
use skelcodec_runtime::RawBytes;

/// `total` 4, `len_body` 1, then one byte of body.
const FILE: &[u8] = b"\x04\x00\x01z";

/// The file once the body holds 200 bytes: `len_body` takes two bytes (0xc8 0x01), so the
/// whole record is 2 + 2 + 200 bytes.
fn grown() -> Vec<u8> {
    let mut bytes = vec![204, 0, 0xc8, 0x01];
    bytes.extend([b'z'; 200]);
    bytes
}

#[test]
fn a_size_that_measures_a_growing_length_settles() {
    let mut value = Settling::read(FILE).unwrap();
    assert_eq!(value.check(), Vec::new());
    value.body = RawBytes::new(vec![b'z'; 200]);
    value.normalize().unwrap();
    assert_eq!(value.check(), Vec::new());
    assert_eq!(value.to_bytes().unwrap(), grown());
}

#[test]
fn the_interpreter_settles_alike() {
    let interpreter = skelcodec_generated_tests::interpreter("tests/schemas/settling.ksy");
    let mut generated = Settling::read(FILE).unwrap();
    generated.body = RawBytes::new(vec![b'z'; 200]);
    let value = interpreter
        .value_of(&serde_json::to_value(&generated).unwrap())
        .unwrap();
    assert_eq!(interpreter.check(&value).unwrap(), generated.check());
    let changed = interpreter.normalize(&value).unwrap();
    generated.normalize().unwrap();
    assert_eq!(interpreter.write(&value).unwrap(), grown());
    assert_eq!(generated.to_bytes().unwrap(), grown());
    let changed: Vec<String> = changed.iter().map(ToString::to_string).collect();
    assert_eq!(
        changed,
        [
            "total: stored 4, computed 204",
            "len_body: stored 1, computed 200"
        ]
    );
}
