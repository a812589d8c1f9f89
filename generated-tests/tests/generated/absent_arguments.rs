//! An argument naming a structure that may be absent: passed when present, an error with its
//! path when not.

mod absent_arguments {
    skelcodec_macros::codec!("tests/schemas/absent_arguments.ksy");
}

use absent_arguments::AbsentArguments;

/// pairs 1 and 2, two labels of those lengths: "a", "bc".
const FILE: [u8; 6] = [1, 2, 2, b'a', b'b', b'c'];

#[test]
fn a_present_structure_is_passed() {
    let value = AbsentArguments::read(&FILE).unwrap();
    assert_eq!(value.labels[0].text.0, b"a");
    assert_eq!(value.labels[1].text.0, b"bc");
    assert_eq!(value.to_bytes().unwrap(), FILE);
}

#[test]
fn an_absent_one_fails_the_read_and_the_write_with_its_path() {
    let error = AbsentArguments::read(&[1, 2, 3, b'a', b'b', b'c', b'd']).unwrap_err();
    assert!(error.to_string().contains("`p` names no value"), "{error}");
    assert!(error.path().contains("labels"), "{}", error.path());
    assert_eq!(error.offset(), 6);

    let mut value = AbsentArguments::read(&FILE).unwrap();
    value.labels.push(value.labels[0].clone());
    value.num_labels = 3;
    let error = value.to_bytes().unwrap_err();
    assert!(error.to_string().contains("`p` names no value"), "{error}");
}
