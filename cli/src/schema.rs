//! `skelcodec schema`: the compiler's face for people who write schemas. `check` reports
//! whether each schema would compile, with the located error otherwise; `expand` prints the
//! Rust code the `codec!` macro would generate. `--schema` of the commands that read files
//! reads with a schema interpreted at run time.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use skelcodec_codegen::model::MemberOrigin;

use crate::error::CliError;
use crate::error::EXIT_DIFFERENCE;
use crate::overlays::{OverlayArgs, load_with};

/// Prints `ok FILE` for every schema the compiler accepts (and its located warnings, on
/// stderr), with `explain_derived` followed by its derived fields, and its located error for
/// every other; exits 1 when any is rejected.
pub fn check(
    files: &[PathBuf],
    import_paths: &[PathBuf],
    overlays: &OverlayArgs,
    explain_derived: bool,
) -> Result<ExitCode, CliError> {
    let mut out = std::io::stdout().lock();
    let mut rejected = 0;
    for file in files {
        match compile(file, import_paths, overlays)? {
            Ok((schema, _)) => {
                writeln!(out, "ok {}", file.display()).map_err(CliError::Stdout)?;
                if explain_derived {
                    write_derivations(&mut out, &schema).map_err(CliError::Stdout)?;
                }
            }
            Err(message) => {
                rejected += 1;
                eprintln!("{message}");
            }
        }
    }
    Ok(if rejected == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_DIFFERENCE)
    })
}

/// Prints the code generated for a schema; a rejected schema is a located error (exit 1).
pub fn expand(
    file: &Path,
    import_paths: &[PathBuf],
    overlays: &OverlayArgs,
) -> Result<ExitCode, CliError> {
    match compile(file, import_paths, overlays)? {
        Ok((_, source)) => {
            let mut out = std::io::stdout().lock();
            out.write_all(source.as_bytes()).map_err(CliError::Stdout)?;
            Ok(ExitCode::SUCCESS)
        }
        Err(message) => {
            eprintln!("{message}");
            Ok(ExitCode::from(EXIT_DIFFERENCE))
        }
    }
}

/// One line per derived field: `type.field = expression`, and whether the schema declares it
/// or what it was inferred from.
fn write_derivations(
    out: &mut impl std::io::Write,
    schema: &skelcodec_codegen::Schema,
) -> std::io::Result<()> {
    for (def, field, derivation) in schema.derived_fields() {
        let origin = match &field.derived_inferred {
            Some(inferred) => format!(
                "inferred: `{}` is the {} of `{}`",
                field.id, inferred.role, inferred.user
            ),
            None if field.padding => "inferred: padding sized by a derived field".to_owned(),
            None => "declared".to_owned(),
        };
        writeln!(out, "  {}.{} = {derivation}  ({origin})", def.id, field.id)?;
    }
    for (def, path, derivation, origin) in schema.derived_member_fields() {
        let origin = match origin {
            MemberOrigin::Inferred(inferred) => format!(
                "inferred: `{path}` is the {} of `{}`",
                inferred.role, inferred.user
            ),
            MemberOrigin::Declared(_) => "declared with `_parent`: computed by its holder".into(),
        };
        writeln!(out, "  {}.{path} = {derivation}  ({origin})", def.id)?;
    }
    for rooted in &schema.rooted {
        let (def, field) = (
            &schema.types[rooted.ty],
            &schema.types[rooted.ty].fields[rooted.field],
        );
        let derivation = skelcodec_codegen::expr::to_source(&rooted.derived);
        writeln!(
            out,
            "  {}.{} = {derivation}  (declared with `_root`: computed by the root, `{}`)",
            def.id, field.id, schema.types[0].id
        )?;
    }
    for (def, offset, block, unit) in schema.relocated_offsets() {
        let per_unit = if unit > 1 {
            format!(" / {unit}")
        } else {
            String::new()
        };
        let moves = match block.relocation.is_some_and(|r| r.follows) {
            true => {
                "normalize() has it follow the value read in sequence that it reads again \
                     (`-in-sequence`) where an edit moves that"
            }
            false => "normalize() moves it to the end of the file when it no longer fits",
        };
        writeln!(
            out,
            "  {}.{} = where `{}` is placed{per_unit}  (inferred: `{}` is the position of `{}`; \
             {moves})",
            def.id, offset.id, block.id, offset.id, block.id
        )?;
    }
    Ok(())
}

