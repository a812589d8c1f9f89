//! Repeated switches whose selector depends on the element (`_index`, a `-for-each`'s `_`):
//! each element is read in the case its selector gives and kept as a value of the switch's
//! enum, written back byte for byte, and an element edited into another case is refused with
//! its path and index.

mod per_element_switch {
    skelcodec_macros::codec!("tests/schemas/per_element_switch.ksy");
}

use per_element_switch::{
    Blob, PerElementSwitch, PerElementSwitchExtras, PerElementSwitchFlags, PerElementSwitchItems,
    PerElementSwitchRecords, Point,
};
use skelcodec_runtime::RawBytes;

/// Three kinds (1, 2, 3); items: a `u2`, a point, a blob "hi"; records of two bytes: raw, a
/// point, raw; extras per kind: a `u1`, a point, a `u1`; flags: a `u1` at index 0, a `u2` at
/// index 1, the last.
const FILE: [u8; 24] = [
    3, // count
    1, 2, 3, // kinds
    0x34, 0x12, 5, 6, 2, b'h', b'i', // items
    0xaa, 0xbb, 7, 8, 0xcc, 0xdd, // records
    0x11, 9, 10, 0x33, // extras
    1, 2, 3, // flags
];

#[test]
fn each_element_is_read_in_its_own_case() {
    let value = PerElementSwitch::read(&FILE).unwrap();
    assert_eq!(
        value.items,
        [
            PerElementSwitchItems::U2(0x1234),
            PerElementSwitchItems::Point(Point { x: 5, y: 6 }),
            PerElementSwitchItems::Blob(Blob {
                len_data: 2,
                data: RawBytes::new(b"hi".to_vec()),
            }),
        ]
    );
    assert_eq!(
        value.records,
        [
            PerElementSwitchRecords::Raw(RawBytes::new(vec![0xaa, 0xbb])),
            PerElementSwitchRecords::Point(Point { x: 7, y: 8 }),
            PerElementSwitchRecords::Raw(RawBytes::new(vec![0xcc, 0xdd])),
        ]
    );
    assert_eq!(
        value.extras,
        [
            PerElementSwitchExtras::U1(0x11),
            PerElementSwitchExtras::Point(Point { x: 9, y: 10 }),
            PerElementSwitchExtras::U1(0x33),
        ]
    );
    assert_eq!(
        value.flags,
        [
            PerElementSwitchFlags::U1(1),
            PerElementSwitchFlags::U2(0x0302)
        ]
    );
    // Expressions reach one element's case.
    assert_eq!(value.second_x(), 5);
    assert_eq!(value.blob_len(), 2);
}

#[test]
fn the_file_is_written_back_byte_exact_and_its_document_reads_back() {
    let value = PerElementSwitch::read(&FILE).unwrap();
    assert_eq!(value.to_bytes().unwrap(), FILE);
    let document = serde_json::to_value(&value).unwrap();
    // One case per element, named as the case.
    assert_eq!(document["items"][0], serde_json::json!({ "u2": 0x1234 }));
    assert_eq!(
        document["items"][1],
        serde_json::json!({ "point": { "x": 5, "y": 6 } })
    );
    let back: PerElementSwitch = serde_json::from_value(document).unwrap();
    assert_eq!(back, value);
    assert_eq!(back.to_bytes().unwrap(), FILE);
}

#[test]
fn an_element_edited_into_another_case_is_refused_with_its_path() {
    let mut value = PerElementSwitch::read(&FILE).unwrap();
    value.items[1] = PerElementSwitchItems::U2(7);
    let error = value.to_bytes().unwrap_err().to_string();
    assert!(error.contains("items[1]"), "{error}");
    assert!(
        error.contains("`kinds[_index]` calls for the case `point`, but the value holds `u2`"),
        "{error}"
    );
    let mut value = PerElementSwitch::read(&FILE).unwrap();
    value.extras[0] = PerElementSwitchExtras::Point(Point { x: 1, y: 2 });
    let error = value.to_bytes().unwrap_err().to_string();
    assert!(error.contains("extras[0]"), "{error}");
    assert!(error.contains("calls for the case `u1`"), "{error}");
}

#[test]
fn an_edit_that_keeps_each_case_is_written_and_reads_back() {
    let mut value = PerElementSwitch::read(&FILE).unwrap();
    // The kinds and the elements change together: the selector follows the element.
    value.kinds.swap(0, 1);
    value.items.swap(0, 1);
    value.records.swap(0, 1);
    value.extras.swap(0, 1);
    let written = value.to_bytes().unwrap();
    assert_eq!(PerElementSwitch::read(&written).unwrap(), value);
}

#[test]
fn an_element_whose_case_is_unknown_is_a_located_read_error() {
    let mut bytes = FILE;
    bytes[2] = 9;
    let error = PerElementSwitch::read(&bytes).unwrap_err().to_string();
    assert!(error.contains("at byte 6"), "{error}");
    assert!(error.contains("items[1]"), "{error}");
    assert!(error.contains("no case for 9"), "{error}");
}

#[test]
fn check_and_normalize_reach_each_elements_case() {
    let mut value = PerElementSwitch::read(&FILE).unwrap();
    let PerElementSwitchItems::Blob(blob) = &mut value.items[2] else {
        panic!("{:?}", value.items[2]);
    };
    blob.data = RawBytes::new(b"hey".to_vec());
    let mismatches = value.check();
    assert_eq!(mismatches.len(), 1, "{mismatches:?}");
    assert!(
        mismatches[0].to_string().contains("items[2].blob.len_data"),
        "{}",
        mismatches[0]
    );
    value.normalize().unwrap();
    assert!(value.check().is_empty());
    let written = value.to_bytes().unwrap();
    assert_eq!(PerElementSwitch::read(&written).unwrap(), value);
}
