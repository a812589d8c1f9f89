//! The interpreter beside the generated code on Kaitai's suite: every spec listed in
//! `interpreted.txt` is read by the interpreter, and gives the generated code's document or
//! its error (kind, offset, path, message). The list only grows.

use skelcodec_conformance::interpreter::{Agreement, compare_all, report};
use skelcodec_conformance::{suite_built_in, suite_dir};

#[test]
fn the_interpreter_reads_as_the_generated_code_reads() {
    if !suite_built_in() {
        return;
    }
    let all = compare_all(&suite_dir());
    println!("{}", report(&all));
    // No spec the interpreter reads may read otherwise than the generated code.
    let differing: Vec<String> = all
        .iter()
        .filter_map(|(spec, agreement)| match agreement {
            Agreement::Differs(why) => Some(format!("{}: {why}", spec.id)),
            _ => None,
        })
        .collect();
    assert!(differing.is_empty(), "{}", differing.join("\n"));
    let listed = include_str!("../../interpreted.txt")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'));
    let lost: Vec<String> = listed
        .filter(|id| {
            !all.iter()
                .any(|(spec, agreement)| spec.id == *id && *agreement == Agreement::Same)
        })
        .map(str::to_owned)
        .collect();
    assert!(
        lost.is_empty(),
        "no longer interpreted: {}",
        lost.join(", ")
    );
}
