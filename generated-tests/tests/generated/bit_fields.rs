//! Bit fields (`b1` … `b64`, both bit orders, enums and booleans on bits): read as Kaitai reads
//! them, and written back exactly, including the bits a byte-aligned field drops and the bits
//! left at the end of the file.

#[allow(deprecated)] // the schema's style warnings, which `schema check` lists
mod bit_fields {
    skelcodec_macros::codec!("tests/schemas/bit_fields.ksy");
}

use bit_fields::{BitFields, Kind};

/// version 101, compressed 1, kind 0010 | flags 10011 and 3 dropped bits 101 | count 3 |
/// nibbles 1, 2, 3 (little-endian bits) | wide: the high nibble of 0xf3, seven bytes and the
/// low nibble of 0xa8, whose high nibble 0xa is left at the end.
const FILE: &[u8] = include_bytes!("../../fixtures/features/bit_fields.bin");

#[test]
fn bit_fields_read_as_kaitai_reads_them() {
    assert_eq!(
        FILE,
        [
            0xb2, 0x9d, 0x03, 0x21, 0xf3, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0xa8
        ]
    );
    let value = BitFields::read(FILE).unwrap();
    assert_eq!(value.version, 0b101);
    assert!(value.compressed);
    assert_eq!(value.kind, Kind::Skin);
    assert!(value.is_skin());
    assert_eq!(value.flags, 0b10011);
    assert_eq!(value._bits_before_count, 0b101, "the bits `count` skips");
    assert_eq!(value.count, 3);
    assert_eq!(value.nibbles, [1, 2, 3]);
    assert_eq!(value.nibble_sum(), 6);
    assert_eq!(value.wide, 0x8776_6554_4332_211f);
    assert_eq!(value._bits_at_end, 0xa, "the bits after the last field");
}

#[test]
fn every_bit_is_written_back() {
    let value = BitFields::read(FILE).unwrap();
    assert_eq!(value.encoded_len(), FILE.len());
    assert_eq!(value.to_bytes().unwrap(), FILE);
}

#[test]
fn edits_are_written_and_read_back() {
    let mut value = BitFields::read(FILE).unwrap();
    value.version = 2;
    value.kind = Kind::Mesh;
    value.nibbles = vec![0xf, 0];
    value.count = 2;
    value.wide = u64::MAX;
    let err = value.to_bytes().unwrap_err().to_string();
    assert!(
        err.contains("_bits_at_end") && err.contains("set these padding bits to 0"),
        "two nibbles instead of three end the file on a whole byte: {err}"
    );
    value._bits_at_end = 0;
    let bytes = value.to_bytes().unwrap();
    assert_eq!(bytes[0], 0b0101_0001);
    assert_eq!(BitFields::read(&bytes).unwrap(), value);
}

#[test]
fn values_that_do_not_fit_their_bits_are_refused_with_their_path() {
    let mut wide_flags = BitFields::read(FILE).unwrap();
    wide_flags.flags = 32;
    let err = wide_flags.to_bytes().unwrap_err().to_string();
    assert!(
        err.contains("flags") && err.contains("does not fit in 5 bits"),
        "{err}"
    );

    let mut unknown_kind = BitFields::read(FILE).unwrap();
    unknown_kind.kind = Kind::from_raw(99);
    let err = unknown_kind.to_bytes().unwrap_err().to_string();
    assert!(err.contains("kind"), "{err}");

    let mut dropped = BitFields::read(FILE).unwrap();
    dropped._bits_before_count = 8;
    let err = dropped.to_bytes().unwrap_err().to_string();
    assert!(err.contains("_bits_before_count"), "{err}");
}

#[test]
fn a_wide_field_cut_short_by_the_end_of_the_file_is_an_error() {
    let err = BitFields::read(&FILE[..FILE.len() - 1]).unwrap_err();
    assert!(err.to_string().contains("wide"), "{err}");
    assert!(err.offset() <= FILE.len() as u64);
}
