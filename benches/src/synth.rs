//! Synthetic files built in code, deterministically (a fixed-seed xorshift), so the benchmark
//! runs on a fresh clone without the corpus. The bytes are laid out here from the format
//! description, independently of every codec under test.

/// A deterministic pseudo-random source.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A float in [-1, 1).
    fn unit(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 23) as f32 - 1.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn name<const N: usize>(text: &str, rng: &mut Rng) -> [u8; N] {
    let mut out = [0u8; N];
    out[..text.len()].copy_from_slice(text.as_bytes());
    // Garbage after the NUL, as real SA files have.
    if rng.below(3) == 0 {
        for b in out.iter_mut().skip(text.len() + 1) {
            *b = b'a' + rng.below(26) as u8;
        }
    }
    out
}

fn u32s(out: &mut Vec<u8>, values: &[u32]) {
    for v in values {
        out.extend_from_slice(&v.to_le_bytes());
    }
}

fn f32s(out: &mut Vec<u8>, values: &[f32]) {
    for v in values {
        out.extend_from_slice(&v.to_le_bytes());
    }
}

fn i16s(out: &mut Vec<u8>, values: &[i16]) {
    for v in values {
        out.extend_from_slice(&v.to_le_bytes());
    }
}

fn anp3_frames(out: &mut Vec<u8>, frame_type: u32, n: usize, rng: &mut Rng) {
    for i in 0..n {
        let q = [rng.unit(), rng.unit(), rng.unit(), rng.unit()];
        let t = [rng.unit() * 4.0, rng.unit() * 4.0, rng.unit() * 4.0];
        match frame_type {
            1 => f32s(out, &[q[0], q[1], q[2], q[3], i as f32 / 30.0]),
            2 => f32s(
                out,
                &[q[0], q[1], q[2], q[3], i as f32 / 30.0, t[0], t[1], t[2]],
            ),
            _ => {
                i16s(out, &q.map(|c| (c * 4096.0) as i16));
                i16s(out, &[(i * 2) as i16]);
                if frame_type == 4 {
                    i16s(out, &t.map(|c| (c * 1024.0) as i16));
                }
            }
        }
    }
}

/// An ANP3 package: `animations` animations of `objects` objects of `frames` key frames; the
/// frame type of each object is drawn from `types`.
pub fn anp3(animations: usize, objects: usize, frames: usize, types: &[u32], seed: u64) -> Vec<u8> {
    let mut rng = Rng(seed);
    let mut out = b"ANP3".to_vec();
    u32s(&mut out, &[0]); // end offset, patched below
    out.extend_from_slice(&name::<24>("synthetic", &mut rng));
    u32s(&mut out, &[animations as u32]);
    for a in 0..animations {
        out.extend_from_slice(&name::<24>(&format!("anim_{a}"), &mut rng));
        let frame_types: Vec<u32> = (0..objects)
            .map(|_| types[rng.below(types.len() as u64) as usize])
            .collect();
        let frame_bytes: usize = frame_types
            .iter()
            .map(|t| frames * [20, 32, 10, 16][*t as usize - 1])
            .sum();
        let compressed = frame_types.iter().any(|&t| t >= 3);
        u32s(
            &mut out,
            &[objects as u32, frame_bytes as u32, u32::from(compressed)],
        );
        for (o, &frame_type) in frame_types.iter().enumerate() {
            out.extend_from_slice(&name::<24>(&format!("bone_{o}"), &mut rng));
            u32s(&mut out, &[frame_type, frames as u32, o as u32]);
            anp3_frames(&mut out, frame_type, frames, &mut rng);
        }
    }
    let end = (out.len() - 8) as u32;
    out[4..8].copy_from_slice(&end.to_le_bytes());
    // Sector padding, as in files taken from IMG archives.
    out.resize(out.len().next_multiple_of(2048), 0);
    out
}

fn chunk_name(out: &mut Vec<u8>, fourcc: &[u8; 4], text: &str) {
    let len = text.len() + 1;
    out.extend_from_slice(fourcc);
    u32s(out, &[len as u32]);
    out.extend_from_slice(text.as_bytes());
    out.resize(out.len() + len.next_multiple_of(4) - text.len(), 0);
}

