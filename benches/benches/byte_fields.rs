//! `cargo bench -p benches --bench byte_fields`: reading files whose byte fields are large,
//! with the gallery's PNG schema (`skelcodec-gallery`): the same 1 MiB of image data in one
//! IDAT chunk and in ten of about 100 KiB. Allocations and peak heap per read first (a table
//! on stdout), then times with criterion: `read(&[u8])`, which copies each byte field, and
//! `read_owned(Vec<u8>)`, whose byte fields are views of the file it keeps (the file's
//! `Vec` is made outside the timed region).

use std::hint::black_box;
use std::time::Duration;

use benches::alloc;
use benches::png::{DATA_LEN, png};
use criterion::{BatchSize, Criterion, SamplingMode, Throughput};

#[global_allocator]
static ALLOCATOR: alloc::Counting = alloc::Counting;

fn main() {
    let Some(codec) = skelcodec_gallery::FORMATS
        .iter()
        .find(|f| f.id == "png")
        .and_then(|f| f.codec.ok())
    else {
        eprintln!(
            "note: the gallery's png.ksy is not compiled (no gallery at {}): nothing to measure",
            skelcodec_gallery::GALLERY
        );
        return;
    };
    let files = [
        ("one-idat-1mib", png(DATA_LEN)),
        ("ten-idat-100kib", png(DATA_LEN.div_ceil(10))),
    ];
    println!(
        "| file | bytes | read: allocations, peak heap | read_owned: allocations, peak heap |"
    );
    println!("|---|---:|---:|---:|");
    for (name, file) in &files {
        let (read, borrowed) = alloc::measure(|| (codec.read)(file));
        read.expect("the PNG reads");
        let owned_file = file.clone();
        let (read, owned) = alloc::measure(|| (codec.read_owned)(owned_file));
        read.expect("the PNG reads");
        println!(
            "| {name} | {} | {}, {} | {}, {} |",
            file.len(),
            borrowed.allocs,
            borrowed.peak,
            owned.allocs,
            owned.peak
        );
    }
    let mut criterion = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(20)
        .configure_from_args();
    for (name, file) in &files {
        let mut g = criterion.benchmark_group(format!("png-read/{name}"));
        g.sampling_mode(SamplingMode::Flat)
            .throughput(Throughput::Bytes(file.len() as u64));
        g.bench_function("read", |b| b.iter(|| (codec.read)(black_box(file))));
        g.bench_function("read_owned", |b| {
            b.iter_batched(
                || file.clone(),
                |owned| (codec.read_owned)(black_box(owned)),
                BatchSize::LargeInput,
            )
        });
        g.finish();
    }
    criterion.final_summary();
}
