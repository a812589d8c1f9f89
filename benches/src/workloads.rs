//! The inputs: synthetic files built in code (always), and the real IFP and DFF files of the
//! shared corpus when present (read from there, never copied).

use std::path::{Path, PathBuf};

use crate::{Checksum, Codec, Input, synth};

/// Which codecs apply to a workload.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// Whole IFP files (ANPK or ANP3).
    Ifp,
    /// Skin PLG payloads (PC layout) with their geometry's vertex count and version.
    Skin,
    /// Whole DFF models (skelcodec and memcpy only: no peer implements whole models).
    Dff,
}

impl Family {
    /// What one unit of work is, for "ns per unit".
    pub fn unit(self) -> &'static str {
        match self {
            Family::Ifp => "keyframe",
            Family::Skin | Family::Dff => "vertex",
        }
    }
}

/// A set of inputs decoded (or encoded) together in one timed iteration.
#[derive(Debug, Clone)]
pub struct Workload {
    /// Short name, used as the criterion group suffix.
    pub name: String,
    /// What the inputs are, for the table.
    pub about: String,
    /// Which codecs apply.
    pub family: Family,
    /// The inputs.
    pub inputs: Vec<Input>,
}

impl Workload {
    /// Total input bytes.
    pub fn bytes(&self) -> u64 {
        self.inputs.iter().map(|i| i.bytes.len() as u64).sum()
    }
}

/// Synthetic workloads: many small objects, and a few objects with very many frames.
pub fn synthetic() -> Vec<Workload> {
    let ifp = |name: &str, about: &str, bytes: Vec<u8>| Workload {
        name: name.into(),
        about: about.into(),
        family: Family::Ifp,
        inputs: vec![Input::file(name, bytes)],
    };
    let skin = |name: &str, bytes: Vec<u8>, num_vertices: i32| Input {
        name: name.into(),
        bytes,
        num_vertices,
        version: 0x36003,
    };
    vec![
        ifp(
            "syn-anp3-small",
            "ANP3, 1500 anims × 30 objects × 8 frames, types 3/4",
            synth::anp3(1500, 30, 8, &[3, 3, 3, 4], 1),
        ),
        ifp(
            "syn-anp3-long-f32",
            "ANP3, 4 objects × 131072 frames, type 2 (f32, 32 B)",
            synth::anp3(1, 4, 131_072, &[2], 2),
        ),
        ifp(
            "syn-anp3-long-i16",
            "ANP3, 4 objects × 131072 frames, type 4 (i16, 16 B)",
            synth::anp3(1, 4, 131_072, &[4], 3),
        ),
        ifp(
            "syn-anpk-small",
            "ANPK, 1000 anims × 30 objects × 8 frames, KR00/KRT0",
            synth::anpk(1000, 30, 8, &[0, 0, 0, 1], 4),
        ),
        ifp(
            "syn-anpk-long",
            "ANPK, 4 objects × 131072 frames, KRT0 (f32, 32 B)",
            synth::anpk(1, 4, 131_072, &[1], 5),
        ),
        Workload {
            name: "syn-skin".into(),
            about: "Skin PLG, 40000 vertices new layout + 20000 old layout".into(),
            family: Family::Skin,
            inputs: vec![
                skin("new", synth::skin(40_000, 64, false, 6), 40_000),
                skin("old", synth::skin(20_000, 32, true, 7), 20_000),
            ],
        },
    ]
}

pub(crate) fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(files(&path, ext));
        } else if path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case(ext))
        {
            out.push(path);
        }
    }
    out.sort();
    out
}

pub(crate) fn read(path: &Path, corpus: &Path) -> Input {
    let name = path
        .strip_prefix(corpus)
        .unwrap_or(path)
        .display()
        .to_string();
    Input::file(name, std::fs::read(path).expect("corpus file is readable"))
}

/// Workloads from the corpus (`SKELCODEC_CORPUS` or `../shared/corpus`); empty when absent.
pub fn corpus() -> Vec<Workload> {
    let dir = match skelcodec_runtime::testing::locate_corpus(env!("CARGO_MANIFEST_DIR")) {
        Ok(Some(dir)) => dir,
        Ok(None) => return Vec::new(),
        Err(message) => panic!("{message}"),
    };
    let mut out = Vec::new();
    let anp3: Vec<Input> = files(&dir.join("ifp/anp3"), "ifp")
        .iter()
        .map(|p| read(p, &dir))
        .collect();
    if let Some(ped) = anp3.iter().max_by_key(|i| i.bytes.len()) {
        out.push(Workload {
            name: "anp3-largest".into(),
            about: format!("ANP3, {} ({} bytes)", ped.name, ped.bytes.len()),
            family: Family::Ifp,
            inputs: vec![ped.clone()],
        });
    }
    if !anp3.is_empty() {
        out.push(Workload {
            name: "anp3-corpus".into(),
            about: format!("ANP3, all {} corpus files", anp3.len()),
            family: Family::Ifp,
            inputs: anp3,
        });
    }
    let anpk: Vec<Input> = files(&dir.join("ifp/anpk"), "ifp")
        .iter()
        .map(|p| read(p, &dir))
        .collect();
    if !anpk.is_empty() {
        out.push(Workload {
            name: "anpk-corpus".into(),
            about: format!("ANPK, all {} corpus files", anpk.len()),
            family: Family::Ifp,
            inputs: anpk,
        });
    }
    let dff: Vec<Input> = files(&dir.join("rw"), "dff")
        .iter()
        .map(|p| read(p, &dir))
        .collect();
    let skins: Vec<Input> = dff.iter().flat_map(skin_payloads).collect();
    if !skins.is_empty() {
        out.push(Workload {
            name: "dff-skins".into(),
            about: format!(
                "Skin PLG payloads (PC layout) of {} corpus DFF files: {}",
                dff.len(),
                skins.len()
            ),
            family: Family::Skin,
            inputs: skins,
        });
    }
    if !dff.is_empty() {
        out.push(Workload {
            name: "dff-whole".into(),
            about: format!("whole DFF models, all {} corpus files", dff.len()),
            family: Family::Dff,
            inputs: dff,
        });
    }
    out
}

