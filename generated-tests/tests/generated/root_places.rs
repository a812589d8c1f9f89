//! What a type reaches through `_root` while the root field holding it is still being read,
//! values read by position in the order they need each other, and what every value of the
//! file knows without being passed anything.

mod root_places {
    skelcodec_macros::codec!("tests/schemas/root_places.ksy");
}

use root_places::RootPlaces;

/// header: len_body 2, base 4, entries at offsets 0 and 1; body AA BB; flag 1; kind 7 (u2).
const FILE: [u8; 9] = [2, 4, 0, 1, 0xAA, 0xBB, 1, 7, 0];

#[test]
fn entries_inside_the_header_use_the_header_fields_read_before_them() {
    let value = RootPlaces::read(&FILE).unwrap();
    let entries = &value.header.entries;
    assert_eq!(entries[0].first_byte.get(), 0xAA);
    assert_eq!(entries[1].first_byte.get(), 0xBB);
    assert_eq!(value.to_bytes().unwrap(), FILE);
}

#[test]
fn a_value_read_by_position_is_read_before_the_one_whose_type_it_chooses() {
    let value = RootPlaces::read(&FILE).unwrap();
    assert_eq!(value.flag.get(), 1);
    assert!(value.is_wide());
    let kind = format!("{:?}", value.kind);
    assert!(kind.contains('7'), "{kind}");
    let narrow = RootPlaces::read(&[2, 4, 0, 1, 0xAA, 0xBB, 0, 7, 0]).unwrap();
    assert!(!narrow.is_wide());
}

#[test]
fn a_value_read_by_position_may_use_a_later_one_through_root() {
    let value = RootPlaces::read(&FILE).unwrap();
    assert_eq!(value.kind_bytes.get().unwrap().0, [7, 0]);
    assert_eq!(value.to_bytes().unwrap(), FILE);
}

#[test]
fn fixed_sizes_and_constants_of_the_root_need_no_value_passed_down() {
    let value = RootPlaces::read(&FILE).unwrap();
    let entries = &value.header.entries;
    // len_body, base and two one-byte entries; the entries' look-aheads are not inside it.
    assert_eq!(entries[0].header_len(), 4);
    assert_eq!(entries[0].masked(), 2);
    assert_eq!(entries[1].masked(), 4);
}
