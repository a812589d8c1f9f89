//! The markdown tables: times from criterion's estimates of this run, allocations and peak
//! heap from the counting allocator, and the ratios skelcodec / peer with the targets.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use crate::alloc::Stats;
use crate::workloads::Workload;

/// What is timed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Op {
    /// Bytes to values.
    Decode,
    /// Bytes to values, then every value looked at (the checksum): what a reader that uses
    /// everything pays, however lazily a codec decodes.
    Visit,
    /// Values to bytes.
    Encode,
}

impl Op {
    /// Every operation, in table order.
    pub const ALL: [Op; 3] = [Op::Decode, Op::Visit, Op::Encode];

    /// The criterion group prefix.
    pub fn name(self) -> &'static str {
        match self {
            Op::Decode => "decode",
            Op::Visit => "visit",
            Op::Encode => "encode",
        }
    }
}

/// The criterion group of a workload and an operation.
pub fn group(op: Op, workload: &str) -> String {
    format!("{}-{workload}", op.name())
}

/// The implementations, in table order.
pub const IMPLS: [&str; 6] = [
    "skelcodec",
    "skelcodec-owned",
    "binrw",
    "deku",
    "hand",
    "memcpy",
];

/// skelcodec's ways of reading (`read(&[u8])`; `read_owned(Vec<u8>)` of a copy made in the
/// timed region), each compared with the peers.
const OURS: [&str; 2] = ["skelcodec", "skelcodec-owned"];

/// The implementations skelcodec is compared with.
const PEERS: [&str; 4] = ["binrw", "deku", "hand", "memcpy"];

/// What was measured for one implementation on one workload.
#[derive(Debug, Clone, Copy, Default)]
pub struct Measured {
    /// Allocations and peak heap of decoding every input once.
    pub decode: Stats,
    /// Allocations and peak heap of decoding every input once and looking at every value.
    pub visit: Stats,
    /// Allocations and peak heap of encoding every input once.
    pub encode: Stats,
}

impl Measured {
    /// What was measured for `op`.
    pub fn of(&self, op: Op) -> Stats {
        match op {
            Op::Decode => self.decode,
            Op::Visit => self.visit,
            Op::Encode => self.encode,
        }
    }
}

/// One workload's results.
#[derive(Debug, Clone)]
pub struct Row {
    /// Workload name.
    pub name: String,
    /// Description.
    pub about: String,
    /// Number of inputs.
    pub files: usize,
    /// Input bytes.
    pub bytes: u64,
    /// Key frames or vertices.
    pub units: u64,
    /// "keyframe" or "vertex".
    pub unit: &'static str,
    /// Per implementation.
    pub measured: BTreeMap<&'static str, Measured>,
}

impl Row {
    /// An empty row for a workload.
    pub fn new(w: &Workload) -> Self {
        Row {
            name: w.name.clone(),
            about: w.about.clone(),
            files: w.inputs.len(),
            bytes: w.bytes(),
            units: 0,
            unit: w.family.unit(),
            measured: BTreeMap::new(),
        }
    }
}

/// Where criterion writes: `$CRITERION_HOME`, `$CARGO_TARGET_DIR/criterion`, or the
/// workspace's `target/criterion`.
pub fn criterion_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("CRITERION_HOME") {
        return dir.into();
    }
    if let Some(dir) = std::env::var_os("CARGO_TARGET_DIR") {
        return PathBuf::from(dir).join("criterion");
    }
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    skelcodec_runtime::testing::workspace_root(manifest)
        .unwrap_or_else(|| manifest.to_path_buf())
        .join("target")
        .join("criterion")
}

/// The median time in ns of a benchmark, if criterion measured it after `since`.
pub fn median_ns(dir: &Path, group: &str, function: &str, since: SystemTime) -> Option<f64> {
    let path = dir
        .join(group)
        .join(function)
        .join("new")
        .join("estimates.json");
    let modified = std::fs::metadata(&path).ok()?.modified().ok()?;
    if modified < since {
        return None;
    }
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()?;
    json["median"]["point_estimate"].as_f64()
}

/// The machine the run happened on.
pub fn machine() -> String {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = cpuinfo
        .lines()
        .find_map(|l| l.strip_prefix("model name"))
        .map(|l| l.trim_start_matches([' ', '\t', ':']).to_owned())
        .unwrap_or_else(|| "unknown CPU".into());
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    let mem = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|m| {
            let kb: u64 = m.lines().next()?.split_whitespace().nth(1)?.parse().ok()?;
            Some(format!("{} GiB RAM", kb / (1 << 20)))
        })
        .unwrap_or_default();
    let rustc =
        std::process::Command::new(std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into()))
            .arg("-V")
            .output()
            .ok()
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
            .unwrap_or_default();
    format!(
        "{model}, {cores} cores, {mem}, {}, {rustc}",
        std::env::consts::OS
    )
}

