//! The read path's expressions are resolved once into trees, and evaluated through them: the
//! corpus formats' schemas have a tree for every expression their reader evaluates, and
//! reading through the trees gives what evaluating the expressions as written gives.

use std::path::Path;

use skelcodec_dynamic::Interpreter;

/// A schema of the project's `schemas/` folder.
fn schema(name: &str) -> Interpreter {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../schemas")
        .join(name);
    Interpreter::load(&path, &[]).expect("the schema loads")
}

#[test]
fn the_corpus_formats_read_every_expression_through_a_tree() {
    for name in [
        "ifp.ksy",
        "dff.ksy",
        "img.ksy",
        "sims2_anim.ksy",
        "dbpf.ksy",
    ] {
        let interpreter = schema(name);
        assert_eq!(
            interpreter.unresolved_expressions(),
            &[] as &[String],
            "{name}: expressions evaluated as written"
        );
    }
}

#[test]
fn the_read_path_goes_through_trees_and_an_expression_without_one_as_written() {
    // `to_s` in ASCII has no tree yet: that condition is evaluated as written.
    let interpreter = crate::common::interpreter(
        "meta: {id: t, endian: le}\nseq:\n  - id: n\n    type: u1\n  - id: items\n    type: u1\n    repeat: expr\n    repeat-expr: n * 2\n  - id: mid\n    type: u1\n    if: items.size == 4 and _io.pos < 100\n  - id: tag\n    size: 2\n  - id: tail\n    type: u1\n    if: tag.to_s(\"ASCII\") == \"AB\"\n",
    );
    assert_eq!(
        interpreter.unresolved_expressions(),
        ["t.tail: if: `to_s` in UTF-8 or ASCII"]
    );
    let value = interpreter
        .read(&[2, 1, 2, 3, 4, 7, b'A', b'B', 9])
        .expect("it reads");
    let document = serde_json::to_value(interpreter.document(&value)).expect("a document");
    assert_eq!(
        (&document["mid"], &document["tail"]),
        (&7.into(), &9.into())
    );
    if cfg!(debug_assertions) {
        // `repeat-expr` and the first `if` through their trees, the second as written.
        assert_eq!(interpreter.expression_counts(), (2, 1));
    }
}
