//! Editing a WAV through its decoded value: derived sizes are reported by `check()` and
//! recomputed by `normalize()`, and what the writer accepts reads back as written.

use skelcodec_example_wav::{AudioFormat, ChunkBody, FormatChunk, Wav};

fn sample(name: &str) -> Vec<u8> {
    std::fs::read(format!("{}/samples/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

fn data_mut(wav: &mut Wav) -> &mut Vec<u8> {
    let chunk = wav
        .chunks
        .iter_mut()
        .find(|c| c.fourcc.as_bytes() == b"data")
        .unwrap();
    let ChunkBody::Raw(data) = &mut chunk.body else {
        panic!("data is raw bytes")
    };
    data.0.as_mut_vec()
}

fn format_chunk(wav: &Wav) -> &FormatChunk {
    let ChunkBody::FormatChunk(format) = &wav.chunks[0].body else {
        panic!("fmt first")
    };
    format
}

fn mismatched_fields(wav: &Wav) -> Vec<String> {
    wav.check().iter().map(|m| m.path.to_string()).collect()
}

#[test]
fn longer_audio_updates_the_riff_and_chunk_sizes() {
    let bytes = sample("pcm16_stereo.wav");
    let mut wav = Wav::read(&bytes).unwrap();
    data_mut(&mut wav).extend_from_slice(&[0; 40]);
    assert_eq!(mismatched_fields(&wav), ["riff_size", "chunks[1].size"]);
    wav.normalize().unwrap();
    assert!(wav.check().is_empty());
    let written = wav.to_bytes().unwrap();
    assert_eq!(written.len(), bytes.len() + 40);
    // The RIFF size counts everything after itself; the data chunk's size its samples.
    assert_eq!(
        u32::from_le_bytes(written[4..8].try_into().unwrap()) as usize,
        written.len() - 8
    );
    assert_eq!(Wav::read(&written).unwrap(), wav);
}

#[test]
fn the_byte_rate_follows_the_sample_rate() {
    let mut wav = Wav::read(&sample("pcm16_stereo.wav")).unwrap();
    let ChunkBody::FormatChunk(format) = &mut wav.chunks[0].body else {
        panic!("fmt first")
    };
    assert_eq!(format.audio_format, AudioFormat::Pcm);
    format.sample_rate = 44_100;
    assert_eq!(
        mismatched_fields(&wav),
        ["chunks[0].body.format_chunk.byte_rate"]
    );
    wav.normalize().unwrap();
    assert_eq!(format_chunk(&wav).byte_rate, 44_100 * 4);
}

#[test]
fn a_stale_pad_byte_is_kept_and_an_odd_size_needs_its_pad() {
    let bytes = sample("odd_data_with_stale_pad.wav");
    let mut wav = Wav::read(&bytes).unwrap();
    assert_eq!(wav.chunks[1].fourcc.as_bytes(), b"data");
    assert_eq!(wav.chunks[1].pad.as_deref(), Some(&[0xab][..]));
    assert_eq!(wav.to_bytes().unwrap(), bytes);
    // One byte more makes the size even: the writer refuses until the pad byte goes.
    data_mut(&mut wav).push(7);
    wav.normalize().unwrap();
    let error = wav.to_bytes().unwrap_err().to_string();
    assert!(error.contains("chunks[1].pad"), "{error}");
    wav.chunks[1].pad = None;
    let written = wav.to_bytes().unwrap();
    assert_eq!(written.len(), bytes.len());
    assert_eq!(Wav::read(&written).unwrap(), wav);
}

#[test]
fn unknown_formats_and_chunks_are_kept() {
    let bytes = sample("extensible_24bit.wav");
    let wav = Wav::read(&bytes).unwrap();
    let format = format_chunk(&wav);
    assert_eq!(format.audio_format, AudioFormat::Extensible);
    let extension = format.extension.as_ref().unwrap();
    let fields = extension.extensible.as_ref().unwrap();
    assert_eq!(
        (extension.extension_size, fields.valid_bits_per_sample),
        (22, 24)
    );
    assert_eq!(fields.sub_format.0[..2], 1u16.to_le_bytes(), "PCM");
    assert!(extension.rest.0.is_empty());
    let fact = Wav::read(&sample("float32_with_fact.wav")).unwrap();
    assert!(matches!(&fact.chunks[1].body, ChunkBody::Raw(raw) if raw.0 == 64u32.to_le_bytes()));
}

/// A WAV as Python's `wave` module writes it: an odd-sized `data` chunk last, without the pad
/// byte the specification asks for, which the file ends before.
#[test]
fn an_odd_last_chunk_without_its_pad_byte_reads_and_writes_back() {
    let script = "import io, sys, wave\n\
        b = io.BytesIO()\n\
        w = wave.open(b, 'wb'); w.setnchannels(1); w.setsampwidth(1); w.setframerate(8000)\n\
        w.writeframes(bytes([0x80, 0x81, 0x82])); w.close()\n\
        sys.stdout.buffer.write(b.getvalue())";
    let output = std::process::Command::new("python3")
        .args(["-c", script])
        .output()
        .expect("python3 runs (the differential test needs it too)");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let bytes = output.stdout;
    assert_eq!(bytes.len() % 2, 1, "Python wrote no pad byte");
    let wav = Wav::read(&bytes).unwrap();
    let data = &wav.chunks[1];
    assert_eq!((data.fourcc.as_bytes(), data.size), (b"data", 3));
    assert_eq!(data.pad, None);
    assert!(wav.check().is_empty(), "{:?}", wav.check());
    assert_eq!(wav.to_bytes().unwrap(), bytes);
}
