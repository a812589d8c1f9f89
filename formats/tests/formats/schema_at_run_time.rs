//! The corpus read with the project's schemas given at run time (the interpreter behind
//! `--schema`): every file gives the built-in format's document and is written back byte for
//! byte, from its value and from its document. Without the corpus (`../shared/corpus` or
//! `$SKELCODEC_CORPUS`) it says so and checks nothing.

use std::path::Path;

use skelcodec_dynamic::Interpreter;
use skelcodec_runtime::Codec;

/// Reads every file of `folder` ending with `suffix` with `schema` at run time and with the
/// built-in codec `C`; returns how many files were compared.
fn same_as_built_in<C: Codec + serde::Serialize>(
    corpus: &Path,
    schema: &str,
    (folder, suffix): (&str, &str),
) -> usize {
    let schemas = Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas");
    let interpreter = Interpreter::load(&schemas.join(schema), &[])
        .unwrap_or_else(|e| panic!("the interpreter takes {schema}: {e}"));
    let paths = skelcodec_runtime::corpus::files_under(&corpus.join(folder), suffix);
    for path in &paths {
        let bytes = std::fs::read(path).expect("a corpus file reads");
        let built_in = C::read(&bytes).expect("the built-in format reads the corpus");
        let value = interpreter
            .read(&bytes)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let document = assert_alike(&interpreter, &value, &built_in, (&bytes, path));
        let from_document = interpreter
            .value_of(&document)
            .expect("the document is a value");
        let encoded = interpreter
            .write(&from_document)
            .expect("the document encodes");
        assert!(encoded == bytes, "{}: encoded otherwise", path.display());
    }
    paths.len()
}

/// The interpreter's `value` of `bytes` (the file at `path`) has the built-in format's document
/// and writes back as `bytes`; its document.
fn assert_alike(
    interpreter: &Interpreter,
    value: &skelcodec_dynamic::Value,
    built_in: &impl serde::Serialize,
    (bytes, path): (&[u8], &Path),
) -> serde_json::Value {
    let document = serde_json::to_value(interpreter.document(value)).expect("a document");
    assert_eq!(
        document,
        serde_json::to_value(built_in).expect("a document"),
        "{}: the documents differ",
        path.display()
    );
    let written = interpreter.write(value).expect("the value is written");
    assert!(
        written == bytes,
        "{}: written back otherwise",
        path.display()
    );
    document
}

#[test]
fn the_corpus_reads_with_the_schemas_given_at_run_time_as_with_the_built_in_formats() {
    let Some(corpus) = skelcodec_runtime::corpus::corpus_dir(env!("CARGO_MANIFEST_DIR")) else {
        return;
    };
    use skelcodec_formats::{dbpf, dff, ifp, img, sims2_anim};
    let compared = [
        same_as_built_in::<ifp::Ifp>(&corpus, "ifp.ksy", ("ifp", "")),
        same_as_built_in::<dff::Dff>(&corpus, "dff.ksy", ("rw", "")),
        same_as_built_in::<img::Img>(&corpus, "img.ksy", ("img", "")),
        same_as_built_in::<sims2_anim::Sims2Anim>(&corpus, "sims2_anim.ksy", ("sims2", "an")),
        same_as_built_in::<dbpf::Dbpf>(&corpus, "dbpf.ksy", ("sims2", ".package")),
    ];
    eprintln!("corpus with schemas at run time: {compared:?} files alike");
    assert!(compared.iter().all(|n| *n > 0), "{compared:?}");
}

#[test]
fn swat_animations_searched_and_solved_read_at_run_time_as_with_the_built_in_format() {
    // The skeleton runs to the `ffff` marker after which the rest reads to the end (`-scan`),
    // and the bones per frame no field stores are the count after which the frames do
    // (`-solve`): the same values, the same errors (a broken file's), the same bytes.
    let schemas = Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas");
    let interpreter = Interpreter::load(&schemas.join("gsa.ksy"), &[])
        .unwrap_or_else(|e| panic!("the interpreter takes gsa.ksy: {e}"));
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../generated-tests/fixtures/gsa");
    let paths = skelcodec_runtime::corpus::files_under(&fixtures, ".gsa");
    let (mut read, mut failed) = (0, 0);
    for path in &paths {
        let bytes = std::fs::read(path).expect("a fixture reads");
        let interpreted = interpreter.read(&bytes);
        match (skelcodec_formats::gsa::Gsa::read(&bytes), interpreted) {
            (Ok(built_in), Ok(value)) => {
                assert_alike(&interpreter, &value, &built_in, (&bytes, path));
                read += 1;
            }
            (Err(expected), Err(error)) => {
                assert_eq!(
                    error.to_string(),
                    expected.to_string(),
                    "{}",
                    path.display()
                );
                failed += 1;
            }
            (built_in, interpreted) => panic!(
                "{}: the built-in format {:?}, the interpreter {:?}",
                path.display(),
                built_in.map(drop),
                interpreted.map(drop)
            ),
        }
    }
    assert!(read >= 5 && failed >= 3, "{read} read, {failed} failed");
}
