//! `_parent` and `_root`: values a type reaches in the values that hold it are passed down as
//! implicit parameters, to readers and writers alike, so an edit of the holder steers both.

mod navigation {
    skelcodec_macros::codec!("tests/schemas/navigation.ksy");
}

use navigation::Navigation;

/// count 2, names of 2 bytes, a 3-byte label; entry "ab" (payload, extra), entry "cd"
/// (payload); a footer with a 1-byte label.
const FILE: [u8; 18] = [
    2, 2, 3, b'h', b'e', b'y', // header
    b'a', b'b', 0x10, 0x11, 0x99, // entry "ab": payload, extra
    b'c', b'd', 0x20, 0x21, // entry "cd": payload
    1, b'z', // footer
    0xee, // after the root's value
];

#[test]
fn sizes_and_conditions_come_from_the_holders() {
    let value = Navigation::read(&FILE).unwrap();
    assert_eq!(value.header.label.text.text(), "hey");
    assert_eq!(value.entries[0].name.text(), "ab");
    assert_eq!(value.entries[0].body.payload.0, [0x10, 0x11]);
    assert_eq!(
        value.entries[0].body.extra,
        Some(0x99),
        "`_parent.name` is \"ab\""
    );
    assert_eq!(value.entries[1].body.extra, None);
    assert_eq!(value.entries[1].body.payload.0, [0x20, 0x21]);
    assert_eq!(
        value.footer.label.text.text(),
        "z",
        "the other holder's size"
    );
    assert_eq!(value.to_bytes().unwrap(), FILE);
}

#[test]
fn writers_take_the_values_from_the_edited_holders() {
    let mut value = Navigation::read(&FILE).unwrap();
    // A longer name in the header without longer names is refused, with the path.
    value.header.name_len = 3;
    let err = value.to_bytes().unwrap_err();
    assert_eq!(err.path(), "entries[0].name", "{err}");

    // Renaming the first entry drops its `extra`: the writer sees the new name.
    let mut value = Navigation::read(&FILE).unwrap();
    value.entries[0].name = "xy".into();
    let err = value.to_bytes().unwrap_err();
    assert!(err.path().starts_with("entries[0].body"), "{err}");
    value.entries[0].body.extra = None;
    let bytes = value.to_bytes().unwrap();
    let again = Navigation::read(&bytes).unwrap();
    assert_eq!(again, value);
    assert_eq!(bytes.len(), FILE.len() - 1);
}
