//! `decode` and `encode`: a file to its document (`{"format": id, "value": …}`, fields in
//! file order) and back.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use skelcodec_formats::{
    DocumentError, DocumentSink, DocumentSyntax, FORMAT_KEY, Format, SCHEMA_KEY, VALUE_KEY,
};
use skelcodec_runtime::events::{self, Events};
use skelcodec_runtime::serde::{self, Deserialize as _};

use crate::commands::format_of;
use crate::container::read_input;
use crate::error::CliError;
use crate::io::{read, write_atomically, write_atomically_with};
use crate::select::{Pattern, Selection};

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
/// its summary. Fails with [`CliError::NothingMatches`] when `--path` matches nothing.
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
                .write_document(&bytes, DocumentSink::Text(syntax, out))
                .map_err(|e| document_error(file, options.output, e))
        });
    }
    // The summary of the whole document, or the parts a path selects, made as the document
    // is serialized: neither holds the document.
    let Some(pattern) = options.select else {
        let mut summary = skelcodec_runtime::Summary::new(SUMMARY_ITEMS);
        walk_document(format, &bytes, file, &mut summary)?;
        return write_text(options.output, &summary.finish(), syntax, file);
    };
    write_selected(
        format,
        &bytes,
        file,
        pattern,
        options.output,
        syntax,
        options.summary,
    )
}

/// `decode --path`: the parts `pattern` selects, written as they are found (or their
/// summary, with `summarized`).
fn write_selected(
    format: &'static dyn Format,
    bytes: &[u8],
    file: &Path,
    pattern: &Pattern,
    output: Option<&Path>,
    syntax: DocumentSyntax,
    summarized: bool,
) -> Result<ExitCode, CliError> {
    let nothing_matches = || -> Result<(), CliError> {
        // Where the path stopped, from the document's tree: only when nothing matched.
        let document = format
            .decode_json(bytes)
            .map_err(|source| CliError::Decode {
                path: file.to_owned(),
                source,
            })?;
        Err(CliError::NothingMatches {
            path: file.to_owned(),
            stopped: crate::select::dead_end(&document[VALUE_KEY], pattern),
        })
    };
    if summarized {
        // The summary of the list of parts, each summarized as it is found.
        let mut summary = skelcodec_runtime::Summary::new(SUMMARY_ITEMS);
        summary.begin_seq(None);
        let mut selection = Selection::new(pattern, Some(VALUE_KEY), |path, value| {
            // A part has a JSON form: it was made from one.
            let _ = events::serialize_into(&Part { path, value }, &mut summary);
        });
        walk_document(format, bytes, file, &mut selection)?;
        if selection.matched() == 0 {
            nothing_matches()?;
        }
        summary.end();
        return write_text(output, &summary.finish(), syntax, file);
    }
    write_output(output, |out| {
        let mut parts = PartsWriter {
            out: std::io::BufWriter::new(out),
            syntax,
            written: 0,
            failure: None,
        };
        let mut selection = Selection::new(pattern, Some(VALUE_KEY), |path, value| {
            parts.write(path, value)
        });
        walk_document(format, bytes, file, &mut selection)?;
        if selection.matched() == 0 {
            return nothing_matches();
        }
        parts.finish().map_err(|e| match e {
            PartError::Write(e) => output_error(output, e),
            PartError::Serialize(reason) => unserializable(file, reason),
        })
    })
}

/// The keys of a document that say how to encode its value; other keys are skipped.
#[derive(Default, serde::Deserialize)]
#[serde(crate = "skelcodec_runtime::serde")]
struct Header {
    format: Option<serde_json::Value>,
    schema: Option<serde_json::Value>,
    value: Option<serde::de::IgnoredAny>,
}

/// A part of a document that `--path` selects, as printed.
#[derive(serde::Serialize)]
#[serde(crate = "skelcodec_runtime::serde")]
struct Part {
    path: String,
    value: serde_json::Value,
}

/// Writes the parts `--path` selects as they are found, as the list of them would be
/// written whole.
struct PartsWriter<W> {
    out: W,
    syntax: DocumentSyntax,
    written: usize,
    failure: Option<PartError>,
}

/// Why a part could not be written.
enum PartError {
    Write(std::io::Error),
    Serialize(String),
}

impl<W: Write> PartsWriter<W> {
    fn write(&mut self, path: String, value: serde_json::Value) {
        if self.failure.is_none()
            && let Err(e) = self.try_write(&Part { path, value })
        {
            self.failure = Some(e);
        }
    }

    fn try_write(&mut self, part: &Part) -> Result<(), PartError> {
        // Each part indented as an element of the list; JSON and YAML strings hold no line
        // breaks of their own, and YAML's block scalars are relative to their indentation.
        let (text, first, others) = match self.syntax {
            DocumentSyntax::Json => {
                let text = serde_json::to_string_pretty(part)
                    .map_err(|e| PartError::Serialize(e.to_string()))?;
                let opening = match self.written {
                    0 => "[\n  ",
                    _ => ",\n  ",
                };
                (text, opening, "  ")
            }
            DocumentSyntax::Yaml => {
                let text =
                    serde_yaml::to_string(part).map_err(|e| PartError::Serialize(e.to_string()))?;
                (text, "- ", "  ")
            }
        };
        let indented = text
            .trim_end_matches('\n')
            .replace('\n', &format!("\n{others}"));
        let ending = match self.syntax {
            DocumentSyntax::Json => "",
            DocumentSyntax::Yaml => "\n",
        };
        (self.out)
            .write_all(format!("{first}{indented}{ending}").as_bytes())
            .map_err(PartError::Write)?;
        self.written += 1;
        Ok(())
    }

