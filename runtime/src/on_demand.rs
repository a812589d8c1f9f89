//! What reading a parse instance on demand needs once the read that met it has returned: the
//! file (copied once per read, shared by every such instance) and where the instance's reader
//! stood in it.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::Result;
use crate::reader::{FileState, Reader};

/// A file whose instances are read on demand, and the bytes values read by position may still
/// copy while reading them (the budget of the read that met them, which they share).
#[derive(Debug)]
pub struct Input {
    bytes: Box<[u8]>,
    /// Where the file it copies was (its own bytes when it copies none).
    origin: usize,
    budget: AtomicU64,
}

impl Input {
    /// A copy of `file`, with the budget left to the read that copies it.
    pub(crate) fn new(file: &[u8], budget: u64) -> Self {
        Input {
            bytes: file.into(),
            origin: file.as_ptr() as usize,
            budget: AtomicU64::new(budget),
        }
    }

    /// A file given to its reader, which keeps it without copying it (see
    /// [`FileState::with_input`]).
    pub fn owned(file: Vec<u8>) -> Arc<Self> {
        let bytes = file.into_boxed_slice();
        Arc::new(Input {
            origin: bytes.as_ptr() as usize,
            bytes,
            budget: AtomicU64::new(0),
        })
    }

    /// The file.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Whether `file` is these very bytes or the file they copy (not merely equal bytes).
    pub(crate) fn is(&self, file: &[u8]) -> bool {
        file.len() == self.bytes.len()
            && [self.origin, self.bytes.as_ptr() as usize].contains(&(file.as_ptr() as usize))
    }

    /// Sets the budget its instances read on demand share.
    pub(crate) fn set_budget(&self, budget: u64) {
        self.budget.store(budget, Ordering::Relaxed);
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
    fn a_file_given_with_the_state_must_be_the_one_read() {
        let (file, other) = (vec![1u8, 2], vec![1u8, 2]);
        let state = FileState::new(100).with_input(super::Input::owned(other));
        assert!(Reader::new(&file).sharing(&state).detach().is_none());
        let input = super::Input::owned(file);
        let state = FileState::new(100).with_input(input.clone());
        let at = Reader::new(input.bytes()).sharing(&state).detach().unwrap();
        assert_eq!(at.read(|r| r.read_u8()).unwrap(), 1);
    }
}
