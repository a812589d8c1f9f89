//! A conditional field that holds no value (cpio's padding after a name of odd length): its
//! document says `true` when it is present, so decode then encode of an unedited document is
//! byte-exact whether or not it is there.

mod presence {
    skelcodec_macros::codec!("tests/schemas/presence.ksy");
}

use presence::Presence;

/// Through a JSON document and back, as `skelcodec decode` then `encode` do.
fn through_document(value: &Presence) -> (String, Presence) {
    let text = serde_json::to_string(value).unwrap();
    let back = serde_json::from_str(&text).unwrap();
    (text, back)
}

#[test]
fn unedited_documents_write_the_same_bytes_with_and_without_padding() {
    for file in [&[3, b'a', b'b', b'c', 0, 7][..], &[2, b'a', b'b', 7]] {
        let value = Presence::read(file).unwrap();
        let (text, back) = through_document(&value);
        assert_eq!(back, value, "{text}");
        assert_eq!(back.to_bytes().unwrap(), file, "{text}");
    }
}

#[test]
fn a_document_says_whether_the_padding_is_there() {
    let odd = Presence::read(&[1, b'a', 0, 7]).unwrap();
    assert!(through_document(&odd).0.contains(r#""name_padding":true"#));
    let even = Presence::read(&[2, b'a', b'b', 7]).unwrap();
    assert!(through_document(&even).0.contains(r#""name_padding":null"#));
}

#[test]
fn padding_left_out_where_the_condition_holds_is_refused_with_its_path() {
    let mut value = Presence::read(&[1, b'a', 0, 7]).unwrap();
    value.name_padding = None;
    let refused = value.to_bytes().unwrap_err().to_string();
    assert!(refused.contains("name_padding"), "{refused}");
}
