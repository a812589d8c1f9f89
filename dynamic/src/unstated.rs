//! Checksums a schema does not derive, recognised in the file: a 4-byte field named like a
//! checksum (`crc`, `crc32`, `body_crc32`, `checksum`) whose stored value is the CRC-32 of
//! bytes read near it — the fields before it in its structure (`type_raw` … `body`: PNG), or
//! one field of a structure holding it, as stored or inflated (`body`: a ZIP entry).
//!
//! A rule is recognised only where it holds on the file as read: on some occurrences of the
//! field (a PNG's unedited chunks), so that the occurrences where it does not hold are stale.
//! A field that occurs once, or whose occurrences all disagree, is reported only where its
//! name says what it covers and that is compressed data: `body_crc32` beside a `body` that is
//! one whole deflate stream (gzip's trailer) is the CRC-32 of that body inflated, as every
//! format that stores compressed data has it. Otherwise nothing shows what it would cover. A
//! chance match of a 32-bit CRC is one in four billion.

use std::collections::BTreeMap;

use crate::map::FieldSpan;

/// A checksum the schema does not derive that disagrees with the bytes it covers on this
/// occurrence, while it agrees on others.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnstatedChecksum {
    /// Where it is (`chunks[0].crc`).
    pub path: String,
    /// The value stored.
    pub stored: u32,
    /// The CRC-32 of the bytes it covers on the other occurrences.
    pub computed: u32,
    /// What it covers, relative to it: `type_raw … body`, `body`, `body inflated`.
    pub covers: String,
    /// On how many other occurrences of the field the rule holds; 0 when the field's name
    /// says what it covers (`body_crc32`: compressed data, `body`, inflated).
    pub recognised_on: usize,
}

impl std::fmt::Display for UnstatedChecksum {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let recognised = match self.recognised_on {
            0 => "as the field's name says".to_owned(),
            1 => "as on 1 other occurrence of the field".to_owned(),
            n => format!("as on {n} other occurrences of the field"),
        };
        write!(
            f,
            "{}: stored {}, computed {}: a checksum the schema does not derive (the CRC-32 of {}, {recognised}); declare it with `-derived`, in the schema or an overlay (docs/overlays.md)",
            self.path, self.stored, self.computed, self.covers,
        )
    }
}

/// What a checksum may cover, relative to it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Rule {
    /// The bytes from the start of the earlier sibling of this name to the checksum.
    Run { from: String },
    /// The bytes of the field of this name of the structure `up` levels above the checksum's,
    /// as stored or inflated (raw deflate or zlib).
    Field {
        up: usize,
        name: String,
        inflated: bool,
    },
}

/// What a rule computes on one occurrence: the CRC, how many bytes it covers, and what they
/// are, in words.
#[derive(Debug, Clone)]
struct Sum {
    crc: u32,
    len: usize,
    covers: String,
}

/// The stale unstated checksums of a file mapped into `spans` (see the module's doc).
pub fn find(spans: &[FieldSpan], bytes: &[u8]) -> Vec<UnstatedChecksum> {
    let in_file: Vec<Mapped> = spans
        .iter()
        .filter(|s| s.stream.is_none() && s.bits.is_none() && s.path != crate::UNCLAIMED)
        .map(|s| Mapped::new(s, bytes))
        .collect();
    let mut by_field: BTreeMap<String, Vec<Occurrence>> = BTreeMap::new();
    for candidate in in_file.iter().filter(|m| m.is_checksum_like()) {
        let Some(stored) = candidate.stored() else {
            continue;
        };
        let sums = covered(candidate, &in_file, bytes);
        by_field
            .entry(candidate.field_key())
            .or_default()
            .push(Occurrence {
                start: candidate.span.start,
                path: candidate.span.path.clone(),
                name: candidate.name().to_owned(),
                stored,
                sums,
            });
    }
    let mut found: Vec<(u64, UnstatedChecksum)> = by_field.into_values().flat_map(stale).collect();
    // In the file's order; a field read twice (a ZIP's local header, again from the central
    // directory) where it is read first.
    found.sort_by(|(a, x), (b, y)| (a, &x.path).cmp(&(b, &y.path)));
    found.into_iter().map(|(_, stale)| stale).collect()
}

