//! Deterministic mutations of every fixture and every corpus file: truncations, byte flips,
//! count inflations (a small u32 or u16 set to all ones) and sizes past the end (a small u32
//! set to the bytes that remain plus one). Each mutated input must either fail with an error
//! whose offset lies inside the input and that names a field path, or decode to a value that
//! re-encodes to exactly the mutated bytes (a mutation may leave a valid file). Nothing may
//! panic, take long or allocate without bound.
//!
//! No schema knowledge is used: candidate count and size fields are found by their values, so
//! a new fixture or format is covered as soon as it is listed in `formats()` below; the
//! feature schemas' fixtures cover bit fields, processed values and encoded text.

use std::path::{Path, PathBuf};
use std::time::Instant;

use skelcodec_formats::battleforge::AnimationSetBlob;
use skelcodec_formats::dbpf::Dbpf;
use skelcodec_formats::dff::Dff;
use skelcodec_formats::drs::Drs;
use skelcodec_formats::gsa::Gsa;
use skelcodec_formats::ifp::Ifp;
use skelcodec_formats::sims2_anim::Sims2Anim;
use skelcodec_runtime::{Codec, first_difference};

/// Truncation lengths, flipped positions (two flips each) and candidate count/size fields
/// (three values each) per file at most; a quarter as many u16 counts.
const MAX_PER_KIND: usize = 48;
/// At least this many of each kind, however large the file.
const MIN_PER_KIND: usize = 2;
/// Bytes decoded per kind of mutation and file, roughly: large corpus files get fewer
/// mutations so that the whole test stays fast in a debug build.
const BYTES_PER_KIND: usize = 1 << 20;
/// A u32 or u16 at most this large and not zero is taken for a count or a size.
const SMALL: u32 = 0x10_0000;

/// One decoded sample: where it came from and its bytes.
struct Sample {
    name: String,
    bytes: Vec<u8>,
}

/// Every file under `dir` (recursively) whose name ends with one of `extensions`, sorted.
fn files_under(dir: &Path, extensions: &[&str]) -> Vec<PathBuf> {
    let mut files = skelcodec_generated_tests::files_under(dir);
    files.retain(|path| {
        path.extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| extensions.contains(&e))
    });
    files
}

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

/// Fixture files of a format, then corpus files (when the corpus is present).
#[track_caller]
fn samples(fixtures: &str, corpus: Option<&str>, extensions: &[&str]) -> Vec<Sample> {
    let mut dirs = vec![fixtures_dir().join(fixtures)];
    if let Some(corpus) = corpus
        && let Some(root) = skelcodec_runtime::testing::corpus_dir(env!("CARGO_MANIFEST_DIR"))
    {
        dirs.push(root.join(corpus));
    }
    dirs.iter()
        .flat_map(|dir| files_under(dir, extensions))
        .map(|path| Sample {
            name: path.display().to_string(),
            bytes: std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())),
        })
        .collect()
}

/// What was done to the input, for failure messages.
#[derive(Debug, Clone)]
enum Mutation {
    Truncate(usize),
    Xor { at: usize, mask: u8 },
    U32 { at: usize, value: u32 },
    U16 { at: usize, value: u16 },
}

impl Mutation {
    fn apply(&self, bytes: &[u8]) -> Vec<u8> {
        let mut out = bytes.to_vec();
        match *self {
            Mutation::Truncate(len) => out.truncate(len),
            Mutation::Xor { at, mask } => out[at] ^= mask,
            Mutation::U32 { at, value } => out[at..at + 4].copy_from_slice(&value.to_le_bytes()),
            Mutation::U16 { at, value } => out[at..at + 2].copy_from_slice(&value.to_le_bytes()),
        }
        out
    }
}

