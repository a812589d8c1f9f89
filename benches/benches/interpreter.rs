//! `cargo bench -p benches --bench interpreter`: the interpreter (`--schema`) against the
//! generated codec of the same schema, on the corpus of real files, in one run. For each
//! format whose schema the interpreter takes, every file is read (and written back) by both,
//! alternately, several rounds; the table gives the median time of a round and the ratio
//! interpreter ÷ generated, and a last row for the whole corpus (the formats' rounds summed).
//! Both must give the same document and the same bytes first.

use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

use skelcodec_dynamic::Interpreter;
use skelcodec_runtime::Codec;

const ROUNDS: usize = 7;

/// One format: its schema, its corpus folder and the suffix of its files there, and the
/// generated codec.
struct Format {
    schema: &'static str,
    folder: &'static str,
    suffix: &'static str,
    codec: Generated,
}

/// The generated codec's document of a file, its read, and its read and write.
struct Generated {
    document: fn(&[u8]) -> serde_json::Value,
    read: fn(&[u8]),
    round: fn(&[u8]) -> Vec<u8>,
}

fn generated<C: Codec>() -> Generated {
    Generated {
        document: |bytes| {
            serde_json::to_value(C::read(bytes).expect("it reads")).expect("a document")
        },
        read: |bytes| {
            black_box(C::read(bytes).expect("it reads"));
        },
        round: |bytes| {
            C::read(bytes)
                .expect("it reads")
                .to_bytes()
                .expect("it writes")
        },
    }
}

fn formats() -> Vec<Format> {
    let of = |schema, (folder, suffix), codec| Format {
        schema,
        folder,
        suffix,
        codec,
    };
    vec![
        of(
            "ifp.ksy",
            ("ifp", ""),
            generated::<skelcodec_formats::ifp::Ifp>(),
        ),
        of(
            "dff.ksy",
            ("rw", ""),
            generated::<skelcodec_formats::dff::Dff>(),
        ),
        of(
            "img.ksy",
            ("img", ""),
            generated::<skelcodec_formats::img::Img>(),
        ),
        of(
            "sims2_anim.ksy",
            ("sims2", "an"),
            generated::<skelcodec_formats::sims2_anim::Sims2Anim>(),
        ),
        of(
            "dbpf.ksy",
            ("sims2", ".package"),
            generated::<skelcodec_formats::dbpf::Dbpf>(),
        ),
    ]
}

fn files(dir: &Path, suffix: &str) -> Vec<Vec<u8>> {
    let paths = skelcodec_runtime::corpus::files_under(dir, suffix);
    paths.iter().filter_map(|p| std::fs::read(p).ok()).collect()
}

/// The median time of `ROUNDS` runs of `a` and of `b`, run alternately.
fn alternate(mut a: impl FnMut(), mut b: impl FnMut()) -> (Duration, Duration) {
    let (mut ta, mut tb) = (Vec::new(), Vec::new());
    for _ in 0..ROUNDS {
        let start = Instant::now();
        a();
        ta.push(start.elapsed());
        let start = Instant::now();
        b();
        tb.push(start.elapsed());
    }
    ta.sort();
    tb.sort();
    (ta[ROUNDS / 2], tb[ROUNDS / 2])
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let Some(corpus) = skelcodec_runtime::corpus::corpus_dir(env!("CARGO_MANIFEST_DIR")) else {
        return;
    };
    println!(
        "| format | files | MB | generated read | interpreter read | ratio | generated read+write | interpreter read+write | ratio |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    let ms = |d: Duration| format!("{:.1} ms", d.as_secs_f64() * 1e3);
    let ratio = |a: Duration, b: Duration| format!("{:.2}", b.as_secs_f64() / a.as_secs_f64());
    // The whole corpus: each format's median round, summed.
    let mut total = (0, 0.0, [Duration::ZERO; 4]);
    for format in formats() {
        let interpreter = Interpreter::load(&root.join("schemas").join(format.schema), &[])
            .expect("the interpreter takes the schema");
        let files = files(&corpus.join(format.folder), format.suffix);
        let mb = files.iter().map(Vec::len).sum::<usize>() as f64 / 1e6;
        // Same document, same bytes, before anything is timed.
        for bytes in &files {
            let value = interpreter.read(bytes).expect("the interpreter reads");
            let document = serde_json::to_value(interpreter.document(&value)).expect("a document");
            assert_eq!(
                document,
                (format.codec.document)(bytes),
                "{}",
                format.schema
            );
            assert_eq!(
                interpreter.write(&value).expect("it writes"),
                (format.codec.round)(bytes)
            );
        }
        let (generated_read, interpreted_read) = alternate(
            || {
                for bytes in &files {
                    (format.codec.read)(black_box(bytes));
                }
            },
            || {
                for bytes in &files {
                    black_box(interpreter.read(black_box(bytes)).expect("it reads"));
                }
            },
        );
        let (generated_round, interpreted_round) = alternate(
            || {
                for bytes in &files {
                    black_box((format.codec.round)(black_box(bytes)));
                }
            },
            || {
                for bytes in &files {
                    let value = interpreter.read(black_box(bytes)).expect("it reads");
                    black_box(interpreter.write(&value).expect("it writes"));
                }
            },
        );
        let times = [
            generated_read,
            interpreted_read,
            generated_round,
            interpreted_round,
        ];
        total.0 += files.len();
        total.1 += mb;
        for (sum, time) in total.2.iter_mut().zip(times) {
            *sum += time;
        }
        println!(
            "| {} | {} | {mb:.1} | {} | {} | {} | {} | {} | {} |",
            format.schema,
            files.len(),
            ms(generated_read),
            ms(interpreted_read),
            ratio(generated_read, interpreted_read),
            ms(generated_round),
            ms(interpreted_round),
            ratio(generated_round, interpreted_round),
        );
    }
    let (files, mb, [read, interpreted, round, interpreted_round]) = total;
    println!(
        "| corpus | {files} | {mb:.1} | {} | {} | {} | {} | {} | {} |",
        ms(read),
        ms(interpreted),
        ratio(read, interpreted),
        ms(round),
        ms(interpreted_round),
        ratio(round, interpreted_round),
    );
}
