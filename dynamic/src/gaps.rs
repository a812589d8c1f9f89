//! The bytes of a file that no field claims, as rows of the field map of its read: the runs
//! between fields and after the last one that nothing read (padding, stale data, what a
//! schema does not describe), so that `explain` shows every byte of the file somewhere.

use crate::map::FieldSpan;

/// The path of a row of bytes no field claims.
pub const UNCLAIMED: &str = "(unclaimed)";

/// How many of a run's bytes its row shows (as hex): enough to recognise padding or a
/// signature, not a dump of a large tail.
const PREVIEW: usize = 16;

/// `spans` with a row for each run of `file`'s bytes that none of them covers, each placed
/// before the first span of the file that starts at or after its end (the end for a run after
/// them all). Only spans in the file count: those in decoded streams are offsets elsewhere.
pub(crate) fn with_unclaimed(spans: Vec<FieldSpan>, file: &[u8]) -> Vec<FieldSpan> {
    // Runs in order of their ends, which is the order of the spans they go before: one pass.
    let runs = runs(&spans, file.len() as u64);
    let mut runs = runs.into_iter().peekable();
    let mut rows = Vec::with_capacity(spans.len() + runs.len());
    for span in spans {
        if span.stream.is_none() {
            while let Some((start, end)) = runs.next_if(|(_, end)| *end <= span.start) {
                rows.push(row(file, start, end));
            }
        }
        rows.push(span);
    }
    rows.extend(runs.map(|(start, end)| row(file, start, end)));
    rows
}

/// The runs of `[0, len)` that no span of the file covers, in order.
fn runs(spans: &[FieldSpan], len: u64) -> Vec<(u64, u64)> {
    let mut covered: Vec<(u64, u64)> = (spans.iter())
        .filter(|s| s.stream.is_none() && s.end > s.start)
        .map(|s| (s.start, s.end.min(len)))
        .collect();
    covered.sort_unstable();
    let mut runs = Vec::new();
    let mut next = 0;
    for (start, end) in covered {
        if start > next {
            runs.push((next, start));
        }
        next = next.max(end);
    }
    if next < len {
        runs.push((next, len));
    }
    runs
}

/// The row of the bytes `start..end` of `file`: their range, and their first bytes in hex
/// (`…` after them when there are more).
fn row(file: &[u8], start: u64, end: u64) -> FieldSpan {
    let bytes = file.get(start as usize..end as usize).unwrap_or_default();
    let shown = bytes.get(..PREVIEW).unwrap_or(bytes);
    let mut preview = skelcodec_runtime::bytes::to_hex(shown);
    if shown.len() < bytes.len() {
        preview.push('…');
    }
    FieldSpan {
        path: UNCLAIMED.to_owned(),
        start,
        end,
        bits: None,
        ty: "bytes".to_owned(),
        value: Some(serde_json::Value::String(preview)),
        stream: None,
    }
}
