//! Recursive types: a type may hold itself through a conditional field or a switch (boxed in
//! Rust), and its reader refuses values nested deeper than `rt::reader::MAX_DEPTH`, so hostile
//! input cannot exhaust the stack.

mod recursion {
    skelcodec_macros::codec!("tests/schemas/recursion.ksy");
}

use recursion::{NodeBranch, Recursion};
use skelcodec_runtime::reader::MAX_DEPTH;

/// 1 → 2 → (branch) 3 → (leaf) mark 9.
const CHAIN: &[u8] = &[1, 1, 2, 2, 3, 3, 9];

#[test]
fn recursive_values_read_and_write_back() {
    let value = Recursion::read(CHAIN).unwrap();
    let second = value.head.next.as_deref().expect("kind 1 has a next node");
    assert_eq!(second.value, 2);
    let Some(NodeBranch::Node(third)) = &second.branch else {
        panic!("kind 2 branches to a node")
    };
    assert!(matches!(&third.branch, Some(NodeBranch::Leaf(leaf)) if leaf.mark == 9));
    assert_eq!(value.to_bytes().unwrap(), CHAIN);
    let json = serde_json::to_string(&value).unwrap();
    let back: Recursion = serde_json::from_str(&json).unwrap();
    assert_eq!(back, value);
}

#[test]
fn nesting_deeper_than_the_limit_is_an_error_not_a_stack_overflow() {
    let depth = MAX_DEPTH as usize;
    let mut bytes: Vec<u8> = [1, 1].repeat(depth - 1);
    bytes.extend([1, 0]);
    assert!(
        Recursion::read(&bytes).is_ok(),
        "{depth} levels are allowed"
    );
    let mut deeper: Vec<u8> = [1, 1].repeat(depth);
    deeper.extend([1, 0]);
    let err = Recursion::read(&deeper).unwrap_err();
    assert!(err.to_string().contains("nest more than"), "{err}");
    // Far deeper input fails the same way.
    let hostile = [1u8, 1].repeat(100_000);
    assert!(Recursion::read(&hostile).is_err());
}