/// One occurrence of a checksum-like field: what each rule computes there.
struct Occurrence {
    start: u64,
    path: String,
    /// The checksum's name (`body_crc32`).
    name: String,
    stored: u32,
    sums: BTreeMap<Rule, Sum>,
}

/// The occurrences of one field that no recognised rule holds on, with the rule recognised on
/// most others, each with where it is.
fn stale(occurrences: Vec<Occurrence>) -> Vec<(u64, UnstatedChecksum)> {
    let mut holds: BTreeMap<&Rule, usize> = BTreeMap::new();
    for occurrence in &occurrences {
        for (rule, sum) in &occurrence.sums {
            if sum.crc == occurrence.stored {
                *holds.entry(rule).or_default() += 1;
            }
        }
    }
    let mut found = Vec::new();
    for occurrence in &occurrences {
        let agrees = occurrence
            .sums
            .iter()
            .any(|(rule, sum)| sum.crc == occurrence.stored && holds.contains_key(rule));
        if agrees {
            continue;
        }
        // The rule that holds most often; of those, the one that covers most here (an empty
        // body makes a run and a single field cover the same bytes elsewhere).
        let best = holds
            .iter()
            .filter_map(|(rule, &n)| occurrence.sums.get(*rule).map(|sum| (n, sum)))
            .max_by_key(|(n, sum)| (*n, sum.len));
        if let Some((recognised_on, sum)) = best.or_else(|| named(occurrence).map(|s| (0, s))) {
            let stale = UnstatedChecksum {
                path: occurrence.path.clone(),
                stored: occurrence.stored,
                computed: sum.crc,
                covers: sum.covers.clone(),
                recognised_on,
            };
            found.push((occurrence.start, stale));
        }
    }
    found
}

/// For an occurrence no other occurrence shows the rule of: what its name says it covers,
/// when that is compressed data — `body_crc32` (or `crc32_body`) and a field `body` of its
/// structure, or of the nearest one holding it, that is one whole deflate stream: the data
/// inflated. `None` where the stored value is 0 (often "not computed": MCAP) or agrees with
/// any rule (the bytes before it, the field as stored).
fn named(occurrence: &Occurrence) -> Option<&Sum> {
    let mut words: Vec<&str> = occurrence.name.split('_').collect();
    let first = words.first().is_some_and(|w| is_checksum_name(w));
    let last = words.last().is_some_and(|w| is_checksum_name(w));
    match (first, last) {
        (_, true) => words.pop(),
        (true, false) => Some(words.remove(0)),
        _ => return None,
    };
    let covered = words.join("_");
    if covered.is_empty() || words.iter().any(|w| is_checksum_name(w)) {
        return None;
    }
    let agrees = occurrence.sums.values().any(|s| s.crc == occurrence.stored);
    if occurrence.stored == 0 || agrees {
        return None;
    }
    occurrence
        .sums
        .iter()
        .filter_map(|(rule, sum)| match rule {
            Rule::Field {
                up,
                name,
                inflated: true,
            } if *name == covered => Some((*up, sum)),
            _ => None,
        })
        .min_by_key(|(up, _)| *up)
        .map(|(_, sum)| sum)
}

/// A span of the file, with its path split into steps (`chunks`, `[0]`, `crc`).
struct Mapped<'a> {
    span: &'a FieldSpan,
    steps: Vec<&'a str>,
    bytes: Option<&'a [u8]>,
}

