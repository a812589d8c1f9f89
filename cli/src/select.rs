//! `decode --path`: picks parts of a decoded document by a field path, so that a user can
//! print, say, just the skins of a model: `--path '**.skin'`.
//!
//! The syntax is the one the tool prints in its messages and matches
//! (`body.anp3.animations[0].name`): fields separated by dots, list indices in brackets. `*`
//! matches any one field or element (`[*]` any element), `**` any number of levels, including
//! none. A number between dots (`animations.0`) is also taken as an index.

use serde_json::Value;
use skelcodec_runtime::events;

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
        if steps.len() > MAX_STEPS {
            return Err(format!("`{text}` has more than {MAX_STEPS} steps"));
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

/// Steps a pattern may have: its states are bits of a `u128`.
const MAX_STEPS: usize = 120;

/// Positions in a pattern's steps still to match at a value, one bit each (see [`closure`]).
type States = u128;

/// The values a pattern matches, found in the events of a value as it is serialized and
/// handed to `found` as each is complete, in the order the values start (a match inside
/// another waits for it): only the matches being read are held, so `decode --path` takes
/// no more memory than the largest of them. Each is reported once (`**.**.skin` reaches a
/// value several ways, but the events pass it once).
pub struct Selection<'p, F> {
    steps: &'p [Step],
    /// The key of the document whose value is walked (`value`); `None` when the events are
    /// the value's own.
    value_key: Option<&'p str>,
    /// The path of the innermost open value (`animations[3].objects`); each open map or list
    /// knows its length.
    path: String,
    /// The maps and lists open around the next event, outermost first.
    open: Vec<Open>,
    /// Matches not yet handed out, in the order they started: their path and, once read,
    /// their value; with the tree of those still being read.
    pending: std::collections::VecDeque<(String, Option<Value>)>,
    taking: Vec<(usize, Tree)>,
    /// How many matches were handed out; `pending` starts after them.
    handed: usize,
    found: F,
}

/// A map or list of a [`Selection`], with where the pattern stands there.
struct Open {
    path_len: usize,
    states: States,
    list: bool,
    /// A list's next index, a map's next key.
    next_index: usize,
    key: Option<String>,
}

impl<'p, F: FnMut(String, Value)> Selection<'p, F> {
    /// A selection by `pattern` of the events of a value, or of the `value_key` entry of a
    /// document's events, handing each match to `found`.
    pub fn new(pattern: &'p Pattern, value_key: Option<&'p str>, found: F) -> Self {
        Selection {
            steps: &pattern.0,
            value_key,
            path: String::new(),
            open: Vec::new(),
            pending: std::collections::VecDeque::new(),
            taking: Vec::new(),
            handed: 0,
            found,
        }
    }

    /// How many values matched.
    pub fn matched(&self) -> usize {
        self.handed + self.pending.len()
    }

    /// A value starts: the path buffer holds its path, and the states it is reached with
    /// are returned; when it is matched, its tree is taken from here on.
    fn start(&mut self) -> States {
        let document = self.value_key.is_some() && self.open.len() == 1;
        let states = match self.open.last_mut() {
            None if self.value_key.is_some() => 0,
            None => closure(self.steps, 1),
            Some(open) if document => match open.key.take().as_deref() == self.value_key {
                true => closure(self.steps, 1),
                false => 0,
            },
            Some(open) => {
                let key = open.key.take();
                let index = open.next_index;
                open.next_index += 1;
                self.path.truncate(open.path_len);
                match open.states {
                    0 => 0,
                    states => {
                        use std::fmt::Write;
                        match (open.list, key) {
                            (true, _) => drop(write!(self.path, "[{index}]")),
                            (false, key) => {
                                if !self.path.is_empty() {
                                    self.path.push('.');
                                }
                                self.path.push_str(&key.unwrap_or_default());
                            }
                        }
                        advance(self.steps, states, &self.path)
                    }
                }
            }
        };
        if states & (1 << self.steps.len()) != 0 {
            self.taking
                .push((self.handed + self.pending.len(), Tree::default()));
            self.pending.push_back((self.path.clone(), None));
        }
        states
    }

    /// Passes an event to the matches being taken, keeps those it completes, and hands out
    /// those no earlier match waits for.
    fn take(&mut self, event: impl Fn(&mut Tree)) {
        for (_, tree) in &mut self.taking {
            event(tree);
        }
        while let Some((slot, tree)) = self.taking.pop_if(|(_, tree)| tree.done.is_some()) {
            if let Some((_, value)) = self.pending.get_mut(slot - self.handed) {
                *value = tree.done;
            }
        }
        while self
            .pending
            .front()
            .is_some_and(|(_, value)| value.is_some())
        {
            if let Some((path, Some(value))) = self.pending.pop_front() {
                self.handed += 1;
                (self.found)(path, value);
            }
        }
    }

