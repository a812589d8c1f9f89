//! `ks-opaque-types`: a type declared nowhere is the schema of that name, found as an import
//! would be.

mod uses_opaque {
    skelcodec_macros::codec!("tests/schemas/opaque/uses_opaque.ksy");
}

use uses_opaque::UsesOpaque;

const FILE: [u8; 9] = [2, b'h', b'i', 1, b'a', 3, b'x', b'y', b'z'];

#[test]
fn an_opaque_type_reads_and_writes_as_its_schema_says() {
    let value = UsesOpaque::read(&FILE).unwrap();
    assert_eq!(value.greeting.text.as_bytes(), b"hi");
    assert_eq!(value.parts[1].text.as_bytes(), b"xyz");
    assert_eq!(value.total(), 6);
    assert_eq!(value.to_bytes().unwrap(), FILE);
}
