//! Compact YAML renderings of decoded values for snapshot tests.

use serde_yaml::{Mapping, Value};

/// Byte strings whose hex is longer than this are shortened.
const MAX_HEX_CHARS: usize = 64;
/// Hex digits kept at the start of a shortened byte string.
const HEAD_HEX_CHARS: usize = 32;

/// Renders any serializable value as YAML for snapshot tests, shortening every sequence longer than
/// `max_items` (and than 16 items, so small fixed arrays stay whole) to
/// a map { len: N, first: [first max_items items], crc32: "8-hex-digit CRC-32 of the whole sequence's canonical YAML text" },
/// and every hex string (RawBytes) longer than 64 chars likewise to { bytes: N, head: first 32 hex chars, crc32: CRC-32 of the bytes }.
///
/// A value that cannot be serialized renders as a YAML comment naming the error, so a
/// snapshot shows the problem instead of the test panicking.
pub fn summarize<T: serde::Serialize>(value: &T, max_items: usize) -> String {
    let rendered = summary_value(value, max_items).and_then(|v| serde_yaml::to_string(&v));
    rendered.unwrap_or_else(|e| format!("# cannot summarize: {e}\n"))
}

/// The tree [`summarize`] renders, for callers that print it in another syntax (JSON).
pub fn summary_value<T: serde::Serialize>(
    value: &T,
    max_items: usize,
) -> Result<Value, serde_yaml::Error> {
    serde_yaml::to_value(value).map(|v| shorten(v, max_items))
}

/// Short sequences (a matrix, four weights) stay whole: shortening them hides more than it saves.
const WHOLE_UP_TO: usize = 16;

fn shorten(value: Value, max_items: usize) -> Value {
    match value {
        Value::Sequence(items) if items.len() > max_items.max(WHOLE_UP_TO) => {
            let crc = crc_hex(serde_yaml::to_string(&items).unwrap_or_default().as_bytes());
            let len = items.len();
            let first: Vec<Value> = items
                .into_iter()
                .take(max_items)
                .map(|v| shorten(v, max_items))
                .collect();
            let mut m = Mapping::new();
            m.insert("len".into(), Value::from(len as u64));
            m.insert("first".into(), Value::Sequence(first));
            m.insert("crc32".into(), Value::String(crc));
            Value::Mapping(m)
        }
        Value::Sequence(items) => {
            Value::Sequence(items.into_iter().map(|v| shorten(v, max_items)).collect())
        }
        Value::Mapping(map) => Value::Mapping(
            map.into_iter()
                .map(|(k, v)| (k, shorten(v, max_items)))
                .collect(),
        ),
        Value::Tagged(mut tagged) => {
            tagged.value = shorten(tagged.value, max_items);
            Value::Tagged(tagged)
        }
        Value::String(s) => string(&s).unwrap_or(Value::String(s)),
        other => other,
    }
}

/// The summary of a long hex string (a byte string as documents show it): its length in
/// bytes, its first bytes and the CRC of the bytes, made without decoding it whole; `None`
/// for any other string.
fn string(s: &str) -> Option<Value> {
    if s.len() <= MAX_HEX_CHARS || !is_lower_hex(s) {
        return None;
    }
    let mut crc = crc32fast::Hasher::new();
    for chunk in s.as_bytes().chunks(2 * 4096) {
        // Lowercase hex throughout: checked above.
        let chunk = std::str::from_utf8(chunk).unwrap_or_default();
        crc.update(&crate::bytes::from_hex(chunk).unwrap_or_default());
    }
    let mut m = Mapping::new();
    m.insert("bytes".into(), Value::from((s.len() / 2) as u64));
    m.insert(
        "head".into(),
        Value::String(s.get(..HEAD_HEX_CHARS).unwrap_or(s).to_owned()),
    );
    m.insert(
        "crc32".into(),
        Value::String(format!("{:08x}", crc.finalize())),
    );
    Some(Value::Mapping(m))
}

