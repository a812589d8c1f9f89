//! What every fuzz target checks, generic over the format.
//!
//! `read::<C>` feeds arbitrary bytes to a reader: it must return, never panic, never loop and
//! never allocate beyond what the input can justify (libFuzzer's `-rss_limit_mb`,
//! `-malloc_limit_mb` and `-timeout` catch the last two), and an error must point inside the input.
//! On success the other entry points a tool would call next (`check`, `normalize`, `to_bytes`)
//! must not panic either.
//!
//! `round_trip::<C>` demands the codec's promise: whatever decodes re-encodes to the same
//! bytes, and those bytes decode to an equal value.
//!
//! `edit::<C>` demands the writer's: a decoded value edited through its JSON document (one
//! integer or string leaf, chosen from the input) is either refused, or encodes to bytes that
//! decode to exactly the edited value; a refused edit, normalized, likewise.

use skelcodec_runtime::{Codec, Error};

pub mod mutants;

/// Asserts what every decode error must satisfy: an offset within the input.
pub fn check_error(data: &[u8], e: &Error) {
    assert!(
        e.offset() <= data.len() as u64,
        "error offset {} past the end of a {}-byte input: {e}",
        e.offset(),
        data.len()
    );
}

/// Decodes; on success also checks, normalizes and encodes (each may fail, none may panic).
pub fn read<C: Codec>(data: &[u8]) {
    match C::read(data) {
        Err(e) => check_error(data, &e),
        Ok(value) => {
            let _ = value.check();
            let _ = value.to_bytes();
            let mut normalized = value;
            if normalized.normalize().is_ok() {
                reads_back_exactly(&normalized, "the normalized value");
            }
        }
    }
}

/// Decodes; whatever decodes must re-encode byte for byte and decode to an equal value.
pub fn round_trip<C: Codec>(data: &[u8]) {
    let value = match C::read(data) {
        Ok(value) => value,
        Err(e) => return check_error(data, &e),
    };
    let bytes = match value.to_bytes() {
        Ok(bytes) => bytes,
        Err(e) => panic!("decoded but does not encode: {e}"),
    };
    if let Some(at) = skelcodec_runtime::first_difference(data, &bytes) {
        panic!(
            "re-encoding differs at byte {at} ({}); input {} bytes, output {}",
            skelcodec_runtime::field_at::<C>(data, at),
            data.len(),
            bytes.len()
        );
    }
    let again = match C::read(&bytes) {
        Ok(again) => again,
        Err(e) => panic!("re-encoded bytes do not decode: {e}"),
    };
    assert_same_value(
        &value,
        &again,
        "re-encoded bytes decode to a different value",
    );
}

/// Decodes, edits one leaf of the value's JSON document, and checks that the edit is refused
/// or reads back exactly.
pub fn edit<C: Codec>(data: &[u8]) {
    let Ok(value) = C::read(data) else {
        return;
    };
    let Ok(mut document) = serde_json::to_value(&value) else {
        return;
    };
    let mut leaves = Vec::new();
    collect_leaves(&document, String::new(), &mut leaves);
    if leaves.is_empty() {
        return;
    }
    // The input chooses the leaf and the edit, so that libFuzzer explores both.
    let seed = data
        .iter()
        .fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(*b)));
    let pointer = &leaves[(seed % leaves.len() as u64) as usize];
    let Some(slot) = document.pointer_mut(pointer) else {
        return;
    };
    *slot = match (&*slot, seed >> 32 & 3) {
        (serde_json::Value::Number(n), kind) => {
            let n = n.as_i64().unwrap_or(0);
            serde_json::Value::from(
                [n.wrapping_add(1), n.wrapping_sub(1), 0, 1 << 31][kind as usize],
            )
        }
        (serde_json::Value::String(s), 0) => serde_json::Value::from(format!("{s}Z")),
        (serde_json::Value::String(s), _) => {
            serde_json::Value::from(s.chars().rev().collect::<String>())
        }
        _ => return,
    };
    let Ok(edited) = serde_json::from_value::<C>(document) else {
        return;
    };
    if edited.to_bytes().is_ok() {
        return reads_back_exactly(&edited, &format!("an accepted edit of {pointer}"));
    }
    // Refused as it is: what `encode --normalize` does must then hold the same promise.
    let mut normalized = edited;
    if normalized.normalize().is_ok() {
        reads_back_exactly(&normalized, &format!("the normalized edit of {pointer}"));
    }
}

/// When `value` encodes, the bytes decode to exactly `value`.
fn reads_back_exactly<C: Codec>(value: &C, what: &str) {
    let Ok(bytes) = value.to_bytes() else {
        return;
    };
    let back = match C::read(&bytes) {
        Ok(back) => back,
        Err(e) => panic!("{what} encodes, but does not read back: {e}"),
    };
    assert_same_value(
        &back,
        value,
        &format!("{what} reads back as something else"),
    );
}

/// Asserts two decoded values are the same. Floats make `==` false for NaN although the bits
/// are equal; the Debug text shows every field and spells NaN the same each time.
fn assert_same_value<C: Codec>(found: &C, expected: &C, what: &str) {
    if found != expected {
        assert_eq!(format!("{found:?}"), format!("{expected:?}"), "{what}");
    }
}

/// The JSON pointer of every integer and string leaf.
fn collect_leaves(value: &serde_json::Value, at: String, out: &mut Vec<String>) {
    match value {
        serde_json::Value::Object(map) => {
            for (key, child) in map {
                let key = key.replace('~', "~0").replace('/', "~1");
                collect_leaves(child, format!("{at}/{key}"), out);
            }
        }
        serde_json::Value::Array(items) => {
            for (index, child) in items.iter().enumerate() {
                collect_leaves(child, format!("{at}/{index}"), out);
            }
        }
        serde_json::Value::Number(n) if n.is_i64() || n.is_u64() => out.push(at),
        serde_json::Value::String(_) => out.push(at),
        _ => {}
    }
}

/// Codecs of the feature schemas whose read paths the game formats do not take: bit fields,
/// processed and framed values, text in other encodings, values read from other streams,
/// recursive types.
pub mod features {
    /// Bit fields in both bit orders, dropped bits, a 64-bit field across nine bytes.
    #[allow(deprecated)] // the schema's style warnings, which `schema check` lists
    pub mod bit_fields {
        skelcodec_macros::codec!("../generated-tests/tests/schemas/bit_fields.ksy");
    }
    /// xor, rol and zlib, and a user type framed by padding and a terminator.
    #[allow(deprecated)] // the schema's style warnings, which `schema check` lists
    pub mod processed {
        skelcodec_macros::codec!("../generated-tests/tests/schemas/processed.ksy");
    }
    /// Shift_JIS, UTF-16LE, IBM437 and windows-1251 text.
    pub mod text_encodings {
        skelcodec_macros::codec!("../generated-tests/tests/schemas/text_encodings.ksy");
    }
    /// Instances read from a decoded table's stream, the parent's, a header's, and from the
    /// end of streams.
    pub mod other_streams {
        skelcodec_macros::codec!("../generated-tests/tests/schemas/other_streams.ksy");
    }
    /// A type that holds itself (boxed): hostile nesting must end in the reader's depth
    /// error, never a stack overflow.
    pub mod recursion {
        skelcodec_macros::codec!("../generated-tests/tests/schemas/recursion.ksy");
    }
}