/// About `n` positions in `0..len` at a fixed stride (each nudged by a varying amount so that
/// they do not all fall on the same field of a repeated record), plus the first two and the last.
fn spread(len: usize, n: usize) -> Vec<usize> {
    if len <= n {
        return (0..len).collect();
    }
    let mut out: Vec<usize> = vec![0, 1, len - 1];
    let stride = len / n;
    out.extend((0..n).map(|i| i * stride + (i * 7) % stride.max(1)));
    out.retain(|&p| p < len);
    out.sort_unstable();
    out.dedup();
    out
}

/// The fixed set of mutations of one input.
fn mutations(bytes: &[u8]) -> Vec<Mutation> {
    let len = bytes.len();
    let per_kind = (BYTES_PER_KIND / len.max(1)).clamp(MIN_PER_KIND, MAX_PER_KIND);
    let mut out: Vec<Mutation> = spread(len, per_kind)
        .into_iter()
        .map(Mutation::Truncate)
        .collect();
    for at in spread(len, per_kind) {
        out.push(Mutation::Xor { at, mask: 0xff });
        out.push(Mutation::Xor { at, mask: 0x80 });
    }
    // Count and size candidates: small nonzero little-endian u32s at any offset (aligned
    // ones first), and u16s at even offsets.
    let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    let mut fields: Vec<usize> = (0..len.saturating_sub(3))
        .filter(|&at| (1..=SMALL).contains(&u32_at(at)))
        .collect();
    fields.sort_by_key(|&at| (at % 4 != 0, at));
    let fields = pick(&fields, per_kind);
    for &at in &fields {
        let past_end = u32::try_from(len - at)
            .unwrap_or(u32::MAX)
            .saturating_add(1);
        out.push(Mutation::U32 {
            at,
            value: u32::MAX,
        });
        out.push(Mutation::U32 {
            at,
            value: past_end,
        });
        out.push(Mutation::U32 {
            at,
            value: 0x8000_0000,
        });
    }
    let u16s: Vec<usize> = (0..len.saturating_sub(1))
        .step_by(2)
        .filter(|&at| u16::from_le_bytes([bytes[at], bytes[at + 1]]) != 0)
        .filter(|&at| u16::from_le_bytes([bytes[at], bytes[at + 1]]) < 0x1000)
        .collect();
    for at in pick(&u16s, per_kind.div_ceil(4)) {
        out.push(Mutation::U16 {
            at,
            value: u16::MAX,
        });
    }
    out
}

/// At most `n` items of `items` at a fixed stride, in order.
fn pick(items: &[usize], n: usize) -> Vec<usize> {
    if items.len() <= n || n == 0 {
        return items.get(..n).unwrap_or(items).to_vec();
    }
    let stride = items.len().div_ceil(n);
    items.iter().step_by(stride).copied().collect()
}

/// Counts for the closing summary.
#[derive(Default, Debug)]
struct Tally {
    files: usize,
    cases: usize,
    errors: usize,
    still_valid: usize,
}

/// Checks one decode of a mutated input; returns whether it decoded.
fn check_case<C: Codec>(
    bytes: &[u8],
    what: &dyn Fn() -> String,
    after_ok: fn(&C),
) -> Result<bool, String> {
    let decoded = C::read(bytes);
    let outcome = match decoded {
        Err(e) => {
            if e.offset() > bytes.len() as u64 {
                return Err(format!(
                    "{}: error offset {} is past the {}-byte input: {e}",
                    what(),
                    e.offset(),
                    bytes.len()
                ));
            }
            if e.path().is_empty() && e.offset() != 0 {
                return Err(format!("{}: error names no field: {e}", what()));
            }
            false
        }
        Ok(value) => {
            after_ok(&value);
            let out = value
                .to_bytes()
                .map_err(|e| format!("{}: decodes but does not encode: {e}", what()))?;
            if let Some(at) = first_difference(bytes, &out) {
                return Err(format!(
                    "{}: decodes but re-encodes differently from byte {at} ({}); {} bytes in, {} out",
                    what(),
                    skelcodec_runtime::field_at::<C>(bytes, at),
                    bytes.len(),
                    out.len()
                ));
            }
            true
        }
    };
    // Time is not asserted (speed is measured in benchmarks): the readers' budgets bound the work
    // of every case, and `gsa_scan_and_solve_work_is_bounded` checks the worst known one.
    Ok(outcome)
}

