//! The code generated for every schema of the project, as snapshots: a change to the generator
//! shows up as a reviewable diff of what it emits (`cargo insta review`).

use skelcodec_codegen::{generate_source, load_schema};

fn expand(path: &std::path::Path) -> String {
    let schema = load_schema(path).unwrap_or_else(|e| panic!("{e}"));
    generate_source(&schema).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn game_schemas() {
    insta::glob!("../../../schemas", "*.ksy", |path| {
        insta::assert_snapshot!(expand(path));
    });
}

#[test]
fn feature_schemas() {
    insta::glob!("../../../generated-tests/tests/schemas", "*.ksy", |path| {
        insta::assert_snapshot!(expand(path));
    });
}

/// Snapshot tests over a crate's own corpus: the corpus test looks for it when it runs.
#[test]
fn snapshot_tests_of_a_crate_corpus() {
    use skelcodec_codegen::snapshot_tests::{CorpusRoot, SnapshotTests, snapshot_tests};
    let spec = SnapshotTests {
        codec: quote::quote!(crate::Wav),
        runtime: quote::quote!(::skelcodec::__private::runtime),
        name: "wav".into(),
        fixtures: Some("samples/*.wav".into()),
        corpus: Some("**/*.wav".into()),
        corpus_root: Some(CorpusRoot {
            env: "WAV_FILES".into(),
            dir: Some("../my-wavs".into()),
        }),
    };
    let file = syn::parse2(snapshot_tests(&spec)).expect("the tests parse as a file");
    insta::assert_snapshot!(prettyplease::unparse(&file));
}
