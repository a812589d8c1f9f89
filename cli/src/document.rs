//! `decode` and `encode`: a file to its document (`{"format": id, "value": …}`, fields in
//! file order) and back.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use skelcodec_formats::{DocumentError, DocumentSyntax, FORMAT_KEY, Format, SCHEMA_KEY, VALUE_KEY};

use crate::commands::{EXIT_DIFFERENCE, format_of};
use crate::container::read_input;
use crate::error::CliError;
use crate::io::{read, write_atomically, write_atomically_with};
use crate::select::{Pattern, select};

/// Elements of a long list kept by `--summary`, as in the snapshots.
const SUMMARY_ITEMS: usize = 3;

/// What `decode` prints, and where.
#[derive(Default)]
pub struct DecodeOptions<'a> {
    /// `--format` or `--schema`.
    pub forced: Option<&'static dyn Format>,
    /// `--json`/`--yaml`; otherwise the output's extension decides, else JSON.
    pub syntax: Option<DocumentSyntax>,
    /// `-o`.
    pub output: Option<&'a Path>,
    /// `--path`.
    pub select: Option<&'a Pattern>,
    /// `--summary`.
    pub summary: bool,
}

/// `decode`: prints (or writes) the document of a file, or the parts `--path` selects, or
/// its summary. Exits with [`EXIT_DIFFERENCE`] when `--path` matches nothing.
pub fn decode(file: &Path, options: &DecodeOptions) -> Result<ExitCode, CliError> {
    let (bytes, extension) = read_input(file)?;
    let format = format_of(file, extension.as_deref(), &bytes, options.forced)?;
    let named = options.output.and_then(DocumentSyntax::of_path);
    if let (Some(chosen), Some(named), Some(output)) = (options.syntax, named, options.output)
        && chosen != named
    {
        return Err(CliError::Usage(format!(
            "{} names a {} file, but --{} writes {}: rename it or drop the flag (nothing was written)",
            output.display(),
            syntax_name(named),
            syntax_name(chosen).to_lowercase(),
            syntax_name(chosen)
        )));
    }
    let syntax = options.syntax.or(named).unwrap_or(DocumentSyntax::Json);
    if options.select.is_none() && !options.summary {
        return write_output(options.output, |out| {
            format
                .write_document(&bytes, syntax, out)
                .map_err(|e| document_error(file, options.output, e))
        });
    }
    // The summary of the whole document, or the parts a path selects, as the document
    // streams: neither holds the document.
    let streamed = match options.select {
        None => Some(streamed(format, &bytes, file, |reader| {
            skelcodec_runtime::summary_of_json(reader, SUMMARY_ITEMS).map_err(|e| e.to_string())
        })?),
        Some(pattern) if !options.summary => {
            let parts = streamed(format, &bytes, file, |reader| {
                crate::select::select_streamed(reader, pattern, VALUE_KEY)
                    .map_err(|e| e.to_string())
            })?;
            let parts: Vec<serde_json::Value> = (parts.into_iter())
                .map(|(path, value)| serde_json::json!({ "path": path, "value": value }))
                .collect();
            match parts.is_empty() {
                true => None, // Said below, with where the path stopped.
                false => Some(serde_yaml::to_value(parts).map_err(|e| unserializable(file, e))?),
            }
        }
        Some(_) => None,
    };
    if let Some(streamed) = streamed {
        let text = to_text(&streamed, syntax).map_err(|e| unserializable(file, e))?;
        return write_output(options.output, |out| {
            out.write_all(text.as_bytes())
                .map_err(|e| output_error(options.output, e))
        });
    }
    let mut document = format
        .decode_json(&bytes)
        .map_err(|source| CliError::Decode {
            path: file.to_owned(),
            source,
        })?;
    if let Some(pattern) = options.select {
        let parts: Vec<serde_json::Value> = select(&document[VALUE_KEY], pattern)
            .into_iter()
            .map(|(path, value)| serde_json::json!({ "path": path, "value": value }))
            .collect();
        if parts.is_empty() {
            let stopped = crate::select::dead_end(&document[VALUE_KEY], pattern);
            eprintln!(
                "skelcodec: {}: nothing matches the path ({stopped})",
                file.display()
            );
            return Ok(ExitCode::from(EXIT_DIFFERENCE));
        }
        document = serde_json::Value::Array(parts);
    }
    let text = if options.summary {
        let summary = skelcodec_runtime::summary_value(&document, SUMMARY_ITEMS)
            .map_err(|e| unserializable(file, e))?;
        to_text(&summary, syntax).map_err(|e| unserializable(file, e))?
    } else {
        to_text(&document, syntax).map_err(|e| unserializable(file, e))?
    };
    write_output(options.output, |out| {
        out.write_all(text.as_bytes())
            .map_err(|e| output_error(options.output, e))
    })
}

/// What `read` makes of the JSON document of `bytes`, read as the document is written,
/// through a pipe from a thread that writes it: the document is never held whole.
fn streamed<T>(
    format: &'static dyn Format,
    bytes: &[u8],
    file: &Path,
    read: impl FnOnce(std::io::BufReader<std::io::PipeReader>) -> Result<T, String>,
) -> Result<T, CliError> {
    let (reader, mut writer) = std::io::pipe().map_err(|e| CliError::io(file, e))?;
    std::thread::scope(|scope| {
        let writing = scope.spawn(move || {
            let mut out = std::io::BufWriter::new(&mut writer);
            let written = format.write_document(bytes, DocumentSyntax::Json, &mut out);
            written.and_then(|()| out.flush().map_err(DocumentError::Write))
        });
        let made = read(std::io::BufReader::new(reader));
        let written = writing.join().unwrap_or_else(|_| {
            Err(DocumentError::Serialize(
                "the document's writer stopped".into(),
            ))
        });
        match (written, made) {
            (Ok(()), Ok(made)) => Ok(made),
            // The reader stopped first: the writer's broken pipe says nothing.
            (Err(DocumentError::Write(_)), Err(e)) | (Ok(()), Err(e)) => {
                Err(unserializable(file, e))
            }
            (Err(e), _) => Err(document_error(file, None, e)),
        }
    })
}

