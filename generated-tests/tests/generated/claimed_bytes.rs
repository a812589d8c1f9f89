//! The bytes a file's fields claim, which decide the bytes it keeps as unclaimed gaps: known
//! from the read alone when every value read by position lies inside what was read in
//! sequence or is an instance left unread, which claims its bytes (no second pass over the
//! value), found by encoding it again otherwise. Either way the gaps are the bytes no field
//! claims, and the file round-trips.

mod blobs {
    skelcodec_macros::codec!("tests/schemas/blobs.ksy");
}

use blobs::Blobs;
use skelcodec_runtime::__private::fields;
use skelcodec_runtime::Gap;
use skelcodec_runtime::{Reader, Writer};

/// The gaps of `bytes`, read both ways (borrowed and kept), which must agree with each other
/// and with those a pass over the value finds, and write the file back.
fn gaps(bytes: &[u8]) -> Vec<(u64, Vec<u8>)> {
    let value = Blobs::read(bytes).expect("the fixture reads");
    let owned = Blobs::read_owned(bytes.to_vec()).expect("the fixture reads");
    assert_eq!(value, owned);
    assert_eq!(value.to_bytes().unwrap(), bytes);
    let as_pairs = |gaps: &[Gap]| -> Vec<(u64, Vec<u8>)> {
        gaps.iter()
            .map(|gap| (gap.offset, gap.bytes.0.to_vec()))
            .collect()
    };
    assert_eq!(as_pairs(&value.unclaimed), as_pairs(&owned.unclaimed));
    assert_eq!(as_pairs(&value.unclaimed), as_pairs(&gaps_of_a_pass(bytes)));
    as_pairs(&value.unclaimed)
}

/// The gaps the pass over the value read from `bytes` finds, which a read runs when it cannot
/// tell: the value written, its bodies still unread (they claim their bytes unread too) and
/// without the gaps it was read with (which claim theirs).
fn gaps_of_a_pass(bytes: &[u8]) -> Vec<Gap> {
    let mut value = Blobs::read(bytes).unwrap();
    value.unclaimed.clear();
    let mut w = Writer::for_coverage();
    value.write_to(&mut w).unwrap();
    fields::unclaimed(&Reader::new(bytes), &w.coverage())
}

/// The text of each entry's body, when it reads.
fn bodies(bytes: &[u8]) -> Vec<Option<String>> {
    let value = Blobs::read(bytes).expect("the fixture reads");
    value
        .entries
        .iter()
        .map(|entry| entry.body.get().map(|text| text.to_string()))
        .collect()
}

#[test]
fn bodies_inside_the_entries_leave_the_bytes_after_them_unclaimed() {
    // Entries (ofs 0, len 2) and (ofs 1, len 2): both bodies are bytes of the entries.
    let file = b"\x00\x02\x01\x02tail";
    assert_eq!(
        bodies(file),
        [Some("\0\x02".into()), Some("\x02\x01".into())]
    );
    assert_eq!(gaps(file), [(4, b"tail".to_vec())]);
}

#[test]
fn absent_bodies_claim_nothing() {
    // Both lengths are 0: no body is read (`if: len != 0`).
    assert_eq!(gaps(b"\x09\x00\x09\x00ab"), [(4, b"ab".to_vec())]);
    assert_eq!(gaps(b"\x09\x00\x09\x00"), []);
}

#[test]
fn a_body_past_the_entries_leaves_the_bytes_around_it_unclaimed() {
    // Entries (ofs 6, len 2) and (ofs 0, len 1): the first body is "cd", after the gap "ab".
    let file = b"\x06\x02\x00\x01abcdef";
    assert_eq!(bodies(file), [Some("cd".into()), Some("\x06".into())]);
    assert_eq!(gaps(file), [(4, b"ab".to_vec()), (8, b"ef".to_vec())]);
}

#[test]
fn a_body_ending_where_the_entries_do_is_inside_them() {
    // Entries (ofs 2, len 2) and (ofs 4, len 0): the first body is the second entry's bytes.
    assert_eq!(gaps(b"\x02\x02\x04\x00z"), [(4, b"z".to_vec())]);
}

mod resolved_while_reading {
    skelcodec_macros::codec!("tests/schemas/resolved_while_reading.ksy");
}

#[test]
fn an_instance_the_sequence_needs_claims_what_its_own_instances_claim() {
    use resolved_while_reading::ResolvedWhileReading;
    // ofs 1: `ptr` is bytes 1..3 (at 6, len_far 2), which are also `data`; `far` is "FF" at 6.
    let file = b"\x01\x06\x02gggFF";
    for value in [
        ResolvedWhileReading::read(file).unwrap(),
        ResolvedWhileReading::read_owned(file.to_vec()).unwrap(),
    ] {
        // Read with the sequence, which needs it; its `far` is read on demand.
        assert_eq!(value.ptr.far.get().map(|far| &far.0[..]), Some(&b"FF"[..]));
        let gaps: Vec<_> = value
            .unclaimed
            .iter()
            .map(|gap| (gap.offset, gap.bytes.0.to_vec()))
            .collect();
        assert_eq!(gaps, [(3, b"ggg".to_vec())]);
        assert_eq!(value.to_bytes().unwrap(), file);
    }
}
