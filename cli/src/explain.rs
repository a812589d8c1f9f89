//! `skelcodec explain`: the field map of a file read with a schema given at run time, or with
//! its built-in format's own schema — every field, element and case with its byte range, path,
//! type and value, and the bytes no field claims — as a table, or as JSON records; a read that
//! fails is shown up to the failure, with the error. With `--watch`, the file is read and
//! explained again whenever the schema, a schema it imports or the file changes, so that
//! editing a schema is a loop of seconds.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, SystemTime};

use skelcodec_dynamic::{BitRange, Explained, FieldSpan, Interpreter, Stream};
use skelcodec_formats::Format;

use crate::error::CliError;
use crate::error::EXIT_ERROR;
use crate::select::Pattern;

/// What to explain and how to show it.
pub struct ExplainOptions<'a> {
    /// The schema to read the file with.
    pub schema: Schema<'a>,
    /// Only the spans at this path and below.
    pub select: Option<&'a Pattern>,
    /// JSON records instead of a table.
    pub json: bool,
}

/// The schema a file is explained with.
pub enum Schema<'a> {
    /// A schema file, with the directories of its absolute imports.
    File {
        path: &'a Path,
        import_paths: &'a [PathBuf],
        overlays: &'a crate::overlays::OverlayArgs,
        /// The values given to its root type's parameters (`--param`).
        params: &'a [crate::schema::RootParam],
    },
    /// The schema of a built-in format: the one given (`--format`), else the file's, detected
    /// by magic, then by extension.
    BuiltIn(Option<&'static dyn Format>),
}

/// Explains `file` once; exits 2 when the schema or the file cannot be read.
pub fn explain(file: &Path, options: &ExplainOptions<'_>) -> Result<ExitCode, CliError> {
    let mut out = std::io::stdout().lock();
    let report = render(file, options)?;
    out.write_all(report.text.as_bytes())
        .map_err(CliError::Stdout)?;
    Ok(match report.failed {
        true => ExitCode::from(EXIT_ERROR),
        false => ExitCode::SUCCESS,
    })
}

