//! `cargo bench -p benches`: verifies every codec on every workload (same checksum, byte-exact
//! re-encoding), measures allocations and peak heap, times decode, decode + visit (every value
//! looked at) and encode with criterion, and prints the markdown tables of this run (also
//! written to `target/criterion/skelcodec-report.md`).

use std::hint::black_box;
use std::marker::PhantomData;
use std::time::{Duration, SystemTime};

use benches::peers::{binrw_peer, deku_peer, hand, memcpy::Memcpy, skelcodec};
use benches::report::{self, Measured, Op, Row};
use benches::workloads::{self, Family, Workload};
use benches::{Checksum, Codec, alloc};
use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, SamplingMode, Throughput};

#[global_allocator]
static ALLOCATOR: alloc::Counting = alloc::Counting;

/// One codec, type-erased so a workload can hold a list of them.
trait Runner {
    fn name(&self) -> &'static str;
    fn verify(&self, w: &Workload, expected: Option<&Checksum>)
    -> Result<Option<Checksum>, String>;
    fn measure(&self, w: &Workload) -> Measured;
    fn bench(&self, op: Op, g: &mut BenchmarkGroup<'_, WallTime>, w: &Workload);
}

struct Of<C>(&'static str, PhantomData<C>);

fn of<C: Codec + 'static>(name: &'static str) -> Box<dyn Runner> {
    Box::new(Of::<C>(name, PhantomData))
}

impl<C: Codec> Runner for Of<C> {
    fn name(&self) -> &'static str {
        self.0
    }

    fn verify(
        &self,
        w: &Workload,
        expected: Option<&Checksum>,
    ) -> Result<Option<Checksum>, String> {
        workloads::verify::<C>(w, expected)
    }

    fn measure(&self, w: &Workload) -> Measured {
        let (values, decode) = alloc::measure(|| {
            w.inputs
                .iter()
                .map(|i| C::decode(i).expect("verified"))
                .collect::<Vec<_>>()
        });
        let (_, visit) = alloc::measure(|| {
            w.inputs
                .iter()
                .map(|i| C::checksum(&C::decode(i).expect("verified")))
                .collect::<Vec<_>>()
        });
        let (_, encode) = alloc::measure(|| {
            values
                .iter()
                .map(|v| C::encode(v).expect("verified"))
                .collect::<Vec<_>>()
        });
        // The Vec holding the results counts one allocation; take it out.
        let minus_one = |s: alloc::Stats| alloc::Stats {
            allocs: s.allocs.saturating_sub(1),
            ..s
        };
        Measured {
            decode: minus_one(decode),
            visit: minus_one(visit),
            encode: minus_one(encode),
        }
    }

    fn bench(&self, op: Op, g: &mut BenchmarkGroup<'_, WallTime>, w: &Workload) {
        match op {
            Op::Decode => g.bench_function(self.0, |b| {
                b.iter(|| {
                    for input in &w.inputs {
                        let _ = black_box(C::decode(black_box(input)));
                    }
                })
            }),
            Op::Visit => g.bench_function(self.0, |b| {
                b.iter(|| {
                    for input in &w.inputs {
                        let value = C::decode(black_box(input)).expect("verified");
                        let _ = black_box(C::checksum(black_box(&value)));
                    }
                })
            }),
            Op::Encode => {
                let values: Vec<C::Value> = w
                    .inputs
                    .iter()
                    .map(|i| C::decode(i).expect("verified"))
                    .collect();
                g.bench_function(self.0, |b| {
                    b.iter(|| {
                        for value in &values {
                            let _ = black_box(C::encode(black_box(value)));
                        }
                    })
                })
            }
        };
    }
}

fn codecs(family: Family) -> Vec<Box<dyn Runner>> {
    match family {
        Family::Ifp => vec![
            of::<skelcodec::Ifp>("skelcodec"),
            of::<skelcodec::IfpOwned>("skelcodec-owned"),
            of::<binrw_peer::Ifp>("binrw"),
            of::<deku_peer::Ifp>("deku"),
            of::<hand::Ifp>("hand"),
            of::<Memcpy>("memcpy"),
        ],
        Family::Skin => vec![
            of::<skelcodec::Skin>("skelcodec"),
            of::<binrw_peer::Skin>("binrw"),
            of::<deku_peer::Skin>("deku"),
            of::<hand::Skin>("hand"),
            of::<Memcpy>("memcpy"),
        ],
        Family::Dff => vec![
            of::<skelcodec::WholeDff>("skelcodec"),
            of::<Memcpy>("memcpy"),
        ],
    }
}

fn main() {
    let since = SystemTime::now();
    let dir = report::criterion_dir();
    let mut criterion = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_millis(2000))
        .sample_size(20)
        .output_directory(&dir)
        .configure_from_args();
    let workloads = workloads::all();
    if workloads::corpus().is_empty() {
        eprintln!(
            "note: no corpus found (../shared/corpus or SKELCODEC_CORPUS); synthetic workloads only"
        );
    }
    let mut rows = Vec::new();
    for w in &workloads {
        let mut row = Row::new(w);
        let runners = codecs(w.family);
        let mut expected: Option<Checksum> = None;
        for runner in &runners {
            match runner.verify(w, expected.as_ref()) {
                Ok(Some(c)) => {
                    expected.get_or_insert(c);
                }
                Ok(None) => {}
                Err(e) => panic!("{} on {}: {e}", runner.name(), w.name),
            }
            row.measured.insert(runner.name(), runner.measure(w));
        }
        let expected = expected.expect("skelcodec gives a checksum");
        row.units = expected.units;
        eprintln!(
            "verified {}: {} codecs agree ({} units of {}, checksum {:.6}), every input re-encoded byte for byte",
            w.name,
            runners.len(),
            expected.units,
            w.family.unit(),
            expected.sum
        );
        for op in Op::ALL {
            let mut g = criterion.benchmark_group(report::group(op, &w.name));
            g.sampling_mode(SamplingMode::Flat)
                .throughput(Throughput::Bytes(w.bytes()));
            for runner in &runners {
                runner.bench(op, &mut g, w);
            }
            g.finish();
        }
        rows.push(row);
    }
    criterion.final_summary();
    let table = format!(
        "Machine: {}\n\n{}",
        report::machine(),
        report::render(&rows, &dir, since)
    );
    println!("\n{table}");
    let path = dir.join("skelcodec-report.md");
    if std::fs::create_dir_all(&dir)
        .and_then(|()| std::fs::write(&path, &table))
        .is_ok()
    {
        eprintln!("report written to {}", path.display());
    }
}
