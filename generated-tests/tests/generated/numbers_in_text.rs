//! `to_i` of text that is no number fails, as Kaitai raises: while reading where the reader needs
//! it, in the value instance's own method where only the instance needs it. Text with
//! whitespace around its number reads as Kaitai's Python runtime reads it. The generated code
//! and the interpreter.

mod numbers_in_text {
    skelcodec_macros::codec!("tests/schemas/numbers_in_text.ksy");
}

use numbers_in_text::NumbersInText;
use serde_json::json;
use skelcodec_generated_tests::interpreter;
use skelcodec_runtime as rt;

const SCHEMA: &str = "tests/schemas/numbers_in_text.ksy";

#[test]
fn text_that_spells_a_number_is_that_number() {
    // " 2 " items, then width "1f" in base 16; whitespace around a number is allowed.
    let file = b" 2 \x0a\x0b1f";
    let value = NumbersInText::read(file).unwrap();
    assert_eq!(value.items, [0x0a, 0x0b]);
    assert_eq!(value.width(), Ok(31));
    assert_eq!(value.to_bytes().unwrap(), file);

    let interpreter = interpreter(SCHEMA);
    let read = interpreter.read(file).expect("the interpreter reads it");
    let document = serde_json::to_value(interpreter.document(&read)).unwrap();
    assert_eq!(document["items"], json!([10, 11]));
    assert_eq!(interpreter.write(&read).unwrap(), file);
}

#[test]
fn a_count_that_is_no_number_fails_the_read_where_it_is_needed() {
    let file = b"   1f";
    for error in [
        NumbersInText::read(file).unwrap_err(),
        interpreter(SCHEMA).read(file).unwrap_err(),
    ] {
        assert_eq!(
            (error.offset(), error.path()),
            (3, "items".into()),
            "{error}"
        );
        let expected = r#"`to_i`: "   " is not a number in base 10"#;
        assert!(error.to_string().contains(expected), "{error}");
    }
}

#[test]
fn an_instance_that_is_no_number_fails_alone() {
    let file = b"001\x07zz";
    let value = NumbersInText::read(file).expect("nothing read needs `width`");
    assert_eq!(value.items, [7]);
    let error = value.width().unwrap_err();
    assert_eq!(error.to_string(), r#""zz" is not a number in base 16"#);
    assert_eq!(value.to_bytes().unwrap(), file);

    let interpreter = interpreter(SCHEMA);
    let read = interpreter.read(file).expect("nothing read needs `width`");
    let document = serde_json::to_value(interpreter.document(&read)).unwrap();
    assert_eq!(document["items"], json!([7]));
    assert_eq!(interpreter.write(&read).unwrap(), file);
}

#[test]
fn an_edit_that_leaves_no_number_is_refused_with_its_path() {
    let file = b"001\x07zz";
    let mut value = NumbersInText::read(file).unwrap();
    value.count_text = rt::FixedStr::from_text("one").unwrap();
    let error = value.to_bytes().unwrap_err();
    assert_eq!(error.path(), "items", "{error}");
    assert!(
        error
            .to_string()
            .contains(r#"`to_i`: "one" is not a number in base 10"#),
        "{error}"
    );

    let interpreter = interpreter(SCHEMA);
    let read = interpreter.read(file).unwrap();
    let mut document = serde_json::to_value(interpreter.document(&read)).unwrap();
    document["count_text"] = json!("one");
    let edited = interpreter.value_of(&document).unwrap();
    let error = interpreter.write(&edited).unwrap_err().to_string();
    assert!(error.contains("items"), "{error}");
    assert!(
        error.contains(r#"`to_i`: "one" is not a number in base 10"#),
        "{error}"
    );
}