/// The summary of a value built from its events ([`crate::events`]) as it is serialized,
/// without holding the value or its text: long lists and byte strings shortened as
/// [`summary_value`] shortens them, except that a list's `crc32` is that of its compact JSON
/// text (`[1,2,3]`). What `decode --summary` prints: its memory is the summary's and one
/// value's path, not the document's; the elements of a long list past those kept are only
/// fed to its CRC, never built.
pub struct Summary {
    max_items: usize,
    /// The maps and lists open around the next event, outermost first.
    open: Vec<Open>,
    /// The CRCs of the open lists that are kept, each fed its compact JSON text.
    hashers: Vec<crc32fast::Hasher>,
    done: Option<Value>,
}

/// A map or list of a [`Summary`] still being read; what it holds is built only when it is
/// `kept`.
struct Open {
    kept: bool,
    /// Entries or elements read so far.
    len: usize,
    content: Content,
}

enum Content {
    Map {
        map: Mapping,
        key: Option<String>,
    },
    /// The elements while the list may be short, then only the first `max_items`; `long`
    /// when its length said so from the start.
    List {
        items: Vec<Value>,
        long: bool,
    },
}

impl Summary {
    /// A summary keeping `max_items` elements of a long list.
    pub fn new(max_items: usize) -> Self {
        Summary {
            max_items,
            open: Vec::new(),
            hashers: Vec::new(),
            done: None,
        }
    }

    /// The summary, once a whole value has been reported.
    pub fn finish(self) -> Option<Value> {
        self.done
    }

    fn feed(&mut self, text: &str) {
        for hasher in &mut self.hashers {
            hasher.update(text.as_bytes());
        }
    }

    /// Feeds `text` as a JSON string, quoted and escaped as serde_json writes it.
    fn feed_string(&mut self, text: &str) {
        let hashers = &mut self.hashers;
        crate::events::escaped(text, &mut |piece| {
            hashers.iter_mut().for_each(|h| h.update(piece.as_bytes()));
        });
    }

    /// A value starts: the comma before it, when it follows another element of a list.
    /// Whether it is kept: not when it, or what holds it, lies past the elements of a list
    /// that a summary keeps.
    fn start(&mut self) -> bool {
        let whole_up_to = self.max_items.max(WHOLE_UP_TO);
        let Some(open) = self.open.last() else {
            return true;
        };
        let (list, kept) = match open.content {
            Content::List { long: true, .. } => (true, open.len < self.max_items),
            Content::List { long: false, .. } => (true, open.len < whole_up_to),
            Content::Map { .. } => (false, true),
        };
        let kept = open.kept && kept;
        if list && open.len > 0 {
            self.feed(",");
        }
        kept
    }

    /// A value is complete: it goes where it was read, or is only counted there.
    fn place(&mut self, value: Option<Value>) {
        let Some(open) = self.open.last_mut() else {
            self.done = value;
            return;
        };
        open.len += 1;
        match (&mut open.content, value) {
            (Content::Map { map, key }, Some(value)) => {
                map.insert(Value::String(key.take().unwrap_or_default()), value);
            }
            (Content::List { items, .. }, Some(value)) => items.push(value),
            (_, None) => {}
        }
    }

    fn begin(&mut self, kept: bool, content: Content) {
        self.open.push(Open {
            kept,
            len: 0,
            content,
        });
    }

    /// A list is complete: whole when short, else its length, first elements and CRC.
    fn list(&mut self, mut kept: Vec<Value>, len: usize) -> Value {
        let own = self.hashers.pop();
        self.feed("]");
        if len <= self.max_items.max(WHOLE_UP_TO) {
            return Value::Sequence(kept);
        }
        let crc = own.map(|mut own| {
            own.update(b"]");
            format!("{:08x}", own.finalize())
        });
        kept.truncate(self.max_items);
        let mut m = Mapping::new();
        m.insert("len".into(), Value::from(len as u64));
        m.insert("first".into(), Value::Sequence(kept));
        m.insert("crc32".into(), Value::String(crc.unwrap_or_default()));
        Value::Mapping(m)
    }
}

