//! What the compiler makes of one mutant: a located rejection, an accepted schema with its
//! generated source, or a failure (a panic, an unlocated rejection, code that does not parse,
//! an interpreter that panics on the accepted schema).

use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use skelcodec_codegen::model::Process;
use skelcodec_codegen::sanitization::{module_ident, type_ident};
use skelcodec_codegen::{Schema, generate_source, parse_schema_with};

/// The compiler's answer to one mutant.
#[derive(Debug)]
pub enum Verdict {
    /// Rejected with file, line and column.
    Rejected(String),
    /// Accepted; the generated code, formatted.
    Accepted(String),
    /// What must never happen, said in words.
    Failed(String),
}

/// Runs the checker and the generator on `text`, as if it were the file `file` (relative
/// imports are found beside it).
pub fn judge(text: &str, file: &Path, import_paths: &[PathBuf]) -> Verdict {
    let checked = catch_unwind(AssertUnwindSafe(|| {
        parse_schema_with(text, file, import_paths)
    }));
    let schema = match checked {
        Err(panic) => return Verdict::Failed(format!("the checker panicked: {}", said(&*panic))),
        Ok(Err(e)) if e.line_col.is_none() => {
            return Verdict::Failed(format!("rejected without a line and column: {e}"));
        }
        Ok(Err(e)) => return Verdict::Rejected(e.to_string()),
        Ok(Ok(schema)) => schema,
    };
    let source = match catch_unwind(AssertUnwindSafe(|| generate_source(&schema))) {
        Err(panic) => {
            return Verdict::Failed(format!("the generator panicked: {}", said(&*panic)));
        }
        Ok(Err(e)) => return Verdict::Failed(format!("the generated code does not parse: {e}")),
        Ok(Ok(source)) => source + &processor_stubs(&schema),
    };
    match catch_unwind(AssertUnwindSafe(|| interpret(schema))) {
        Err(panic) => Verdict::Failed(format!("the interpreter panicked: {}", said(&*panic))),
        Ok(()) => Verdict::Accepted(source),
    }
}

/// The interpreter on an accepted mutant, when it takes it, reading a few made-up files,
/// mapping them, writing what it read back and encoding its document: it may refuse the
/// schema, fail to read or refuse to write, never panic.
fn interpret(schema: skelcodec_codegen::CheckedSchema) {
    let Ok(interpreter) = skelcodec_dynamic::Interpreter::new(schema) else {
        return;
    };
    let counting: Vec<u8> = (0..=255).collect();
    for file in [&[][..], &[0; 64][..], &[0xff; 64][..], &counting[..]] {
        let _ = interpreter.explain(file);
        let Ok(value) = interpreter.read(file) else {
            continue;
        };
        let _ = interpreter.write(&value);
        if let Ok(document) = serde_json::to_value(interpreter.document(&value))
            && let Ok(from_document) = interpreter.value_of(&document)
        {
            let _ = interpreter.write(&from_document);
        }
    }
}

/// The processors a schema names (`process: a.b.my_fx(x, y)`) are the user's code: each gets a
/// stub that takes any arguments and leaves the bytes as they are, so that the check is of the
/// generated code alone.
fn processor_stubs(schema: &Schema) -> String {
    let mut custom = BTreeMap::new();
    let processes = schema.types.iter().flat_map(|def| &def.fields);
    for process in processes.filter_map(|f| f.decode.as_ref()?.process.as_ref()) {
        if let Process::Custom {
            modules,
            name,
            args,
        } = process
        {
            // `self.x.fx` is the generated module's own `x::Fx`.
            let modules: Vec<&String> = modules.iter().skip_while(|m| *m == "self").collect();
            custom.insert((modules, name), args.len());
        }
    }
    custom
        .iter()
        .map(|((modules, name), arity)| {
            let name = type_ident(name);
            let open: String = modules
                .iter()
                .map(|m| format!("pub mod {} {{ ", module_ident(m)))
                .collect();
            let close = "}".repeat(modules.len());
            let generics: Vec<String> = (0..*arity).map(|i| format!("A{i}")).collect();
            let params: Vec<String> = generics.iter().map(|g| format!("_: {g}")).collect();
            format!(
                "\n{open}pub struct {name}; impl {name} {{ pub fn new<{}>({}) -> Self {{ {name} }} }} \
                 impl ::skelcodec_runtime::process::Process for {name} {{ \
                 fn decode<'d>(&self, b: &'d [u8]) -> Result<::std::borrow::Cow<'d, [u8]>, String> {{ Ok(b.into()) }} \
                 fn encode<'d>(&self, b: &'d [u8]) -> Result<::std::borrow::Cow<'d, [u8]>, String> {{ Ok(b.into()) }} }}{close}\n",
                generics.join(", "),
                params.join(", ")
            )
        })
        .collect()
}

/// A panic's message.
fn said(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_owned()))
        .unwrap_or_else(|| "(no message)".to_owned())
}
