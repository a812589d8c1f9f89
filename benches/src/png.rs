//! PNGs built in code (PNG specification, 5.2–5.6), with 1 MiB of image data split into IDAT
//! chunks of a given size: `--bench byte_fields` and `kaitai-rust/main.rs` (which includes this
//! file by path) read them.

/// Image data the PNGs hold: 1 MiB of bytes that are not all alike.
pub const DATA_LEN: usize = 1 << 20;

/// A PNG chunk: length, type, data, and a CRC the schema keeps without checking.
fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend((data.len() as u32).to_be_bytes());
    out.extend(kind);
    out.extend(data);
    out.extend([0; 4]);
}

/// A PNG (PNG specification, 5.2–5.6: signature, IHDR, IDAT…, IEND) whose image data is
/// split into IDAT chunks of `per_chunk` bytes.
pub fn png(per_chunk: usize) -> Vec<u8> {
    let data: Vec<u8> = (0..DATA_LEN).map(|i| (i * 31 % 251) as u8).collect();
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut ihdr = Vec::new();
    ihdr.extend(1024u32.to_be_bytes()); // width
    ihdr.extend(256u32.to_be_bytes()); // height
    ihdr.extend([8, 2, 0, 0, 0]); // 8-bit RGB, deflate, adaptive filter, no interlace
    chunk(&mut out, b"IHDR", &ihdr);
    for part in data.chunks(per_chunk) {
        chunk(&mut out, b"IDAT", part);
    }
    chunk(&mut out, b"IEND", &[]);
    out
}
