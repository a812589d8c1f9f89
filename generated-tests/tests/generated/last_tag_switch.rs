//! A switch whose selector is text that may be absent (an element of a list): matched as
//! empty when it is, here the text of the last tag read.

mod last_tag_switch {
    skelcodec_macros::codec!("tests/schemas/last_tag_switch.ksy");
}

use last_tag_switch::{LastTagSwitch, LastTagSwitchBody};

#[test]
fn the_last_element_s_text_chooses_the_case() {
    let file = *b"ABCDBYTE\x07";
    let value = LastTagSwitch::read(&file).unwrap();
    assert_eq!(value.kind().as_deref(), Some("BYTE"));
    assert!(
        matches!(value.body, LastTagSwitchBody::U1(7)),
        "{:?}",
        value.body
    );
    assert_eq!(value.to_bytes().unwrap(), file);
    let other = LastTagSwitch::read(b"END!").unwrap();
    assert!(
        matches!(other.body, LastTagSwitchBody::Nothing(())),
        "{:?}",
        other.body
    );
}
