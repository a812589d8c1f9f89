//! Compiles Kaitai Struct's conformance suite into this crate: for every spec (`.kst`), its
//! schema goes through the skelcodec compiler; an accepted schema becomes a module with the
//! generated codec and a `run` function that reads the spec's data, evaluates its asserts
//! (compiled by the same expression compiler, in the root type's scope) and writes the value
//! back. A rejected schema is recorded with the compiler's located message.
//!
//! The suite is found at `$KAITAI_TESTS`, or `../shared/kaitai-tests` beside the workspace;
//! without it the crate has no specs.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use proc_macro2::TokenStream;
use quote::quote;
use skelcodec_codegen::expr::{self, BinOp, Expr};
use skelcodec_codegen::typeck::expr::{Mode, Scope, Ty};
use skelcodec_codegen::{CheckedSchema, Schema, generate, load_schema_with};

/// A `.kst` spec as written.
#[derive(serde::Deserialize)]
struct Kst {
    id: String,
    data: String,
    #[serde(default)]
    asserts: Vec<KstAssert>,
    /// The exception's name, or a map with its `type` and `message`.
    #[serde(default)]
    exception: Option<serde_yaml::Value>,
}

impl Kst {
    /// The Kaitai exception the read must raise (`EndOfStreamError`).
    fn exception(&self) -> Option<String> {
        match self.exception.as_ref()? {
            serde_yaml::Value::Mapping(map) => map.get("type")?.as_str().map(str::to_owned),
            other => other.as_str().map(str::to_owned),
        }
    }
}

impl Kst {
    /// Each assert that compares a value, as `(actual, expected)` expression sources.
    fn compared(&self) -> Vec<(String, String)> {
        let text = |v: &serde_yaml::Value| skelcodec_codegen::ksy::expr_text(v).unwrap_or_default();
        (self.asserts.iter())
            .filter_map(|a| Some((text(&a.actual), text(a.expected.as_ref()?))))
            .collect()
    }
}

/// One assert: a Kaitai expression over the root value and the value it must have, or the
/// exception evaluating it raises.
#[derive(serde::Deserialize)]
struct KstAssert {
    actual: serde_yaml::Value,
    #[serde(default)]
    expected: Option<serde_yaml::Value>,
    #[serde(default)]
    exception: Option<String>,
}

