//! Thin proc-macros over [`skelcodec_codegen`]: they read the schema, hand it to the compiler
//! and turn schema errors into compile errors that name the file and the place in it.

use std::path::PathBuf;

use proc_macro::TokenStream;
use quote::quote;
use syn::parse::{Parse, ParseStream};
use syn::{LitStr, Token, parse_macro_input};

/// Generates a codec from a `.ksy` schema: `skelcodec_macros::codec!("../schemas/ifp.ksy");`
/// The path is relative to the crate's `Cargo.toml`. Call it in a module of its own: it emits
/// the schema's types with their readers and writers. Editing the schema rebuilds the crate.
///
/// Absolute imports (`/common/vlq_base128_le`) are looked up in directories given after the
/// path, relative to `Cargo.toml` too:
/// `codec!("formats/png.ksy", import_paths = ["formats"])`.
///
/// Overlays (`docs/overlays.md`) add skelcodec's keys to a schema used as published, each
/// into the schema or import whose `meta/id` it names:
/// `codec!("gallery/png.ksy", overlays = ["overlays/png.yaml"])`.
#[proc_macro]
pub fn codec(input: TokenStream) -> TokenStream {
    let CodecInput {
        runtime,
        path,
        import_paths,
        overlays,
    } = parse_macro_input!(input as CodecInput);
    let full = manifest_dir().join(path.value());
    let import_paths: Vec<PathBuf> = import_paths
        .iter()
        .map(|dir| manifest_dir().join(dir.value()))
        .collect();
    // Each file with the name the user wrote, which errors give instead of the absolute path.
    let written: Vec<(PathBuf, String)> = std::iter::once(&path)
        .chain(&overlays)
        .map(|file| (manifest_dir().join(file.value()), file.value()))
        .collect();
    let name_as_written = |mut e: skelcodec_codegen::SchemaError| {
        for error in std::iter::once(&mut e.file).chain(e.others.iter_mut().map(|o| &mut o.file)) {
            if let Some((_, name)) = written.iter().find(|(full, _)| full == error) {
                *error = PathBuf::from(name);
            }
        }
        e
    };
    let overlay_files: Result<Vec<_>, _> = written[1..]
        .iter()
        .map(|(full, _)| skelcodec_codegen::Overlay::read(full))
        .collect();
    let loaded = overlay_files.and_then(|overlay_files| {
        skelcodec_codegen::load_schema_overlaid(&full, &import_paths, &overlay_files)
    });
    let schema = match loaded {
        Ok(schema) => schema,
        Err(e) => return compile_error(&path, &name_as_written(e).to_string()),
    };
    let items = skelcodec_codegen::generate_with_runtime(&schema, &runtime);
    let tracked = written[..1]
        .iter()
        .map(|(full, _)| full)
        .chain(&schema.imported)
        .chain(written[1..].iter().map(|(full, _)| full))
        .map(|file| file.to_string_lossy().into_owned());
    let warnings = schema.warnings.iter().map(|warning| {
        // Named as the user wrote it, as errors are.
        let text = warning
            .to_string()
            .replace(&*full.to_string_lossy(), &path.value());
        compile_warning(&path, &text)
    });
    quote! {
        // Makes cargo rebuild when the schema or a schema it imports changes.
        #(const _: &[u8] = include_bytes!(#tracked);)*
        #(#warnings)*
        #items
    }
    .into()
}

/// A warning of the schema as a warning of the build, at the schema's path: stable Rust
/// gives a macro no warnings of its own, so it is a use of a deprecated item whose note is
/// the warning (`#[allow(deprecated)]` on the module silences it).
fn compile_warning(at: &LitStr, message: &str) -> proc_macro2::TokenStream {
    let note = format!("schema warning: {message}");
    quote::quote_spanned! {at.span()=>
        const _: () = {
            #[deprecated(note = #note)]
            struct SchemaWarning;
            let _ = SchemaWarning;
        };
    }
}

