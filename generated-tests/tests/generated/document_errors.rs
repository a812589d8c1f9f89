//! Documents the generated types' `Deserialize` refuses, the interpreter refuses in the same
//! words (`tests/schemas/document_errors.ksy`): its messages are made by serde's own
//! constructors, and its enums read by the runtime's visitor, so they cannot drift. (What a
//! structure is expected as is each back end's own: serde's derive names the Rust struct,
//! the interpreter the schema's type.)

mod document_errors {
    skelcodec_macros::codec!("tests/schemas/document_errors.ksy");
}

use document_errors::DocumentErrors;
use serde_json::json;

#[test]
fn both_back_ends_refuse_a_document_in_the_same_words() {
    let interpreter = skelcodec_generated_tests::interpreter("tests/schemas/document_errors.ksy");
    let pair = json!({"a": 1, "b": 2});
    let documents = [
        json!({"kind": "cat", "count": 1, "pair": pair, "cuont": 1}),
        // Two fields: serde says "expected `a` or `b`", not "one of".
        json!({"kind": "cat", "count": 1, "pair": {"a": 1, "b": 2, "c": 3}}),
        // Two names: serde says "expected `cat` or `dog`".
        json!({"kind": "cow", "count": 1, "pair": pair}),
        json!({"kind": true, "count": 1, "pair": pair}),
        json!({"kind": 18_446_744_073_709_551_615_u64, "count": 1, "pair": pair}),
        json!({"kind": "cat", "count": 256, "pair": pair}),
        json!({"kind": "cat", "count": -1, "pair": pair}),
        json!({"kind": "cat", "count": "x", "pair": pair}),
        json!({"kind": "cat", "count": 1.5, "pair": pair}),
    ];
    for document in documents {
        let generated = serde_json::from_value::<DocumentErrors>(document.clone())
            .expect_err("the generated type refuses it")
            .to_string();
        let interpreted = interpreter
            .value_of(&document)
            .expect_err("the interpreter refuses it");
        assert!(
            generated.contains(&interpreted.message),
            "{document}: generated `{generated}`, interpreted `{interpreted}`"
        );
    }
    let good = json!({"kind": 7, "count": 1, "pair": pair});
    let value: DocumentErrors = serde_json::from_value(good.clone()).unwrap();
    let interpreted = interpreter.value_of(&good).unwrap();
    assert_eq!(
        interpreter.write(&interpreted).unwrap(),
        value.to_bytes().unwrap()
    );
}