/// What a syntax is called.
fn syntax_name(syntax: DocumentSyntax) -> &'static str {
    match syntax {
        DocumentSyntax::Json => "JSON",
        DocumentSyntax::Yaml => "YAML",
    }
}

/// `value` as JSON or YAML text, ending with a newline.
fn to_text<T: skelcodec_runtime::serde::Serialize>(
    value: &T,
    syntax: DocumentSyntax,
) -> Result<String, String> {
    let mut text = match syntax {
        DocumentSyntax::Json => serde_json::to_string_pretty(value).map_err(|e| e.to_string())?,
        DocumentSyntax::Yaml => serde_yaml::to_string(value).map_err(|e| e.to_string())?,
    };
    if !text.ends_with('\n') {
        text.push('\n');
    }
    Ok(text)
}

/// Runs `fill` on standard output, or on `output` written atomically.
fn write_output(
    output: Option<&Path>,
    fill: impl FnOnce(&mut dyn Write) -> Result<(), CliError>,
) -> Result<ExitCode, CliError> {
    match output {
        Some(out) => write_atomically_with(out, fill)?,
        None => fill(&mut std::io::stdout().lock())?,
    }
    Ok(ExitCode::SUCCESS)
}

/// The error of a failed write to standard output or to `output`.
fn output_error(output: Option<&Path>, e: std::io::Error) -> CliError {
    match output {
        Some(path) => CliError::io(path, e),
        None => CliError::Stdout(e),
    }
}

/// The error of a document that could not be written.
fn document_error(file: &Path, output: Option<&Path>, e: DocumentError) -> CliError {
    match e {
        DocumentError::Decode(source) => CliError::Decode {
            path: file.to_owned(),
            source,
        },
        DocumentError::Write(e) => output_error(output, e),
        DocumentError::Serialize(reason) => CliError::Document {
            path: file.to_owned(),
            reason,
        },
    }
}

/// The error of a decoded value without a JSON or YAML form.
fn unserializable(file: &Path, reason: impl ToString) -> CliError {
    CliError::Document {
        path: file.to_owned(),
        reason: format!("cannot serialize the value: {}", reason.to_string()),
    }
}

/// `encode`: reads a document as `decode` prints it and writes the encoded file; with
/// `normalize`, recomputes the derived fields first and prints those that changed.
pub fn encode(
    document: &Path,
    forced: Option<&'static dyn Format>,
    output: &Path,
    normalize: bool,
) -> Result<ExitCode, CliError> {
    let text = read(document)?;
    let bad_document = |reason: String| CliError::Document {
        path: document.to_owned(),
        reason,
    };
    let json = || -> Result<serde_json::Value, CliError> {
        serde_json::from_slice(&text).map_err(|e| bad_document(format!("not valid JSON: {e}")))
    };
    let yaml = || -> Result<serde_json::Value, CliError> {
        serde_yaml::from_slice(&text).map_err(|e| bad_document(format!("not valid YAML: {e}")))
    };
    let mut parsed = match DocumentSyntax::of_path(document) {
        Some(DocumentSyntax::Yaml) => yaml()?,
        // Standard input has no extension: JSON, or else YAML.
        None if crate::io::is_stdio(document) => json().or_else(|_| yaml())?,
        _ => json()?,
    };
    let recorded = parsed.get(SCHEMA_KEY).cloned();
    let format: &dyn Format = match (forced, recorded) {
        (Some(format), _) => format,
        // Read with a schema at run time: the same schema encodes it.
        (None, Some(recorded)) => {
            let source: skelcodec_formats::SchemaSource = serde_json::from_value(recorded)
                .map_err(|e| {
                    bad_document(format!("`{SCHEMA_KEY}` is not a schema's place: {e}"))
                })?;
            crate::schema::interpreted(&source.path, &source.import_paths)?
        }
        (None, None) => {
            let id = parsed
                .get(FORMAT_KEY)
                .and_then(|v| v.as_str())
                .ok_or_else(|| {
                    bad_document(format!(
                        "no string `{FORMAT_KEY}` key says which format it is; use --format ID"
                    ))
                })?;
            skelcodec_formats::by_id(id)
                .ok_or_else(|| CliError::UnknownFormat { id: id.to_owned() })?
        }
    };
    let value = parsed
        .as_object_mut()
        .and_then(|map| map.remove(VALUE_KEY))
        .ok_or_else(|| bad_document(format!("no `{VALUE_KEY}` key holds the value to encode")))?;
    let encode_error = |source| CliError::Encode {
        path: document.to_owned(),
        source,
    };
    let bytes = if normalize {
        let (bytes, changed) = format.encode_json_normalized(value).map_err(encode_error)?;
        let mut out = std::io::stdout().lock();
        for change in &changed {
            writeln!(out, "normalized {change}").map_err(CliError::Stdout)?;
        }
        bytes
    } else {
        format.encode_json(value).map_err(|source| {
            // The writer's advice, in the command line's terms.
            match source.to_string().contains("normalize() recomputes") {
                true => CliError::NotNormalized {
                    path: document.to_owned(),
                    source,
                },
                false => encode_error(source),
            }
        })?
    };
    write_atomically(output, &bytes)?;
    Ok(ExitCode::SUCCESS)
}
