//! An `if` computed from the stream (`_io`): the writer cannot evaluate it, so it writes the
//! field when the value holds it, and the codec reads its output back, refusing a value that
//! would read back as another.

mod stream_conditions {
    skelcodec_macros::codec!("tests/schemas/stream_conditions.ksy");
}

use stream_conditions::StreamConditions;

#[test]
fn the_writer_follows_the_value_and_reads_its_output_back() {
    let long = StreamConditions::read(&[1, 2, 3, 4]).unwrap();
    assert_eq!((long.b, long.rest.as_slice()), (Some(2), [3, 4].as_slice()));
    assert_eq!(long.to_bytes().unwrap(), [1, 2, 3, 4]);
    let short = StreamConditions::read(&[1, 2, 3]).unwrap();
    assert_eq!((short.b, short.rest.as_slice()), (None, [2, 3].as_slice()));
    assert_eq!(short.to_bytes().unwrap(), [1, 2, 3]);

    // Dropping `b` leaves three bytes, and three bytes read without it: accepted.
    let mut dropped = long;
    dropped.b = None;
    assert_eq!(dropped.to_bytes().unwrap(), [1, 3, 4]);

    // Two bytes and `b` make three, too few for `b` to be read: refused.
    let mut edited = StreamConditions::read(&[1, 2]).unwrap();
    edited.b = Some(5);
    let err = edited.to_bytes().unwrap_err();
    assert!(err.to_string().contains("read back as another"), "{err}");
}

#[allow(deprecated)] // the schema's style warnings, which `schema check` lists
mod substream_conditions {
    skelcodec_macros::codec!("tests/schemas/substream_conditions.ksy");
}

#[test]
fn a_condition_on_another_values_stream_is_verified_by_reading_back() {
    use substream_conditions::SubstreamConditions;
    let short = SubstreamConditions::read(&[2, 7, 9]).unwrap();
    assert_eq!(short.body, None);
    assert_eq!(short.to_bytes().unwrap(), [2, 7, 9]);
    let long = SubstreamConditions::read(&[4, 7, 9, 9, 9, 5]).unwrap();
    assert_eq!(long.body, Some(5));
    assert_eq!(long.to_bytes().unwrap(), [4, 7, 9, 9, 9, 5]);

    // A header of two bytes holds no body: adding one would read back as trailing bytes.
    let mut edited = short;
    edited.body = Some(5);
    let err = edited.to_bytes().unwrap_err();
    assert!(err.to_string().contains("read back as another"), "{err}");
    assert!(err.to_string().contains("body"), "{err}");
}
