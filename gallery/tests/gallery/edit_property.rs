//! The edit property over real files of the gallery formats: each file decodes, writes back
//! byte for byte, survives its own JSON document, and then takes at least 50 edits, one leaf at
//! a time; every edit the writer accepts must read back as the edited value.

use std::path::PathBuf;

use skelcodec_gallery::{FORMATS, Format, GALLERY, Normalize, files};

/// Files per format, and edits per file.
const FILES_PER_FORMAT: usize = 6;
const EDITS_PER_FILE: usize = 60;

#[test]
fn every_accepted_edit_of_a_real_file_reads_back_as_edited() {
    let made = std::env::temp_dir().join(format!("skelcodec-gallery-{}", std::process::id()));
    if let Err(e) = files::make_with_python(&made) {
        eprintln!(
            "note: no files made with Python ({e}); SQLite and pickle files are looked for only"
        );
    }
    let mut extra = vec![made.clone()];
    extra.extend(std::env::var_os("SKELCODEC_GALLERY_FILES").map(PathBuf::from));
    // Formats are edited on every core, and reported in order.
    let outcomes =
        skelcodec_runtime::corpus::on_every_core(FORMATS, |format| edit_format(format, &extra));
    let mut failures = Vec::new();
    let mut compiled = 0;
    for (summary, found) in outcomes.into_iter().flatten() {
        compiled += 1;
        eprintln!("{summary}");
        failures.extend(found);
    }
    let _ = std::fs::remove_dir_all(&made);
    if compiled == 0 {
        skelcodec_runtime::corpus::announce_skip(&format!(
            "skipped: no gallery schema was compiled (gallery looked for at {GALLERY})"
        ));
        return;
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// Edits the files found for `format`: a line saying what became of the edits, and the
/// failures; none when its schema was not compiled (said so).
fn edit_format(format: &Format, extra: &[PathBuf]) -> Option<(String, Vec<String>)> {
    let edit = match format.codec {
        Ok(codec) => codec.edit,
        Err(why) => {
            skelcodec_runtime::corpus::announce_skip(&format!(
                "skipped {}: the schema was not compiled ({why}); gallery: {GALLERY}",
                format.id
            ));
            return None;
        }
    };
    let mut failures = Vec::new();
    let paths = files::find(format.extensions, FILES_PER_FORMAT, extra);
    let (mut edits, mut written, mut undone, mut refused, mut unreadable) = (0, 0, 0, 0, 0);
    for path in &paths {
        let Ok(bytes) = std::fs::read(path) else {
            continue;
        };
        let report = edit(&bytes, EDITS_PER_FILE, Normalize::Yes);
        let shown = path.display();
        if let Some(e) = &report.unreadable {
            unreadable += 1;
            eprintln!("  {}: {shown} does not read: {e}", format.id);
            continue;
        }
        if let Some(e) = &report.not_faithful {
            failures.push(format!(
                "{}: {shown} is not written back as read: {e}",
                format.id
            ));
            continue;
        }
        if report.edits < 50 {
            eprintln!(
                "  {}: {shown}: only {} edits (a small file)",
                format.id, report.edits
            );
        }
        edits += report.edits;
        written += report.written;
        undone += report.undone;
        refused += report.refused_by_writer + report.refused_by_document;
        failures.extend(
            report
                .corrupted
                .iter()
                .chain(&report.dropped)
                .map(|c| format!("{}: {shown}: {c}", format.id)),
        );
    }
    let summary = format!(
        "{}: {} files ({unreadable} unreadable), {edits} edits: {written} written and read back ({undone} of them edits of a derived field that normalize() set back), {refused} refused",
        format.id,
        paths.len()
    );
    Some((summary, failures))
}
