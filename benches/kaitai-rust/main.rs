//! Times reads of real files by Kaitai Struct's Rust output (the modules `kaitai_FORMAT`, which
//! run.sh generates, each behind the cargo feature FORMAT) and by skelcodec's codec of the same
//! gallery schema, in one process; prints one Markdown table row per file.
//!
//!   kaitai-rust-cmp [FORMAT | FILE]...      (default: every format built)
//!
//! A FORMAT (`png`, `ttf`, …) stands for a sample of the files with its schema's extensions
//! under /usr/share and /usr/lib (or the `:`-separated directories of `$KAITAI_CMP_ROOTS`): up
//! to five, from the smallest to the largest by size; `png` adds two PNGs built here. A FILE is
//! timed as the format its extension names.

/// The PNGs built in code, as `--bench byte_fields` builds them (run.sh gives the path).
#[path = "@BENCHES@/src/png.rs"]
mod png;

use std::hint::black_box;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// For each format (a cargo feature of the same name): Kaitai's generated module, and
/// skelcodec's codec of the same gallery schema.
macro_rules! format_modules {
    ($($feature:literal: $kaitai:ident, $skelcodec:ident, $schema:literal;)*) => {$(
        #[cfg(feature = $feature)]
        mod $kaitai;
        #[cfg(feature = $feature)]
        mod $skelcodec {
            skelcodec_macros::codec!($schema, import_paths = ["@GALLERY@"]);
        }
    )*};
}

format_modules! {
    "png": kaitai_png, skelcodec_png, "@GALLERY@/image/png.ksy";
    "gif": kaitai_gif, skelcodec_gif, "@GALLERY@/image/gif.ksy";
    "jpeg": kaitai_jpeg, skelcodec_jpeg, "@GALLERY@/image/jpeg.ksy";
    "gzip": kaitai_gzip, skelcodec_gzip, "@GALLERY@/archive/gzip.ksy";
    "zip": kaitai_zip, skelcodec_zip, "@GALLERY@/archive/zip.ksy";
    "ttf": kaitai_ttf, skelcodec_ttf, "@GALLERY@/font/ttf.ksy";
    "ico": kaitai_ico, skelcodec_ico, "@GALLERY@/image/ico.ksy";
}

/// One format's four reads: Kaitai's and skelcodec's, of a borrowed file and of one they keep.
/// Each returns nothing (what it read is dropped inside the timed region) or why it failed.
struct Format {
    name: &'static str,
    extensions: &'static [&'static str],
    kaitai: fn(&[u8]) -> Result<(), String>,
    skelcodec: fn(&[u8]) -> Result<(), String>,
    kaitai_owned: fn(Vec<u8>) -> Result<(), String>,
    skelcodec_owned: fn(Vec<u8>) -> Result<(), String>,
}

/// Kaitai's reader of root type `T`, over the stream it is given: `From<&[u8]>` copies the
/// bytes, `From<Vec<u8>>` keeps them.
fn kaitai_read<T: kaitai::KStruct + std::any::Any>(io: kaitai::BytesReader) -> Result<(), String> {
    match T::read_into::<_, T>(&io, None, None) {
        Ok(_) => Ok(()),
        Err(e) => Err(format!("{e:?}")),
    }
}

/// The [`Format`] of `$name` from Kaitai's root type `$kaitai` and skelcodec's `$skelcodec`.
macro_rules! codecs {
    ($name:literal, $kaitai:ty, $skelcodec:ty) => {
        Format {
            name: $name,
            extensions: <$skelcodec as skelcodec_runtime::Codec>::EXTENSIONS,
            kaitai: |bytes| kaitai_read::<$kaitai>(bytes.into()),
            skelcodec: |bytes| {
                <$skelcodec>::read(bytes)
                    .map(drop)
                    .map_err(|e| e.to_string())
            },
            kaitai_owned: |bytes| kaitai_read::<$kaitai>(bytes.into()),
            skelcodec_owned: |bytes| {
                <$skelcodec>::read_owned(bytes)
                    .map(drop)
                    .map_err(|e| e.to_string())
            },
        }
    };
}

