//! The bytes a writer lays down by position (Kaitai `pos` instances, unclaimed gaps), kept as
//! sparse, non-overlapping runs. Sparse, so that an absurd offset costs nothing before the file
//! is assembled; checked on every placement, so that no block silently overwrites another and
//! no byte is left for the zero-fill: either would read back as something else.

use std::collections::BTreeMap;
use std::ops::Range;

use crate::error::{Error, ErrorKind, Result};

/// The zeros [`Canvas::fill_holes`] may write whatever the size of the value: room for a
/// small file's blocks to move apart.
pub(crate) const ZERO_FILL_FLOOR: usize = 64 * 1024;

/// Placed runs by start offset; runs never overlap (they may touch).
#[derive(Debug, Default, Clone)]
pub(crate) struct Canvas {
    runs: BTreeMap<usize, Run>,
    /// The furthest position of an empty block (an empty list read by position): the file
    /// must reach it, or reading would fail to get there.
    furthest_empty: Option<(usize, &'static str)>,
    /// Ranges claimed without their bytes by a writer that only measures what the fields
    /// claim (see `Writer::for_coverage`).
    claims: Vec<Range<usize>>,
}

/// One run of placed bytes and the field that placed it (for messages).
#[derive(Debug, Clone)]
struct Run {
    bytes: Vec<u8>,
    field: &'static str,
}

impl Run {
    fn range(&self, start: usize) -> Range<usize> {
        start..start + self.bytes.len()
    }
}

impl Canvas {
    /// True when nothing was placed.
    pub(crate) fn is_empty(&self) -> bool {
        self.runs.is_empty() && self.furthest_empty.is_none() && self.claims.is_empty()
    }

    /// Claims `range` without laying bytes there: it counts in [`Canvas::coverage`] only.
    pub(crate) fn claim(&mut self, range: Range<usize>) {
        self.claims.push(range);
    }

    /// Lays `bytes` at `at`. Where they overlap bytes placed before, both must agree (a value
    /// read twice writes the same bytes twice); otherwise the placement is refused.
    pub(crate) fn paint(&mut self, at: usize, bytes: Vec<u8>, field: &'static str) -> Result<()> {
        if bytes.is_empty() {
            if self
                .furthest_empty
                .is_none_or(|(furthest, _)| at > furthest)
            {
                self.furthest_empty = Some((at, field));
            }
            return Ok(());
        }
        let Some(end) = at.checked_add(bytes.len()) else {
            return Err(encode_error(
                at,
                format!("a block of `{field}` cannot end past the address space"),
            ));
        };
        // Runs do not overlap, so those overlapping `at..end` are consecutive, ending with the
        // last one that starts before `end`.
        let overlapping: Vec<usize> = self
            .runs
            .range(..end)
            .rev()
            .take_while(|(start, run)| run.range(**start).end > at)
            .map(|(start, _)| *start)
            .collect();
        // In file order, so that the message names the first run it collides with.
        for start in overlapping.iter().rev() {
            let run = &self.runs[start];
            check_agreement(at, &bytes, field, *start, run)?;
        }
        let Some(first) = overlapping.last().copied() else {
            self.runs.insert(at, Run { bytes, field });
            return Ok(());
        };
        // Merge the runs it touches into one (they agree where they overlap).
        let merged_start = first.min(at);
        let merged_end = overlapping
            .iter()
            .map(|s| self.runs[s].range(*s).end)
            .max()
            .unwrap_or(end)
            .max(end);
        let mut merged = vec![0; merged_end - merged_start];
        let mut first_field = field;
        for start in overlapping.iter().rev() {
            if let Some(run) = self.runs.remove(start) {
                if *start == first {
                    first_field = run.field;
                }
                merged[start - merged_start..][..run.bytes.len()].copy_from_slice(&run.bytes);
            }
        }
        merged[at - merged_start..][..bytes.len()].copy_from_slice(&bytes);
        self.runs.insert(
            merged_start,
            Run {
                bytes: merged,
                field: first_field,
            },
        );
        Ok(())
    }

    /// Lays every run of `other` (the blocks placed while writing a block) on this canvas.
    pub(crate) fn merge(&mut self, other: Canvas) -> Result<()> {
        if let Some((at, field)) = other.furthest_empty {
            self.paint(at, Vec::new(), field)?;
        }
        self.claims.extend(other.claims);
        for (start, run) in other.runs {
            self.paint(start, run.bytes, run.field)?;
        }
        Ok(())
    }

