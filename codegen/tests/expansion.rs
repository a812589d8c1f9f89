//! The code generated for every schema of the project, as snapshots: a change to the generator
//! shows up as a reviewable diff of what it emits (`cargo insta review`).

use skelcodec_codegen::{generate_source, load_schema};

fn expand(path: &std::path::Path) -> String {
    let schema = load_schema(path).unwrap_or_else(|e| panic!("{e}"));
    generate_source(&schema).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn game_schemas() {
    insta::glob!("../../schemas", "*.ksy", |path| {
        insta::assert_snapshot!(expand(path));
    });
}

#[test]
fn feature_schemas() {
    insta::glob!("../../generated-tests/tests/schemas", "*.ksy", |path| {
        insta::assert_snapshot!(expand(path));
    });
}
