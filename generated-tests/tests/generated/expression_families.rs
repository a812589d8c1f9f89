//! Every kind of expression of Kaitai's suite (its `expr_*` specs) computed by both back ends
//! on many inputs: one value instance per kind (`tests/schemas/expression_families.ksy`), each
//! the same from the generated code's method and the interpreter's evaluation, on inputs that
//! take every condition both ways.

mod expression_families {
    skelcodec_macros::codec!("tests/schemas/expression_families.ksy");
}

use expression_families::ExpressionFamilies;
use skelcodec_dynamic::Computed;
use skelcodec_generated_tests::interpreter;

const SCHEMA: &str = "tests/schemas/expression_families.ksy";

/// A value as both back ends are compared: text and bytes by their bytes.
trait Seen {
    fn seen(self) -> Computed;
}

impl Seen for i64 {
    fn seen(self) -> Computed {
        Computed::Int(self)
    }
}

impl Seen for f64 {
    fn seen(self) -> Computed {
        Computed::Float(self)
    }
}

impl Seen for bool {
    fn seen(self) -> Computed {
        Computed::Bool(self)
    }
}

impl<T: AsRef<[u8]>> Seen for &T {
    fn seen(self) -> Computed {
        Computed::Bytes(self.as_ref().to_vec())
    }
}

impl Seen for String {
    fn seen(self) -> Computed {
        Computed::Bytes(self.into_bytes())
    }
}

/// An expression that can fail (`to_i`): these inputs give it numbers.
impl<T: Seen, E: std::fmt::Debug> Seen for Result<T, E> {
    fn seen(self) -> Computed {
        self.expect("the text is a number").seen()
    }
}

/// The interpreter's value, text taken as its bytes.
fn as_bytes(computed: Computed) -> Computed {
    match computed {
        Computed::Text(bytes) => Computed::Bytes(bytes),
        other => other,
    }
}

/// Input `n` of many: two numbers of every sign, a pair, a word of 0 to 4 letters, two digits,
/// three bytes (sometimes `abc`), three numbers, a kind (1, 2 or another) and a letter for
/// each positive number, from a simple generator, so that the file is the same on every run.
fn input(n: u32) -> Vec<u8> {
    let mut state = n.wrapping_mul(2_654_435_761).wrapping_add(12345);
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        state
    };
    let mut file = Vec::new();
    let mut positive = [false; 2];
    for sign in &mut positive {
        let magnitude = [3, 300, 30_000][next() as usize % 3];
        let number = (next() % (2 * magnitude + 1)) as i32 - magnitude as i32;
        file.extend((number as i16).to_le_bytes());
        *sign = number > 0;
    }
    file.extend([next() as u8, next() as u8]);
    let letters = next() as usize % 5;
    let word: Vec<u8> = (0..4)
        .map(|i| match i < letters {
            true => b'a' + (next() % 3) as u8,
            false => 0,
        })
        .collect();
    file.extend(word);
    file.extend([b'0' + (next() % 10) as u8, b'0' + (next() % 10) as u8]);
    match n % 5 {
        0 => file.extend(b"abc"),
        _ => file.extend([next() as u8, next() as u8, next() as u8]),
    }
    match n % 7 {
        0 => file.extend([1, 2, 3]),
        _ => file.extend([next() as u8, next() as u8, next() as u8]),
    }
    file.push([1, 2, 3][n as usize % 3]);
    // A letter for each positive number, `a` or `b`.
    for _ in positive.iter().filter(|positive| **positive) {
        file.push(b'a' + (next() % 2) as u8);
    }
    // Sometimes bytes to the end, read by `rest`.
    file.extend(vec![0xee; n as usize % 2]);
    file
}

/// Each instance: its name, and its value from the generated code.
fn generated(value: &ExpressionFamilies) -> Vec<(&'static str, Computed)> {
    macro_rules! computed {
        ($($name:ident),* $(,)?) => {
            vec![$((stringify!($name), Seen::seen(value.$name()))),*]
        };
    }
    computed![
        sum,
        difference,
        product,
        quotient,
        remainder,
        shifted,
        masked,
        inverted,
        negated,
        grouped,
        half,
        mixed,
        truncated,
        cast,
        a_below_b,
        at_most,
        either_negative,
        not_below,
        float_above,
        larger,
        word_length,
        word_is_ab,
        word_first,
        blob_size,
        blob_first,
        blob_last,
        blob_min,
        blob_max,
        blob_second,
        blob_is_abc,
        blob_low,
        nums_first,
        nums_last,
        nums_min,
        nums_max,
        nums_count,
        nums_total,
        nums_second,
        kind_number,
        kind_is_big,
        kind_weight,
        header_size,
        word_size,
        pair_size,
        header_sum,
        letters_equal,
        left_letter_is_a,
        word_reversed,
        joined,
        middle,
        decimal,
        hexadecimal,
        a_text,
    ]
}

#[test]
fn both_back_ends_compute_every_kind_of_expression_alike() {
    let interpreter = interpreter(SCHEMA);
    let mut seen_true = std::collections::BTreeSet::new();
    let mut seen_false = std::collections::BTreeSet::new();
    for n in 0..300 {
        let file = input(n);
        let value = ExpressionFamilies::read(&file).expect("the generated code reads it");
        let read = interpreter.read(&file).expect("the interpreter reads it");
        // The instances of the stream's position are read as fields: in the documents.
        let document = serde_json::to_value(&value).unwrap();
        let interpreted = serde_json::to_value(interpreter.document(&read)).unwrap();
        assert_eq!(interpreted, document, "input {n}");
        assert_eq!(document["position"], file.len());
        for (name, expected) in generated(&value) {
            let found = interpreter.evaluate(&read, &file, name);
            let found = found.unwrap_or_else(|e| panic!("input {n}, `{name}`: {e}"));
            assert_eq!(
                as_bytes(found),
                expected,
                "input {n} ({file:02x?}), `{name}`"
            );
            match expected {
                Computed::Bool(true) => seen_true.insert(name),
                Computed::Bool(false) => seen_false.insert(name),
                _ => false,
            };
        }
    }
    // Every condition went both ways on these inputs.
    assert_eq!(seen_true, seen_false);
    assert!(seen_true.len() >= 10, "{seen_true:?}");
}