/// The formats this build has (those whose Kaitai output compiled).
fn formats() -> Vec<Format> {
    #[allow(unused_mut)]
    let mut formats = Vec::new();
    #[cfg(feature = "png")]
    formats.push(codecs!("png", kaitai_png::png::Png, skelcodec_png::Png));
    #[cfg(feature = "gif")]
    formats.push(codecs!("gif", kaitai_gif::gif::Gif, skelcodec_gif::Gif));
    #[cfg(feature = "jpeg")]
    formats.push(codecs!(
        "jpeg",
        kaitai_jpeg::jpeg::Jpeg,
        skelcodec_jpeg::Jpeg
    ));
    #[cfg(feature = "gzip")]
    formats.push(codecs!(
        "gzip",
        kaitai_gzip::gzip::Gzip,
        skelcodec_gzip::Gzip
    ));
    #[cfg(feature = "zip")]
    formats.push(codecs!("zip", kaitai_zip::zip::Zip, skelcodec_zip::Zip));
    #[cfg(feature = "ttf")]
    formats.push(codecs!("ttf", kaitai_ttf::ttf::Ttf, skelcodec_ttf::Ttf));
    #[cfg(feature = "ico")]
    formats.push(codecs!("ico", kaitai_ico::ico::Ico, skelcodec_ico::Ico));
    formats
}

/// The minimum and median of the times `read` takes on what `given` makes before each read
/// (not timed), over at least 50 reads and half a second; the first failure instead.
fn time<T>(
    mut given: impl FnMut() -> T,
    read: impl Fn(T) -> Result<(), String>,
) -> Result<(Duration, Duration), String> {
    // The first read outside the clock, to report a panic as a failure.
    match catch_unwind(AssertUnwindSafe(|| read(given()))) {
        Ok(Ok(())) => {}
        Ok(Err(e)) => return Err(e),
        Err(_) => return Err("panics".to_owned()),
    }
    let mut times = Vec::new();
    let started = Instant::now();
    while times.len() < 50 || started.elapsed() < Duration::from_millis(500) {
        let input = black_box(given());
        let start = Instant::now();
        black_box(read(input))?;
        times.push(start.elapsed());
    }
    times.sort();
    Ok((times[0], times[times.len() / 2]))
}

/// Regular files (symbolic links not followed) under `dir`.
fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        match entry.file_type() {
            Ok(kind) if kind.is_dir() => files_under(&entry.path(), out),
            Ok(kind) if kind.is_file() => out.push(entry.path()),
            _ => {}
        }
    }
}

fn has_extension(path: &Path, extensions: &[&str]) -> bool {
    let extension = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    extensions.iter().any(|e| e.eq_ignore_ascii_case(extension))
}

/// Up to five of `files` with one of `extensions`, sorted by size then path, at even steps from
/// the smallest to the largest.
fn sample(files: &[PathBuf], extensions: &[&str]) -> Vec<PathBuf> {
    let mut sized: Vec<(u64, &PathBuf)> = files
        .iter()
        .filter(|path| has_extension(path, extensions))
        .filter_map(|path| Some((std::fs::metadata(path).ok()?.len(), path)))
        .collect();
    sized.sort();
    let last = sized.len().saturating_sub(1);
    let mut picked: Vec<usize> = (0..5).map(|step| step * last / 4).collect();
    picked.dedup();
    picked
        .into_iter()
        .filter_map(|i| sized.get(i).map(|(_, path)| (*path).clone()))
        .collect()
}

/// A file to time: its format, its name and its bytes (or why they could not be read).
struct Input<'f> {
    format: &'f Format,
    name: String,
    bytes: std::io::Result<Vec<u8>>,
}

impl<'f> Input<'f> {
    /// A file on disk, named by its directory and file name (`dejavu/DejaVuSans.ttf`).
    fn file(format: &'f Format, path: &Path) -> Self {
        let parts: Vec<_> = path.iter().rev().take(2).collect();
        let name = parts
            .iter()
            .rev()
            .map(|p| p.to_string_lossy())
            .collect::<Vec<_>>();
        Input {
            format,
            name: name.join("/"),
            bytes: std::fs::read(path),
        }
    }
}

fn micros(d: Duration) -> String {
    let us = d.as_secs_f64() * 1e6;
    match us {
        _ if us < 10.0 => format!("{us:.2}"),
        _ if us < 1000.0 => format!("{us:.1}"),
        _ => format!("{us:.0}"),
    }
}

type Timing = Result<(Duration, Duration), String>;