impl crate::events::Events for Summary {
    fn scalar(&mut self, json: &str) {
        let kept = self.start();
        self.feed(json);
        let value = kept.then(|| serde_json::from_str(json).unwrap_or(Value::Null));
        self.place(value);
    }

    fn string(&mut self, text: &str) {
        let kept = self.start();
        self.feed_string(text);
        let value = kept.then(|| string(text).unwrap_or_else(|| Value::String(text.to_owned())));
        self.place(value);
    }

    fn begin_map(&mut self) {
        let kept = self.start();
        self.feed("{");
        let map = Mapping::new();
        self.begin(kept, Content::Map { map, key: None });
    }

    fn key(&mut self, key: &str) {
        let Some(open) = self.open.last_mut() else {
            return;
        };
        let comma = open.len > 0;
        if let (true, Content::Map { key: pending, .. }) = (open.kept, &mut open.content) {
            *pending = Some(key.to_owned());
        }
        if comma {
            self.feed(",");
        }
        self.feed_string(key);
        self.feed(":");
    }

    fn begin_seq(&mut self, len: Option<usize>) {
        let kept = self.start();
        // A kept list's own CRC takes its text from its `[` to its `]`.
        if kept {
            self.hashers.push(crc32fast::Hasher::new());
        }
        self.feed("[");
        // A list known to be long keeps only the elements it shows.
        let long = len.is_some_and(|len| len > self.max_items.max(WHOLE_UP_TO));
        self.begin(
            kept,
            Content::List {
                items: Vec::new(),
                long,
            },
        );
    }

    fn end(&mut self) {
        let Some(open) = self.open.pop() else {
            return;
        };
        let value = match (open.kept, open.content) {
            (true, Content::Map { map, .. }) => {
                self.feed("}");
                Some(Value::Mapping(map))
            }
            (true, Content::List { items, .. }) => Some(self.list(items, open.len)),
            (false, Content::Map { .. }) => {
                self.feed("}");
                None
            }
            (false, Content::List { .. }) => {
                self.feed("]");
                None
            }
        };
        self.place(value);
    }
}

