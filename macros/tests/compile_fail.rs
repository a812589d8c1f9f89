//! The macro's errors: a schema mistake is a compile error at the macro call that names the
//! schema file, line and column and says what is wrong. The expected texts (`ui/*.stderr`)
//! are reviewed, not regenerated blindly.
//!
//! trybuild builds each case in `target/tests/trybuild/skelcodec-macros/`, so the cases name
//! their schemas from there; the default target directory is assumed.

#[test]
#[ignore = "builds its own copy of the crates (a minute or two on 2 cores): .ci/run runs it; \
            `cargo test -p skelcodec-macros -- --ignored` here"]
fn schema_mistakes_are_located_compile_errors() {
    trybuild::TestCases::new().compile_fail("tests/ui/*.rs");
}
