//! Differential test of skelcodec's QFS decompressor (`skelcodec_formats::qfs`) against the
//! `refpack` crate's (Maxis header): both read what refpack compresses at every level, as
//! `qfs::compress` uses it, the same way, and damaged streams that skelcodec accepts, refpack
//! reads identically.

use benches::qfs::samples;
use refpack::format::Maxis;
use refpack::{CompressionOptions, easy_compress, easy_decompress};
use skelcodec_formats::qfs;

/// A test build's compressors are unoptimised and slow, so the test takes the synthetic
/// samples, the Sims 2 files and the first file of each other corpus folder, cut to 256 KiB
/// (every kind of data a file has appears in its beginning); the benchmark takes them all.
const SAMPLE_CAP: usize = 256 * 1024;

fn inputs() -> Vec<(String, Vec<u8>)> {
    let corpus = skelcodec_runtime::testing::corpus_dir(env!("CARGO_MANIFEST_DIR"));
    let mut folders_seen = Vec::new();
    samples(corpus.as_deref())
        .into_iter()
        .filter(|s| match s.name.split_once('/') {
            Some(("sims2", _)) | None => true,
            Some((folder, _)) => {
                let first = !folders_seen.contains(&folder.to_owned());
                folders_seen.push(folder.to_owned());
                first
            }
        })
        .map(|s| {
            let len = s.bytes.len().min(SAMPLE_CAP);
            (s.name, s.bytes[..len].to_vec())
        })
        .collect()
}

#[test]
fn both_decompress_what_skelcodec_compresses() {
    for (name, data) in inputs() {
        let packed = qfs::compress(&data).unwrap();
        let size_word = u32::from_le_bytes(packed[..4].try_into().unwrap());
        assert_eq!(size_word as usize, packed.len(), "{name}: the size word");
        assert!(qfs::decompress(&packed).unwrap() == data, "{name}");
        let theirs = easy_decompress::<Maxis>(&packed).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(theirs == data, "{name}: refpack reads other bytes");
    }
}

#[test]
fn skelcodec_decompresses_what_refpack_compresses_at_every_level() {
    let levels = [
        CompressionOptions::Fastest,
        CompressionOptions::Fast,
        CompressionOptions::Optimal,
    ];
    for (name, data) in inputs() {
        for level in levels {
            let packed = easy_compress::<Maxis>(&data, level).unwrap();
            assert_eq!(qfs::uncompressed_size(&packed), Some(data.len()), "{name}");
            let unpacked =
                qfs::decompress(&packed).unwrap_or_else(|e| panic!("{name} at {level:?}: {e}"));
            assert!(
                unpacked == data,
                "{name} at {level:?}: skelcodec reads other bytes"
            );
        }
    }
}

#[test]
fn damaged_streams_skelcodec_accepts_read_the_same_in_refpack() {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let (mut accepted, mut refused) = (0, 0);
    for (_, data) in inputs().into_iter().filter(|(_, d)| d.len() < 100_000) {
        let packed = qfs::compress(&data).unwrap();
        for _ in 0..200 {
            let mut damaged = packed.clone();
            let at = 9 + next() as usize % (damaged.len() - 9);
            damaged[at] ^= 1 << (next() % 8);
            match qfs::decompress(&damaged) {
                Ok(ours) => {
                    accepted += 1;
                    let theirs = easy_decompress::<Maxis>(&damaged).unwrap();
                    assert!(ours == theirs, "a damaged stream read differently");
                }
                Err(_) => refused += 1,
            }
        }
    }
    // Both outcomes occur, so the comparison covers accepted damage.
    assert!(
        accepted > 100 && refused > 100,
        "{accepted} accepted, {refused} refused"
    );
}

#[test]
fn sizes_the_header_cannot_hold_are_refused_where_refpack_clamps_them() {
    let data = vec![0u8; qfs::MAX_SIZE + 1];
    assert_eq!(
        qfs::compress(&data),
        Err(qfs::QfsError::TooLarge(qfs::MAX_SIZE + 1))
    );
    let clamped = easy_compress::<Maxis>(&data, CompressionOptions::Fastest).unwrap();
    assert_eq!(qfs::uncompressed_size(&clamped), Some(qfs::MAX_SIZE));
}