/// What [`crate::to_hex`] produces: an even number of lowercase hex digits.
fn is_lower_hex(s: &str) -> bool {
    s.len() & 1 == 0 && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

fn crc_hex(data: &[u8]) -> String {
    format!("{:08x}", crc32fast::hash(data))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RawBytes;

    #[derive(serde::Serialize)]
    struct Sample {
        long: Vec<u32>,
        short: Vec<u32>,
        blob: RawBytes,
        small_blob: RawBytes,
    }

    fn sample() -> Sample {
        Sample {
            long: (0..100).collect(),
            short: vec![1, 2, 3],
            blob: RawBytes::new((0..=255).collect()),
            small_blob: RawBytes::new(vec![0xab; 4]),
        }
    }

    #[test]
    fn shortens_long_sequences_and_blobs() {
        let yaml = summarize(&sample(), 3);
        let v: Value = serde_yaml::from_str(&yaml).unwrap();
        let long = &v["long"];
        assert_eq!(long["len"], Value::from(100u64));
        assert_eq!(
            long["first"],
            Value::Sequence(vec![0u32.into(), 1u32.into(), 2u32.into()])
        );
        let crc = long["crc32"].as_str().unwrap();
        assert_eq!(crc.len(), 8);
        assert!(is_lower_hex(crc));
        assert_eq!(
            v["short"],
            Value::Sequence(vec![1u32.into(), 2u32.into(), 3u32.into()])
        );
        assert_eq!(v["blob"]["bytes"], Value::from(256u64));
        assert_eq!(
            v["blob"]["head"].as_str().unwrap(),
            "000102030405060708090a0b0c0d0e0f"
        );
        let all: Vec<u8> = (0..=255).collect();
        assert_eq!(
            v["blob"]["crc32"].as_str().unwrap(),
            format!("{:08x}", crc32fast::hash(&all))
        );
        assert_eq!(v["small_blob"].as_str(), Some("abababab"));
    }

    /// The summary of `value` built from its events.
    fn summary_of<T: serde::Serialize>(value: &T, max_items: usize) -> Value {
        let mut summary = Summary::new(max_items);
        crate::events::serialize_into(value, &mut summary).unwrap();
        summary.finish().expect("a whole value")
    }

    #[test]
    fn a_streamed_summary_shortens_as_the_summary_of_a_value() {
        let streamed = summary_of(&sample(), 3);
        let whole = summary_value(&sample(), 3).unwrap();
        // The same shape and values; only a list's CRC is of another text.
        let without_crc = |mut v: Value| {
            v["long"].as_mapping_mut().unwrap().remove("crc32");
            v
        };
        assert_eq!(without_crc(streamed.clone()), without_crc(whole));
        let long: Vec<u32> = (0..100).collect();
        let text = serde_json::to_string(&long).unwrap();
        assert_eq!(
            streamed["long"]["crc32"].as_str().unwrap(),
            format!("{:08x}", crc32fast::hash(text.as_bytes()))
        );
        // Nested lists: each list's CRC is of its own text, whatever holds it.
        let nested: serde_json::Value =
            serde_json::from_str(r#"{"a":[[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17],[]]}"#)
                .unwrap();
        let v = summary_of(&nested, 2);
        let inner = "[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17]";
        assert_eq!(
            v["a"][0]["crc32"].as_str().unwrap(),
            format!("{:08x}", crc32fast::hash(inner.as_bytes()))
        );
        assert_eq!(v["a"][1], Value::Sequence(Vec::new()));
        // Elements past those kept are not built, but their text still makes the CRC.
        let grid: Vec<Vec<u32>> = (0..20)
            .map(|i| (0..20).map(|j| i * 20 + j).collect())
            .collect();
        let v = summary_of(&grid, 2);
        assert_eq!(v["len"], Value::from(20u64));
        assert_eq!(v["first"][1]["len"], Value::from(20u64));
        let text = serde_json::to_string(&grid).unwrap();
        assert_eq!(
            v["crc32"].as_str().unwrap(),
            format!("{:08x}", crc32fast::hash(text.as_bytes()))
        );
        let row: Vec<u32> = (20..40).collect();
        let row = serde_json::to_string(&row).unwrap();
        assert_eq!(
            v["first"][1]["crc32"].as_str().unwrap(),
            format!("{:08x}", crc32fast::hash(row.as_bytes()))
        );
    }

    /// A list that does not say its length before its elements.
    struct Unsized(Vec<u32>);

    impl serde::Serialize for Unsized {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeSeq;
            let mut seq = s.serialize_seq(None)?;
            for item in &self.0 {
                seq.serialize_element(item)?;
            }
            seq.end()
        }
    }

    #[test]
    fn a_list_of_unsaid_length_is_summarized_as_one_that_says_it() {
        for len in [3, 16, 17, 40] {
            let items: Vec<u32> = (0..len).collect();
            let said = summary_of(&items, 3);
            assert_eq!(summary_of(&Unsized(items.clone()), 3), said, "{len}");
            let long = len > 16;
            assert_eq!(said.get("len").is_some(), long, "{len}");
        }
    }

    #[test]
    fn deterministic_and_content_sensitive() {
        let a = summarize(&sample(), 3);
        assert_eq!(a, summarize(&sample(), 3));
        let mut changed = sample();
        changed.long[99] = 7;
        let b = summarize(&changed, 3);
        assert_ne!(a, b);
    }

    #[test]
    fn nested_sequences_are_shortened_inside_kept_items() {
        let nested: Vec<Vec<u8>> = vec![(0..20).collect(), vec![1; 16]];
        let v: Value = serde_yaml::from_str(&summarize(&nested, 2)).unwrap();
        assert_eq!(v[0]["len"], Value::from(20u64));
        assert_eq!(
            v[1],
            Value::Sequence(vec![1u8.into(); 16]),
            "16 items stay whole"
        );
    }
}
