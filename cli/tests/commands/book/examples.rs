//! Every `console` block of the README and the book, run as a reader would run it, from the
//! repository's root: each `$ ` line is a shell command (`sh`, with the built `skelcodec` first
//! on `PATH`), and the lines after it, up to the next command, are what it prints on standard
//! output and standard error together. A line `...` (indented or not) stands for any number
//! of lines; trailing spaces do not count.
//!
//! The commands of a page run in order in one scratch folder of their own, which holds links
//! to the project's `generated-tests`, `examples`, `schemas` and `skelcodec` folders (so that
//! paths read as they do from the root, and outputs land in the scratch folder) and each block
//! of the page marked `file=NAME` (```` ```yaml,file=wav.ksy ````), written as NAME first. A
//! block that uses `$GALLERY` runs with the Kaitai formats gallery beside the workspace, and
//! says that it is skipped when the gallery is not there.

use std::path::Path;
use std::process::Command;

use super::{Fence, fences, pages, read, root};

/// The folders of the project a page's commands see.
const LINKED: [&str; 4] = ["generated-tests", "examples", "schemas", "skelcodec"];

#[test]
fn console_examples_print_what_the_pages_say() {
    let gallery = crate::gallery_checksums::gallery();
    let mut failures = Vec::new();
    let mut ran = 0;
    for page in pages() {
        let text = read(&page);
        let (fences, _) = fences(&text);
        let consoles: Vec<&Fence> = fences
            .iter()
            .filter(|f| f.language() == "console")
            .collect();
        if consoles.is_empty() {
            continue;
        }
        let scratch = tempfile::tempdir().expect("a scratch folder");
        for name in LINKED {
            std::os::unix::fs::symlink(root().join(name), scratch.path().join(name))
                .expect("a link in the scratch folder");
        }
        for fence in &fences {
            if let Some(name) = fence.words().find_map(|w| w.strip_prefix("file=")) {
                let body = fence.body.join("\n") + "\n";
                std::fs::write(scratch.path().join(name), body).expect("a file of the page");
            }
        }
        for fence in consoles {
            let place = format!("{}:{}", page.display(), fence.line);
            let uses_gallery = fence.body.iter().any(|l| l.contains("$GALLERY"));
            if uses_gallery && gallery.is_none() {
                skelcodec_runtime::corpus::announce_skip(&format!(
                    "skipped: the example at {place} needs the Kaitai gallery"
                ));
                continue;
            }
            for example in commands(fence) {
                let printed = run(&example.command, scratch.path(), gallery.as_deref());
                ran += 1;
                if !matches(&example.expected, &printed) {
                    failures.push(format!(
                        "{place}, line {}: $ {}\n--- the page says:\n{}\n--- it printed:\n{}",
                        fence.line + example.line,
                        example.command,
                        example.expected.join("\n"),
                        printed.join("\n"),
                    ));
                }
            }
        }
    }
    assert!(ran > 0, "no console example found");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// A command of a console block and what it should print.
struct Example {
    command: String,
    expected: Vec<String>,
    /// Its line within the block, counted from 1.
    line: usize,
}

/// The commands of a console block (a line ending in `\` goes on on the next).
fn commands(fence: &Fence) -> Vec<Example> {
    let mut examples: Vec<Example> = Vec::new();
    let mut continued = false;
    for (index, line) in fence.body.iter().enumerate() {
        if continued {
            let last = examples.last_mut().expect("a command goes on");
            last.command.push('\n');
            last.command.push_str(line);
            continued = line.ends_with('\\');
        } else if let Some(command) = line.strip_prefix("$ ") {
            examples.push(Example {
                command: command.to_string(),
                expected: Vec::new(),
                line: index + 1,
            });
            continued = line.ends_with('\\');
        } else {
            let example = examples
                .last_mut()
                .unwrap_or_else(|| panic!("line {}: output before any `$ ` command", index + 1));
            example.expected.push(line.trim_end().to_string());
        }
    }
    examples
}

/// Runs `command` with `sh` in `dir`; what it printed, both streams together, line by line,
/// with the gallery's path written `$GALLERY`.
fn run(command: &str, dir: &Path, gallery: Option<&Path>) -> Vec<String> {
    let binary = Path::new(env!("CARGO_BIN_EXE_skelcodec"));
    let path = std::env::join_paths(
        std::iter::once(binary.parent().unwrap().to_path_buf()).chain(std::env::split_paths(
            &std::env::var_os("PATH").unwrap_or_default(),
        )),
    )
    .expect("a PATH");
    let mut shell = Command::new("sh");
    shell
        .arg("-c")
        .arg(format!("exec 2>&1\n{command}"))
        .current_dir(dir)
        .env("PATH", path);
    if let Some(gallery) = gallery {
        shell.env("GALLERY", gallery);
    }
    let output = shell.output().expect("run sh");
    let mut text = String::from_utf8_lossy(&output.stdout).into_owned();
    if let Some(gallery) = gallery {
        text = text.replace(&*gallery.to_string_lossy(), "$GALLERY");
    }
    text.lines().map(|l| l.trim_end().to_string()).collect()
}

/// Whether `printed` is what `expected` says, `...` standing for any number of lines.
fn matches(expected: &[String], printed: &[String]) -> bool {
    match expected.split_first() {
        None => printed.is_empty(),
        Some((first, rest)) if first.trim() == "..." => {
            (0..=printed.len()).any(|skipped| matches(rest, &printed[skipped..]))
        }
        Some((first, rest)) => printed
            .split_first()
            .is_some_and(|(line, others)| line == first && matches(rest, others)),
    }
}

#[test]
fn three_dots_stand_for_any_lines() {
    let lines = |text: &str| -> Vec<String> { text.lines().map(String::from).collect() };
    assert!(matches(&lines("a\n...\nd"), &lines("a\nb\nc\nd")));
    assert!(matches(&lines("a\n...\nd"), &lines("a\nd")));
    assert!(!matches(&lines("a\n...\nd"), &lines("a\nb")));
    assert!(!matches(&lines("a"), &lines("a\nb")));
    assert!(matches(&lines(""), &lines("")));
}