fn main() {
    println!("cargo:rerun-if-env-changed=KAITAI_TESTS");
    println!("cargo:rerun-if-env-changed=KAITAI_FORMATS");
    println!("cargo:rerun-if-changed=uncompilable.txt");
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default());
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap_or_default());
    let suite = std::env::var_os("KAITAI_TESTS")
        .map(PathBuf::from)
        .unwrap_or_else(|| manifest.join("../../shared/kaitai-tests"));
    let uncompilable = known_uncompilable(&manifest.join("uncompilable.txt"));
    // Absolute imports of the suite (`/for_abs_imports/…`) live here, as in Kaitai's own runs,
    // which also put the formats gallery on the import path (`imports_abs` imports
    // `/common/vlq_base128_le` from it).
    let gallery = std::env::var_os("KAITAI_FORMATS")
        .map(PathBuf::from)
        .unwrap_or_else(|| manifest.join("../../shared/kaitai-formats"));
    let import_paths = [suite.join("formats/ks_path"), gallery];
    // Generator panics are caught and reported per spec; their messages would only be noise.
    std::panic::set_hook(Box::new(|_| {}));
    let mut specs = String::new();
    let mut modules = String::new();
    let mut with_spec = Vec::new();
    for path in files_with_extension(&suite.join("spec/ks"), "kst") {
        println!("cargo:rerun-if-changed={}", path.display());
        let Some(kst) = std::fs::read_to_string(&path)
            .ok()
            .and_then(|text| serde_yaml::from_str::<Kst>(&text).ok())
        else {
            continue;
        };
        with_spec.push(kst.id.clone());
        let schema_path = suite.join("formats").join(format!("{}.ksy", kst.id));
        println!("cargo:rerun-if-changed={}", schema_path.display());
        let status = match load_schema_with(&schema_path, &import_paths) {
            Err(e) => format!("Status::Rejected({:?})", e.to_string()),
            Ok(_) if uncompilable.contains_key(&kst.id) => format!(
                "Status::Rejected({:?})",
                format!("generated code does not compile: {}", uncompilable[&kst.id])
            ),
            // A root whose parameters all have defaults (a recursive root's `_parent` values)
            // reads a file alone.
            Ok(schema) if schema.types[0].params.iter().any(|p| p.default.is_none()) => {
                "Status::Rejected(\"the root type has parameters\")".to_owned()
            }
            Ok(schema) => {
                for imported in &schema.imported {
                    println!("cargo:rerun-if-changed={}", imported.display());
                }
                let module = format!("spec_{}", kst.id);
                // A generator bug must not stop the suite: it is reported as this spec's error.
                match std::panic::catch_unwind(|| spec_module(&schema, &kst)) {
                    Ok(code) => {
                        add_module(&mut modules, &out, &module, &code);
                        format!("Status::Compiled({module}::run)")
                    }
                    Err(_) => {
                        "Status::Rejected(\"the generator panicked on this schema\")".to_owned()
                    }
                }
            }
        };
        let _ = writeln!(
            specs,
            "Spec {{ id: {:?}, data: {:?}, exception: {:?}, asserts: &{:?}, status: {status} }},",
            kst.id,
            kst.data,
            kst.exception(),
            kst.compared()
        );
    }
    // Schemas no spec reads must compile all the same, when the checker accepts them.
    for path in files_with_extension(&suite.join("formats"), "ksy") {
        let id = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        if with_spec.contains(&id) {
            continue;
        }
        if let Ok(schema) = load_schema_with(&path, &import_paths)
            && let Ok(code) = std::panic::catch_unwind(|| generate(&schema))
        {
            add_module(&mut modules, &out, &format!("schema_{id}"), &code);
        }
    }
    // Schemas of `formats_err/`: what Kaitai's compiler says of each (its header comment), and
    // what the checker says.
    let formats_err: String = files_with_extension(&suite.join("formats_err"), "ksy")
        .iter()
        .map(|path| {
            let id = path.file_stem().unwrap_or_default().to_string_lossy();
            let kaitai = kaitai_verdict(&std::fs::read_to_string(path).unwrap_or_default());
            let ours = match load_schema_with(path, &import_paths) {
                Err(_) => "Verdict::Error",
                Ok(schema) if !schema.warnings.is_empty() => "Verdict::Warning",
                Ok(_) => "Verdict::Accepted",
            };
            format!("FormatsErr {{ id: {id:?}, kaitai: {kaitai}, ours: {ours} }},\n")
        })
        .collect();
    let suite_text = suite.display().to_string();
    let gallery_text = import_paths[1].display().to_string();
    let source = format!(
        "/// Where the suite was found when this crate was built.\npub const SUITE: &str = {suite_text:?};\n/// Where the formats gallery (imported by some specs) was found when this crate was built.\npub const GALLERY: &str = {gallery_text:?};\n{modules}\n/// Every spec of the suite.\npub static SPECS: &[Spec] = &[\n{specs}];\n/// The schemas of `formats_err/`: what Kaitai and the checker say of each.\npub static FORMATS_ERR: &[FormatsErr] = &[\n{formats_err}];\n"
    );
    std::fs::write(out.join("specs.rs"), source).expect("OUT_DIR is writable");
}

