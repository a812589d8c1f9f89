//! `decode --path`: picks parts of a decoded document by a field path, so that a user can
//! print, say, just the skins of a model: `--path '**.skin'`.
//!
//! The syntax is the one the tool prints in its messages and matches
//! (`body.anp3.animations[0].name`): fields separated by dots, list indices in brackets. `*`
//! matches any one field or element (`[*]` any element), `**` any number of levels, including
//! none. A number between dots (`animations.0`) is also taken as an index.

use serde_json::Value;
use skelcodec_runtime::serde;
use skelcodec_runtime::serde::Deserialize;

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

/// What [`select`] finds in the `value` of a JSON document read from `reader` as it streams:
/// only the values the pattern matches are held, so `decode --path` takes no more memory than
/// they do.
pub fn select_streamed<R: std::io::Read>(
    reader: R,
    pattern: &Pattern,
    value_key: &str,
) -> Result<Vec<(String, Value)>, serde_json::Error> {
    use serde::de::DeserializeSeed;
    let found = std::cell::RefCell::new(Vec::new());
    let mut de = serde_json::Deserializer::from_reader(reader);
    Document {
        steps: &pattern.0,
        value_key,
        found: &found,
    }
    .deserialize(&mut de)?;
    de.end()?;
    let mut found = found.into_inner();
    let mut seen = std::collections::HashSet::new();
    found.retain(|(path, _)| seen.insert(path.clone()));
    Ok(found)
}

/// A whole document: its `value` is walked, the rest skipped.
struct Document<'a> {
    steps: &'a [Step],
    value_key: &'a str,
    found: &'a std::cell::RefCell<Vec<(String, Value)>>,
}

impl<'de> serde::de::DeserializeSeed<'de> for Document<'_> {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> serde::de::Visitor<'de> for Document<'_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a document")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<String>()? {
            if key == self.value_key {
                let walk = Walk {
                    states: closure(self.steps, vec![0]),
                    steps: self.steps,
                    path: String::new(),
                    found: self.found,
                };
                map.next_value_seed(walk)?;
            } else {
                map.next_value::<serde::de::IgnoredAny>()?;
            }
        }
        Ok(())
    }
}

/// A value at `path` reached with `states`: the positions in `steps` still to match from
/// here (a `**` also matches nothing: see [`closure`]).
struct Walk<'a> {
    states: Vec<usize>,
    steps: &'a [Step],
    path: String,
    found: &'a std::cell::RefCell<Vec<(String, Value)>>,
}

/// `states` with, for each `**`, the position after it too.
fn closure(steps: &[Step], mut states: Vec<usize>) -> Vec<usize> {
    let mut i = 0;
    while i < states.len() {
        let state = states[i];
        if steps.get(state) == Some(&Step::AnyDepth) && !states.contains(&(state + 1)) {
            states.push(state + 1);
        }
        i += 1;
    }
    states
}

impl Walk<'_> {
    /// The walk of the child at `child_path`, when some state goes on there.
    fn child(&self, child_path: String) -> Option<Self> {
        let mut next = Vec::new();
        for &state in &self.states {
            match self.steps.get(state) {
                Some(Step::AnyDepth) => next.push(state),
                Some(step) if matches(step, &child_path) => next.push(state + 1),
                _ => {}
            }
        }
        next.sort_unstable();
        next.dedup();
        (!next.is_empty()).then(|| Walk {
            states: closure(self.steps, next),
            steps: self.steps,
            path: child_path,
            found: self.found,
        })
    }

    fn child_path(&self, key: &str) -> String {
        match self.path.is_empty() {
            true => key.to_owned(),
            false => format!("{}.{key}", self.path),
        }
    }
}

impl<'de> serde::de::DeserializeSeed<'de> for Walk<'_> {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        if self.states.contains(&self.steps.len()) {
            // Matched: held whole, and what lies below it that the pattern also matches.
            let value = Value::deserialize(d)?;
            let mut found = self.found.borrow_mut();
            found.push((self.path.clone(), value.clone()));
            for &state in self.states.iter().filter(|&&s| s < self.steps.len()) {
                for (child_path, child) in children(&value, &self.path) {
                    if let Some(Step::AnyDepth) = self.steps.get(state) {
                        walk(child, &self.steps[state..], child_path, &mut found);
                    } else if matches(&self.steps[state], &child_path) {
                        walk(child, &self.steps[state + 1..], child_path, &mut found);
                    }
                }
            }
            return Ok(());
        }
        d.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for Walk<'_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }

    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }

    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }

    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }

    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }

    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<String>()? {
            match self.child(self.child_path(&key)) {
                Some(walk) => map.next_value_seed(walk)?,
                None => drop(map.next_value::<serde::de::IgnoredAny>()?),
            }
        }
        Ok(())
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut index = 0;
        loop {
            let more = match self.child(format!("{}[{index}]", self.path)) {
                Some(walk) => seq.next_element_seed(walk)?.is_some(),
                None => seq.next_element::<serde::de::IgnoredAny>()?.is_some(),
            };
            if !more {
                return Ok(());
            }
            index += 1;
        }
    }
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
    fn a_streamed_selection_finds_what_the_selection_of_the_tree_finds() {
        let value = json!({
            "name": "pack",
            "animations": [
                {"name": "a", "objects": [{"name": "Root", "skin": {"name": "s"}}]},
                {"name": "b", "objects": []}
            ]
        });
        let document = json!({"format": "ifp", "value": value}).to_string();
        for pattern in [
            "**.name",
            "animations[1].name",
            "**",
            "*",
            "animations.0.objects[*]",
            "nope",
        ] {
            let pattern: Pattern = pattern.parse().unwrap();
            let streamed = select_streamed(document.as_bytes(), &pattern, "value").unwrap();
            assert_eq!(streamed, select(&value, &pattern), "{pattern:?}");
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
