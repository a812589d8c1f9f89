//! Parse instances read on demand, as Kaitai reads every instance: the file reads without them,
//! and each is read the first time it is asked for, from a copy of the file the value shares;
//! a failure is that instance's alone. Comparisons, documents and writers see what reading it
//! gives; an unread instance costs no reading, and its bytes are not unclaimed gaps.

mod on_demand {
    skelcodec_macros::codec!("tests/schemas/on_demand.ksy");
}

use on_demand::{EntryBody, OnDemand};
use skelcodec_runtime::Instance;

/// Three entries (tag, offset, length), one byte no entry claims (0xEE at 13), then their
/// blocks: numbers 1, 2, 3; the text "hi"; and 9, 9, which `bd` reads as three numbers: it
/// fails.
fn file() -> Vec<u8> {
    let mut file = vec![3];
    for (tag, ofs, len) in [(b"nu", 14, 3), (b"tx", 17, 2), (b"bd", 19, 2)] {
        file.extend_from_slice(tag);
        file.extend_from_slice(&[ofs, len]);
    }
    file.push(0xEE);
    file.extend_from_slice(&[1, 2, 3, b'h', b'i', 9, 9]);
    file
}

#[test]
fn instances_are_read_when_asked_for_from_the_values_own_copy() {
    let bytes = file();
    let value = OnDemand::read(&bytes).unwrap();
    drop(bytes);
    assert!(value
        .entries
        .iter()
        .all(|e| matches!(e.body, Instance::Unread(_)) && matches!(e.tail, Instance::Unread(_))));
    let Some(EntryBody::Numbers(numbers)) = value.entries[0].body.get() else {
        panic!("{:?}", value.entries[0].body);
    };
    assert_eq!(numbers.items, [1, 2, 3]);
    let Some(EntryBody::Text(text)) = value.entries[1].body.get() else {
        panic!("{:?}", value.entries[1].body);
    };
    assert_eq!(text.value.text_bytes(), b"hi");
    // Asked for once, it is kept.
    assert!(std::ptr::eq(
        value.entries[0].body.get().unwrap(),
        value.entries[0].body.get().unwrap()
    ));
    // Read on demand too: an instance of a value read on demand, in a stream it was given.
    let tail = value.entries[1].tail.get().unwrap();
    assert_eq!(tail.data.0, b"hi");
    assert_eq!(tail.last_of_file.get().unwrap().0, [9]);
}

#[test]
fn a_failure_is_the_instances_own_and_shown_where_it_is() {
    let value = OnDemand::read(&file()).unwrap();
    let Instance::Failed(error) = value.entries[2].body.resolved() else {
        panic!("{:?}", value.entries[2].body);
    };
    assert_eq!(error.offset(), 19, "{error}");
    assert_eq!(error.path(), "numbers2.items", "{error}");
    assert!(error.to_string().contains(": count 3"), "{error}");
    let document = serde_json::to_value(&value).unwrap();
    assert_eq!(
        document["entries"][0]["body"],
        serde_json::json!({ "numbers": { "items": [1, 2, 3] } })
    );
    assert_eq!(
        document["entries"][1]["tail"]["last_of_file"],
        serde_json::json!("09")
    );
    assert!(
        document["entries"][2]["body"]["_error"].is_string(),
        "{document}"
    );
    // Its bytes are its own (claimed when the file was read): written back as read.
    assert_eq!(
        value.entries[2]
            .body
            .held(&skelcodec_runtime::Writer::new()),
        Some(skelcodec_runtime::writer::Held::Raw(&[9, 9]))
    );
    assert_eq!(value.to_bytes().unwrap(), file());
    let back: OnDemand = serde_json::from_value(document).unwrap();
    assert_eq!(back, value);
    assert_eq!(
        back.entries[2].body.held(&skelcodec_runtime::Writer::new()),
        Some(skelcodec_runtime::writer::Held::Raw(&[9, 9]))
    );
    assert_eq!(back.to_bytes().unwrap(), file());
}

#[test]
fn unread_instances_claim_their_bytes_and_write_back_as_read() {
    let value = OnDemand::read(&file()).unwrap();
    // Only the byte no entry points at is unclaimed; the blocks are the instances'.
    assert_eq!(value.unclaimed.len(), 1);
    assert_eq!(
        (
            value.unclaimed[0].offset,
            value.unclaimed[0].bytes.0.as_slice()
        ),
        (13, &[0xEE][..])
    );
    assert_eq!(value.to_bytes().unwrap(), file());
    assert_eq!(OnDemand::read(&file()).unwrap(), value);
}

#[test]
fn an_edited_instance_is_written_where_it_was_read() {
    let mut value = OnDemand::read(&file()).unwrap();
    let Some(EntryBody::Numbers(numbers)) = value.entries[0].body.get_mut() else {
        panic!("{:?}", value.entries[0].body);
    };
    numbers.items[1] = 7;
    // `tail` reads the same bytes: edited alone, the two disagree.
    let err = value.to_bytes().unwrap_err();
    assert!(err.to_string().contains("overlaps `body`"), "{err}");
    value.entries[0].tail.get_mut().unwrap().data.0 = vec![1, 7, 3].into();
    let written = value.to_bytes().unwrap();
    let mut expected = file();
    expected[15] = 7;
    assert_eq!(written, expected);
    assert_eq!(OnDemand::read(&written).unwrap(), value);
    // Growing it past the size its entry gives is refused, naming it.
    let Some(EntryBody::Numbers(numbers)) = value.entries[0].body.get_mut() else {
        unreachable!()
    };
    numbers.items.push(4);
    let err = value.to_bytes().unwrap_err();
    assert!(err.to_string().contains("body"), "{err}");
}

#[test]
fn a_file_given_to_the_reader_is_kept_instead_of_a_copy() {
    let value = OnDemand::read_owned(file()).unwrap();
    assert!(matches!(value.entries[0].body, Instance::Unread(_)));
    assert_eq!(value, OnDemand::read(&file()).unwrap());
    assert_eq!(value.to_bytes().unwrap(), file());
}

#[test]
fn values_with_unread_instances_cross_threads() {
    fn shared<T: Send + Sync>(_: &T) {}
    let value = OnDemand::read(&file()).unwrap();
    shared(&value);
    let entries = value.entries.clone();
    let read = std::thread::spawn(move || entries[1].body.get().is_some());
    assert!(read.join().unwrap());
}
