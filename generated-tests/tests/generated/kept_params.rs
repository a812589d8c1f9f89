//! Parameters kept in their values: reached from outside the value (`groups.last`, a value
//! passed as a parameter), stored as read, and checked by the writer.

mod kept_params {
    skelcodec_macros::codec!("tests/schemas/kept_params.ksy");
}

use kept_params::KeptParams;

/// groups 0x81 0x01 (129), header tag 7, body len 5 (present: two groups make it long).
const FILE: [u8; 4] = [0x81, 0x01, 7, 5];

#[test]
fn instances_of_elements_use_the_arguments_each_element_was_read_with() {
    let value = KeptParams::read(&FILE).unwrap();
    assert_eq!(value.groups[0].prev_value, 0);
    assert_eq!(value.groups[1].prev_value, 1);
    assert_eq!(value.groups[1].idx, 1);
    assert_eq!(value.value(), 129);
    assert_eq!(value.to_bytes().unwrap(), FILE);
}

#[test]
fn a_value_passed_as_a_parameter_keeps_the_parameters_its_instances_use() {
    let value = KeptParams::read(&FILE).unwrap();
    assert_eq!(value.header.num_groups, 2);
    assert_eq!(value.body.len, Some(5));
    let short = KeptParams::read(&[0x05, 7]).unwrap();
    assert_eq!(short.value(), 5);
    assert_eq!(short.header.num_groups, 1);
    assert_eq!(short.body.len, None);
}

#[test]
fn the_writer_refuses_a_kept_argument_that_no_longer_matches() {
    let mut value = KeptParams::read(&FILE).unwrap();
    value.groups[0].chunk = 2;
    let error = value.to_bytes().unwrap_err().to_string();
    assert!(error.contains("prev_value"), "{error}");
    value.groups[1].prev_value = 2;
    let bytes = value.to_bytes().unwrap();
    assert_eq!(bytes, [0x82, 0x01, 7, 5]);
    let back = KeptParams::read(&bytes).unwrap();
    assert_eq!(back, value);
    assert_eq!(back.value(), 130);
}

#[test]
fn check_reports_and_normalize_sets_the_kept_arguments_an_edit_changed() {
    let mut value = KeptParams::read(&FILE).unwrap();
    value.groups[0].chunk = 2;
    value.groups[1].idx = 5;
    let found: Vec<String> = value.check().iter().map(ToString::to_string).collect();
    assert_eq!(
        found,
        [
            "groups[1].idx: stored 5, computed 1",
            "groups[1].prev_value: stored 1, computed 2"
        ]
    );
    let document = serde_json::to_value(&value).unwrap();
    value.normalize().unwrap();
    assert_eq!((value.groups[1].idx, value.groups[1].prev_value), (1, 2));
    assert_eq!(value.check(), Vec::new());
    assert_eq!(value.to_bytes().unwrap(), [0x82, 0x01, 7, 5]);
    // The interpreter reports and sets the same.
    let interpreter = skelcodec_generated_tests::interpreter("tests/schemas/kept_params.ksy");
    let interpreted = interpreter.value_of(&document).unwrap();
    let found = skelcodec_generated_tests::interpreted_check(&interpreter, &interpreted);
    assert_eq!(
        found,
        [
            "groups[1].idx: stored 5, computed 1",
            "groups[1].prev_value: stored 1, computed 2"
        ]
    );
    interpreter.normalize(&interpreted).unwrap();
    assert_eq!(interpreter.write(&interpreted).unwrap(), [0x82, 0x01, 7, 5]);
}
