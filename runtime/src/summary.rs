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
        Value::String(s) if s.len() > MAX_HEX_CHARS && is_lower_hex(&s) => {
            let bytes = crate::bytes::from_hex(&s).unwrap_or_default();
            let mut m = Mapping::new();
            m.insert("bytes".into(), Value::from(bytes.len() as u64));
            m.insert(
                "head".into(),
                Value::String(s.get(..HEAD_HEX_CHARS).unwrap_or(&s).to_owned()),
            );
            m.insert("crc32".into(), Value::String(crc_hex(&bytes)));
            Value::Mapping(m)
        }
        other => other,
    }
}

/// The summary of a JSON document read from `reader` as it streams, without holding the
/// document: long lists and byte strings shortened as [`summary_value`] shortens them, except
/// that a list's `crc32` is that of its compact JSON text (`[1,2,3]`). What `decode
/// --summary` prints: its memory is the summary's and one value's path, not the document's.
pub fn summary_of_json<R: std::io::Read>(
    reader: R,
    max_items: usize,
) -> Result<Value, serde_json::Error> {
    use serde::de::DeserializeSeed;
    let mut de = serde_json::Deserializer::from_reader(reader);
    let hashers = std::cell::RefCell::new(Vec::new());
    let value = Streamed {
        max_items,
        hashers: &hashers,
    }
    .deserialize(&mut de)?;
    de.end()?;
    Ok(value)
}

/// A value being summarized as it is read; `hashers` are the CRCs of the lists it lies in,
/// each fed their compact JSON text.
#[derive(Clone, Copy)]
struct Streamed<'h> {
    max_items: usize,
    hashers: &'h std::cell::RefCell<Vec<crc32fast::Hasher>>,
}

impl Streamed<'_> {
    fn feed(&self, text: &[u8]) {
        for hasher in self.hashers.borrow_mut().iter_mut() {
            hasher.update(text);
        }
    }

    fn feed_json<T: serde::Serialize + ?Sized>(&self, value: &T) {
        self.feed(serde_json::to_string(value).unwrap_or_default().as_bytes());
    }

    /// A number or boolean: its text fed, its value kept.
    fn scalar<T: serde::Serialize + Into<Value>>(&self, v: T) -> Value {
        self.feed_json(&v);
        v.into()
    }
}

impl<'de> serde::de::DeserializeSeed<'de> for Streamed<'_> {
    type Value = Value;

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for Streamed<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON document")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(self.scalar(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(self.scalar(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(self.scalar(v))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(self.scalar(v))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        self.feed_json(v);
        Ok(shorten(Value::String(v.to_owned()), self.max_items))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        self.feed(b"null");
        Ok(Value::Null)
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        self.feed(b"{");
        let mut out = Mapping::new();
        while let Some(key) = map.next_key::<String>()? {
            if !out.is_empty() {
                self.feed(b",");
            }
            self.feed_json(&key);
            self.feed(b":");
            let value = map.next_value_seed(self)?;
            out.insert(Value::String(key), value);
        }
        self.feed(b"}");
        Ok(Value::Mapping(out))
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        // The list's own CRC takes its text from its `[` to its `]`.
        self.hashers.borrow_mut().push(crc32fast::Hasher::new());
        self.feed(b"[");
        // Kept until the list is known to be long; then only the first `max_items`.
        let whole_up_to = self.max_items.max(WHOLE_UP_TO);
        let (mut kept, mut len) = (Vec::new(), 0usize);
        loop {
            let separated = Separated {
                inner: self,
                first: len == 0,
            };
            let Some(item) = seq.next_element_seed(separated)? else {
                break;
            };
            if kept.len() < whole_up_to {
                kept.push(item);
            }
            len += 1;
        }
        let own = self.hashers.borrow_mut().pop();
        self.feed(b"]");
        if len <= whole_up_to {
            return Ok(Value::Sequence(kept));
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
        Ok(Value::Mapping(m))
    }
}

/// An element of a list being summarized: a comma is fed before it unless it is the first.
struct Separated<'h> {
    inner: Streamed<'h>,
    first: bool,
}

impl<'de> serde::de::DeserializeSeed<'de> for Separated<'_> {
    type Value = Value;

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        if !self.first {
            self.inner.feed(b",");
        }
        self.inner.deserialize(d)
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
            blob: RawBytes((0..=255).collect()),
            small_blob: RawBytes(vec![0xab; 4]),
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

    #[test]
    fn a_streamed_summary_shortens_as_the_summary_of_a_value() {
        let json = serde_json::to_string(&sample()).unwrap();
        let streamed = summary_of_json(json.as_bytes(), 3).unwrap();
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
        let nested = r#"{"a":[[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17],[]]}"#;
        let v = summary_of_json(nested.as_bytes(), 2).unwrap();
        let inner = "[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17]";
        assert_eq!(
            v["a"][0]["crc32"].as_str().unwrap(),
            format!("{:08x}", crc32fast::hash(inner.as_bytes()))
        );
        assert_eq!(v["a"][1], Value::Sequence(Vec::new()));
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
