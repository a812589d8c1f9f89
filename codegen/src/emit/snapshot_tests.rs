//! Snapshot tests over folders of sample files: every file matching a glob is decoded, its
//! summary compared with a reviewed insta snapshot, and its re-encoding compared byte for byte.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
pub use skelcodec_runtime::corpus::CORPUS_ENV as DEFAULT_CORPUS_ENV;

/// What to test: a codec type and where its samples are.
pub struct SnapshotTests {
    /// Path of the codec's root type (`skelcodec_formats::ifp::Ifp`).
    pub codec: TokenStream,
    /// Path of the runtime (`::skelcodec_runtime`, or the facade's re-export).
    pub runtime: TokenStream,
    /// Name for the generated test module.
    pub name: String,
    /// Project fixtures, relative to the crate: `fixtures/ifp/**/*.ifp`. Snapshotted.
    pub fixtures: Option<String>,
    /// Real files, relative to the corpus root: `ifp/**/*.ifp`. Round-tripped, not snapshotted:
    /// the corpus lives outside the project and gains files, which must not need new snapshots.
    pub corpus: Option<String>,
    /// Where the corpus root is: `None` for skelcodec's shared corpus.
    pub corpus_root: Option<CorpusRoot>,
}

/// A crate's own corpus root: the directory an environment variable names, else a folder
/// relative to the crate.
pub struct CorpusRoot {
    /// The environment variable (`WAV_SAMPLES`).
    pub env: String,
    /// The folder used when the variable is unset, relative to the crate.
    pub dir: Option<String>,
}

impl SnapshotTests {
    /// Where the corpus is looked for, as the test computes it when it runs.
    fn corpus_location_expr(&self) -> TokenStream {
        let runtime = &self.runtime;
        match &self.corpus_root {
            None => {
                quote!(#runtime::testing::CorpusLocation::shared(::core::env!("CARGO_MANIFEST_DIR")))
            }
            Some(CorpusRoot { env, dir }) => {
                let dir = match dir {
                    Some(dir) => quote!(::core::option::Option::Some(#dir)),
                    None => quote!(::core::option::Option::None),
                };
                quote!(#runtime::testing::CorpusLocation::of_crate(::core::env!("CARGO_MANIFEST_DIR"), #env, #dir))
            }
        }
    }
}

/// Splits a glob into its literal base folder and the pattern below it.
pub fn split_glob(glob: &str) -> (String, String) {
    let parts: Vec<&str> = glob.split('/').collect();
    let literal = parts
        .iter()
        .take_while(|p| !p.contains(['*', '?', '[', '{']))
        .count()
        .min(parts.len().saturating_sub(1));
    (parts[..literal].join("/"), parts[literal..].join("/"))
}

/// The test module.
pub fn snapshot_tests(spec: &SnapshotTests) -> TokenStream {
    let codec = &spec.codec;
    let runtime = &spec.runtime;
    let module = format_ident!("{}", spec.name);
    let fixtures = spec.fixtures.as_deref().map(|glob| {
        let (base, pattern) = split_glob(glob);
        let base = format!("/{base}");
        quote! {
            /// Every fixture decodes, matches its reviewed snapshot and re-encodes byte for byte.
            #[test]
            fn fixtures_match_snapshots_and_round_trip() {
                ::insta::glob!(::core::concat!(::core::env!("CARGO_MANIFEST_DIR"), #base), #pattern, |path| {
                    match #runtime::testing::check_sample::<#codec>(path) {
                        ::core::result::Result::Ok(summary) => ::insta::assert_snapshot!(summary),
                        ::core::result::Result::Err(message) => ::core::panic!("{message}"),
                    }
                });
            }
        }
    });
    let corpus = spec.corpus.as_deref().map(|glob| {
        let (base, pattern) = split_glob(glob);
        let location = spec.corpus_location_expr();
        quote! {
            /// Every real file of the corpus decodes and re-encodes byte for byte.
            /// Where the corpus is, is found when the test runs: one added after the build counts.
            #[test]
            fn corpus_round_trips() {
                let ::core::option::Option::Some(corpus) = #location.dir_or_announce() else {
                    return;
                };
                let base = corpus.join(#base);
                if !base.is_dir() {
                    #runtime::testing::announce_skip(&::std::format!(
                        "the corpus test {} is skipped: {} does not exist",
                        ::core::module_path!(),
                        base.display()
                    ));
                    return;
                }
                let mut files = 0;
                ::insta::glob!(base, #pattern, |path| {
                    files += 1;
                    if let ::core::result::Result::Err(message) = #runtime::testing::check_round_trip::<#codec>(path) {
                        ::core::panic!("{message}");
                    }
                });
                ::core::assert!(files > 0, "no corpus file matched {}", #pattern);
            }
        }
    });
    quote! {
        mod #module {
            #fixtures
            #corpus
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_split_at_the_first_wildcard() {
        assert_eq!(
            split_glob("fixtures/ifp/**/*.ifp"),
            ("fixtures/ifp".into(), "**/*.ifp".into())
        );
        assert_eq!(split_glob("*.ifp"), (String::new(), "*.ifp".into()));
        assert_eq!(split_glob("ifp/a.ifp"), ("ifp".into(), "a.ifp".into()));
    }
}
