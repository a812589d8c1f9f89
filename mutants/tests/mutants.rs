//! The mutation tester's own behaviour, and a short fixed-seed run of the compiler's
//! invariants on the project's schemas (CI runs the long one with the compile check:
//! `cargo run -p skelcodec-mutants -- --check`).

use std::path::PathBuf;

use skelcodec_mutants::compile::CompileCheck;
use skelcodec_mutants::rng::Rng;
use skelcodec_mutants::sites::Sites;
use skelcodec_mutants::{Verdict, judge, mutate, run, sources};

fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

const SCHEMA: &str = "
meta:
  id: sample
  endian: le
seq:
  - id: len_body
    type: u1
  - id: body
    size: len_body
    type: block
types:
  block:
    seq:
      - id: kind
        type: u1
        enum: kinds
enums:
  kinds:
    1: one
";

#[test]
fn sites_are_found_where_kaitai_puts_them() {
    let doc: serde_yaml::Value = serde_yaml::from_str(SCHEMA).unwrap();
    let sites = Sites::of(&doc);
    assert_eq!(sites.ids, ["len_body", "body", "kind"]);
    assert_eq!(sites.type_names, ["block"]);
    assert_eq!(sites.enums, [("kinds".to_owned(), vec!["one".to_owned()])]);
    // `len_body`'s, `body`'s and `kind`'s types; `body`'s size.
    assert_eq!(sites.types.len(), 3);
    assert_eq!(sites.exprs.len(), 1);
    assert_eq!(sites.attrs.len(), 3);
}

#[test]
fn the_same_seed_makes_the_same_mutants() {
    let doc: serde_yaml::Value = serde_yaml::from_str(SCHEMA).unwrap();
    let make = |seed| {
        let mut rng = Rng::new(seed);
        (0..20)
            .map(|_| {
                let mut d = doc.clone();
                (
                    mutate::mutate(&mut d, &mut rng),
                    serde_yaml::to_string(&d).unwrap(),
                )
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(make(7), make(7));
    assert_ne!(make(7), make(8));
    // Nearly every mutation changes the document (setting `endian: le` again does not).
    let original = serde_yaml::to_string(&doc).unwrap();
    let changed = make(7).iter().filter(|(_, text)| *text != original).count();
    assert!(changed >= 17, "{changed} of 20 changed");
}

#[test]
fn a_rename_changes_whole_words_only() {
    let mut doc: serde_yaml::Value = serde_yaml::from_str(SCHEMA).unwrap();
    // Seeds are tried until one renames `body`, which `len_body` contains.
    let renamed = (0..500).find_map(|seed| {
        let mut d = doc.clone();
        let said = mutate::mutate(&mut d, &mut Rng::new(seed));
        said.starts_with("rename `body`").then_some(d)
    });
    doc = renamed.expect("some seed renames `body`");
    let text = serde_yaml::to_string(&doc).unwrap();
    assert!(text.contains("len_body"), "{text}");
    assert!(!text.contains("id: body"), "{text}");
}

#[test]
fn a_schema_error_is_rejected_with_its_line() {
    let text = SCHEMA.replace("size: len_body", "size: nothing_here");
    match judge(&text, &workspace().join("x.ksy"), &[]) {
        Verdict::Rejected(message) => assert!(message.contains("x.ksy:9:5:"), "{message}"),
        other => panic!("expected a located rejection, got {other:?}"),
    }
}

#[test]
fn mutants_of_the_projects_schemas_never_panic_and_are_rejected_with_a_location() {
    let schemas = sources(&[
        workspace().join("schemas"),
        workspace().join("generated-tests/tests/schemas"),
    ]);
    assert!(schemas.len() > 20, "found {} schemas", schemas.len());
    let mutants = run(&schemas, 1, 400, &[]);
    let failures: Vec<_> = mutants
        .iter()
        .filter_map(|m| match &m.verdict {
            Verdict::Failed(why) => Some(format!("{:?} {:?}: {why}", m.source, m.mutations)),
            _ => None,
        })
        .collect();
    assert!(failures.is_empty(), "{failures:#?}");
    let accepted = mutants
        .iter()
        .filter(|m| matches!(m.verdict, Verdict::Accepted(_)))
        .count();
    // Both outcomes occur: the mutations neither only break nor only keep schemas.
    assert!(
        accepted > 40 && accepted < 360,
        "{accepted} of 400 accepted"
    );
}

/// Schemas of the kinds the typed-IR issue found accepted and then uncompilable: a position
/// that is an empty list's size, a recursive type holding a `process: zlib` body, a `valid`
/// rule on `contents`, an instance of a value reached through a field. Each is rejected with
/// its line, or its code compiles.
#[test]
fn the_issues_mutants_are_rejected_with_a_location_or_compile() {
    let header = "meta:\n  id: m\n  endian: le\n";
    let schemas = [
        "seq:\n  - id: a\n    type: u1\ninstances:\n  b:\n    pos: '[].size'\n    type: u1\n",
        "seq:\n  - id: root\n    type: node\ntypes:\n  node:\n    seq:\n      - id: has_child\n        type: u1\n      - id: child\n        size: 4\n        process: zlib\n        type: node\n        if: has_child != 0\n",
        "seq:\n  - id: magic\n    contents: [1, 2]\n    valid: _ == [1, 2]\n",
        "seq:\n  - id: hdr\n    type: header\n  - id: body\n    size: hdr.value\ntypes:\n  header:\n    seq:\n      - id: raw\n        type: u1\n    instances:\n      value:\n        value: raw * 2\n",
    ];
    let mut accepted = Vec::new();
    for (i, schema) in schemas.iter().enumerate() {
        let file = workspace().join(format!("issue_{i}.ksy"));
        match judge(&format!("{header}{schema}"), &file, &[]) {
            Verdict::Rejected(message) => {
                assert!(message.contains(&format!("issue_{i}.ksy:")), "{message}")
            }
            Verdict::Accepted(source) => accepted.push((format!("issue_{i}"), source)),
            Verdict::Failed(why) => panic!("schema {i}: {why}"),
        }
    }
    assert!(!accepted.is_empty(), "every schema was rejected");
    let check = CompileCheck {
        dir: PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("issue-mutants"),
        workspace: workspace(),
    };
    let errors = check.run(&accepted).expect("cargo check runs");
    assert!(errors.is_empty(), "{errors:#?}");
}
