//! Names an expression resolves where it is written, the same for both back ends: an enum
//! literal means the enum of that name nearest to its own type (two nested `color` enums whose
//! `red` differ), and `sizeof<u4>` is the built-in type's size. The interpreter read the first
//! `color` anywhere in the schema, and had no `u4`.

mod name_scopes {
    skelcodec_macros::codec!("tests/schemas/name_scopes.ksy");
}

use name_scopes::NameScopes;
use serde_json::json;
use skelcodec_generated_tests::interpreter;

const SCHEMA: &str = "tests/schemas/name_scopes.ksy";

/// `a.x` = 1 (first's red), `b.y` = 2 (second's red, so `z` is read), `z` = 7, `shade` = 2
/// (second's red), then 8 bytes of words and 2 of bits.
const FILE: &[u8] = b"\x01\x02\x07\x0212345678ab";

#[test]
fn enum_literals_and_builtin_sizes_mean_the_same_to_both_back_ends() {
    let value = NameScopes::read(FILE).expect("the generated code reads it");
    assert_eq!(value.b.z, Some(7), "`color::red` in `second` is 2");
    assert!(value.a.is_red() && value.b.is_red());
    assert_eq!(value.words.0.len(), 8, "`count * sizeof<u4>`");
    let document = serde_json::to_value(&value).unwrap();
    assert_eq!(document["b"], json!({"y": 2, "z": 7, "shade": "red"}));
    assert_eq!(document["bits"], json!("6162"));

    let interpreter = interpreter(SCHEMA);
    let read = interpreter.read(FILE).expect("the interpreter reads it");
    let interpreted = serde_json::to_value(interpreter.document(&read)).unwrap();
    assert_eq!(interpreted, document);
    assert_eq!(interpreter.write(&read).unwrap(), FILE);

    // `valid: color::red` in `first` refuses 2, which is red only in `second`.
    let mut other = FILE.to_vec();
    other[0] = 2;
    let generated = NameScopes::read(&other).expect_err("2 is not first's red");
    let interpreted = interpreter.read(&other).expect_err("2 is not first's red");
    assert_eq!(generated.path(), "a.x");
    assert_eq!(interpreted.to_string(), generated.to_string());
}
