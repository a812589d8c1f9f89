//! Parameters of every type Kaitai passes: an enum value, a list of integers (also from a
//! literal), a structure, a string; readers and writers receive the same arguments.

mod params {
    skelcodec_macros::codec!("tests/schemas/params.ksy");
}

use params::Params;

#[test]
fn arguments_of_every_type_steer_the_read_and_the_write() {
    let bytes = [2, 1, 2, b'o', b'k', 0xaa, 0xbb, 0xcc];
    let value = Params::read(&bytes).unwrap();
    assert_eq!(value.body.first.0, [0xaa]);
    assert_eq!(
        value.body.second.as_ref().map(|b| b.0.to_vec()),
        Some(vec![0xbb, 0xcc])
    );
    assert_eq!(value.to_bytes().unwrap(), bytes);

    let other_tag = [2, 1, 2, b'n', b'o', 0xaa];
    let value = Params::read(&other_tag).unwrap();
    assert_eq!(
        value.body.second, None,
        "the structure and the string say no"
    );
    assert_eq!(value.to_bytes().unwrap(), other_tag);

    // The writer checks the sizes it is given, like the reader.
    let mut edited = Params::read(&bytes).unwrap();
    edited.sizes[1] = 3;
    let err = edited.to_bytes().unwrap_err();
    assert_eq!(err.path(), "body.second", "{err}");
}

#[test]
fn parameters_are_reached_through_the_value_that_passes_them() {
    // Through `body`, its parameters are the arguments the root gives it.
    let bytes = [2, 1, 2, b'o', b'k', 0xaa, 0xbb, 0xcc];
    let value = Params::read(&bytes).unwrap();
    assert!(value.body_is_large());
    assert_eq!(value.body_first_len(), 1);

    let mut small = value.clone();
    small.kind = params::Kind::Small;
    small.sizes[0] = 3;
    assert!(!small.body_is_large(), "computed from the edited root");
    assert_eq!(small.body_first_len(), 3);
}
