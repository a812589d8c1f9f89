//! The suite on the interpreter (`skelcodec-dynamic`) beside the generated code: for each
//! spec both read, the same document, or the same error (kind, offset, field path); and for
//! each value read, the same bytes written back (or both writers refusing it), and again from
//! its document.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use skelcodec_dynamic::{Computed, Interpreter, LoadError, ProcessArg};
use skelcodec_runtime::process::Process;

use crate::{Run, SPECS, Spec, Status};

/// How the interpreter's read of one spec compares with the generated code's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Agreement {
    /// The same document and the same bytes written back, or the same error.
    Same,
    /// Another document or error: where they part.
    Differs(String),
    /// The interpreter does not read the schema yet: why.
    NotInterpreted(String),
    /// The generated code was not compiled or could not run.
    NoReference,
}

/// The agreement of every spec, in the suite's order.
pub fn compare_all(suite: &Path) -> Vec<(&'static Spec, Agreement)> {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let all = SPECS
        .iter()
        .map(|spec| (spec, compare(spec, suite)))
        .collect();
    std::panic::set_hook(hook);
    all
}

/// The interpreter's read of one spec against the generated code's.
pub fn compare(spec: &'static Spec, suite: &Path) -> Agreement {
    let Status::Compiled(run) = spec.status else {
        return Agreement::NoReference;
    };
    let Ok(data) = std::fs::read(suite.join("src").join(spec.data)) else {
        return Agreement::NoReference;
    };
    let Ok(reference) = std::panic::catch_unwind(|| run(&data)) else {
        return Agreement::NoReference;
    };
    let schema = suite.join("formats").join(format!("{}.ksy", spec.id));
    let imports = [suite.join("formats/ks_path"), PathBuf::from(crate::GALLERY)];
    let loaded = Interpreter::load(&schema, &imports)
        .map(with_suite_processors)
        .and_then(Interpreter::require_processors);
    let interpreter = match loaded {
        Ok(interpreter) => interpreter,
        Err(LoadError::Unsupported(uses)) => {
            return Agreement::NotInterpreted(uses.join("; "));
        }
        Err(e) => return Agreement::Differs(format!("the interpreter refuses the schema: {e}")),
    };
    let Ok(read) = std::panic::catch_unwind(|| {
        interpreter.read(&data).map(|value| {
            let document = (serde_json::to_value(interpreter.document(&value)))
                .map_err(|e| e.to_string())
                .and_then(|document| {
                    asserts_hold(&interpreter, &value, &data, spec, &reference).map(|()| document)
                });
            let written = interpreter.write(&value);
            let encoded = document.as_ref().map(|d| interpreter.value_of(d));
            let encoded = match encoded {
                Ok(Ok(from_document)) => match (interpreter.write(&from_document), &written) {
                    (Ok(a), Ok(b)) if a != *b => Err(format!(
                        "encoded from its document, the bytes differ at byte {}",
                        skelcodec_runtime::first_difference(&a, b).unwrap_or(0)
                    )),
                    (Err(e), Ok(_)) => Err(format!("encoding its document fails: {e}")),
                    _ => Ok(()),
                },
                Ok(Err(e)) => Err(format!("its document is refused: {e}")),
                Err(_) => Ok(()),
            };
            (document, written, encoded)
        })
    }) else {
        return Agreement::Differs("the interpreter panicked".into());
    };
    let (read, written, encoded) = match read {
        Ok((document, written, encoded)) => (Ok(document), Some(written), encoded),
        Err(e) => (Err(e), None, Ok(())),
    };
    match agreement(&reference, read) {
        Agreement::Same => match (written_alike(reference.written.as_ref(), written), encoded) {
            (Agreement::Same, Err(why)) => Agreement::Differs(why),
            (other, _) => other,
        },
        other => other,
    }
}