impl<'a> Mapped<'a> {
    fn new(span: &'a FieldSpan, bytes: &'a [u8]) -> Self {
        let start = usize::try_from(span.start).ok();
        let end = usize::try_from(span.end).ok();
        Self {
            span,
            steps: steps(&span.path),
            bytes: start
                .zip(end)
                .and_then(|(start, end)| bytes.get(start..end)),
        }
    }

    fn name(&self) -> &str {
        self.steps.last().copied().unwrap_or_default()
    }

    /// Four bytes of an integer or a byte array, named like a checksum.
    fn is_checksum_like(&self) -> bool {
        let typed = matches!(
            self.span.ty.as_str(),
            "u4" | "u4le" | "u4be" | "s4" | "s4le" | "s4be" | "bytes"
        );
        let named = is_checksum_name(self.name());
        typed && named && self.bytes.is_some_and(|b| b.len() == 4)
    }

    /// The value stored: the integer read, or a byte array's 4 bytes big-endian (PNG's).
    fn stored(&self) -> Option<u32> {
        match &self.span.value {
            Some(serde_json::Value::Number(n)) => n.as_i64().map(|n| n as u32),
            _ => self
                .bytes
                .and_then(|b| b.try_into().ok())
                .map(u32::from_be_bytes),
        }
    }

    /// The field whatever element it is of: its path without indices (`chunks.crc`).
    fn field_key(&self) -> String {
        self.steps
            .iter()
            .filter(|s| !s.starts_with('['))
            .copied()
            .collect::<Vec<_>>()
            .join(".")
    }

    /// True when `self` is a child of the structure at `parent` (its steps).
    fn is_child_of(&self, parent: &[&str]) -> bool {
        self.steps.len() == parent.len() + 1 && self.steps.starts_with(parent)
    }
}

/// True for a name one of whose words (`_`-separated) names a checksum: `crc`, `body_crc32`.
pub fn is_checksum_name(name: &str) -> bool {
    name.split('_')
        .any(|word| matches!(word, "crc" | "crc32" | "checksum" | "cksum"))
}

/// `a[0].b` as `a`, `[0]`, `b`.
fn steps(path: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for part in path.split('.') {
        let mut rest = part;
        while let Some(open) = rest[1..].find('[').map(|i| i + 1) {
            out.push(&rest[..open]);
            rest = &rest[open..];
        }
        if !rest.is_empty() {
            out.push(rest);
        }
    }
    out
}

/// What each rule computes for checksum `at`.
fn covered(at: &Mapped<'_>, spans: &[Mapped<'_>], bytes: &[u8]) -> BTreeMap<Rule, Sum> {
    let mut sums = BTreeMap::new();
    let parent = &at.steps[..at.steps.len() - 1];
    let start = at.span.start as usize;
    let earlier: Vec<&Mapped> = spans
        .iter()
        .filter(|m| m.is_child_of(parent) && m.span.end as usize <= start)
        .collect();
    if let Some(last) = earlier.iter().max_by_key(|m| m.span.end) {
        for from in &earlier {
            let run = bytes.get(from.span.start as usize..start);
            if let Some(run) = run.filter(|r| !r.is_empty()) {
                let rule = Rule::Run {
                    from: from.name().to_owned(),
                };
                let covers = match from.name() == last.name() {
                    true => format!("`{}`", from.name()),
                    false => format!("`{}` … `{}`", from.name(), last.name()),
                };
                sums.insert(rule, Sum::of(run, covers));
            }
        }
    }
    // A field of its structure or of one holding it (ZIP: the entry's data, after the header
    // holding its CRC; gzip: the deflated data before its CRC).
    for up in 0..(parent.len() + 1).min(4) {
        let holder = &parent[..parent.len() - up];
        let fields = spans
            .iter()
            .filter(|m| m.is_child_of(holder) && !m.name().starts_with('['))
            .filter(|m| !at.steps.starts_with(&m.steps));
        for field in fields {
            let Some(data) = field.bytes.filter(|b| !b.is_empty()) else {
                continue;
            };
            let name = field.name().to_owned();
            let rule = |inflated| Rule::Field {
                up,
                name: name.clone(),
                inflated,
            };
            sums.insert(rule(false), Sum::of(data, format!("`{name}`")));
            if let Some(inflated) = inflate(data) {
                let covers = format!("`{name}` inflated");
                sums.insert(rule(true), Sum::of(&inflated, covers));
            }
        }
    }
    sums
}

