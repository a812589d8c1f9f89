//! A hostile file whose directories each point at every later one (cramfs inodes, one byte
//! changed): reading every path would take 2^40 reads of the same bytes. Work beyond one pass
//! over the file is budgeted, and a value read by position is charged before it is read, so
//! once the budget is spent every further read fails at once, each as its own instance: the
//! read ends, with the failures in the document, instead of growing without bound. The
//! generated code and the interpreter alike; the file is built by code from
//! `tests/schemas/dag_dirs.ksy`.

mod dag_dirs {
    skelcodec_macros::codec!("tests/schemas/dag_dirs.ksy");
}

use dag_dirs::DagDirs;
use skelcodec_generated_tests::interpreter;

const SCHEMA: &str = "tests/schemas/dag_dirs.ksy";

/// The root entry, then `n` directory entries of three bytes from 3: entry `k` points at the
/// entries after it, so every directory holds every later one.
fn dag(n: u8) -> Vec<u8> {
    let entry = |k: u8| [1, 3 + 3 * (k + 1), 3 * (n - k - 1)];
    let mut file = vec![1, 3, 3 * n];
    for k in 0..n {
        file.extend(entry(k));
    }
    file
}

/// Every error message in a document, depth first.
fn errors(document: &serde_json::Value, found: &mut Vec<String>) {
    match document {
        serde_json::Value::Object(map) => {
            if let Some(serde_json::Value::String(e)) = map.get("_error") {
                found.push(e.clone());
            }
            map.values().for_each(|v| errors(v, found));
        }
        serde_json::Value::Array(items) => items.iter().for_each(|v| errors(v, found)),
        _ => {}
    }
}

#[test]
fn a_file_pointing_everywhere_many_times_ends_with_a_clean_error() {
    let file = dag(40);
    let value = DagDirs::read(&file).expect("the root reads; the instances fail on their own");
    assert_budget_spent(&serde_json::to_value(&value).expect("a document"));
    assert_eq!(value.to_bytes().unwrap(), file);

    // The interpreter recurses once per nested value, up to `rt::reader::MAX_DEPTH` values of
    // a recursive type deep; unoptimised, that takes more than the 2 MiB a test thread has,
    // so it reads on a thread with a main thread's 8 MiB.
    let on_a_main_thread_stack = std::thread::Builder::new().stack_size(8 << 20);
    let reading = on_a_main_thread_stack.spawn(move || {
        let interpreter = interpreter(SCHEMA);
        let read = interpreter
            .read(&file)
            .expect("the interpreter reads the root");
        serde_json::to_value(interpreter.document(&read)).expect("a document")
    });
    let document = reading
        .unwrap()
        .join()
        .expect("the interpreter's read ends");
    assert_budget_spent(&document);
}

/// Some instance of `document` failed because the budget was spent.
fn assert_budget_spent(document: &serde_json::Value) {
    let mut found = Vec::new();
    errors(document, &mut found);
    let spent = |e: &String| e.contains("far more work than the file's size calls for");
    assert!(found.iter().any(spent), "{found:?}");
}

#[test]
fn a_directory_tree_of_the_same_shape_reads_whole() {
    // Each entry points at the next alone: n reads (two values deep each, within the depth
    // limit), no failure.
    let n = 20u8;
    let mut file = vec![1, 3, 3];
    for k in 0..n {
        let last = k + 1 == n;
        file.extend([u8::from(!last), 3 + 3 * (k + 1), if last { 0 } else { 3 }]);
    }
    let value = DagDirs::read(&file).expect("the file reads");
    let document = serde_json::to_value(&value).expect("a document");
    let mut found = Vec::new();
    errors(&document, &mut found);
    assert!(found.is_empty(), "{found:?}");
    assert_eq!(value.to_bytes().unwrap(), file);
}
