//! Padding rules.

/// Bytes needed to round `len` up to a multiple of `align` (0 when align <= 1).
#[inline]
pub fn pad_to_multiple(len: usize, align: usize) -> usize {
    if align <= 1 {
        0
    } else {
        (align - len % align) % align
    }
}

/// The Sims 2 string-run rule: after a run of `run_len` bytes come `run_len % 4` pad bytes holding 00, 01, 02 (in that order).
#[inline]
pub fn sims2_run_pad_len(run_len: usize) -> usize {
    run_len % 4
}

/// The pad bytes themselves for [`sims2_run_pad_len`].
#[inline]
pub fn sims2_run_pad_bytes(run_len: usize) -> &'static [u8] {
    const PAD: [u8; 3] = [0, 1, 2];
    PAD.get(..sims2_run_pad_len(run_len)).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn multiple_padding() {
        assert_eq!(pad_to_multiple(0, 4), 0);
        assert_eq!(pad_to_multiple(1, 4), 3);
        assert_eq!(pad_to_multiple(4, 4), 0);
        assert_eq!(pad_to_multiple(7, 4), 1);
        assert_eq!(pad_to_multiple(7, 1), 0);
        assert_eq!(pad_to_multiple(7, 0), 0);
        assert_eq!(pad_to_multiple(usize::MAX, 2), 1);
        assert_eq!(pad_to_multiple(usize::MAX - 1, 2), 0);
    }

    #[test]
    fn sims2_runs() {
        for k in [0usize, 1, 5, 100] {
            assert_eq!(sims2_run_pad_len(4 * k), 0);
            assert_eq!(sims2_run_pad_bytes(4 * k), &[] as &[u8]);
            assert_eq!(sims2_run_pad_len(4 * k + 1), 1);
            assert_eq!(sims2_run_pad_bytes(4 * k + 1), &[0]);
            assert_eq!(sims2_run_pad_len(4 * k + 2), 2);
            assert_eq!(sims2_run_pad_bytes(4 * k + 2), &[0, 1]);
            assert_eq!(sims2_run_pad_len(4 * k + 3), 3);
            assert_eq!(sims2_run_pad_bytes(4 * k + 3), &[0, 1, 2]);
        }
    }
}
