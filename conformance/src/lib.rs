//! Kaitai Struct's conformance suite run through skelcodec: which specs read as Kaitai reads
//! them, and which of those write back byte for byte. The specs are compiled in by `build.rs`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use skelcodec_runtime::{Error, ErrorKind};

pub mod interpreter;
pub mod processors;

include!(concat!(env!("OUT_DIR"), "/specs.rs"));

/// A spec of the suite.
#[derive(Debug)]
pub struct Spec {
    /// Its id: the schema's name.
    pub id: &'static str,
    /// The data file, in the suite's `src/`.
    pub data: &'static str,
    /// The Kaitai exception the read must raise, if any (`ValidationNotEqualError<u1>`).
    pub exception: Option<&'static str>,
    /// Its asserts that compare a value, as `(actual, expected)` expression sources.
    pub asserts: &'static [(&'static str, &'static str)],
    /// What the compiler made of its schema.
    pub status: Status,
}

/// What the compiler made of a spec's schema.
#[derive(Debug)]
pub enum Status {
    /// Compiled: reads the data and evaluates the asserts.
    Compiled(fn(&[u8]) -> Run),
    /// Not compiled, and why.
    Rejected(&'static str),
}

/// What one run of a compiled spec gave.
#[derive(Debug)]
pub struct Run {
    /// The read, or the kind and text of its error.
    pub read: Result<(), ReadFailure>,
    /// Every assert, in order.
    pub asserts: Vec<AssertOutcome>,
    /// The value written back (when the read succeeded).
    pub written: Option<Result<Vec<u8>, String>>,
    /// The value's JSON document (when the read succeeded).
    pub document: Option<serde_json::Value>,
}

impl Run {
    /// A run whose read failed.
    pub fn failed(e: &Error) -> Self {
        Run {
            read: Err(ReadFailure {
                kind: e.kind().clone(),
                message: e.to_string(),
            }),
            asserts: Vec::new(),
            written: None,
            document: None,
        }
    }
}

/// A failed read.
#[derive(Debug)]
pub struct ReadFailure {
    /// What went wrong.
    pub kind: ErrorKind,
    /// The error as shown to users.
    pub message: String,
}

/// One assert's outcome.
#[derive(Debug)]
pub struct AssertOutcome {
    /// `actual == expected`, as the spec writes them.
    pub label: &'static str,
    /// `None` when it holds; otherwise the actual value or why it could not be evaluated.
    pub failure: Option<String>,
}

impl AssertOutcome {
    /// An assert that holds.
    pub fn pass(label: &'static str) -> Self {
        Self {
            label,
            failure: None,
        }
    }

    /// An assert that does not hold (`actual` shows what was found instead).
    pub fn fail(label: &'static str, actual: String) -> Self {
        Self {
            label,
            failure: Some(actual),
        }
    }
}

/// What a compiler says of a schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// It rejects it.
    Error,
    /// It compiles it, with warnings.
    Warning,
    /// It compiles it without a word.
    Accepted,
}

/// A schema of `formats_err/`: Kaitai's verdict (from the messages the file quotes) and the
/// checker's.
#[derive(Debug)]
pub struct FormatsErr {
    /// The schema's name.
    pub id: &'static str,
    /// What Kaitai's compiler says.
    pub kaitai: Verdict,
    /// What skelcodec's checker says.
    pub ours: Verdict,
}

impl FormatsErr {
    /// True when the checker agrees with Kaitai: a Kaitai error is an error; a Kaitai warning
    /// is a warning or an error (skelcodec refuses what it cannot decode, such as an unknown
    /// encoding); a schema Kaitai accepts (one the others import) is accepted.
    pub fn agrees(&self) -> bool {
        match self.kaitai {
            Verdict::Error => self.ours == Verdict::Error,
            Verdict::Warning => self.ours != Verdict::Accepted,
            Verdict::Accepted => self.ours == Verdict::Accepted,
        }
    }
}

/// The schemas of `formats_err/` on which the checker and Kaitai disagree.
pub fn formats_err_differences() -> Vec<&'static str> {
    FORMATS_ERR
        .iter()
        .filter(|f| !f.agrees())
        .map(|f| f.id)
        .collect()
}