/// Explains `file`, then again each time the schema, a schema it imports or the file
/// changes, until interrupted.
pub fn watch(file: &Path, options: &ExplainOptions<'_>) -> Result<ExitCode, CliError> {
    // The imports of the last schema that loaded: an edit that breaks the schema keeps
    // watching them, so that fixing an imported file reads again.
    let mut imported = Vec::new();
    let mut seen = None;
    loop {
        let files = watched(file, options, &imported);
        let now = modified(&files);
        if seen.as_ref() != Some(&(files.clone(), now.clone())) {
            let text = match render(file, options) {
                Ok(report) => {
                    imported = report.imported;
                    report.text
                }
                Err(e) => format!("skelcodec: {e}\n"),
            };
            // An edit may import other files: watch those from now on, as they are now.
            let watching = watched(file, options, &imported);
            seen = match watching == files {
                true => Some((files, now)),
                false => Some((watching.clone(), modified(&watching))),
            };
            let mut out = std::io::stdout().lock();
            // Clear the terminal, then the new reading: a loop of edits and looks.
            write!(out, "\x1b[2J\x1b[H{text}").map_err(CliError::Stdout)?;
            out.flush().map_err(CliError::Stdout)?;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// The files an explanation depends on: the schema file, those it imports, its overlays and
/// the file (a built-in schema is part of the program).
fn watched(file: &Path, options: &ExplainOptions<'_>, imported: &[PathBuf]) -> Vec<PathBuf> {
    let (schema, overlays) = match options.schema {
        Schema::File { path, overlays, .. } => (Some(path), overlays.files.as_slice()),
        Schema::BuiltIn(_) => (None, &[][..]),
    };
    (schema.into_iter())
        .chain(imported.iter().map(PathBuf::as_path))
        .chain(overlays.iter().map(PathBuf::as_path))
        .chain([file])
        .map(Path::to_path_buf)
        .collect()
}

/// When each file was last changed (`None` for one that cannot be read now).
fn modified(files: &[PathBuf]) -> Vec<Option<SystemTime>> {
    files
        .iter()
        .map(|f| std::fs::metadata(f).and_then(|m| m.modified()).ok())
        .collect()
}

/// What one explanation prints, whether the read failed, and the schema files it imported.
struct Report {
    text: String,
    failed: bool,
    imported: Vec<PathBuf>,
}

fn render(file: &Path, options: &ExplainOptions<'_>) -> Result<Report, CliError> {
    let (bytes, extension) = crate::container::read_input(file)?;
    let interpreter = match options.schema {
        Schema::File {
            path,
            import_paths,
            overlays,
            params,
        } => crate::schema::interpreter(path, import_paths, overlays, params)?,
        Schema::BuiltIn(forced) => {
            let format = crate::commands::format_of(file, extension.as_deref(), &bytes, forced)?;
            built_in_interpreter(format)?
        }
    };
    let explained = interpreter.explain(&bytes);
    let spans: Vec<&FieldSpan> = explained
        .spans
        .iter()
        .filter(|span| options.select.is_none_or(|p| p.covers(&span.path)))
        .collect();
    let text = match options.json {
        true => json(&spans, &explained)?,
        false => table(&spans, &explained, file),
    };
    Ok(Report {
        text,
        failed: explained.error.is_some(),
        imported: interpreter.imported().to_vec(),
    })
}

/// The interpreter of a built-in format's own schema; refused, saying why, for a format that
/// has none or whose schema uses what the interpreter does not read yet.
fn built_in_interpreter(format: &dyn Format) -> Result<Interpreter, CliError> {
    let id = format.id();
    let schema = skelcodec_formats::built_in_schema(id).ok_or_else(|| {
        CliError::Usage(format!(
            "the built-in format `{id}` has no schema of its own to explain it with (it is read \
             by code of its own); give one with --schema"
        ))
    })?;
    schema.interpreter().map_err(|e| {
        CliError::Usage(format!(
            "cannot explain with the built-in format `{id}`'s schema ({}): {e}",
            schema.path().display()
        ))
    })
}

/// `{"fields": [records], "error": …}`; the tree as far as it was read comes with an error.
fn json(spans: &[&FieldSpan], explained: &Explained) -> Result<String, CliError> {
    let mut document = serde_json::json!({ "fields": spans });
    if let Some(error) = &explained.error {
        document["error"] = serde_json::json!({
            "offset": error.offset(),
            "path": error.path(),
            "message": error.to_string(),
        });
        document["partial"] = explained.tree.clone().unwrap_or_default();
    }
    let mut text =
        serde_json::to_string_pretty(&document).map_err(|e| CliError::Usage(e.to_string()))?;
    text.push('\n');
    Ok(text)
}

/// One line per span: its range, size, path, type and value; then what the offsets in
/// decoded streams are offsets in.
fn table(spans: &[&FieldSpan], explained: &Explained, file: &Path) -> String {
    let ranges: Vec<[String; 3]> = spans.iter().map(|s| range(s)).collect();
    let width = |column: usize, min: usize| {
        (ranges.iter().map(|r| r[column].len()))
            .max()
            .unwrap_or(min)
            .max(min)
    };
    let (start_width, end_width, size_width) = (width(0, 10), width(1, 10), width(2, 8));
    let path_width = spans
        .iter()
        .map(|s| s.path.len())
        .max()
        .unwrap_or(4)
        .clamp(4, 48);
    let type_width = spans
        .iter()
        .map(|s| s.ty.len())
        .max()
        .unwrap_or(4)
        .clamp(4, 24);
    let mut text = format!(
        "{:>start_width$} {:>end_width$} {:>size_width$}  {:path_width$}  {:type_width$}  value\n",
        "start", "end", "size", "path", "type"
    );
    for (span, [start, end, size]) in spans.iter().zip(&ranges) {
        let value = span.value.as_ref().map(shown).unwrap_or_default();
        let line = format!(
            "{start:>start_width$} {end:>end_width$} {size:>size_width$}  {:path_width$}  {:type_width$}  {value}",
            span.path, span.ty,
        );
        text.push_str(line.trim_end());
        text.push('\n');
    }
    text.push_str(&legend(spans));
    if let Some(error) = &explained.error {
        text.push_str(&format!(
            "{}: cannot decode: {error}\n(the fields above are those read before the failure)\n",
            file.display()
        ));
    }
    text
}

/// A span's start, end and size as the table shows them: byte offsets (`0x1c`), prefixed by
/// the decoded stream they are in (`packed+0x2`); for bits, byte and bit (`0x0.3`, bits
/// counted in the order they are read, the end being the bit after the last) and the size in
/// bits.
fn range(span: &FieldSpan) -> [String; 3] {
    let stream = span.stream.as_ref().map(|s| format!("{}+", stream_name(s)));
    let prefix = stream.as_deref().unwrap_or_default();
    match span.bits {
        Some(BitRange { start_bit, end_bit }) => {
            // The end as the bit after the last one in the last byte (`0x0.8`), not the next
            // byte's first (`0x1.0`): the range reads as bits of the bytes the value is in.
            let last = end_bit.max(start_bit + 1) - 1;
            let end = match end_bit > start_bit {
                true => (last / 8, last % 8 + 1),
                false => (start_bit / 8, start_bit % 8),
            };
            [
                format!("{prefix}{:#x}.{}", start_bit / 8, start_bit % 8),
                format!("{prefix}{:#x}.{}", end.0, end.1),
                format!("{} bits", end_bit - start_bit),
            ]
        }
        None => [
            format!("{prefix}{:#x}", span.start),
            format!("{prefix}{:#x}", span.end),
            span.end.saturating_sub(span.start).to_string(),
        ],
    }
}

/// The name offsets in a decoded stream are prefixed with: the path of the value whose bytes
/// it decodes.
fn stream_name(stream: &Stream) -> &str {
    match stream.path.as_str() {
        "" => "decoded",
        path => path,
    }
}

/// One line for each decoded stream the spans are in: where its stored bytes are.
fn legend(spans: &[&FieldSpan]) -> String {
    let mut seen: Vec<&Stream> = Vec::new();
    for stream in spans.iter().filter_map(|s| s.stream.as_ref()) {
        if !seen.contains(&stream) {
            seen.push(stream);
        }
    }
    let mut text = String::new();
    for stream in seen {
        let within = (stream.stored_in.as_deref())
            .map(|s| format!("{s}+"))
            .unwrap_or_default();
        text.push_str(&format!(
            "{name}+…: offsets in the bytes decoded from {name}, stored at {within}{:#x}..{within}{:#x}\n",
            stream.stored_start,
            stream.stored_end,
            name = stream_name(stream),
        ));
    }
    text
}

/// A value on one line, cut to a width a terminal shows.
fn shown(value: &serde_json::Value) -> String {
    const WIDTH: usize = 60;
    let text = value.to_string();
    match text.char_indices().nth(WIDTH) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}
