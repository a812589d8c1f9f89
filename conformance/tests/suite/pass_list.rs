//! Every spec in `pass.txt` still passes, and only those in `expected_failures.txt` fail: the
//! conformance figures only grow.

use skelcodec_conformance::{
    Outcome, ReadVerdict, WriteVerdict, formats_err_differences, report, run_all, suite_built_in,
    suite_dir,
};

#[test]
fn every_listed_spec_still_passes() {
    if !suite_built_in() {
        return;
    }
    let outcomes = run_all(&suite_dir());
    println!("{}", report(&outcomes));
    let listed = include_str!("../../pass.txt")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'));
    let mut regressions = Vec::new();
    for id in listed {
        match outcomes.iter().find(|o| o.spec.id == id) {
            Some(o) if o.read == ReadVerdict::Pass => {}
            Some(o) => regressions.push(format!("{id}: {}", o.detail)),
            None => regressions.push(format!("{id}: no such spec")),
        }
    }
    assert!(regressions.is_empty(), "{}", regressions.join("\n"));
    only_the_expected_fail(&outcomes);
    // A passing spec that read something also writes it back exactly, or is explained.
    let explained: Vec<&str> = include_str!("../../write_differs.txt")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    let inexact: Vec<_> = outcomes
        .iter()
        .filter(|o| o.read == ReadVerdict::Pass && o.write == WriteVerdict::Differs)
        .filter(|o| !explained.contains(&o.spec.id))
        .map(|o| format!("{}: {}", o.spec.id, o.detail))
        .collect();
    assert!(inexact.is_empty(), "{}", inexact.join("\n"));
}

/// Every spec that does not pass is listed in `expected_failures.txt`, and every spec listed
/// there still fails (the list only shrinks).
fn only_the_expected_fail(outcomes: &[Outcome]) {
    let expected: Vec<&str> = include_str!("../../expected_failures.txt")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    let failing = outcomes.iter().filter(|o| o.read != ReadVerdict::Pass);
    let unexpected: Vec<String> = (failing.clone())
        .filter(|o| !expected.contains(&o.spec.id))
        .map(|o| format!("{}: {}", o.spec.id, o.detail))
        .collect();
    assert!(unexpected.is_empty(), "{}", unexpected.join("\n"));
    let passing: Vec<&&str> = (expected.iter())
        .filter(|id| !failing.clone().any(|o| o.spec.id == **id))
        .collect();
    assert!(
        passing.is_empty(),
        "passing now, remove from expected_failures.txt: {passing:?}"
    );
}

#[test]
fn formats_err_is_judged_as_kaitai_judges_it() {
    if !suite_built_in() {
        return;
    }
    let known = include_str!("../../formats_err_differs.txt")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect::<Vec<_>>();
    let differences = formats_err_differences();
    let new: Vec<_> = differences
        .iter()
        .filter(|id| !known.contains(id))
        .collect();
    assert!(new.is_empty(), "now judged otherwise than Kaitai: {new:?}");
    // The list only shrinks: a schema judged right is taken off it.
    let fixed: Vec<_> = known
        .iter()
        .filter(|id| !differences.contains(id))
        .collect();
    assert!(
        fixed.is_empty(),
        "judged as Kaitai now, remove from the list: {fixed:?}"
    );
}