fn ratio(ours: Option<f64>, peer: Option<f64>, target: Option<f64>) -> String {
    match (ours, peer) {
        (Some(a), Some(b)) if b > 0.0 => {
            let r = a / b;
            let mark = match target {
                Some(t) if r <= t => " ✓",
                Some(_) => " ✗",
                None => "",
            };
            format!("{r:.2}{mark}")
        }
        _ => "–".into(),
    }
}

/// Targets of issue #7, as the highest acceptable time ratio skelcodec / peer.
fn target(peer: &str, workload: &str) -> Option<f64> {
    match peer {
        "binrw" => Some(1.0 / 3.0),
        "deku" => Some(1.0 / 1.5),
        "hand" => Some(1.5),
        "memcpy" if workload.contains("anp3") => Some(4.0),
        _ => None,
    }
}

/// The tables, from criterion's estimates in `dir` written after `since`.
pub fn render(rows: &[Row], dir: &Path, since: SystemTime) -> String {
    let mut out = String::new();
    let time = |op: Op, row: &Row, imp: &str| median_ns(dir, &group(op, &row.name), imp, since);
    let _ = writeln!(
        out,
        "Time ratios skelcodec / peer (below 1: skelcodec is faster). Targets: ≤ 0.33 vs binrw, \
         ≤ 0.67 vs deku, ≤ 1.5 vs hand, ≤ 4 vs memcpy on ANP3 (✓ met, ✗ missed).\n"
    );
    let _ = writeln!(
        out,
        "| workload | op | codec | ns/unit | MB/s | ÷ binrw | ÷ deku | ÷ hand | ÷ memcpy |"
    );
    let _ = writeln!(out, "|---|---|---|---:|---:|---:|---:|---:|---:|");
    for row in rows {
        for (op, codec) in Op::ALL.iter().flat_map(|&op| OURS.map(|codec| (op, codec))) {
            if codec != OURS[0] && !row.measured.contains_key(codec) {
                continue;
            }
            let ours = time(op, row, codec);
            let per_unit = ours.map_or("–".into(), |t| {
                format!("{:.2}", t / row.units.max(1) as f64)
            });
            let mbs = ours.map_or("–".into(), |t| {
                format!("{:.0}", row.bytes as f64 / t * 1e3)
            });
            let cells: Vec<String> = PEERS
                .iter()
                .map(|peer| ratio(ours, time(op, row, peer), target(peer, &row.name)))
                .collect();
            let _ = writeln!(
                out,
                "| {} | {} | {codec} | {per_unit} /{} | {mbs} | {} |",
                row.name,
                op.name(),
                row.unit,
                cells.join(" | ")
            );
        }
    }
    let _ = writeln!(
        out,
        "\nAbsolute figures: median ns per unit (key frame or vertex), allocations per input file, \
         peak heap during the operation (MiB).\n"
    );
    let _ = writeln!(
        out,
        "| workload | op | {} |",
        IMPLS
            .map(|i| format!("{i} ns/unit · allocs · MiB"))
            .join(" | ")
    );
    let _ = writeln!(out, "|---|---|{}", "---:|".repeat(IMPLS.len()));
    for row in rows {
        for op in Op::ALL {
            let cells: Vec<String> = IMPLS
                .iter()
                .map(|imp| {
                    let Some(m) = row.measured.get(imp) else {
                        return "–".into();
                    };
                    let stats = m.of(op);
                    let t = time(op, row, imp).map_or("–".into(), |t| {
                        format!("{:.2}", t / row.units.max(1) as f64)
                    });
                    format!(
                        "{t} · {:.0} · {:.1}",
                        stats.allocs as f64 / row.files as f64,
                        stats.peak as f64 / (1 << 20) as f64
                    )
                })
                .collect();
            let _ = writeln!(
                out,
                "| {} | {} | {} |",
                row.name,
                op.name(),
                cells.join(" | ")
            );
        }
    }
    let _ = writeln!(out, "\nWorkloads:\n");
    for row in rows {
        let _ = writeln!(
            out,
            "- `{}`: {}; {} file(s), {:.2} MB, {} {}",
            row.name,
            row.about,
            row.files,
            row.bytes as f64 / 1e6,
            row.units,
            if row.unit == "vertex" {
                "vertices"
            } else {
                "keyframes"
            }
        );
    }
    out
}
