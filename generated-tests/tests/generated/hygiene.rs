//! Names that collide with what generated code uses still compile and read: fields named like
//! the reader's locals, a parameter named like the writer, types named like prelude items, an
//! enum value `unknown` next to the fallback for unnamed values, a switch enum named like a user
//! type, an instance named like a generated method, fields named like reserved keywords, enum
//! values and items whose CamelCase names coincide.

#[allow(deprecated)] // the schema's style warnings, which `schema check` lists
mod hygiene {
    skelcodec_macros::codec!("tests/schemas/hygiene.ksy");
}

use hygiene::*;

#[test]
fn colliding_names_compile_and_read_back() {
    // r w item value index c b bytes count, two `vec`s, `option` (r > 0), `string` "hi",
    // holder a=1 with a holder_b, kind 1 (`true`).
    let bytes = [
        1, 2, 3, 4, 5, 6, 7, 8, 2, 10, 11, 12, 2, b'h', b'i', 1, 13, 1, 0x99, 21, 22, 23,
    ];
    let value = Hygiene::read(&bytes).unwrap();
    assert_eq!((value.r, value.w, value.item, value.value), (1, 2, 3, 4));
    assert_eq!((value.index, value.c, value.b, value.bytes), (5, 6, 7, 8));
    assert_eq!(value.items.len(), 2);
    assert_eq!(value.items[1].x, 11);
    assert_eq!(value.maybe.as_ref().map(|o| o.some), Some(12));
    assert_eq!(value.text.none.text(), "hi");
    assert!(matches!(
        value.holder.b,
        HolderBSwitch::HolderB(HolderB { ok: 13 })
    ));
    assert_eq!(value.kind, Kind::True);
    assert_eq!(Kind::from_raw(0), Kind::UnknownValue);
    assert_eq!(Kind::from_raw(9), Kind::Unknown(9));
    // `gsm_610` and `gsm610` are both `Gsm610`: the second gets its value appended; the enum
    // `holder_b`, declared after the type `holder_b`, gets a suffix.
    assert_eq!(
        (Kind::from_raw(4), Kind::from_raw(5)),
        (Kind::Gsm610, Kind::Gsm6105)
    );
    assert_eq!(HolderBEnum::from_raw(1), HolderBEnum::One);
    // A parameter named `w` (the writer's name) and an instance named like a generated method.
    assert_eq!(value.sized.data.0, [0x99]);
    assert_eq!(value.check_value(), 2);
    // Reserved keywords (`box`, `try`, `macro`) are raw identifiers.
    let keywords = &value.keywords;
    assert_eq!(
        (keywords.r#box, keywords.r#try, keywords.r#macro),
        (21, 22, 23)
    );
    assert_eq!(value.to_bytes().unwrap(), bytes);
}