/// Every assert the generated code passes holds on the interpreter's value too: the suite's
/// expressions (its `expr_*` specs, instances of every kind) computed by both back ends.
fn asserts_hold(
    interpreter: &Interpreter,
    value: &skelcodec_dynamic::Value,
    data: &[u8],
    spec: &Spec,
    reference: &Run,
) -> Result<(), String> {
    for (actual, expected) in spec.asserts {
        let label = format!("{actual} == {expected}");
        let passed = (reference.asserts.iter()).any(|a| a.label == label && a.failure.is_none());
        if passed {
            assert_holds(interpreter, value, data, actual, expected)
                .map_err(|why| format!("assert `{label}` on the interpreter: {why}"))?;
        }
    }
    Ok(())
}

/// Whether `actual == expected` holds on `value` as the generated code's asserts compare
/// (see `build.rs`): an absent value for `null`, floats within a relative 1e-6, an enum value
/// by its integer when the expected value is one.
fn assert_holds(
    interpreter: &Interpreter,
    value: &skelcodec_dynamic::Value,
    data: &[u8],
    actual: &str,
    expected: &str,
) -> Result<(), String> {
    let evaluate = |source: &str| interpreter.evaluate(value, data, source);
    let found = evaluate(actual)?;
    let holds = match (&found, expected) {
        (found, "null") => *found == Computed::Absent,
        (Computed::Float(x), expected) => match evaluate(expected)? {
            Computed::Float(y) => (x - y).abs() <= 1e-6 * (1.0 + y.abs()),
            Computed::Int(y) => (x - y as f64).abs() <= 1e-6 * (1.0 + (y as f64).abs()),
            other => return Err(format!("{actual} is {x}, the spec expects {other:?}")),
        },
        (Computed::Enum { value: n, .. }, expected)
            if expected.parse::<i64>().is_ok() || expected.starts_with("0x") =>
        {
            evaluate(expected)? == Computed::Int(*n)
        }
        _ => evaluate(&format!("({actual}) == ({expected})"))? == Computed::Bool(true),
    };
    match holds {
        true => Ok(()),
        false => Err(format!("found {found:?}")),
    }
}

/// `interpreter` with the suite's custom processors ([`crate::processors`], the generated
/// code's), by the names its schemas give them, built from the arguments their `new` takes.
fn with_suite_processors(interpreter: Interpreter) -> Interpreter {
    use crate::processors::{CustomFxNoArgs, MyCustomFx, nested::deeply::CustomFx};
    interpreter
        .with_processor("my_custom_fx", |args: &[ProcessArg]| match args {
            [
                ProcessArg::Int(key),
                ProcessArg::Bool(flag),
                ProcessArg::Bytes(bytes),
            ] => boxed(MyCustomFx::new(*key, *flag, bytes)),
            other => refused("(key, flag, bytes)", other),
        })
        .with_processor("custom_fx_no_args", |args: &[ProcessArg]| match args {
            [] => boxed(CustomFxNoArgs::new()),
            other => refused("no arguments", other),
        })
        .with_processor(
            "nested.deeply.custom_fx",
            |args: &[ProcessArg]| match args {
                [ProcessArg::Int(key)] => boxed(CustomFx::new(*key)),
                other => refused("(key)", other),
            },
        )
}

/// A processor built, for [`Interpreter::with_processor`].
fn boxed(processor: impl Process + 'static) -> Result<Box<dyn Process>, String> {
    Ok(Box::new(processor))
}

/// Why a processor taking `expected` cannot be built from `args`.
fn refused(expected: &str, args: &[ProcessArg]) -> Result<Box<dyn Process>, String> {
    Err(format!("takes {expected}, not {args:?}"))
}

/// Whether both writers wrote the value read back alike: the same bytes, or both refusing.
fn written_alike(
    reference: Option<&Result<Vec<u8>, String>>,
    written: Option<skelcodec_runtime::Result<Vec<u8>>>,
) -> Agreement {
    match (reference, written) {
        (Some(Ok(expected)), Some(Ok(bytes))) if *expected != bytes => Agreement::Differs(format!(
            "written back, the bytes differ at byte {}",
            skelcodec_runtime::first_difference(expected, &bytes).unwrap_or(0)
        )),
        (Some(Err(_)), Some(Err(_))) | (Some(Ok(_)), Some(Ok(_))) | (None, None) => Agreement::Same,
        (Some(Ok(_)), Some(Err(e))) => {
            Agreement::Differs(format!("only the interpreter refuses to write: {e}"))
        }
        (Some(Err(e)), Some(Ok(_))) => {
            Agreement::Differs(format!("only the generated code refuses to write: {e}"))
        }
        (reference, written) => Agreement::Differs(format!(
            "one side wrote nothing: generated {:?}, interpreter {:?}",
            reference.map(|r| r.is_ok()),
            written.map(|w| w.is_ok())
        )),
    }
}