/// How a spec's read went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadVerdict {
    /// Every assert holds, or the expected exception was raised.
    Pass,
    /// Read, but an assert does not hold (or an expected exception was not raised).
    Fail,
    /// Not compiled, or the read failed unexpectedly.
    Error,
}

/// `bytes`, written from `value`, when the value's JSON document reads back as a value that
/// writes them too: an unedited document must survive `decode` then `encode`.
pub fn through_document<T>(value: &T, bytes: Vec<u8>) -> Result<Vec<u8>, String>
where
    T: skelcodec_runtime::Codec,
{
    let document = serde_json::to_string(value).map_err(|e| format!("no JSON document: {e}"))?;
    let back: T = serde_json::from_str(&document)
        .map_err(|e| format!("its JSON document does not read back: {e}"))?;
    let again = back
        .to_bytes()
        .map_err(|e| format!("its JSON document is refused by the writer: {e}"))?;
    match skelcodec_runtime::first_difference(&bytes, &again) {
        None => Ok(bytes),
        Some(at) => Err(format!(
            "its JSON document writes other bytes, from byte {at}"
        )),
    }
}

/// How the write-back went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WriteVerdict {
    /// The bytes written are the bytes the read consumed.
    Exact,
    /// They differ, or the writer refused.
    Differs,
    /// Nothing was read, so nothing was written.
    None,
}

/// The outcome of one spec.
#[derive(Debug)]
pub struct Outcome {
    /// The spec.
    pub spec: &'static Spec,
    /// How the read went.
    pub read: ReadVerdict,
    /// How the write-back went.
    pub write: WriteVerdict,
    /// Why, when it did not pass.
    pub detail: String,
}

/// True when the suite was built in; otherwise says so (past the tests' output capture), for
/// a test to skip.
pub fn suite_built_in() -> bool {
    if SPECS.is_empty() {
        skelcodec_runtime::corpus::announce_skip(
            "skipped: Kaitai's conformance suite was not found when this crate was built \
             (set KAITAI_TESTS or put it at ../shared/kaitai-tests; the crate rebuilds)",
        );
    }
    !SPECS.is_empty()
}

/// The suite's folder: `$KAITAI_TESTS`, or where it was when this crate was built.
pub fn suite_dir() -> PathBuf {
    std::env::var_os("KAITAI_TESTS").map_or_else(|| PathBuf::from(SUITE), PathBuf::from)
}

/// Runs one spec against the suite in `suite`.
pub fn run_spec(spec: &'static Spec, suite: &Path) -> Outcome {
    let outcome = |read, write, detail: String| Outcome {
        spec,
        read,
        write,
        detail,
    };
    let run = match spec.status {
        Status::Rejected(why) => {
            return outcome(ReadVerdict::Error, WriteVerdict::None, why.to_owned());
        }
        Status::Compiled(run) => run,
    };
    let data = match std::fs::read(suite.join("src").join(spec.data)) {
        Ok(data) => data,
        Err(e) => {
            let why = format!("cannot read {}: {e}", spec.data);
            return outcome(ReadVerdict::Error, WriteVerdict::None, why);
        }
    };
    // A panic is a bug in generated code or the runtime: this spec's error, not the suite's end.
    let Ok(result) = std::panic::catch_unwind(|| run(&data)) else {
        let why = "generated code panicked".to_owned();
        return outcome(ReadVerdict::Error, WriteVerdict::None, why);
    };
    let write = match &result.written {
        None => WriteVerdict::None,
        Some(Ok(bytes)) if *bytes == data => WriteVerdict::Exact,
        Some(_) => WriteVerdict::Differs,
    };
    let write_detail = match &result.written {
        Some(Err(e)) => format!("; the writer refused: {e}"),
        Some(Ok(bytes)) if write == WriteVerdict::Differs => format!(
            "; written back differs at byte {}",
            skelcodec_runtime::first_difference(&data, bytes).unwrap_or(data.len())
        ),
        _ => String::new(),
    };
    let (read, detail) = match (&result.read, spec.exception) {
        (Err(failure), Some(expected)) if raises(expected, &failure.kind) => {
            (ReadVerdict::Pass, String::new())
        }
        (Err(failure), Some(expected)) => (
            ReadVerdict::Fail,
            format!("expected {expected}, got {}", failure.message),
        ),
        (Err(failure), None) => (ReadVerdict::Error, failure.message.clone()),
        (Ok(()), Some(expected)) => (ReadVerdict::Fail, format!("expected {expected}, read")),
        (Ok(()), None) => match result.asserts.iter().find(|a| a.failure.is_some()) {
            None => (ReadVerdict::Pass, String::new()),
            Some(a) => (
                ReadVerdict::Fail,
                format!("{}: found {}", a.label, a.failure.as_deref().unwrap_or("")),
            ),
        },
    };
    outcome(read, write, detail + &write_detail)
}