/// A table cell: the median (and the minimum) in µs, or `fails`.
fn cell(t: &Timing) -> String {
    match t {
        Ok((min, med)) => format!("{} ({})", micros(*med), micros(*min)),
        Err(_) => "fails".to_owned(),
    }
}

/// skelcodec's median ÷ Kaitai's.
fn ratio(kaitai: &Timing, skelcodec: &Timing) -> String {
    match (kaitai, skelcodec) {
        (Ok((_, k)), Ok((_, s))) => format!("{:.2}", s.as_secs_f64() / k.as_secs_f64()),
        _ => "–".to_owned(),
    }
}

fn main() {
    // Panics are reported as failures, in the table and its notes.
    std::panic::set_hook(Box::new(|_| {}));
    let formats = formats();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args = match args.is_empty() {
        true => formats.iter().map(|f| f.name.to_owned()).collect(),
        false => args,
    };
    let roots = std::env::var("KAITAI_CMP_ROOTS").unwrap_or("/usr/share:/usr/lib".to_owned());
    let mut files = Vec::new();
    if args.iter().any(|arg| formats.iter().any(|f| f.name == arg)) {
        for root in roots.split(':') {
            files_under(Path::new(root), &mut files);
        }
        files.sort();
    }
    let mut inputs = Vec::new();
    for arg in &args {
        if let Some(format) = formats.iter().find(|f| f.name == arg) {
            for path in sample(&files, format.extensions) {
                inputs.push(Input::file(format, &path));
            }
            if format.name == "png" {
                for (name, chunks) in [
                    ("(built) 1 IDAT of 1 MiB", 1),
                    ("(built) 10 IDAT of ~100 KiB", 10),
                ] {
                    let bytes = Ok(png::png(png::DATA_LEN.div_ceil(chunks)));
                    inputs.push(Input {
                        format,
                        name: name.to_owned(),
                        bytes,
                    });
                }
            }
        } else if let Some(format) = formats
            .iter()
            .find(|f| has_extension(Path::new(arg), f.extensions))
        {
            inputs.push(Input::file(format, Path::new(arg)));
        } else {
            eprintln!("{arg}: no such format in this build, nor a file of one");
        }
    }

    println!("median (minimum) time per read, µs; ratio: skelcodec ÷ Kaitai, of the medians\n");
    println!("| format | file | bytes | Kaitai `&[u8]` | skelcodec `&[u8]` | ratio | Kaitai `Vec` | skelcodec `Vec` | ratio |");
    println!("|---|---|---:|---:|---:|---:|---:|---:|---:|");
    let mut notes = Vec::new();
    for Input {
        format,
        name,
        bytes,
    } in &inputs
    {
        let bytes = match bytes {
            Ok(bytes) => bytes,
            Err(e) => {
                notes.push(format!("{} {name}: not read: {e}", format.name));
                continue;
            }
        };
        let kaitai = time(|| bytes.as_slice(), format.kaitai);
        let skelcodec = time(|| bytes.as_slice(), format.skelcodec);
        let kaitai_owned = time(|| bytes.clone(), format.kaitai_owned);
        let skelcodec_owned = time(|| bytes.clone(), format.skelcodec_owned);
        // Why a side fails, once if it fails alike on both inputs.
        let mut failures = Vec::new();
        for (side, t, owned) in [
            ("Kaitai", &kaitai, &kaitai_owned),
            ("skelcodec", &skelcodec, &skelcodec_owned),
        ] {
            match (t, owned) {
                (Err(e), Err(f)) if e == f => failures.push(format!("{side} fails: {e}")),
                _ => {
                    if let Err(e) = t {
                        failures.push(format!("{side} fails on `&[u8]`: {e}"));
                    }
                    if let Err(e) = owned {
                        failures.push(format!("{side} fails on `Vec`: {e}"));
                    }
                }
            }
        }
        if !failures.is_empty() {
            notes.push(format!("{} {name}: {}", format.name, failures.join("; ")));
        }
        println!(
            "| {} | {name} | {} | {} | {} | {} | {} | {} | {} |",
            format.name,
            bytes.len(),
            cell(&kaitai),
            cell(&skelcodec),
            ratio(&kaitai, &skelcodec),
            cell(&kaitai_owned),
            cell(&skelcodec_owned),
            ratio(&kaitai_owned, &skelcodec_owned),
        );
    }
    if !notes.is_empty() {
        println!();
    }
    for note in notes {
        println!("- {note}");
    }
}
