//! Real files for the gallery formats, found at test time: on the machine (images, sounds,
//! archives and fonts that packages install), made by their real producers (SQLite databases
//! and pickles by Python), and in `$SKELCODEC_GALLERY_FILES` when set. None is kept in the
//! project.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Where installed files are looked for, besides the sources of the crates cargo fetched and
/// Python's own library (its test data has sounds and images).
const ROOTS: &[&str] = &["/usr/share", "/usr/lib", "/usr/local/lib"];
/// Directory entries visited at most, over all roots: the search stays bounded on any machine.
const MAX_VISITED: usize = 400_000;
/// Files larger than this are passed over: the property decodes each one many times.
const MAX_FILE_SIZE: u64 = 256 * 1024;

/// Files with each of `extensions` (lowercase), at most `per_format` of them, spread over
/// everything found, in path order.
pub fn find(extensions: &[&str], per_format: usize, extra: &[PathBuf]) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = Vec::new();
    let roots = ROOTS
        .iter()
        .map(PathBuf::from)
        .chain(cargo_sources())
        .chain(python_library())
        .chain(extra.iter().cloned());
    let mut visited = 0;
    for root in roots {
        for entry in walkdir::WalkDir::new(root)
            .into_iter()
            .filter_map(Result::ok)
        {
            visited += 1;
            if visited > MAX_VISITED {
                break;
            }
            let path = entry.path();
            let size = entry.metadata().map(|m| m.len()).unwrap_or(0);
            if entry.file_type().is_file()
                && (16..=MAX_FILE_SIZE).contains(&size)
                && has_extension(path, extensions)
            {
                found.push(path.to_owned());
            }
        }
    }
    found.sort();
    found.dedup();
    let step = (found.len() / per_format.max(1)).max(1);
    found.into_iter().step_by(step).take(per_format).collect()
}

/// The sources of the crates cargo has fetched.
fn cargo_sources() -> Option<PathBuf> {
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| Some(PathBuf::from(std::env::var_os("HOME")?).join(".cargo")))?;
    Some(home.join("registry/src"))
}

/// Python's standard library, as `python3` names it.
fn python_library() -> Option<PathBuf> {
    let output = Command::new("python3")
        .args([
            "-c",
            "import sysconfig; print(sysconfig.get_path('stdlib'))",
        ])
        .output()
        .ok()?;
    let path = String::from_utf8(output.stdout).ok()?;
    Some(PathBuf::from(path.trim()))
}

fn has_extension(path: &Path, extensions: &[&str]) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| extensions.contains(&e.to_ascii_lowercase().as_str()))
}

/// Makes SQLite databases and pickles of several protocols with Python in `dir`; what Python
/// cannot make (no `python3`) is simply not there.
pub fn make_with_python(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let status = Command::new("python3")
        .arg("-c")
        .arg(PYTHON_MAKER)
        .arg(dir)
        .status()?;
    match status.success() {
        true => Ok(()),
        false => Err(std::io::Error::other(format!(
            "python3 exited with {status}"
        ))),
    }
}

/// Writes `table-N.sqlite` for pages of N = 512, 1024 and 4096 bytes (integers of every width,
/// text, blobs, reals, nulls, an index) and
/// `object-N.pickle` for protocols 0 to 5.
const PYTHON_MAKER: &str = r#"
import pickle, sqlite3, sys, os
d = sys.argv[1]
for page_size in (512, 1024, 4096):
    db = os.path.join(d, "table-%d.sqlite" % page_size)
    if os.path.exists(db):
        os.remove(db)
    c = sqlite3.connect(db)
    c.execute("pragma page_size = %d" % page_size)
    c.execute("create table t (id integer primary key, n integer, s text, b blob, r real, z)")
    for i in range(40):
        c.execute("insert into t (n, s, b, r, z) values (?, ?, ?, ?, ?)",
                  (i * 7919 - 100000 * (i % 3), "row %d " % i * (i % 5), bytes(range(i % 17)), i / 7, None))
    c.execute("create index t_n on t (n)")
    c.commit()
    c.close()
value = {"list": [1, -2, 3.5, None, True], "text": "gallery", "bytes": b"\x00\x01", "big": 2**70,
         "tuple": (1, "two"), "nested": {"a": [{"b": 1.25}]}}
for protocol in range(6):
    with open(os.path.join(d, "object-%d.pickle" % protocol), "wb") as f:
        pickle.dump(value, f, protocol=protocol)
"#;