/// What Kaitai's compiler says of a schema of `formats_err/`, from the messages its header
/// comment quotes: an error, only warnings, or nothing (a schema the others import); `# ?`
/// (an error whose message was not recorded) is an error.
fn kaitai_verdict(source: &str) -> &'static str {
    let header: Vec<&str> = source.lines().take_while(|l| l.starts_with('#')).collect();
    if header
        .iter()
        .any(|l| l.contains("error:") || l.trim() == "# ?")
    {
        "Verdict::Error"
    } else if header.iter().any(|l| l.contains("warning:")) {
        "Verdict::Warning"
    } else {
        "Verdict::Accepted"
    }
}

/// Writes generated code to `OUT_DIR/<name>.rs` and declares it as module `name`.
fn add_module(modules: &mut String, out: &Path, name: &str, code: &TokenStream) {
    let file = out.join(format!("{name}.rs"));
    std::fs::write(&file, code.to_string()).expect("OUT_DIR is writable");
    let _ = writeln!(
        modules,
        "#[allow(warnings, clippy::all, missing_docs)] pub mod {name} {{ #[allow(unused_imports)] use crate::processors::*; include!({:?}); }}",
        file.display().to_string()
    );
}

/// The files with `extension` directly in `dir`, sorted.
fn files_with_extension(dir: &Path, extension: &str) -> Vec<PathBuf> {
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == extension))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

/// Specs whose schema the compiler accepts but whose generated code does not compile yet:
/// `id  reason` per line. Each is a generator bug; the list only shrinks.
fn known_uncompilable(path: &Path) -> BTreeMap<String, String> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| match l.split_once(char::is_whitespace) {
            Some((id, why)) => (id.to_owned(), why.trim().to_owned()),
            None => (l.to_owned(), "(no reason given)".to_owned()),
        })
        .collect()
}

/// The generated codec, and `run`: read, evaluate the asserts, write back.
fn spec_module(schema: &CheckedSchema, kst: &Kst) -> TokenStream {
    let codec = generate(schema);
    let root = skelcodec_codegen::sanitization::type_ident(&schema.types[0].id);
    let asserts = kst.asserts.iter().map(|a| compile_assert(schema, a));
    quote! {
        #codec

        impl #root {
            fn conformance_asserts(&self) -> ::std::vec::Vec<crate::AssertOutcome> {
                ::std::vec![#(#asserts),*]
            }
        }

        /// Reads the spec's data, evaluates its asserts and writes the value back.
        pub fn run(data: &[u8]) -> crate::Run {
            match #root::read(data) {
                ::core::result::Result::Err(e) => crate::Run::failed(&e),
                ::core::result::Result::Ok(value) => crate::Run {
                    read: ::core::result::Result::Ok(()),
                    asserts: value.conformance_asserts(),
                    document: ::serde_json::to_value(&value).ok(),
                    written: ::core::option::Option::Some(
                        value
                            .to_bytes()
                            .map_err(|e| e.to_string())
                            .and_then(|bytes| crate::through_document(&value, bytes)),
                    ),
                },
            }
        }
    }
}