/// An ANPK package: `animations` animations of `objects` objects of `frames` key frames; the
/// kind of each object is drawn from `kinds` (0 KR00, 1 KRT0, 2 KRTS); ANIM headers alternate
/// between the Vice City (44) and GTA III (48) sizes, and every 16th object has no frames.
pub fn anpk(
    animations: usize,
    objects: usize,
    frames: usize,
    kinds: &[usize],
    seed: u64,
) -> Vec<u8> {
    let mut rng = Rng(seed);
    let mut out = b"ANPK".to_vec();
    u32s(&mut out, &[0]); // size, patched below
    let package = "synthetic";
    out.extend_from_slice(b"INFO");
    u32s(
        &mut out,
        &[(4 + package.len() + 1) as u32, animations as u32],
    );
    out.extend_from_slice(package.as_bytes());
    out.resize(
        out.len() + (package.len() + 1).next_multiple_of(4) - package.len(),
        0,
    );
    for a in 0..animations {
        chunk_name(&mut out, b"NAME", &format!("anim_{a}"));
        out.extend_from_slice(b"DGAN");
        let dgan_at = out.len();
        u32s(&mut out, &[0]);
        out.extend_from_slice(b"INFO");
        u32s(&mut out, &[8, objects as u32, 0]);
        for o in 0..objects {
            let n = if o % 16 == 15 { 0 } else { frames };
            let kind = kinds[rng.below(kinds.len() as u64) as usize];
            let anim_size: u32 = if o % 2 == 0 { 44 } else { 48 };
            let frame_size = [20, 32, 44][kind];
            let key_len = if n == 0 { 0 } else { 8 + n * frame_size };
            out.extend_from_slice(b"CPAN");
            u32s(&mut out, &[(8 + anim_size as usize + key_len) as u32]);
            out.extend_from_slice(b"ANIM");
            u32s(&mut out, &[anim_size]);
            out.extend_from_slice(&name::<28>(&format!("bone_{o}"), &mut rng));
            u32s(&mut out, &[n as u32, 0, n.saturating_sub(1) as u32]);
            if anim_size == 44 {
                u32s(&mut out, &[o as u32]);
            } else {
                u32s(&mut out, &[0, 0]);
            }
            if n != 0 {
                out.extend_from_slice([b"KR00", b"KRT0", b"KRTS"][kind]);
                u32s(&mut out, &[(n * frame_size) as u32]);
                for i in 0..n {
                    let q = [rng.unit(), rng.unit(), rng.unit(), rng.unit()];
                    f32s(&mut out, &q);
                    if kind >= 1 {
                        f32s(
                            &mut out,
                            &[rng.unit() * 4.0, rng.unit() * 4.0, rng.unit() * 4.0],
                        );
                    }
                    if kind == 2 {
                        f32s(&mut out, &[1.0, 1.0, 1.0]);
                    }
                    f32s(&mut out, &[i as f32 / 30.0]);
                }
            }
        }
        let dgan = (out.len() - dgan_at - 4) as u32;
        out[dgan_at..dgan_at + 4].copy_from_slice(&dgan.to_le_bytes());
    }
    let size = (out.len() - 8) as u32;
    out[4..8].copy_from_slice(&size.to_le_bytes());
    out
}

/// A PC-layout Skin PLG payload for `vertices` vertices and `bones` bones: the new layout
/// (used-bone list, split data) when `old` is false, else the old one (a 0xDEADDEAD word
/// before each matrix, nothing after the bones).
pub fn skin(vertices: usize, bones: u8, old: bool, seed: u64) -> Vec<u8> {
    let mut rng = Rng(seed);
    let used = if old { 0 } else { bones - bones / 4 };
    let mut out = vec![bones, used, 4, 0];
    out.extend((0..used).map(|i| i * 4 / 3));
    for _ in 0..vertices {
        out.extend((0..4).map(|_| rng.below(u64::from(bones)) as u8));
    }
    for _ in 0..vertices {
        let w = [
            rng.unit().abs(),
            rng.unit().abs(),
            rng.unit().abs(),
            rng.unit().abs(),
        ];
        let total: f32 = w.iter().sum::<f32>() + 1e-3;
        f32s(&mut out, &w.map(|x| x / total));
    }
    for _ in 0..bones {
        if old {
            u32s(&mut out, &[0xDEAD_DEAD]);
        }
        let m: Vec<f32> = (0..16)
            .map(|i| if i % 4 == 3 { 0.0 } else { rng.unit() })
            .collect();
        f32s(&mut out, &m);
    }
    if !old {
        let meshes = 10u32;
        let rle = 40u32;
        u32s(&mut out, &[u32::from(bones), meshes, rle]);
        out.extend((0..bones).map(|b| b.wrapping_mul(7)));
        for _ in 0..meshes + rle {
            out.extend([rng.below(64) as u8, rng.below(8) as u8]);
        }
    }
    out
}