/// Runs every mutation of every sample; collects all failures before failing.
fn mutate_all<C: Codec>(samples: &[Sample], after_ok: fn(&C)) -> Tally {
    let started = Instant::now();
    let mut tally = Tally::default();
    let mut failures = Vec::new();
    for sample in samples {
        tally.files += 1;
        for m in mutations(&sample.bytes) {
            let input = m.apply(&sample.bytes);
            let what = || format!("{} {m:?}", sample.name);
            tally.cases += 1;
            match check_case::<C>(&input, &what, after_ok) {
                Ok(true) => tally.still_valid += 1,
                Ok(false) => tally.errors += 1,
                Err(failure) => failures.push(failure),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} mutations misbehave:\n{}",
        failures.len(),
        tally.cases,
        failures.join("\n")
    );
    eprintln!("{}: {tally:?} in {:?}", C::FORMAT, started.elapsed());
    assert_peak_memory_bounded();
    assert!(tally.files > 0, "{}: no samples found", C::FORMAT);
    tally
}

fn nothing<C>(_: &C) {}

#[test]
fn ifp_mutations() {
    let t = mutate_all::<Ifp>(&samples("ifp", Some("ifp"), &["ifp"]), nothing);
    assert!(t.errors > 0);
}

#[test]
fn dff_mutations() {
    mutate_all::<Dff>(&samples("dff", Some("rw"), &["dff"]), nothing);
}

#[test]
fn gsa_mutations() {
    mutate_all::<Gsa>(&samples("gsa", Some("gsa"), &["gsa"]), nothing);
}

#[test]
fn drs_mutations() {
    mutate_all::<Drs>(&samples("drs", Some("drs"), &["drs"]), nothing);
}

/// AnimationSet blobs as they sit in the DRS fixtures, extracted through the decoder.
#[test]
fn animation_set_mutations() {
    let blobs: Vec<Sample> = samples("drs", Some("drs"), &["drs"])
        .into_iter()
        .filter_map(|s| Some((Drs::read(&s.bytes).ok()?, s.name)))
        .flat_map(|(drs, name)| {
            drs.animation_sets()
                .into_iter()
                .enumerate()
                .map(|(i, set)| Sample {
                    name: format!("{name} animation set {i}"),
                    bytes: AnimationSetBlob(set.clone()).to_bytes().unwrap(),
                })
                .collect::<Vec<_>>()
        })
        .collect();
    mutate_all::<AnimationSetBlob>(&blobs, nothing);
}

#[test]
fn sims2_anim_mutations() {
    mutate_all::<Sims2Anim>(&samples("sims2", Some("sims2"), &["5an"]), nothing);
}

/// Packages are also opened the way tools open them: every resource extracted (QFS
/// decompression of mutated data) and every ANIM decoded.
#[test]
fn dbpf_mutations() {
    fn open(package: &Dbpf) {
        for entry in &package.index {
            let _ = package.extract(entry);
        }
        let _ = package.animations();
    }
    mutate_all::<Dbpf>(&samples("sims2", Some("sims2"), &["package"]), open);
}

/// Codecs of the feature schemas whose read paths the game formats do not take: bit fields,
/// processed and framed values, text in other encodings, values read from other streams.
mod features {
    #[allow(deprecated)] // the schema's style warnings, which `schema check` lists
    pub mod bit_fields {
        skelcodec_macros::codec!("tests/schemas/bit_fields.ksy");
    }
    #[allow(deprecated)] // the schema's style warnings, which `schema check` lists
    pub mod processed {
        skelcodec_macros::codec!("tests/schemas/processed.ksy");
    }
    pub mod text_encodings {
        skelcodec_macros::codec!("tests/schemas/text_encodings.ksy");
    }
    pub mod other_streams {
        skelcodec_macros::codec!("tests/schemas/other_streams.ksy");
    }
}

#[test]
fn feature_mutations() {
    let sample = |name: &str| {
        samples("features", None, &["bin"])
            .into_iter()
            .filter(move |s| s.name.contains(name))
            .collect::<Vec<_>>()
    };
    mutate_all::<features::bit_fields::BitFields>(&sample("bit_fields"), nothing);
    mutate_all::<features::processed::Processed>(&sample("processed"), nothing);
    mutate_all::<features::text_encodings::TextEncodings>(&sample("text_encodings"), nothing);
    mutate_all::<features::other_streams::OtherStreams>(&sample("other_streams"), nothing);
}

/// The regression inputs found by fuzzing: each must fail cleanly or round-trip.
#[test]
fn fuzzer_regressions() {
    let dir = fixtures_dir().join("regressions");
    let mut checked = 0;
    for path in files_under(&dir, &["bin"]) {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(&path).unwrap();
        let what = || name.clone();
        let format = name.split("--").next().unwrap();
        let result = match format {
            "ifp" => check_case::<Ifp>(&bytes, &what, nothing),
            "dff" => check_case::<Dff>(&bytes, &what, nothing),
            "gsa" => check_case::<Gsa>(&bytes, &what, nothing),
            "drs" => check_case::<Drs>(&bytes, &what, nothing),
            "animation_set" => check_case::<AnimationSetBlob>(&bytes, &what, nothing),
            "sims2_anim" => check_case::<Sims2Anim>(&bytes, &what, nothing),
            "dbpf" => check_case::<Dbpf>(&bytes, &what, nothing),
            "other_streams" => {
                check_case::<features::other_streams::OtherStreams>(&bytes, &what, nothing)
            }
            other => panic!("{name}: unknown format {other}"),
        };
        if let Err(failure) = result {
            panic!("{failure}");
        }
        checked += 1;
    }
    assert!(checked > 0, "no regression inputs under {}", dir.display());
    eprintln!("{checked} fuzzer regressions");
}

/// Peak memory of this test process so far stays small: the readers cap what they allocate
/// by the input that remains, so no mutation can make them reserve gigabytes. Checked after
/// each format, so whichever finishes last covers them all. (Linux only.)
fn assert_peak_memory_bounded() {
    let Ok(status) = std::fs::read_to_string("/proc/self/status") else {
        return;
    };
    let peak_kib: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0);
    assert!(
        peak_kib < 1024 * 1024,
        "peak resident memory {peak_kib} KiB exceeds 1 GiB"
    );
}