impl Sum {
    fn of(bytes: &[u8], covers: String) -> Self {
        Sum {
            crc: skelcodec_runtime::checksum::crc32(bytes),
            len: bytes.len(),
            covers,
        }
    }
}

/// The bytes a raw deflate or zlib stream inflates to, when `data` is one, whole; at most
/// 64 MiB, so that a hostile stream costs little.
fn inflate(data: &[u8]) -> Option<Vec<u8>> {
    const LIMIT: u64 = 64 << 20;
    use skelcodec_runtime::process::Deflate;
    Deflate::Raw
        .inflate_whole(data, LIMIT)
        .or_else(|| Deflate::Zlib.inflate_whole(data, LIMIT))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_split_into_steps() {
        assert_eq!(
            steps("sections[0].body.local_file.header.crc32"),
            ["sections", "[0]", "body", "local_file", "header", "crc32"]
        );
        assert_eq!(steps("a[1][2].b"), ["a", "[1]", "[2]", "b"]);
        assert_eq!(steps("crc"), ["crc"]);
    }

    /// An occurrence named `name`, storing `stored`, whose structure has `body` holding
    /// `data`.
    fn occurrence(name: &str, stored: u32, data: &[u8]) -> Occurrence {
        let mut sums = BTreeMap::new();
        let rule = |inflated| Rule::Field {
            up: 0,
            name: "body".into(),
            inflated,
        };
        sums.insert(rule(false), Sum::of(data, "`body`".into()));
        if let Some(inflated) = inflate(data) {
            sums.insert(rule(true), Sum::of(&inflated, "`body` inflated".into()));
        }
        Occurrence {
            start: 0,
            path: name.into(),
            name: name.into(),
            stored,
            sums,
        }
    }

    #[test]
    fn a_checksum_named_for_compressed_data_covers_it_inflated() {
        let mut e = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
        std::io::Write::write_all(&mut e, b"hello hello hello").unwrap();
        let raw = e.finish().unwrap();
        let crc = skelcodec_runtime::checksum::crc32(b"hello hello hello");
        let stale = |name: &str, stored: u32, data: &[u8]| {
            stale(vec![occurrence(name, stored, data)])
                .into_iter()
                .map(|(_, s)| (s.computed, s.covers, s.recognised_on))
                .collect::<Vec<_>>()
        };
        assert_eq!(stale("body_crc32", crc, &raw), []);
        assert_eq!(
            stale("body_crc32", 7, &raw),
            [(crc, "`body` inflated".into(), 0)]
        );
        assert_eq!(
            stale("crc32_body", 7, &raw),
            [(crc, "`body` inflated".into(), 0)]
        );
        // Agreeing with the data as stored, 0, another name, data that is no deflate stream.
        let stored = skelcodec_runtime::checksum::crc32(&raw);
        assert_eq!(stale("body_crc32", stored, &raw), []);
        assert_eq!(stale("body_crc32", 0, &raw), []);
        assert_eq!(stale("head_crc32", 7, &raw), []);
        assert_eq!(stale("crc", 7, &raw), []);
        assert_eq!(stale("body_crc32", 7, b"plain text"), []);
    }

    #[test]
    fn adler32_and_garbage_do_not_inflate_as_something() {
        assert_eq!(inflate(b"not deflate at all"), None);
        let mut e = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
        std::io::Write::write_all(&mut e, b"hello hello hello").unwrap();
        let raw = e.finish().unwrap();
        assert_eq!(inflate(&raw).as_deref(), Some(&b"hello hello hello"[..]));
    }
}
