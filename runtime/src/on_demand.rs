//! What reading a parse instance on demand needs once the read that met it has returned: the
//! file (copied once per read, shared by every such instance) and where the instance's reader
//! stood in it.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::Result;
use crate::reader::{FileState, Reader, Visit};

/// A file whose instances are read on demand, and the bytes values read by position may still
/// copy while reading them (the budget of the read that met them, which they share).
#[derive(Debug)]
pub struct Input {
    bytes: Arc<[u8]>,
    budget: AtomicU64,
}

impl Input {
    /// A copy of `file`, with the budget left to the read that copies it.
    pub(crate) fn new(file: &[u8], budget: u64) -> Self {
        Input {
            bytes: file.into(),
            budget: AtomicU64::new(budget),
        }
    }
}

/// A reader's place in a file, kept to read there later (see [`Reader::detach`]): ranges of
/// the file instead of borrowed bytes.
#[derive(Debug, Clone)]
pub struct Detached {
    pub(crate) input: Arc<Input>,
    /// The reader's bytes: start and length in the file.
    pub(crate) data: (usize, usize),
    pub(crate) pos: usize,
    pub(crate) base: u64,
    /// `_root._io` of an imported schema's root value: start, length and absolute offset.
    pub(crate) file_root: Option<(usize, usize, u64)>,
    pub(crate) depth: u32,
    /// The values being read by position around it, their streams as ranges of the file.
    pub(crate) visiting: Vec<Visit>,
}

impl Detached {
    /// A place at the start of `bytes`, alone.
    pub(crate) fn over(bytes: &[u8]) -> Self {
        Detached {
            input: Arc::new(Input::new(bytes, 0)),
            data: (0, bytes.len()),
            pos: 0,
            base: 0,
            file_root: None,
            depth: 0,
            visiting: Vec::new(),
        }
    }

    /// The `len` bytes at the reader's position (fewer at the end of its stream).
    pub(crate) fn bytes(&self, len: usize) -> &[u8] {
        let (start, size) = self.data;
        let from = start + self.pos.min(size);
        let to = (from + len).min(start + size);
        self.input.bytes.get(from..to).unwrap_or_default()
    }

    /// Reads with a reader where this one stood, charging what it copies to the budget of the
    /// read that detached it.
    pub fn read<T>(&self, read: impl FnOnce(&mut Reader<'_>) -> Result<T>) -> Result<T> {
        let budget = &self.input.budget;
        let state = FileState::of_input(self.input.clone(), budget.load(Ordering::Relaxed));
        let value = Reader::attached(self, &self.input.bytes, &state, read);
        budget.store(state.budget_left(), Ordering::Relaxed);
        value
    }
}

#[cfg(test)]
mod tests {
    use crate::error::ErrorKind;
    use crate::reader::{FileState, Reader};

    #[test]
    fn a_detached_reader_reads_where_it_stood() {
        let file = vec![1u8, 2, 3, 4, 5, 6];
        let state = FileState::new(100);
        let mut r = Reader::new(&file).sharing(&state);
        r.read_u8().unwrap();
        let mut sub = r.sub(4).unwrap();
        sub.read_u8().unwrap();
        let at = sub.detach().expect("a range of the file");
        drop(file);
        let (pos, rest) = at
            .read(|r| Ok((r.absolute_pos(), r.rest().to_vec())))
            .unwrap();
        assert_eq!((pos, rest), (2, vec![3, 4, 5]));
        // Reads again as often as asked, from the same place.
        assert_eq!(at.read(|r| r.read_u8()).unwrap(), 3);
    }

    #[test]
    fn readers_of_one_value_and_of_decoded_bytes_stay_attached() {
        let file = [1u8, 2];
        assert!(Reader::new(&file).detach().is_none(), "no file state");
        let state = FileState::new(100);
        let r = Reader::new(&file).sharing(&state);
        let decoded = [9u8];
        assert!(r.detached(&decoded).detach().is_none());
    }

    #[test]
    fn the_values_around_it_are_still_being_read() {
        let file = [0u8; 4];
        let state = FileState::new(100);
        let r = Reader::new(&file).sharing(&state);
        let _visit = r.visit::<u8>().unwrap();
        let at = r.detach().unwrap();
        let err = at.read(|r| r.visit::<u8>().map(drop)).unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::Cycle { offset: 0 }),
            "{err}"
        );
        assert!(at.read(|r| r.visit::<u16>().map(drop)).is_ok());
    }
}