/// One assert as an `AssertOutcome` expression; one the compiler cannot express is a failed
/// assert that says why.
fn compile_assert(schema: &Schema, assert: &KstAssert) -> TokenStream {
    let text = |v: &serde_yaml::Value| skelcodec_codegen::ksy::expr_text(v).unwrap_or_default();
    let actual_src = text(&assert.actual);
    // Asserts are over the file's root value; one returns the failure of an expression that
    // can fail (`to_i`), as its outcome.
    let scope = Scope::new(schema, 0, Mode::Inspect, schema.types[0].fields.len());
    let scope = scope.at_file_root().reporting_failure();
    let Some(expected) = &assert.expected else {
        let exception = assert.exception.as_deref().unwrap_or("?");
        return compile_raises(&scope, &actual_src, exception);
    };
    let expected_src = text(expected);
    let label = format!("{actual_src} == {expected_src}");
    let parsed = expr::parse(&actual_src)
        .and_then(|actual| Ok((actual, expr::parse(&expected_src)?)))
        .map_err(|e| format!("does not parse: {e}"));
    let compiled = parsed.and_then(|(actual, expected)| {
        // `null` (a KST value, not an expression): the value is absent. A look-ahead that
        // needs the stream is absent by its condition alone.
        if expected == Expr::Name("null".into()) {
            return match scope.absent(&actual).map_err(|e| e.message())? {
                Some(absent) => Ok(quote! {
                    if #absent {
                        crate::AssertOutcome::pass(#label)
                    } else {
                        crate::AssertOutcome::fail(#label, ::std::string::String::from("(present)"))
                    }
                }),
                None => Err("expected an absent value, found one that is always present".into()),
            };
        }
        let (value, ty) = scope.compile(&actual).map_err(|e| e.message())?;
        let holds = if ty == Ty::Float {
            let expected = scope.compile(&expected).map_err(|e| e.message())?.0;
            quote!(((#value) as f64 - (#expected) as f64).abs() <= 1e-6 * (1.0 + ((#expected) as f64).abs()))
        } else {
            // Kaitai's test translator compares an enum value with a number by its `to_i`.
            let actual = match (&ty, &expected) {
                (Ty::Enum(_), Expr::Int(_)) => Expr::Attr(Box::new(actual), "to_i".into()),
                _ => actual,
            };
            let equal = Expr::Binary(BinOp::Eq, Box::new(actual), Box::new(expected));
            scope.bool(&equal).map_err(|e| e.message())?
        };
        let shown = match ty {
            Ty::Int | Ty::Float | Ty::Bool | Ty::Enum(_) | Ty::Str => {
                quote!(::std::format!("{:?}", #value))
            }
            _ => quote!(::std::string::String::from("(a value)")),
        };
        let outcome = quote! {
            if #holds {
                crate::AssertOutcome::pass(#label)
            } else {
                crate::AssertOutcome::fail(#label, #shown)
            }
        };
        if !scope.can_fail() {
            return Ok(outcome);
        }
        Ok(quote! {
            (|| -> ::core::result::Result<_, ::skelcodec_runtime::bytes::NotANumber> {
                ::core::result::Result::Ok(#outcome)
            })()
            .unwrap_or_else(|e| crate::AssertOutcome::fail(#label, e.to_string()))
        })
    });
    compiled.unwrap_or_else(|why: String| {
        let why = format!("not compiled: {why}");
        quote!(crate::AssertOutcome::fail(#label, ::std::string::String::from(#why)))
    })
}

/// An assert that evaluating `actual` raises `exception`. Kaitai's `ConversionError` (`to_i`
/// of text that is no number) is the one failure an expression reports (`NotANumber`); an
/// assert expecting another exception is a failed assert that says so.
fn compile_raises(scope: &Scope, actual_src: &str, exception: &str) -> TokenStream {
    let label = format!("{actual_src} raises {exception}");
    let compiled = match exception {
        "ConversionError" => expr::parse(actual_src)
            .map_err(|e| format!("does not parse: {e}"))
            .and_then(|actual| scope.compile(&actual).map_err(|e| e.message())),
        other => Err(format!("asserts on `{other}` are not supported yet")),
    };
    match compiled {
        Ok((value, _)) if scope.can_fail() => quote! {
            match (|| -> ::core::result::Result<_, ::skelcodec_runtime::bytes::NotANumber> {
                ::core::result::Result::Ok(#value)
            })() {
                ::core::result::Result::Err(_) => crate::AssertOutcome::pass(#label),
                ::core::result::Result::Ok(_) => crate::AssertOutcome::fail(#label, ::std::string::String::from("(no exception)")),
            }
        },
        Ok(_) => {
            quote!(crate::AssertOutcome::fail(#label, ::std::string::String::from("(an expression that cannot fail)")))
        }
        Err(why) => {
            let why = format!("not compiled: {why}");
            quote!(crate::AssertOutcome::fail(#label, ::std::string::String::from(#why)))
        }
    }
}
