//! Documents of a conditional field that holds no value (`contents` or padding with `if`): an
//! `Option<()>` would be `null` both present and absent, so a document could not say which.
//! Present is `true`; absent is `null`, `false` or left out.

use serde::{Deserialize, Deserializer, Serializer};

/// `Some(())` as `true`, `None` as `null`.
pub fn serialize<S: Serializer>(value: &Option<()>, s: S) -> Result<S::Ok, S::Error> {
    match value {
        Some(()) => s.serialize_bool(true),
        None => s.serialize_none(),
    }
}

/// `true` as `Some(())`; `false` and `null` as `None`.
pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<()>, D::Error> {
    Ok(Option::<bool>::deserialize(d)?.and_then(|present| present.then_some(())))
}

#[cfg(test)]
mod tests {
    #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
    struct Padded {
        #[serde(default, with = "super")]
        pad: Option<()>,
    }

    #[test]
    fn present_and_absent_differ_in_documents() {
        let present = serde_json::to_string(&Padded { pad: Some(()) }).unwrap();
        let absent = serde_json::to_string(&Padded { pad: None }).unwrap();
        assert_eq!(present, r#"{"pad":true}"#);
        assert_eq!(absent, r#"{"pad":null}"#);
        for (text, pad) in [(present.as_str(), Some(())), (absent.as_str(), None)] {
            assert_eq!(
                serde_json::from_str::<Padded>(text).unwrap(),
                Padded { pad }
            );
        }
        let left_out: Padded = serde_json::from_str("{}").unwrap();
        assert_eq!(left_out.pad, None);
        let pad_false: Padded = serde_json::from_str(r#"{"pad":false}"#).unwrap();
        assert_eq!(pad_false.pad, None);
    }
}