    /// The covered ranges, in order, merged where they touch.
    pub(crate) fn coverage(&self) -> Vec<Range<usize>> {
        merge_ranges(
            self.runs
                .iter()
                .map(|(start, run)| run.range(*start))
                .chain(self.claims.iter().cloned())
                .collect(),
        )
    }

    /// Where the covered bytes end: past the last run, or at the furthest empty block.
    pub(crate) fn end(&self) -> usize {
        let runs = self
            .runs
            .iter()
            .next_back()
            .map_or(0, |(s, r)| r.range(*s).end);
        runs.max(self.furthest_empty.map_or(0, |(at, _)| at))
    }

    /// True when some byte before [`Canvas::end`] is covered by nothing.
    pub(crate) fn has_holes(&self) -> bool {
        let covered = self.coverage();
        match covered.first() {
            None => self.end() > 0,
            Some(first) => first.start > 0 || covered.len() > 1 || first.end < self.end(),
        }
    }

    /// The first position at or after `from`, at a multiple of `unit`, where the runs hold
    /// `bytes` already (see `relocation::plan`); `None` for no bytes, or none such.
    pub(crate) fn find_laid(&self, bytes: &[u8], from: usize, unit: usize) -> Option<usize> {
        if bytes.is_empty() {
            return None;
        }
        let unit = unit.max(1);
        let runs = self
            .runs
            .iter()
            .filter(|(start, run)| run.range(**start).end > from);
        for (&start, run) in runs {
            let first = from.max(start).div_ceil(unit).saturating_mul(unit);
            let Some(last) = (start + run.bytes.len()).checked_sub(bytes.len()) else {
                continue;
            };
            let found = (first..=last)
                .step_by(unit)
                .find(|&at| run.bytes[at - start..].starts_with(bytes));
            if found.is_some() {
                return found;
            }
        }
        None
    }

    /// The first position at or after `from`, at a multiple of `unit`, where `len` bytes
    /// overlap no run.
    pub(crate) fn first_fit(&self, from: usize, len: usize, unit: usize) -> usize {
        let align_up = |at: usize| at.div_ceil(unit).saturating_mul(unit);
        let mut at = align_up(from);
        // Each step passes a run, so this ends after at most as many steps as there are runs.
        while let Some((start, run)) = (self.runs.range(..at.saturating_add(len.max(1))))
            .next_back()
            .filter(|(start, run)| run.range(**start).end > at)
        {
            at = align_up(run.range(*start).end);
        }
        at
    }

    /// Covers every byte no run covers before [`Canvas::end`] with zeros: at most as many as
    /// the runs hold, or [`ZERO_FILL_FLOOR`] (a file at most doubled by zeros no value
    /// writes), so that an offset out of proportion to the file (an edit to 2³¹) is refused,
    /// naming the block after the hole, before anything is allocated.
    pub(crate) fn fill_holes(&mut self) -> Result<()> {
        let end = self.end();
        let mut at = 0;
        let mut holes = Vec::new();
        for range in self.coverage().into_iter().chain(std::iter::once(end..end)) {
            if at < range.start {
                holes.push(at..range.start);
            }
            at = at.max(range.end);
        }
        let zeros: usize = holes.iter().map(ExactSizeIterator::len).sum();
        let written: usize = self.runs.values().map(|run| run.bytes.len()).sum();
        let allowed = written.max(ZERO_FILL_FLOOR);
        if zeros > allowed {
            let largest = holes.iter().max_by_key(|hole| hole.len()).cloned();
            let largest = largest.unwrap_or(0..0);
            let after =
                (self.runs.get(&largest.end)).map_or("the end of the file", |run| run.field);
            return Err(encode_error(
                largest.end,
                format!(
                    "placing `{after}` at {} would fill bytes {}..{} with zeros no value writes: \
                     {zeros} bytes of zeros in all, more than the {allowed} the file may hold \
                     (as many as the value writes, or {ZERO_FILL_FLOOR}: is an offset out of \
                     proportion to the file?)",
                    largest.end, largest.start, largest.end
                ),
            ));
        }
        for hole in holes {
            self.runs.insert(
                hole.start,
                Run {
                    bytes: vec![0; hole.len()],
                    field: "unclaimed",
                },
            );
        }
        Ok(())
    }