/// Every workload: synthetic first, then the corpus.
pub fn all() -> Vec<Workload> {
    let mut out = synthetic();
    out.extend(corpus());
    out
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

/// librw's rule for the version in a library id (as `dff.ksy` states it).
fn rw_version(library_id: u32) -> u32 {
    if library_id & 0xffff_0000 != 0 {
        (((library_id >> 14) & 0x3ff00) + 0x30000) | ((library_id >> 16) & 0x3f)
    } else {
        library_id << 8
    }
}

/// The Skin PLG payloads of a DFF's PC-layout geometries, found by walking the chunk tree
/// (clump → geometry list → geometry → extension → 0x116), with the vertex count and version
/// from each geometry's struct. Native (platform) geometries are skipped.
pub fn skin_payloads(file: &Input) -> Vec<Input> {
    let b = &file.bytes;
    let mut out = Vec::new();
    for (kind, clump) in chunks(b, 0, b.len()) {
        if kind != 0x10 {
            break;
        }
        for (kind, list) in chunks(b, clump.start, clump.end) {
            if kind != 0x1a {
                continue;
            }
            for (kind, geometry) in chunks(b, list.start, list.end) {
                if kind == 0x0f {
                    geometry_skins(b, geometry, &file.name, &mut out);
                }
            }
        }
    }
    out
}

/// The (type, payload range) of the chunks laid end to end in `start..end`; a payload is
/// clipped to the file (real clump sizes can be short).
fn chunks(b: &[u8], start: usize, end: usize) -> Vec<(u32, std::ops::Range<usize>)> {
    let mut out = Vec::new();
    let mut p = start;
    while p + 12 <= end {
        let (Some(kind), Some(size)) = (u32_at(b, p), u32_at(b, p + 4)) else {
            break;
        };
        let body = p + 12;
        let body_end = body.saturating_add(size as usize);
        out.push((kind, body..body_end.min(b.len())));
        p = body_end;
    }
    out
}

fn geometry_skins(b: &[u8], geometry: std::ops::Range<usize>, name: &str, out: &mut Vec<Input>) {
    let children = chunks(b, geometry.start, geometry.end);
    let Some((0x01, s)) = children.first().cloned() else {
        return;
    };
    // Struct payload: format, triangles, vertices, morph targets; library id before it.
    let (Some(format), Some(vertices), Some(library_id)) = (
        u32_at(b, s.start),
        u32_at(b, s.start + 8),
        u32_at(b, s.start - 4),
    ) else {
        return;
    };
    if format & 0x0100_0000 != 0 {
        return;
    }
    for (kind, extension) in &children {
        if *kind != 0x03 {
            continue;
        }
        for (kind, plugin) in chunks(b, extension.start, extension.end) {
            if kind == 0x116 {
                out.push(Input {
                    name: format!("{name}#skin{}", out.len()),
                    bytes: b[plugin].to_vec(),
                    num_vertices: vertices as i32,
                    version: rw_version(library_id),
                });
            }
        }
    }
}

/// Decodes every input, checks the checksum against `expected` (when given) and that encoding
/// reproduces each input byte for byte. Returns the summed checksum.
pub fn verify<C: Codec>(
    workload: &Workload,
    expected: Option<&Checksum>,
) -> Result<Option<Checksum>, String> {
    let mut total: Option<Checksum> = None;
    for input in &workload.inputs {
        let value = C::decode(input).map_err(|e| format!("{}: decode failed: {e}", input.name))?;
        let bytes = C::encode(&value).map_err(|e| format!("{}: encode failed: {e}", input.name))?;
        if bytes != input.bytes {
            let at = bytes.iter().zip(&input.bytes).position(|(a, b)| a != b);
            return Err(format!(
                "{}: re-encoding differs (first at {at:?}; {} bytes in, {} out)",
                input.name,
                input.bytes.len(),
                bytes.len()
            ));
        }
        if let Some(c) = C::checksum(&value) {
            let t = total.get_or_insert_with(Checksum::default);
            t.sum += c.sum;
            t.values += c.values;
            t.ints += c.ints;
            t.units += c.units;
            t.objects += c.objects;
            t.groups += c.groups;
            t.raw += c.raw;
        }
    }
    if let (Some(expected), Some(got)) = (expected, &total)
        && expected != got
    {
        return Err(format!(
            "checksum differs: expected {expected:?}, got {got:?}"
        ));
    }
    Ok(total)
}
