//! The README and the book (`docs/`), as their readers meet them: every `console` example is
//! run against the built `skelcodec` and prints what the page says (`examples`), and every
//! relative link and anchor leads somewhere (`links`). Their Rust examples are doc-tests of the
//! crates that include the pages (`skelcodec`, `skelcodec-example-wav`); `links` checks that
//! every page with one is included. How to write for these tests: `docs/dev/book.md`.

mod examples;
mod links;

use std::path::{Path, PathBuf};

/// The workspace's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("cli/ is inside the workspace")
        .to_path_buf()
}

/// The README and every Markdown page of the book, as paths relative to the root, sorted.
fn pages() -> Vec<PathBuf> {
    let root = root();
    let mut pages: Vec<PathBuf> = walkdir::WalkDir::new(root.join("docs"))
        .into_iter()
        .map(|entry| entry.expect("the book's folder reads").into_path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .map(|path| path.strip_prefix(&root).unwrap().to_path_buf())
        .collect();
    pages.push(PathBuf::from("README.md"));
    pages.sort();
    pages
}

/// A page's text.
fn read(page: &Path) -> String {
    std::fs::read_to_string(root().join(page)).unwrap_or_else(|e| panic!("{}: {e}", page.display()))
}

/// A fenced code block of a page.
struct Fence {
    /// The info string after the opening fence (`console`, `yaml,file=wav.ksy`).
    info: String,
    /// The line of the opening fence, counted from 1.
    line: usize,
    /// Its lines, without the indentation of the fence (a fence may be indented in a list).
    body: Vec<String>,
}

impl Fence {
    /// The words of the info string: the language, then attributes.
    fn words(&self) -> impl Iterator<Item = &str> {
        self.info.split(',').map(str::trim)
    }

    /// The language of the block (`rust`, `console`, `yaml`), or "" when none is given.
    fn language(&self) -> &str {
        self.words().next().unwrap_or("")
    }
}

/// The fenced code blocks of a Markdown text, and for each line of the text whether it lies
/// inside one (fences included).
fn fences(text: &str) -> (Vec<Fence>, Vec<bool>) {
    let mut fences = Vec::new();
    let mut fenced = Vec::new();
    let mut open: Option<(usize, Fence)> = None;
    for (index, line) in text.lines().enumerate() {
        let indent = line.len() - line.trim_start().len();
        let trimmed = line.trim_start();
        match open.take() {
            None => {
                if let Some(info) = trimmed.strip_prefix("```") {
                    let fence = Fence {
                        info: info.trim().to_string(),
                        line: index + 1,
                        body: Vec::new(),
                    };
                    open = Some((indent, fence));
                }
                fenced.push(open.is_some());
            }
            Some((indent_of_fence, mut fence)) => {
                fenced.push(true);
                if trimmed.trim_end() == "```" {
                    fences.push(fence);
                } else {
                    let body = line.get(indent_of_fence.min(indent)..).unwrap_or("");
                    fence.body.push(body.to_string());
                    open = Some((indent_of_fence, fence));
                }
            }
        }
    }
    assert!(open.is_none(), "a fence is never closed");
    (fences, fenced)
}
