//! Every relative link of the README and the book leads to a file, and every `#anchor` to a
//! heading of its page, named as mdBook (and GitHub) name headings; a page of the book links
//! only inside the book, which is all the rendered book holds. Every page is a chapter of
//! `docs/SUMMARY.md`, and every page with Rust examples is included by a crate whose
//! doc-tests run them.

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};

use super::{fences, pages, read, root};

#[test]
fn every_relative_link_and_anchor_resolves() {
    let mut anchors: HashMap<PathBuf, Vec<String>> = HashMap::new();
    let mut broken = Vec::new();
    let mut checked = 0;
    for page in pages() {
        let text = read(&page);
        let (_, fenced) = fences(&text);
        for (index, line) in text.lines().enumerate() {
            if fenced[index] {
                continue;
            }
            for target in link_targets(line) {
                if target.contains("://") || target.starts_with("mailto:") {
                    continue;
                }
                checked += 1;
                let place = format!("{}:{}: ({target})", page.display(), index + 1);
                let (file, anchor) = target.split_once('#').unwrap_or((&target, ""));
                let linked = if file.is_empty() {
                    page.clone()
                } else {
                    normalize(&page.parent().unwrap().join(file))
                };
                if !root().join(&linked).exists() {
                    broken.push(format!("{place}: no such file"));
                    continue;
                }
                if page.starts_with("docs") && !linked.starts_with("docs") {
                    broken.push(format!(
                        "{place}: outside the book, which the rendered book does not hold; \
                         name the file as code instead"
                    ));
                    continue;
                }
                if !anchor.is_empty() {
                    let known = anchors
                        .entry(linked.clone())
                        .or_insert_with(|| heading_ids(&read(&linked)));
                    if !known.iter().any(|id| id == anchor) {
                        broken.push(format!(
                            "{place}: no heading `{anchor}` in {} (it has {})",
                            linked.display(),
                            known.join(", ")
                        ));
                    }
                }
            }
        }
    }
    assert!(checked > 100, "only {checked} links found");
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

#[test]
fn every_page_is_a_chapter_and_its_rust_examples_are_tested() {
    let summary = read(Path::new("docs/SUMMARY.md"));
    let chapters: Vec<PathBuf> = link_targets(&summary.replace('\n', " "))
        .iter()
        .map(|target| Path::new("docs").join(target))
        .collect();
    let including: Vec<String> = ["skelcodec/src/lib.rs", "examples/wav/src/lib.rs"]
        .iter()
        .map(|file| read(Path::new(file)))
        .collect();
    for page in pages() {
        if page == Path::new("docs/SUMMARY.md") || page == Path::new("README.md") {
            continue;
        }
        assert!(
            chapters.contains(&page),
            "{} is not a chapter of docs/SUMMARY.md",
            page.display()
        );
    }
    for page in pages() {
        let (fences, _) = fences(&read(&page));
        let has_rust = fences.iter().any(|f| f.language() == "rust");
        let included = format!("../{}\"", page.display());
        assert!(
            !has_rust || including.iter().any(|lib| lib.contains(&included)),
            "{} has Rust examples, but no crate includes it for its doc-tests \
             (skelcodec/src/lib.rs, `mod book`)",
            page.display()
        );
    }
}

/// The targets of the inline links of a line of Markdown, `[text](target)`, outside code spans.
fn link_targets(line: &str) -> Vec<String> {
    let mut targets = Vec::new();
    let prose: String = line
        .split('`')
        .enumerate()
        .filter(|(i, _)| i % 2 == 0)
        .map(|(_, part)| part)
        .collect::<Vec<_>>()
        .join(" ");
    let mut rest = prose.as_str();
    while let Some(start) = rest.find("](") {
        let after = &rest[start + 2..];
        let Some(end) = after.find(')') else { break };
        targets.push(after[..end].trim().to_string());
        rest = &after[end..];
    }
    targets
}

/// `path` without `.` and `..` components.
fn normalize(path: &Path) -> PathBuf {
    let mut normal = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                normal.pop();
            }
            other => normal.push(other),
        }
    }
    normal
}

/// The ids of a page's headings, as mdBook makes them: the heading's text without its Markdown
/// (code spans' backquotes, links' targets), lowercase, spaces as `-`, other punctuation but
/// `-` and `_` dropped; a repeated id gets `-1`, `-2`….
fn heading_ids(text: &str) -> Vec<String> {
    let (_, fenced) = fences(text);
    let mut ids: Vec<String> = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let Some(heading) = line.strip_prefix('#') else {
            continue;
        };
        if fenced[index] {
            continue;
        }
        let words = heading.trim_start_matches('#').trim();
        let mut id = slug(&without_link_targets(words));
        let repeats = ids.iter().filter(|known| **known == id).count();
        if repeats > 0 {
            id = format!("{id}-{repeats}");
        }
        ids.push(id);
    }
    ids
}

/// `[text](target)` as `text`.
fn without_link_targets(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("](") {
        let Some(end) = rest[start..].find(')') else {
            break;
        };
        out.push_str(&rest[..start]);
        rest = &rest[start + end + 1..];
    }
    out.push_str(rest);
    out.replace('[', "")
}

/// mdBook's id of a heading's text.
fn slug(text: &str) -> String {
    text.chars()
        .filter_map(|c| match c {
            c if c.is_alphanumeric() || c == '_' || c == '-' => Some(c.to_lowercase().next()?),
            c if c.is_whitespace() => Some('-'),
            _ => None,
        })
        .collect()
}

#[test]
fn headings_are_named_as_mdbook_names_them() {
    assert_eq!(
        heading_ids("# Schemas at run time: `--schema` and `explain`\n## Names\n## Names"),
        [
            "schemas-at-run-time---schema-and-explain",
            "names",
            "names-1"
        ]
    );
    assert_eq!(
        heading_ids("## What documents look like\n```sh\n# not a heading\n```\n"),
        ["what-documents-look-like"]
    );
    assert_eq!(
        slug("Kaitai's conformance suite"),
        "kaitais-conformance-suite"
    );
}