    fn open(&mut self, list: bool) {
        let states = self.start();
        self.take(|tree| tree.open(list));
        self.open.push(Open {
            path_len: self.path.len(),
            states,
            list,
            next_index: 0,
            key: None,
        });
    }
}

impl<F: FnMut(String, Value)> events::Events for Selection<'_, F> {
    fn scalar(&mut self, json: &str) {
        self.start();
        self.take(|tree| tree.scalar(json));
    }

    fn string(&mut self, text: &str) {
        self.start();
        self.take(|tree| tree.place(Value::String(text.to_owned())));
    }

    fn begin_map(&mut self) {
        self.open(false);
    }

    fn key(&mut self, key: &str) {
        self.take(|tree| tree.key(key));
        if let Some(open) = self.open.last_mut() {
            open.key = Some(key.to_owned());
        }
    }

    fn begin_seq(&mut self, _: Option<usize>) {
        self.open(true);
    }

    fn end(&mut self) {
        self.take(Tree::end);
        self.open.pop();
    }
}

/// The JSON tree of a value built from its events.
#[derive(Default)]
struct Tree {
    /// The maps and lists open, each with the key its next value goes under.
    open: Vec<(Value, Option<String>)>,
    done: Option<Value>,
}

impl Tree {
    fn place(&mut self, value: Value) {
        match self.open.last_mut() {
            None => self.done = Some(value),
            Some((Value::Object(map), key)) => {
                map.insert(key.take().unwrap_or_default(), value);
            }
            Some((Value::Array(items), _)) => items.push(value),
            Some(_) => {}
        }
    }

    fn scalar(&mut self, json: &str) {
        self.place(serde_json::from_str(json).unwrap_or_default());
    }

    fn open(&mut self, list: bool) {
        let empty = match list {
            true => Value::Array(Vec::new()),
            false => Value::Object(serde_json::Map::new()),
        };
        self.open.push((empty, None));
    }

    fn key(&mut self, key: &str) {
        if let Some((_, pending)) = self.open.last_mut() {
            *pending = Some(key.to_owned());
        }
    }

    fn end(&mut self) {
        if let Some((value, _)) = self.open.pop() {
            self.place(value);
        }
    }
}

/// `states` with, for each `**`, the position after it too.
fn closure(steps: &[Step], mut states: States) -> States {
    for (at, step) in steps.iter().enumerate() {
        if *step == Step::AnyDepth && states & (1 << at) != 0 {
            states |= 1 << (at + 1);
        }
    }
    states
}

/// The states of the child at `child_path` of a value reached with `states`.
fn advance(steps: &[Step], states: States, child_path: &str) -> States {
    let mut next = 0;
    for (at, step) in steps.iter().enumerate() {
        if states & (1 << at) == 0 {
            continue;
        }
        match step {
            Step::AnyDepth => next |= 1 << at,
            step if matches(step, child_path) => next |= 1 << (at + 1),
            _ => {}
        }
    }
    closure(steps, next)
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

    /// Every value of `root` that `pattern` matches, with its field path (`clumps[0].info`).
    fn select(root: &Value, pattern: &Pattern) -> Vec<(String, Value)> {
        let mut found = Vec::new();
        let mut selection = Selection::new(pattern, None, |path, value| found.push((path, value)));
        events::serialize_into(root, &mut selection).expect("a JSON tree has a JSON form");
        found
    }

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
    fn a_document_is_walked_in_its_value_only() {
        let value = json!({"name": "pack", "animations": [{"name": "a"}, {"name": "b"}]});
        let document = json!({"format": "ifp", "name": "not walked", "value": value});
        let pattern: Pattern = "**.name".parse().unwrap();
        let mut found = Vec::new();
        let mut selection = Selection::new(&pattern, Some("value"), |path, value| {
            found.push((path, value))
        });
        events::serialize_into(&document, &mut selection).unwrap();
        assert_eq!(selection.matched(), 3);
        let paths: Vec<&str> = found.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(paths, ["name", "animations[0].name", "animations[1].name"]);
        assert_eq!(found[2].1, json!("b"));
    }

    #[test]
    fn a_match_inside_a_match_is_reported_after_it_with_its_own_value() {
        let doc = json!({"a": {"a": {"a": 1}}, "b": [[2], 3]});
        let found = select(&doc, &"**.a".parse().unwrap());
        assert_eq!(
            found,
            [
                ("a".to_owned(), json!({"a": {"a": 1}})),
                ("a.a".to_owned(), json!({"a": 1})),
                ("a.a.a".to_owned(), json!(1)),
            ]
        );
        let lists = select(&doc, &"b.**".parse().unwrap());
        let paths: Vec<&str> = lists.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(paths, ["b", "b[0]", "b[0][0]", "b[1]"]);
        assert_eq!(lists[1].1, json!([2]));
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