    /// The assembled bytes: every byte from 0 to the end must be covered.
    pub(crate) fn into_bytes(self) -> Result<Vec<u8>> {
        if let Some(claim) = self.claims.first() {
            return Err(encode_error(
                claim.start,
                "a writer that only measures coverage has no bytes there".into(),
            ));
        }
        let mut end = 0;
        for (start, run) in &self.runs {
            if *start > end {
                return Err(encode_error(
                    end,
                    format!(
                        "bytes {end}..{start} would be left unwritten: no field and no unclaimed gap \
                         covers them (before `{}` at {:?}; an offset past the end of the data?)",
                        run.field,
                        run.range(*start)
                    ),
                ));
            }
            end = run.range(*start).end;
        }
        if let Some((at, field)) = self.furthest_empty.filter(|(at, _)| *at > end) {
            return Err(encode_error(
                at,
                format!("`{field}` is placed at {at}, past the end of the data ({end} bytes)"),
            ));
        }
        let mut out = Vec::with_capacity(end);
        for run in self.runs.into_values() {
            out.extend_from_slice(&run.bytes);
        }
        Ok(out)
    }
}

/// Sorts `ranges` and merges those that overlap or touch; empty ones are dropped.
pub(crate) fn merge_ranges(mut ranges: Vec<Range<usize>>) -> Vec<Range<usize>> {
    ranges.retain(|r| !r.is_empty());
    ranges.sort_unstable_by_key(|r| r.start);
    // In place: each range joins the last one kept when they touch.
    ranges.dedup_by(|r, last| {
        let joins = r.start <= last.end;
        if joins {
            last.end = last.end.max(r.end);
        }
        joins
    });
    ranges
}

/// Refuses bytes at `at` that disagree with the run at `start` where they overlap.
fn check_agreement(
    at: usize,
    bytes: &[u8],
    field: &'static str,
    start: usize,
    run: &Run,
) -> Result<()> {
    let from = at.max(start);
    let to = (at + bytes.len()).min(start + run.bytes.len());
    if bytes[from - at..to - at] == run.bytes[from - start..to - start] {
        return Ok(());
    }
    Err(encode_error(
        at,
        format!(
            "`{field}` at {:?} overlaps `{}` at {:?} with other bytes: one would overwrite the \
             other (recompute the offsets, e.g. with normalize)",
            at..at + bytes.len(),
            run.field,
            run.range(start)
        ),
    ))
}

fn encode_error(at: usize, message: String) -> Error {
    Error::new(at as u64, ErrorKind::Encode(message))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agreeing_overlaps_merge_and_disagreeing_ones_are_refused() {
        let mut canvas = Canvas::default();
        canvas.paint(4, vec![1, 2, 3, 4], "a").unwrap();
        canvas.paint(6, vec![3, 4, 5], "b").unwrap();
        canvas.paint(0, vec![9, 9, 9, 9], "c").unwrap();
        let covered = canvas.coverage();
        assert_eq!((covered.len(), covered[0].clone()), (1, 0..9));
        let err = canvas.paint(2, vec![0, 0, 0], "d").unwrap_err().to_string();
        assert!(err.contains("`d` at 2..5 overlaps `c` at 0..4"), "{err}");
        assert_eq!(canvas.into_bytes().unwrap(), [9, 9, 9, 9, 1, 2, 3, 4, 5]);
    }

    #[test]
    fn an_empty_block_must_not_lie_past_the_end() {
        let mut canvas = Canvas::default();
        canvas.paint(0, vec![1; 8], "header").unwrap();
        canvas.paint(8, Vec::new(), "index").unwrap();
        assert_eq!(canvas.clone().into_bytes().unwrap().len(), 8);
        canvas.paint(1 << 31, Vec::new(), "index").unwrap();
        let err = canvas.into_bytes().unwrap_err().to_string();
        assert!(
            err.contains("`index` is placed at 2147483648, past the end of the data (8 bytes)"),
            "{err}"
        );
    }

    #[test]
    fn holes_are_refused_before_anything_is_allocated() {
        let mut canvas = Canvas::default();
        canvas.paint(0, vec![1; 8], "header").unwrap();
        canvas.paint(1 << 40, vec![2; 8], "index").unwrap();
        let err = canvas.into_bytes().unwrap_err().to_string();
        assert!(
            err.contains("bytes 8..1099511627776 would be left unwritten"),
            "{err}"
        );
        assert!(err.contains("before `index`"), "{err}");
    }
}
