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
fn an_expression_with_no_tree_is_evaluated_as_written() {
    // `_parent` of a value of the root type is refused by the resolver (no type holds it),
    // and evaluated as written: absent.
    let interpreter = crate::common::interpreter(
        "meta: {id: t, endian: le}\nseq:\n  - id: n\n    type: u1\n  - id: items\n    type: u1\n    repeat: expr\n    repeat-expr: n * 2\n  - id: tail\n    type: u1\n    if: items.size == 4 and _io.pos < 100\n",
    );
    assert_eq!(interpreter.unresolved_expressions(), &[] as &[String]);
    let value = interpreter.read(&[2, 1, 2, 3, 4, 9]).expect("it reads");
    let document = serde_json::to_value(interpreter.document(&value)).expect("a document");
    assert_eq!(document["tail"], 9);
    if cfg!(debug_assertions) {
        let (trees, written) = interpreter.expression_counts();
        assert_eq!((trees, written), (2, 0));
    }
}
