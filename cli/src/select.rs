//! `decode --path`: picks parts of a decoded document by a field path, so that a user can
//! print, say, just the skins of a model: `--path '**.skin'`.
//!
//! The syntax is the one the tool prints in its messages and matches
//! (`body.anp3.animations[0].name`): fields separated by dots, list indices in brackets. `*`
//! matches any one field or element (`[*]` any element), `**` any number of levels, including
//! none. A number between dots (`animations.0`) is also taken as an index.

use serde_json::Value;

/// One step of a path pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Step {
    /// A field of a structure (or, when it is a number, an element of a list).
    Field(String),
    /// An element of a list.
    Index(usize),
    /// Any one field or element.
    AnyChild,
    /// Any element of a list.
    AnyElement,
    /// Any number of levels.
    AnyDepth,
}

/// A parsed `--path` pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pattern(Vec<Step>);

impl std::str::FromStr for Pattern {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let mut steps = Vec::new();
        for dotted in text.split('.') {
            let (field, mut brackets) = dotted.split_at(dotted.find('[').unwrap_or(dotted.len()));
            match field {
                "" if brackets.is_empty() => {
                    return Err(format!(
                        "`{text}` has an empty field name (two dots in a row, or a dot at an end)"
                    ));
                }
                "" => {}
                bad if bad.contains(']') => {
                    return Err(format!("`{text}`: write list indices as `[0]` or `[*]`"));
                }
                "*" => steps.push(Step::AnyChild),
                "**" => steps.push(Step::AnyDepth),
                name => steps.push(Step::Field(name.to_owned())),
            }
            while !brackets.is_empty() {
                let Some((index, rest)) = brackets
                    .strip_prefix('[')
                    .and_then(|inner| inner.split_once(']'))
                else {
                    return Err(format!("`{text}`: write list indices as `[0]` or `[*]`"));
                };
                steps.push(match index {
                    "*" => Step::AnyElement,
                    digits => Step::Index(digits.parse().map_err(|_| {
                        format!("`{text}`: `[{digits}]` is not a list index (a number or `*`)")
                    })?),
                });
                brackets = rest;
            }
        }
        Ok(Pattern(steps))
    }
}

impl Pattern {
    /// Whether `path` (`records[0].text`) is matched by the pattern, or lies below a value
    /// that is.
    pub fn covers(&self, path: &str) -> bool {
        // The paths of `path` and of each value above it, outermost first.
        let mut prefixes = Vec::new();
        for (at, c) in path.char_indices() {
            if (c == '.' || c == '[') && at > 0 {
                prefixes.push(&path[..at]);
            }
        }
        if !path.is_empty() {
            prefixes.push(path);
        }
        covers_from(&self.0, &prefixes)
    }
}

/// Whether `steps` match the first paths of `prefixes` (each one level deeper), the rest
/// lying below.
fn covers_from(steps: &[Step], prefixes: &[&str]) -> bool {
    let Some((first, rest)) = steps.split_first() else {
        return true;
    };
    if *first == Step::AnyDepth {
        return covers_from(rest, prefixes)
            || prefixes
                .split_first()
                .is_some_and(|(_, deeper)| covers_from(steps, deeper));
    }
    match prefixes.split_first() {
        Some((child, deeper)) => matches(first, child) && covers_from(rest, deeper),
        None => false,
    }
}

/// Every value of `root` that `pattern` matches, with its field path (`clumps[0].info`), in
/// document order.
pub fn select(root: &Value, pattern: &Pattern) -> Vec<(String, Value)> {
    let mut found = Vec::new();
    walk(root, &pattern.0, String::new(), &mut found);
    // A value reached several ways (`**.**.skin`) is reported once, where first found.
    let mut seen = std::collections::HashSet::new();
    found.retain(|(path, _)| seen.insert(path.clone()));
    found
}

/// For a pattern that matches nothing in `root`: where it stops, as a hint — the path of the
/// first value the longest matching start of the pattern reaches, and what that value holds.
pub fn dead_end(root: &Value, pattern: &Pattern) -> String {
    let mut deepest = (0, String::new(), root);
    explore(
        root,
        &pattern.0,
        pattern.0.len(),
        String::new(),
        &mut deepest,
    );
    let (_, path, value) = deepest;
    let at = match path.is_empty() {
        true => "the value".to_owned(),
        false => format!("`{path}`"),
    };
    let holds = match value {
        Value::Object(map) if map.is_empty() => "no fields".to_owned(),
        Value::Object(map) => {
            let keys: Vec<&str> = map.keys().map(String::as_str).collect();
            format!("the fields {}", keys.join(", "))
        }
        Value::Array(items) if items.len() == 1 => "a list of 1 element".to_owned(),
        Value::Array(items) => format!("a list of {} elements", items.len()),
        _ => "a single value".to_owned(),
    };
    format!("the path stops matching at {at}, which holds {holds}")
}