/// The writer side: a value the format cannot represent is refused with the field's path, and
/// nothing half-written comes out. (IFP's removed-list-element case is in `ifp_behaviour.rs`.)
mod writer_refusals {
    use super::*;
    use skelcodec_formats::drs::NodeInformationBlob;
    use skelcodec_formats::ifp::IfpBody;
    use skelcodec_runtime::ErrorKind;

    fn fixture(path: &str) -> Vec<u8> {
        std::fs::read(fixtures_dir().join(path)).unwrap()
    }

    /// `to_bytes` fails with an encode error at `path`, and `normalize` makes it encodable.
    fn refuses<C: Codec>(mut value: C, path: &str) {
        let err = value.to_bytes().unwrap_err();
        assert_eq!(err.path(), path, "{err}");
        assert!(matches!(err.kind(), ErrorKind::Encode(_)), "{err}");
        value.normalize().unwrap();
        let bytes = value.to_bytes().unwrap();
        assert_eq!(C::read(&bytes).unwrap().to_bytes().unwrap(), bytes);
    }

    #[test]
    fn a_name_longer_than_its_fixed_field_is_refused() {
        let mut file = Ifp::read(&fixture("ifp/anp3/anp3_types_1_to_4.ifp")).unwrap();
        let IfpBody::Anp3(body) = &mut file.body else {
            panic!("not ANP3")
        };
        let name = &mut body.animations[0].name;
        let before = *name;
        let err = name.set_text(&"x".repeat(25)).unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::Encode(_)), "{err}");
        assert_eq!(*name, before, "a refused edit leaves the name as it was");
        name.set_text(&"x".repeat(24)).unwrap();
        assert_eq!(name.text(), "x".repeat(24));
    }

    /// Through JSON (what `skelcodec encode` reads), an out-of-range fixed-point value and an
    /// overlong fixed string are refused before anything is written.
    #[test]
    fn json_values_that_do_not_fit_are_refused() {
        let format = skelcodec_formats::by_id("ifp").unwrap();
        let bytes = fixture("ifp/anp3/anp3_types_1_to_4.ifp");
        let document = format.decode_json(&bytes).unwrap();
        let value = document["value"].clone();
        assert_eq!(format.encode_json(value.clone()).unwrap(), bytes);

        // Every number inside the first object's frames made huge: some are fixed-point.
        let mut huge = value.clone();
        let frames = &mut huge["body"]["anp3"]["animations"][0]["objects"];
        fn inflate(v: &mut serde_json::Value) -> usize {
            match v {
                serde_json::Value::Number(n) if n.is_f64() => {
                    *v = serde_json::json!(1.0e9);
                    1
                }
                serde_json::Value::Array(items) => items.iter_mut().map(inflate).sum(),
                serde_json::Value::Object(map) => map.values_mut().map(inflate).sum(),
                _ => 0,
            }
        }
        assert!(inflate(frames) > 0, "no fixed-point values in {frames}");
        let err = format.encode_json(huge).unwrap_err().to_string();
        assert!(err.contains("outside the range"), "{err}");

        let mut long = value;
        long["body"]["anp3"]["animations"][0]["name"] = serde_json::json!("x".repeat(25));
        let err = format.encode_json(long).unwrap_err().to_string();
        assert!(err.contains("holds 24"), "{err}");
    }

    #[test]
    fn dff_atomic_count_must_match() {
        let mut dff = Dff::read(&fixture("dff/two_clumps.dff")).unwrap();
        dff.clumps_mut().nth(1).unwrap().atomics.pop().unwrap();
        let err = dff.to_bytes().unwrap_err();
        assert_eq!(err.path(), "chunks[1].body.clump.atomics", "{err}");
        assert!(matches!(err.kind(), ErrorKind::Encode(_)), "{err}");
        // The count lives in the clump's info struct and is not `-derived`, so `normalize()`
        // leaves it (a schema gap, reported with issue #8); setting it makes the file encodable.
        dff.clumps_mut().nth(1).unwrap().info.num_atomics = 0;
        dff.normalize().unwrap();
        let bytes = dff.to_bytes().unwrap();
        let reread = Dff::read(&bytes).unwrap();
        assert_eq!(reread.clumps().nth(1).unwrap().atomics.len(), 0);
    }

    #[test]
    fn gsa_bone_and_frame_counts_must_match() {
        let gsa = Gsa::read(&fixture("gsa/v42_partial_bones_events.gsa")).unwrap();
        assert!(!gsa.animated_bones.is_empty());
        let mut fewer_bones = gsa.clone();
        fewer_bones.animated_bones.pop();
        assert_eq!(fewer_bones.to_bytes().unwrap_err().path(), "animated_bones");
        let mut fewer_frames = gsa;
        fewer_frames.frames.pop();
        refuses(fewer_frames, "frames");
    }

    #[test]
    fn drs_entry_count_must_match() {
        let mut drs = Drs::read(&fixture("drs/as_v6_rev6_full_unit.drs")).unwrap();
        drs.node_information.entries.pop();
        let err = drs.to_bytes().unwrap_err();
        assert!(err.path().starts_with("node_information"), "{err}");
        assert!(matches!(err.kind(), ErrorKind::Encode(_)), "{err}");
    }

    #[test]
    fn unclaimed_gaps_are_refused_unless_reading_would_find_them_as_they_are() {
        use skelcodec_runtime::Gap;
        use skelcodec_runtime::RawBytes;
        let bytes = fixture("drs/as_v6_rev1.drs");
        let end = bytes.len() as u64;
        let gap = |offset: u64, len: usize| Gap {
            offset,
            bytes: RawBytes::new(vec![0; len]),
        };
        let with_gaps = |gaps: Vec<Gap>| {
            let mut drs = Drs::read(&bytes).unwrap();
            drs.unclaimed = gaps;
            drs
        };
        // Trailing bytes no field claims: written, and read back as the same gap.
        let trailing = with_gaps(vec![gap(end, 4)]);
        let written = trailing.to_bytes().unwrap();
        assert_eq!(Drs::read(&written).unwrap(), trailing);
        for (gaps, words) in [
            // One byte earlier, the gap covers the hierarchy's last byte (which is zero too).
            (vec![gap(end - 1, 5)], "overlaps bytes a field claims"),
            (
                vec![gap(end, 2), gap(end + 2, 2)],
                "does not come after the gap before it",
            ),
            (
                vec![gap(end + 4, 2), gap(end, 2)],
                "does not come after the gap before it",
            ),
            (vec![gap(end, 0)], "is empty"),
        ] {
            let err = with_gaps(gaps).to_bytes().unwrap_err();
            assert!(err.path().starts_with("unclaimed["), "{err}");
            assert!(err.to_string().contains(words), "{words}: {err}");
        }
    }

    #[test]
    fn placed_blocks_that_would_overwrite_each_other_are_refused() {
        let drs = Drs::read(&fixture("drs/as_v6_rev6_full_unit.drs")).unwrap();
        // The AnimationSet grows by 4 stale bytes and its stated size follows: written where
        // it was, it would run into the next blob.
        let mut grown = drs.clone();
        let entry = &mut grown.node_information.entries[8];
        let NodeInformationBlob::AnimationSet(set) = &mut entry.blob else {
            panic!("entry 8 is the AnimationSet")
        };
        set.stale.0 = vec![0xde, 0xad, 0xbe, 0xef].into();
        entry.size += 4;
        let err = grown.to_bytes().unwrap_err();
        assert_eq!(err.path(), "node_information.entries[9].blob", "{err}");
        assert!(
            err.to_string()
                .contains("`blob` at 903..915 overlaps `blob` at 196..907"),
            "{err}"
        );
        assert_eq!(err.offset(), 903);
        // An offset moved into another blob.
        let mut moved = drs.clone();
        moved.node_information.entries[2].offset = 81;
        let err = moved.to_bytes().unwrap_err();
        assert!(err.to_string().contains("overlaps"), "{err}");
        // An unchanged value still writes, and the same blob placed twice is no conflict.
        assert!(drs.to_bytes().is_ok());
    }

    #[test]
    fn a_placed_block_far_past_the_data_is_refused_without_allocating() {
        let mut package = Dbpf::read(&fixture("sims2/anim_pair.package")).unwrap();
        package.index_offset = 1 << 31;
        let err = package.to_bytes().unwrap_err();
        assert!(err.to_string().contains("would be left unwritten"), "{err}");
        // At the header: the index would overwrite it.
        package.index_offset = 0;
        let err = package.to_bytes().unwrap_err();
        assert!(err.to_string().contains("overlaps"), "{err}");
    }

    #[test]
    fn values_the_reader_decides_from_the_data_are_verified_by_reading_back() {
        // The 22-byte magic is told by the two bytes after the GUID; edited, they would make
        // the reader take the file for the 16-byte form.
        let mut gsa = Gsa::read(&fixture("gsa/v42_magic22.gsa")).unwrap();
        gsa.guid_tail.as_mut().expect("22-byte magic").0[0] = 0x10;
        let err = gsa.to_bytes().unwrap_err();
        assert_eq!(err.path(), "has_guid_tail", "{err}");
        assert!(
            err.to_string().contains("would read back as another"),
            "{err}"
        );
        // A DRS AnimationSet version the reader rejects (`valid: max 6`) is refused by the writer.
        let mut drs = Drs::read(&fixture("drs/as_v6_rev2.drs")).unwrap();
        for entry in &mut drs.node_information.entries {
            if let NodeInformationBlob::AnimationSet(set) = &mut entry.blob {
                set.version = 7;
            }
        }
        let err = drs.to_bytes().unwrap_err();
        assert!(err.path().ends_with("blob.animation_set.version"), "{err}");
        assert!(err.to_string().contains("at most 6"), "{err}");
    }

    #[test]
    fn a_named_enum_value_given_as_its_number_is_the_named_value() {
        let drs = Drs::read(&fixture("drs/as_v6_rev6_full_unit.drs")).unwrap();
        let mut document = serde_json::to_value(&drs).unwrap();
        let raw = drs.node_information.entries[0].class_tag.raw();
        document["node_information"]["entries"][0]["class_tag"] = serde_json::json!(raw);
        let edited: Drs = serde_json::from_value(document).unwrap();
        assert_eq!(
            edited, drs,
            "the number is read as the variant the reader would make"
        );
    }

    #[test]
    fn animation_set_key_count_must_match_and_its_magic_is_11_bytes() {
        let drs = Drs::read(&fixture("drs/as_v6_rev6_full_unit.drs")).unwrap();
        let mut set = AnimationSetBlob(drs.animation_sets()[0].clone());
        assert!(set.0.magic.set_text("Battleforge!").is_err());
        set.0.mode_animation_keys.pop().unwrap();
        refuses(set, "mode_animation_keys");
    }

    #[test]
    fn sims2_anim_block_count_must_match() {
        let mut anim = Sims2Anim::read(&fixture("sims2/anim_curves.5an")).unwrap();
        anim.block_types.push(0);
        let err = anim.to_bytes().unwrap_err();
        assert_eq!(err.path(), "block_types", "{err}");
    }
}