/// Generates snapshot tests over sample files:
/// ```ignore
/// skelcodec_macros::snapshot_tests!(ifp: skelcodec_formats::ifp::Ifp,
///     fixtures = "fixtures/ifp/**/*.ifp", corpus = "ifp/**/*.ifp");
/// ```
/// `fixtures` is relative to the crate and snapshotted with insta; `corpus` is relative to a
/// corpus of real files and round-tripped when present. The corpus is skelcodec's shared one
/// (`$SKELCODEC_CORPUS` or `../shared/corpus` beside the workspace) unless `corpus_env =
/// "VAR"` and/or `corpus_dir = "folder"` (relative to the crate) name the crate's own. The
/// corpus is looked for when the test runs; without it the test says so on standard error
/// (not captured) and checks nothing.
#[proc_macro]
pub fn snapshot_tests(input: TokenStream) -> TokenStream {
    use skelcodec_codegen::snapshot_tests::{CorpusRoot, SnapshotTests};
    let input = parse_macro_input!(input as TestsInput);
    let codec = input.codec;
    let corpus_root =
        (input.corpus_dir.is_some() || input.corpus_env.is_some()).then(|| CorpusRoot {
            env: input.corpus_env.map_or_else(
                || skelcodec_codegen::snapshot_tests::DEFAULT_CORPUS_ENV.to_owned(),
                |env| env.value(),
            ),
            dir: input.corpus_dir.map(|dir| dir.value()),
        });
    let spec = SnapshotTests {
        codec: quote!(#codec),
        runtime: input.runtime,
        name: input.name.to_string(),
        fixtures: input.fixtures.map(|l| l.value()),
        corpus: input.corpus.map(|l| l.value()),
        corpus_root,
    };
    skelcodec_codegen::snapshot_tests::snapshot_tests(&spec).into()
}

/// `"schema.ksy"`, then optionally `, import_paths = ["dir", …]` and `, overlays =
/// ["file.yaml", …]`; before the schema, the `skelcodec` facade passes `runtime = PATH, `
/// (see [`runtime_path`]).
struct CodecInput {
    runtime: proc_macro2::TokenStream,
    path: LitStr,
    import_paths: Vec<LitStr>,
    overlays: Vec<LitStr>,
}

impl Parse for CodecInput {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let runtime = runtime_path(input)?;
        let path = input.parse()?;
        let (mut import_paths, mut overlays) = (None, None);
        while input.parse::<Token![,]>().is_ok() && !input.is_empty() {
            let key: syn::Ident = input.parse()?;
            let slot = match key.to_string().as_str() {
                "import_paths" => &mut import_paths,
                "overlays" => &mut overlays,
                _ => {
                    return Err(syn::Error::new(
                        key.span(),
                        "expected `import_paths = [\"dir\", …]` or `overlays = [\"file.yaml\", …]`",
                    ));
                }
            };
            input.parse::<Token![=]>()?;
            let items;
            syn::bracketed!(items in input);
            let list = items
                .parse_terminated(|p| p.parse::<LitStr>(), Token![,])?
                .into_iter()
                .collect();
            if slot.replace(list).is_some() {
                return Err(syn::Error::new(key.span(), format!("`{key}` given twice")));
            }
        }
        Ok(CodecInput {
            runtime,
            path,
            import_paths: import_paths.unwrap_or_default(),
            overlays: overlays.unwrap_or_default(),
        })
    }
}

/// `NAME: CODEC_PATH`, then `fixtures = "glob"` and `corpus = "glob"`; the facade passes
/// `runtime = PATH, ` first.
struct TestsInput {
    runtime: proc_macro2::TokenStream,
    name: syn::Ident,
    codec: syn::Path,
    fixtures: Option<LitStr>,
    corpus: Option<LitStr>,
    corpus_dir: Option<LitStr>,
    corpus_env: Option<LitStr>,
}

impl Parse for TestsInput {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let runtime = runtime_path(input)?;
        let name = input.parse()?;
        input.parse::<Token![:]>()?;
        let codec = input.parse()?;
        let mut spec = Self {
            runtime,
            name,
            codec,
            fixtures: None,
            corpus: None,
            corpus_dir: None,
            corpus_env: None,
        };
        while input.parse::<Token![,]>().is_ok() && !input.is_empty() {
            let key: syn::Ident = input.parse()?;
            input.parse::<Token![=]>()?;
            let value: LitStr = input.parse()?;
            let slot = match key.to_string().as_str() {
                "fixtures" => &mut spec.fixtures,
                "corpus" => &mut spec.corpus,
                "corpus_dir" => &mut spec.corpus_dir,
                "corpus_env" => &mut spec.corpus_env,
                _ => {
                    return Err(syn::Error::new(
                        key.span(),
                        "expected `fixtures`, `corpus`, `corpus_dir` or `corpus_env`",
                    ));
                }
            };
            if slot.replace(value).is_some() {
                return Err(syn::Error::new(key.span(), format!("`{key}` given twice")));
            }
        }
        Ok(spec)
    }
}

/// The runtime path given as `runtime = PATH,` at the start of a macro's input, which the
/// `skelcodec` facade's wrappers pass (`$crate::__private::runtime`) so that generated code
/// compiles in a crate that depends on the facade alone; `::skelcodec_runtime` otherwise.
fn runtime_path(input: ParseStream) -> syn::Result<proc_macro2::TokenStream> {
    let fork = input.fork();
    let is_runtime =
        fork.parse::<syn::Ident>().is_ok_and(|key| key == "runtime") && fork.peek(Token![=]);
    if !is_runtime {
        return Ok(skelcodec_codegen::default_runtime_path());
    }
    input.parse::<syn::Ident>()?;
    input.parse::<Token![=]>()?;
    let path: syn::Path = input.parse()?;
    input.parse::<Token![,]>()?;
    Ok(quote!(#path))
}

fn manifest_dir() -> PathBuf {
    PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default())
}

fn compile_error(at: &LitStr, message: &str) -> TokenStream {
    syn::Error::new(at.span(), message)
        .to_compile_error()
        .into()
}
