//! `skelcodec schema`: the compiler's face for people who write schemas. `check` reports
//! whether each schema would compile, with the located error otherwise; `expand` prints the
//! Rust code the `codec!` macro would generate. `--schema` of the commands that read files
//! reads with a schema interpreted at run time.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::error::CliError;
use crate::error::EXIT_DIFFERENCE;

/// Prints `ok FILE` for every schema the compiler accepts (and its located warnings, on
/// stderr), with `explain_derived` followed by its derived fields, and its located error for
/// every other; exits 1 when any is rejected.
pub fn check(
    files: &[PathBuf],
    import_paths: &[PathBuf],
    explain_derived: bool,
) -> Result<ExitCode, CliError> {
    let mut out = std::io::stdout().lock();
    let mut rejected = 0;
    for file in files {
        match compile(file, import_paths) {
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
pub fn expand(file: &Path, import_paths: &[PathBuf]) -> Result<ExitCode, CliError> {
    match compile(file, import_paths) {
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
    for (def, path, derivation, inferred) in schema.derived_member_fields() {
        writeln!(
            out,
            "  {}.{path} = {derivation}  (inferred: `{path}` is the {} of `{}`)",
            def.id, inferred.role, inferred.user
        )?;
    }
    for (def, offset, block, unit) in schema.relocated_offsets() {
        let per_unit = if unit > 1 {
            format!(" / {unit}")
        } else {
            String::new()
        };
        writeln!(
            out,
            "  {}.{} = where `{}` is placed{per_unit}  (inferred: `{}` is the position of `{}`; \
             normalize() moves it to the end of the file when it no longer fits)",
            def.id, offset.id, block.id, offset.id, block.id
        )?;
    }
    Ok(())
}

/// The checked schema and its formatted generated code, or the message saying why there is
/// none. The generator is meant never to fail on a schema the checker accepts; should it, the
/// failure is reported as a bug in skelcodec rather than a crash.
fn compile(
    file: &Path,
    import_paths: &[PathBuf],
) -> Result<(skelcodec_codegen::CheckedSchema, String), String> {
    let schema =
        skelcodec_codegen::load_schema_with(file, import_paths).map_err(|e| e.to_string())?;
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
    warnings: bool,
) -> Result<&'static dyn skelcodec_formats::Format, CliError> {
    let interpreter = skelcodec_dynamic::Interpreter::load(file, import_paths)
        .map_err(|e| CliError::Usage(e.to_string()))?;
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
    };
    let format = skelcodec_formats::interpreted::Interpreted::new(interpreter, source);
    Ok(Box::leak(Box::new(format)))
}