fn agreement(
    reference: &Run,
    read: Result<Result<serde_json::Value, String>, skelcodec_runtime::Error>,
) -> Agreement {
    match (&reference.read, read) {
        (Ok(()), Ok(Ok(document))) => match &reference.document {
            Some(expected) if *expected == document => Agreement::Same,
            Some(expected) => Agreement::Differs(first_difference(expected, &document, "")),
            None => Agreement::NoReference,
        },
        (Ok(()), Ok(Err(e))) => Agreement::Differs(format!("no document: {e}")),
        (Err(expected), Err(e)) if expected.message == e.to_string() => Agreement::Same,
        (Err(expected), Err(e)) => Agreement::Differs(format!(
            "generated code: {}; interpreter: {e}",
            expected.message
        )),
        (Ok(()), Err(e)) => Agreement::Differs(format!("only the interpreter fails: {e}")),
        (Err(expected), Ok(_)) => Agreement::Differs(format!(
            "only the generated code fails: {}",
            expected.message
        )),
    }
}

/// Where two documents first differ, as a path, with both values there.
fn first_difference(a: &serde_json::Value, b: &serde_json::Value, path: &str) -> String {
    use serde_json::Value::{Array, Object};
    match (a, b) {
        (Object(x), Object(y)) => {
            let keys_x: Vec<_> = x.keys().collect();
            let keys_y: Vec<_> = y.keys().collect();
            if keys_x != keys_y {
                return format!("{path}: keys {keys_x:?} and {keys_y:?}");
            }
            x.iter()
                .find(|(k, v)| y.get(*k) != Some(v))
                .map(|(k, v)| first_difference(v, &y[k], &format!("{path}.{k}")))
                .unwrap_or_default()
        }
        (Array(x), Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find(|(_, (v, w))| v != w)
            .map(|(i, (v, w))| first_difference(v, w, &format!("{path}[{i}]")))
            .unwrap_or_default(),
        _ => format!("{path}: generated {a}, interpreter {b}"),
    }
}

/// One line per spec that differs, then the summary line.
pub fn report(all: &[(&'static Spec, Agreement)]) -> String {
    let mut out = String::new();
    let (mut same, mut interpreted, mut compiled) = (0, 0, 0);
    let mut missing: std::collections::BTreeMap<&str, usize> = Default::default();
    for (spec, agreement) in all {
        compiled += usize::from(*agreement != Agreement::NoReference);
        match agreement {
            Agreement::Same => {
                same += 1;
                interpreted += 1;
            }
            Agreement::Differs(why) => {
                interpreted += 1;
                let _ = writeln!(out, "{:<40} differs: {why}", spec.id);
            }
            Agreement::NotInterpreted(uses) => {
                // What of the schema the interpreter does not read, without where.
                let mut kinds: Vec<&str> = uses
                    .split("; ")
                    .map(|u| u.split_once(": ").map_or(u, |(_, what)| what))
                    .collect();
                kinds.dedup();
                for kind in kinds {
                    *missing.entry(kind).or_insert(0usize) += 1;
                }
            }
            Agreement::NoReference => {}
        }
    }
    let mut missing: Vec<(&str, usize)> = missing.into_iter().collect();
    missing.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    for (kind, specs) in &missing {
        let _ = writeln!(out, "not interpreted yet, {specs:>3} specs: {kind}");
    }
    let _ = write!(
        out,
        "interpreter: {interpreted}/{compiled} compiled specs interpreted, {same}/{interpreted} with the generated code's document or error and bytes written back"
    );
    out
}
