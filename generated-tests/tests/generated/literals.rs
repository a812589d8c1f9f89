//! List literals (`[0x50, 0x4b]`, `["foo", "bar"]`) compared with byte arrays and lists, and
//! indexing of integer lists and byte arrays, in `valid`, `if` and value instances.

mod literals {
    skelcodec_macros::codec!("tests/schemas/literals.ksy");
}

use literals::Literals;

#[test]
fn list_literals_and_indexing_decide_reads_and_instances() {
    let mut bytes = b"PK\x01\x00\x37\x13\x03\x00foo\0bar\0".to_vec();
    bytes.push(9);
    bytes.extend(b"\x05x\0\x06yz\0");
    let value = Literals::read(&bytes).unwrap();
    assert_eq!(
        value.tail,
        Some(9),
        "numbers[1] == 0x1337 and magic[1] == 0x4b"
    );
    assert!(value.numbers_are_known());
    assert!(value.names_are_known());
    // Out of range reads as 0: an expression cannot fail.
    assert_eq!(value.out_of_range(), 0);
    // Fields of list elements: out of range they read as absent values do.
    assert_eq!((value.second_a(), value.missing_a()), (6, 0));
    assert_eq!(value.second_name_length(), 2);
    assert_eq!(value.to_bytes().unwrap(), bytes);
    // `valid: eq: [0x50, 0x4b]` refuses other magic.
    let err = Literals::read(b"PX\x01\x00\x37\x13\x03\x00foo\0bar\0\x09").unwrap_err();
    assert_eq!(err.path(), "magic", "{err}");
}