    fn finish(mut self) -> Result<(), PartError> {
        if let Some(failure) = self.failure {
            return Err(failure);
        }
        if self.syntax == DocumentSyntax::Json && self.written > 0 {
            self.out.write_all(b"\n]\n").map_err(PartError::Write)?;
        }
        self.out.flush().map_err(PartError::Write)
    }
}

/// Writes `value` as text in `syntax` to standard output or to `output`, as it is serialized.
fn write_text<T: skelcodec_runtime::serde::Serialize>(
    output: Option<&Path>,
    value: &T,
    syntax: DocumentSyntax,
    file: &Path,
) -> Result<ExitCode, CliError> {
    write_output(output, |out| {
        skelcodec_formats::write_serialized(value, DocumentSink::Text(syntax, out))
            .map_err(|e| document_error(file, output, e))
    })
}

/// Reports the events of the document of `bytes` to `events` as it is serialized.
fn walk_document(
    format: &'static dyn Format,
    bytes: &[u8],
    file: &Path,
    events: &mut dyn Events,
) -> Result<(), CliError> {
    (format.write_document(bytes, DocumentSink::Events(events)))
        .map_err(|e| document_error(file, None, e))
}

/// What a syntax is called.
fn syntax_name(syntax: DocumentSyntax) -> &'static str {
    match syntax {
        DocumentSyntax::Json => "JSON",
        DocumentSyntax::Yaml => "YAML",
    }
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
    let syntax = match DocumentSyntax::of_path(document) {
        Some(syntax) => syntax,
        // Standard input has no extension: JSON, or else YAML.
        None if crate::io::is_stdio(document) => {
            match serde_json::from_slice::<serde::de::IgnoredAny>(&text) {
                Ok(_) => DocumentSyntax::Json,
                Err(_) => DocumentSyntax::Yaml,
            }
        }
        None => DocumentSyntax::Json,
    };
    // JSON is read twice, its keys then its value, and never held as a tree; YAML is read
    // into a tree (serde_yaml holds all of a document's events anyway).
    let (header, tree) = match syntax {
        DocumentSyntax::Json => {
            let header: Header = serde_json::from_slice(&text)
                .map_err(|e| bad_document(format!("not valid JSON: {e}")))?;
            (header, None)
        }
        DocumentSyntax::Yaml => {
            let tree: serde_json::Value = serde_yaml::from_slice(&text)
                .map_err(|e| bad_document(format!("not valid YAML: {e}")))?;
            let header = Header::deserialize(&tree).unwrap_or_default();
            (header, Some(tree))
        }
    };
    let format: &dyn Format = match (forced, header.schema) {
        (Some(format), _) => format,
        // Read with a schema at run time: the same schema encodes it.
        (None, Some(recorded)) => {
            let source: skelcodec_formats::SchemaSource = serde_json::from_value(recorded)
                .map_err(|e| {
                    bad_document(format!("`{SCHEMA_KEY}` is not a schema's place: {e}"))
                })?;
            let overlays = crate::overlays::OverlayArgs {
                files: source.overlays,
                no_overlay: source.no_overlay,
            };
            let params: Vec<crate::schema::RootParam> = (source.params.into_iter())
                .map(|(name, value)| crate::schema::RootParam { name, value })
                .collect();
            let chosen = (&overlays, &params[..]);
            crate::schema::interpreted(&source.path, &source.import_paths, chosen, false)?
        }
        (None, None) => {
            let id = (header.format.as_ref())
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
    if header.value.is_none() {
        return Err(bad_document(format!(
            "no `{VALUE_KEY}` key holds the value to encode"
        )));
    }
    let encoded = match tree {
        None => format.encode_json_text(&text, normalize),
        Some(mut tree) => {
            let value = tree[VALUE_KEY].take();
            match normalize {
                true => format.encode_json_normalized(value),
                false => format.encode_json(value).map(|bytes| (bytes, Vec::new())),
            }
        }
    };
    drop(text);
    let (bytes, changed) = encoded.map_err(|source| {
        // The writer's advice, in the command line's terms.
        match !normalize && source.to_string().contains("normalize() recomputes") {
            true => CliError::NotNormalized {
                path: document.to_owned(),
                source,
            },
            false => CliError::Encode {
                path: document.to_owned(),
                source,
            },
        }
    })?;
    let mut out = std::io::stdout().lock();
    for change in &changed {
        writeln!(out, "normalized {change}").map_err(CliError::Stdout)?;
    }
    // What the writer cannot know it should recompute: said, the file still written.
    for stale in format.unstated_checksums(&bytes) {
        eprintln!("warning: {}: {stale}", output.display());
    }
    write_atomically(output, &bytes)?;
    Ok(ExitCode::SUCCESS)
}
