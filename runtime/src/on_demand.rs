//! What reading a parse instance on demand needs once the read that met it has returned: the
//! file (copied once per read, shared by every such instance) and where the instance's reader
//! stood in it.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// A file whose instances are read on demand, and the bytes values read by position may still
/// copy while reading them (the budget of the read that met them, which they share).
#[derive(Debug)]
pub struct Input {
    bytes: Box<[u8]>,
    budget: AtomicU64,
    /// Whether an instance was read from it on demand (see [`Input::was_read_on_demand`]).
    read_on_demand: AtomicBool,
}

impl Input {
    /// A copy of `file`, with the budget left to the read that copies it.
    pub(crate) fn new(file: &[u8], budget: u64) -> Self {
        Input {
            bytes: file.into(),
            budget: AtomicU64::new(budget),
            read_on_demand: AtomicBool::new(false),
        }
    }

    /// A file given to its reader, which keeps it without copying it (see
    /// [`crate::reader::FileState::with_input`]).
    pub fn owned(file: Vec<u8>) -> Arc<Self> {
        Arc::new(Input {
            bytes: file.into_boxed_slice(),
            budget: AtomicU64::new(0),
            read_on_demand: AtomicBool::new(false),
        })
    }

    /// The file.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The budget its instances read on demand share.
    pub(crate) fn budget(&self) -> u64 {
        self.budget.load(Ordering::Relaxed)
    }

    /// Records that an instance is read from it on demand.
    pub(crate) fn note_read_on_demand(&self) {
        self.read_on_demand.store(true, Ordering::Relaxed);
    }

    /// Whether an instance was read from it on demand: one read while the file was being read
    /// (an expression needed it) may have read values by position that the read did not see.
    pub(crate) fn was_read_on_demand(&self) -> bool {
        self.read_on_demand.load(Ordering::Relaxed)
    }

    /// Sets the budget its instances read on demand share.
    pub(crate) fn set_budget(&self, budget: u64) {
        self.budget.store(budget, Ordering::Relaxed);
    }
}

/// A reader's place in a file, kept to read there later (see [`crate::Reader::detach`],
/// [`crate::Reader::read_detached`]): ranges of the file instead of borrowed bytes.
#[derive(Debug, Clone)]
pub struct Detached {
    pub(crate) input: Arc<Input>,
    /// The reader's bytes: start and length in the file.
    pub(crate) data: (usize, usize),
    pub(crate) pos: usize,
    pub(crate) base: u64,
    /// `_root._io` of an imported schema's root value: start, length and absolute offset
    /// (boxed: rare, and an instance read on demand holds a `Detached`).
    pub(crate) file_root: Option<Box<(usize, usize, u64)>>,
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
}
