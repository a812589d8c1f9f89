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

use skelcodec_runtime::{Codec, Error};

/// Asserts what every decode error must satisfy: an offset within the input.
fn check_error(data: &[u8], e: &Error) {
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
            // A normalized value that encodes must read back (as something).
            if normalized.normalize().is_ok()
                && let Ok(bytes) = normalized.to_bytes()
                && let Err(e) = C::read(&bytes)
            {
                check_error(&bytes, &e);
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
    // Floats make `==` false for NaN although the bits are equal (the bytes already are);
    // the Debug text shows every field and spells NaN the same each time.
    if value != again {
        assert_eq!(
            format!("{value:?}"),
            format!("{again:?}"),
            "re-encoded bytes decode to a different value"
        );
    }
}