/// True when a read error is the kind of the Kaitai exception a spec expects.
fn raises(exception: &str, kind: &ErrorKind) -> bool {
    let name = exception.split('<').next().unwrap_or(exception);
    match name {
        "EndOfStreamError" => matches!(
            kind,
            ErrorKind::UnexpectedEof { .. } | ErrorKind::CountTooLarge { .. }
        ),
        "UndecidedEndiannessError" => matches!(kind, ErrorKind::UndecidedEndianness { .. }),
        // Kaitai checks `contents` as equality too.
        "ValidationNotEqualError" if matches!(kind, ErrorKind::BadContents { .. }) => true,
        _ if name.starts_with("Validation") => {
            matches!(kind, ErrorKind::Validation { rule, .. } if rule.kaitai_name() == name)
        }
        _ => matches!(kind, ErrorKind::Invalid(_)),
    }
}

/// The family of a spec: its id up to the first `_` (`bits`, `expr`, `valid`).
pub fn family(id: &str) -> &str {
    id.split('_').next().unwrap_or(id)
}

/// The table by family, then the summary line.
pub fn report(outcomes: &[Outcome]) -> String {
    let mut families: std::collections::BTreeMap<&str, [usize; 4]> = Default::default();
    for o in outcomes {
        let row = families.entry(family(o.spec.id)).or_default();
        row[0] += usize::from(o.read == ReadVerdict::Pass);
        row[1] += 1;
        row[2] += usize::from(o.write == WriteVerdict::Exact);
        row[3] += usize::from(o.write != WriteVerdict::None);
    }
    let mut out = format!("{:<12} {:>9} {:>15}\n", "family", "pass", "written exact");
    for (family, [pass, total, exact, written]) in &families {
        let _ = writeln!(
            out,
            "{family:<12} {:>9} {:>15}",
            format!("{pass}/{total}"),
            format!("{exact}/{written}")
        );
    }
    let pass = outcomes
        .iter()
        .filter(|o| o.read == ReadVerdict::Pass)
        .count();
    let exact = outcomes
        .iter()
        .filter(|o| o.write == WriteVerdict::Exact)
        .count();
    let read = outcomes
        .iter()
        .filter(|o| o.write != WriteVerdict::None)
        .count();
    let differences = formats_err_differences();
    let _ = writeln!(
        out,
        "formats_err: {}/{} judged as Kaitai judges them (differ: {})",
        FORMATS_ERR.len() - differences.len(),
        FORMATS_ERR.len(),
        differences.join(", ")
    );
    let _ = write!(
        out,
        "kaitai conformance: {pass}/{} specs pass, {exact}/{read} written back byte-exact",
        outcomes.len()
    );
    out
}

/// One TSV row per spec: `spec`, `read`, `write`, `detail`.
pub fn tsv(outcomes: &[Outcome]) -> String {
    let mut out = String::from("spec\tread\twrite\tdetail\n");
    for o in outcomes {
        let read = match o.read {
            ReadVerdict::Pass => "pass",
            ReadVerdict::Fail => "fail",
            ReadVerdict::Error => "error",
        };
        let write = match o.write {
            WriteVerdict::Exact => "exact",
            WriteVerdict::Differs => "differs",
            WriteVerdict::None => "none",
        };
        let detail = o.detail.replace(['\t', '\n'], " ");
        let _ = writeln!(out, "{}\t{read}\t{write}\t{detail}", o.spec.id);
    }
    out
}

/// Runs every spec. Panics are reported per spec, so their messages are silenced meanwhile.
pub fn run_all(suite: &Path) -> Vec<Outcome> {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let outcomes = SPECS.iter().map(|spec| run_spec(spec, suite)).collect();
    std::panic::set_hook(hook);
    outcomes
}
