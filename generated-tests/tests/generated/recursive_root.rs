//! A root type that holds a value of itself (Kaitai's `nav_parent_recursive`): the values it
//! holds take `_parent` values from their holder, as any type's implicit parameters; the
//! file's root, read without arguments, takes 0 for them. The generated code and the
//! interpreter alike, on a file built by hand from `tests/schemas/recursive_root.ksy`.

mod recursive_root {
    skelcodec_macros::codec!("tests/schemas/recursive_root.ksy");
}

use recursive_root::RecursiveRoot;
use serde_json::json;
use skelcodec_generated_tests::interpreter;

const SCHEMA: &str = "tests/schemas/recursive_root.ksy";

/// The root: `len` 2 and no body; the next value: `len` 3 and a body of the root's 2 bytes;
/// the last: `len` 0 and a body of the next value's 3 bytes.
const CHAIN: &[u8] = &[2, 3, 0xaa, 0xbb, 0, 0xcc, 0xdd, 0xee];

#[test]
fn values_held_by_a_root_of_their_type_read_with_its_values() {
    let value = RecursiveRoot::read(CHAIN).expect("the file reads");
    let next = value.next.as_deref().expect("a next value");
    assert_eq!(next.next.as_deref().expect("a last value").len, 0);
    assert_eq!(value.to_bytes().expect("writes back"), CHAIN);

    let document = serde_json::to_value(&value).unwrap();
    assert_eq!(
        document,
        json!({"len": 2, "body": "", "next": {"len": 3, "body": "aabb",
            "next": {"len": 0, "body": "ccddee", "next": null}}})
    );
    let interpreter = interpreter(SCHEMA);
    let interpreted = interpreter.read(CHAIN).expect("the interpreter reads it");
    assert_eq!(
        serde_json::to_value(interpreter.document(&interpreted)).unwrap(),
        document
    );
    assert_eq!(interpreter.write(&interpreted).expect("writes back"), CHAIN);
}