/// Found while fuzzing GSA (whose targets ran at under 100 executions a second): the skeleton's
/// `-scan` tries every `FF FF` in the file, and each try runs the `-solve` of
/// `bones_per_frame` over 1..=1024, each a parse of the frames to the end of the file. A file of
/// `FF FF 00 00 nn nn 00 00` records cost O(1024 · n²) before trial parsing was budgeted (8 KiB
/// took about 20 s, 64 KiB hours). Every trial now charges the bytes it parsed against a budget
/// of about 2048 times the file, so such a file fails with the budget's error, deterministically.
#[test]
fn gsa_scan_and_solve_work_is_bounded() {
    let mut bytes = vec![
        0xcf, 0xd0, 0x09, 0xa8, 0x2a, 0x1f, 0xd2, 0x11, 0x87, 0x49, 0x00, 0x20, 0xaf, 0xe6, 0x36,
        0xee, // GUID
        1, 4, 0, 0, 10, 0, 0, 0, // version 4.1, unknown1, framerate, unknown2
    ];
    let frames = 100u16.to_le_bytes();
    while bytes.len() < 64 << 10 {
        bytes.extend_from_slice(&[0xff, 0xff, 0, 0, frames[0], frames[1], 0, 0]);
    }
    let err = Gsa::read(&bytes).unwrap_err();
    assert!(err.to_string().contains("far more work"), "{err}");
    assert_eq!(err.path(), "skeleton", "{err}");
    assert!(err.offset() <= bytes.len() as u64);
}
