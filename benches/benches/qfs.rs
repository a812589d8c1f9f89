//! `cargo bench -p benches --bench qfs`: skelcodec's QFS (RefPack) decompressor against the
//! `refpack` crate's, and the compression levels of refpack (skelcodec compresses with `Fast`),
//! on synthetic data and the corpus's files: compressed sizes first (a table on stdout), then
//! times with criterion.

use std::hint::black_box;
use std::time::Duration;

use benches::Input;
use benches::qfs::samples;
use criterion::{Criterion, SamplingMode, Throughput};
use refpack::format::Maxis;
use refpack::{CompressionOptions, easy_compress, easy_decompress};
use skelcodec_formats::qfs;

/// A compressor under comparison.
type Compress = fn(&[u8]) -> Vec<u8>;

/// skelcodec compresses through refpack's `Fast` level; the other levels show the trade-off.
const COMPRESSORS: [(&str, Compress); 3] = [
    ("skelcodec (refpack fast)", |d| {
        qfs::compress(d).expect("below 16 MiB")
    }),
    ("refpack-fastest", |d| {
        refpack_at(d, CompressionOptions::Fastest)
    }),
    ("refpack-optimal", |d| {
        refpack_at(d, CompressionOptions::Optimal)
    }),
];

fn refpack_at(data: &[u8], level: CompressionOptions) -> Vec<u8> {
    easy_compress::<Maxis>(data, level).expect("not empty")
}

/// Samples grouped as the table and criterion show them: synthetic, then by corpus folder.
fn workloads() -> Vec<(String, Vec<Input>)> {
    let corpus = skelcodec_runtime::testing::locate_corpus(env!("CARGO_MANIFEST_DIR"))
        .unwrap_or_else(|message| panic!("{message}"));
    if corpus.is_none() {
        eprintln!(
            "note: no corpus found (../shared/corpus or SKELCODEC_CORPUS); synthetic data only"
        );
    }
    let mut groups: Vec<(String, Vec<Input>)> = Vec::new();
    for sample in samples(corpus.as_deref()) {
        let group = match sample.name.split_once('/') {
            Some((folder, _)) => format!("corpus-{folder}"),
            None => "synthetic".to_owned(),
        };
        match groups.iter_mut().find(|(name, _)| *name == group) {
            Some((_, inputs)) => inputs.push(sample),
            None => groups.push((group, vec![sample])),
        }
    }
    groups
}

fn main() {
    let mut criterion = Criterion::default()
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2))
        .sample_size(10)
        .configure_from_args();
    let workloads = workloads();
    println!(
        "| data | bytes | {} |",
        COMPRESSORS.map(|(n, _)| n).join(" | ")
    );
    println!("|---|---:|{}", "---:|".repeat(COMPRESSORS.len()));
    for (name, inputs) in &workloads {
        let total: usize = inputs.iter().map(|i| i.bytes.len()).sum();
        let sizes = COMPRESSORS.map(|(_, compress)| {
            let packed: usize = inputs.iter().map(|i| compress(&i.bytes).len()).sum();
            format!("{packed} ({:.1} %)", 100.0 * packed as f64 / total as f64)
        });
        println!("| {name} | {total} | {} |", sizes.join(" | "));
    }
    for (name, inputs) in &workloads {
        let total: usize = inputs.iter().map(|i| i.bytes.len()).sum();
        let mut g = criterion.benchmark_group(format!("qfs-compress/{name}"));
        g.sampling_mode(SamplingMode::Flat)
            .throughput(Throughput::Bytes(total as u64));
        for (codec, compress) in COMPRESSORS {
            g.bench_function(codec, |b| {
                b.iter(|| {
                    inputs
                        .iter()
                        .map(|i| compress(black_box(&i.bytes)).len())
                        .sum::<usize>()
                })
            });
        }
        g.finish();
        // Both decompressors read the same streams: skelcodec's compressor's.
        let packed: Vec<Vec<u8>> = inputs
            .iter()
            .map(|i| qfs::compress(&i.bytes).expect("below 16 MiB"))
            .collect();
        let mut g = criterion.benchmark_group(format!("qfs-decompress/{name}"));
        g.sampling_mode(SamplingMode::Flat)
            .throughput(Throughput::Bytes(total as u64));
        g.bench_function("skelcodec", |b| {
            b.iter(|| {
                packed
                    .iter()
                    .map(|p| qfs::decompress(black_box(p)).unwrap().len())
                    .sum::<usize>()
            })
        });
        g.bench_function("refpack", |b| {
            b.iter(|| {
                packed
                    .iter()
                    .map(|p| easy_decompress::<Maxis>(black_box(p)).unwrap().len())
                    .sum::<usize>()
            })
        });
        g.finish();
    }
    criterion.final_summary();
}
