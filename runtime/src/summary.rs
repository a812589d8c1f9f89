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