/// Follows `steps` from `value` (at `path`), keeping in `deepest` the first value reached
/// with the fewest steps left.
fn explore<'v>(
    value: &'v Value,
    steps: &[Step],
    all: usize,
    path: String,
    deepest: &mut (usize, String, &'v Value),
) {
    let matched = all - steps.len();
    if matched > deepest.0 {
        *deepest = (matched, path.clone(), value);
    }
    let Some((first, rest)) = steps.split_first() else {
        return;
    };
    if *first == Step::AnyDepth {
        explore(value, rest, all, path.clone(), deepest);
        for (child_path, child) in children(value, &path) {
            explore(child, steps, all, child_path, deepest);
        }
        return;
    }
    for (child_path, child) in children(value, &path) {
        if matches(first, &child_path) {
            explore(child, rest, all, child_path, deepest);
        }
    }
}

fn walk(value: &Value, steps: &[Step], path: String, found: &mut Vec<(String, Value)>) {
    let Some((first, rest)) = steps.split_first() else {
        found.push((path, value.clone()));
        return;
    };
    if *first == Step::AnyDepth {
        // Zero levels, then one level deeper with `**` still in force.
        walk(value, rest, path.clone(), found);
        for (child_path, child) in children(value, &path) {
            walk(child, steps, child_path, found);
        }
        return;
    }
    for (child_path, child) in children(value, &path) {
        if matches(first, &child_path) {
            walk(child, rest, child_path, found);
        }
    }
}

/// True when the last step of `child_path` (`name` or `[3]`) is matched by `step`.
fn matches(step: &Step, child_path: &str) -> bool {
    let index = child_path
        .strip_suffix(']')
        .and_then(|p| p.rsplit_once('['))
        .and_then(|(_, i)| i.parse::<usize>().ok());
    match (step, index) {
        (Step::AnyChild, _) => true,
        (Step::AnyElement, Some(_)) => true,
        (Step::Index(want), Some(i)) => *want == i,
        (Step::Field(name), Some(i)) => name.parse::<usize>().is_ok_and(|want| want == i),
        (Step::Field(name), None) => {
            let key = child_path.rsplit('.').next().unwrap_or_default();
            key == name
        }
        _ => false,
    }
}

/// The direct children of a value with their paths.
fn children<'v>(value: &'v Value, path: &str) -> Vec<(String, &'v Value)> {
    match value {
        Value::Object(map) => map
            .iter()
            .map(|(k, v)| {
                let child = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                (child, v)
            })
            .collect(),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .map(|(i, v)| (format!("{path}[{i}]"), v))
            .collect(),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn paths(doc: &Value, pattern: &str) -> Vec<String> {
        let pattern: Pattern = pattern.parse().expect("a valid pattern");
        select(doc, &pattern).into_iter().map(|(p, _)| p).collect()
    }

    #[test]
    fn selects_by_name_index_and_wildcards() {
        let doc = json!({"clumps": [{"skin": 1, "x": {"skin": 2}}, {"y": 3}]});
        assert_eq!(paths(&doc, "clumps[0].skin"), ["clumps[0].skin"]);
        assert_eq!(paths(&doc, "clumps.0.skin"), ["clumps[0].skin"]);
        assert_eq!(paths(&doc, "clumps[*].y"), ["clumps[1].y"]);
        assert_eq!(paths(&doc, "clumps.*.y"), ["clumps[1].y"]);
        assert_eq!(
            paths(&doc, "**.skin"),
            ["clumps[0].skin", "clumps[0].x.skin"]
        );
        assert_eq!(
            paths(&doc, "**.**.skin"),
            ["clumps[0].skin", "clumps[0].x.skin"]
        );
        assert!(paths(&doc, "nothing").is_empty());
        assert!(paths(&doc, "clumps[2]").is_empty());
        let pattern: Pattern = "**.skin".parse().unwrap();
        assert_eq!(select(&doc, &pattern)[1].1, json!(2));
    }

    #[test]
    fn every_printed_path_selects_its_value() {
        let doc = json!({"body": {"anp3": {"animations": [{"name": "a"}, {"name": "b", "m": [[1, 2]]}]}}});
        let every: Pattern = "**".parse().unwrap();
        for (path, value) in select(&doc, &every)
            .into_iter()
            .filter(|(p, _)| !p.is_empty())
        {
            let again = select(&doc, &path.parse().expect("a printed path parses"));
            assert_eq!(again, [(path.clone(), value)], "{path}");
        }
    }

    #[test]
    fn a_pattern_that_matches_nothing_says_where_it_stopped() {
        // Keys in order either way serde_json keeps them.
        let doc = json!({"body": {"anp3": {"animations": [{}, {}], "name": "x"}}});
        let stopped = |pattern: &str| dead_end(&doc, &pattern.parse().unwrap());
        assert_eq!(
            stopped("body.anp3.anims"),
            "the path stops matching at `body.anp3`, which holds the fields animations, name"
        );
        assert_eq!(
            stopped("body.anp3.animations[5]"),
            "the path stops matching at `body.anp3.animations`, which holds a list of 2 elements"
        );
        assert_eq!(
            stopped("bdy"),
            "the path stops matching at the value, which holds the fields body"
        );
    }

    #[test]
    fn malformed_patterns_are_refused_with_the_pattern() {
        for bad in ["a..b", "a[0", "a[x]", ".a", "a]"] {
            let err = bad.parse::<Pattern>().expect_err(bad);
            assert!(err.contains(bad), "{err}");
        }
    }
}