/// The checked schema and its formatted generated code, or the message saying why there is
/// none. The generator is meant never to fail on a schema the checker accepts; should it, the
/// failure is reported as a bug in skelcodec rather than a crash. An overlay file that cannot
/// be read is a usage error.
fn compile(
    file: &Path,
    import_paths: &[PathBuf],
    overlays: &OverlayArgs,
) -> Result<Result<(skelcodec_codegen::CheckedSchema, String), String>, CliError> {
    let loaded = load_with(
        file,
        overlays,
        |overlays| skelcodec_codegen::load_schema_overlaid(file, import_paths, overlays),
        |e| Some(e),
    )?;
    Ok(generated(file, loaded.map_err(|e| e.to_string())))
}

/// [`compile`]'s code generation.
fn generated(
    file: &Path,
    schema: Result<skelcodec_codegen::CheckedSchema, String>,
) -> Result<(skelcodec_codegen::CheckedSchema, String), String> {
    let schema = schema?;
    for warning in &schema.warnings {
        eprintln!("warning: {warning}");
    }
    let generated = std::panic::catch_unwind(|| skelcodec_codegen::generate_source(&schema));
    match generated {
        Ok(Ok(source)) => Ok((schema, source)),
        Ok(Err(e)) => Err(format!(
            "{}: skelcodec bug: the generated code does not parse: {e}",
            file.display()
        )),
        Err(_) => Err(format!(
            "{}: skelcodec bug: the generator failed on a schema it accepted; please report it",
            file.display()
        )),
    }
}

/// The format of a schema read at run time (`--schema`), for the rest of the process: its
/// style warnings are printed when `warnings` asks for them (they concern the schema, which
/// the user may not have written, not the file), a schema that does not check or that the
/// interpreter cannot read yet is a usage error naming every reason.
pub fn interpreted(
    file: &Path,
    import_paths: &[PathBuf],
    (overlays, params): (&OverlayArgs, &[RootParam]),
    warnings: bool,
) -> Result<&'static dyn skelcodec_formats::Format, CliError> {
    let interpreter = interpreter(file, import_paths, overlays, params)?;
    if warnings {
        for warning in &interpreter.schema().warnings {
            eprintln!("warning: {warning}");
        }
    }
    // Absolute, so that a document records where its schema is from wherever it is encoded.
    let absolute = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_owned());
    let source = skelcodec_formats::SchemaSource {
        path: absolute(file),
        import_paths: import_paths.iter().map(|p| absolute(p)).collect(),
        overlays: overlays.files.iter().map(|p| absolute(p)).collect(),
        no_overlay: overlays.no_overlay,
        params: (params.iter())
            .map(|p| (p.name.clone(), p.value.clone()))
            .collect(),
    };
    let format = skelcodec_formats::interpreted::Interpreted::new(interpreter, source);
    Ok(Box::leak(Box::new(format)))
}

/// The interpreter of the schema at `file` with the overlays chosen and the values given to
/// its root type's parameters; a schema that does not check, or that the interpreter cannot
/// read yet, is a usage error naming every reason, and so is a value its parameter refuses.
pub fn interpreter(
    file: &Path,
    import_paths: &[PathBuf],
    overlays: &OverlayArgs,
    params: &[RootParam],
) -> Result<skelcodec_dynamic::Interpreter, CliError> {
    use skelcodec_dynamic::{Interpreter, LoadError};
    let loaded = load_with(
        file,
        overlays,
        |overlays| Interpreter::load_overlaid(file, import_paths, overlays),
        |e| match e {
            LoadError::Schema(e) => Some(e),
            LoadError::Unsupported(_) => None,
        },
    )?;
    // The command line has no custom processors to give: a schema naming one is refused here.
    let mut interpreter = (loaded.and_then(Interpreter::require_processors))
        .map_err(|e| CliError::Usage(e.to_string()))?;
    for RootParam { name, value } in params {
        interpreter = (interpreter.with_argument(name, value))
            .map_err(|e| CliError::Usage(format!("--param {e}")))?;
    }
    Ok(interpreter)
}

/// `--param NAME=VALUE`: a value for a parameter of the schema's root type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RootParam {
    /// The parameter's name.
    pub name: String,
    /// Its value as written (see `Interpreter::with_argument`).
    pub value: String,
}

impl std::str::FromStr for RootParam {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        match text.split_once('=') {
            Some((name, value)) if !name.is_empty() => Ok(RootParam {
                name: name.to_owned(),
                value: value.to_owned(),
            }),
            _ => Err(format!("expected NAME=VALUE, found `{text}`")),
        }
    }
}
