//! `decode --path`: picks parts of a decoded document by a dotted path, so that a user can
//! print, say, just the skins of a model: `--path '**.skin'`.
//!
//! Segments are field names or list indices; `*` matches any one field or element, `**` any
//! number of levels (including none).

use serde_json::Value;

/// Every value of `root` that `pattern` matches, with its field path (`clumps[0].info`).
pub fn select(root: &Value, pattern: &str) -> Vec<(String, Value)> {
    let segments: Vec<&str> = pattern.split('.').filter(|s| !s.is_empty()).collect();
    let mut found = Vec::new();
    walk(root, &segments, String::new(), &mut found);
    found
}

fn walk(value: &Value, segments: &[&str], path: String, found: &mut Vec<(String, Value)>) {
    let Some((first, rest)) = segments.split_first() else {
        found.push((path, value.clone()));
        return;
    };
    if *first == "**" {
        // Zero levels, then one level deeper with `**` still in force.
        walk(value, rest, path.clone(), found);
        for (child_path, child) in children(value, &path) {
            walk(child, segments, child_path, found);
        }
        return;
    }
    for (child_path, child) in children(value, &path) {
        let key = child_path.rsplit(['.', '[']).next().unwrap_or_default();
        let key = key.trim_end_matches(']');
        if *first == "*" || *first == key {
            walk(child, rest, child_path, found);
        }
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

    #[test]
    fn selects_by_name_index_and_wildcards() {
        let doc = json!({"clumps": [{"skin": 1, "x": {"skin": 2}}, {"y": 3}]});
        let paths = |p| {
            select(&doc, p)
                .into_iter()
                .map(|(path, _)| path)
                .collect::<Vec<_>>()
        };
        assert_eq!(paths("clumps.0.skin"), ["clumps[0].skin"]);
        assert_eq!(paths("clumps.*.y"), ["clumps[1].y"]);
        assert_eq!(paths("**.skin"), ["clumps[0].skin", "clumps[0].x.skin"]);
        assert!(paths("nothing").is_empty());
        assert_eq!(select(&doc, "**.skin")[1].1, json!(2));
    }
}
