//! A bounds-checked cursor over input bytes.

use crate::error::{Error, ErrorKind, Result};
use crate::stream_id::{Buffer, StreamId};
use crate::visits::{TypeKey, Visit, Visits};

/// A cursor over a byte slice. Positions are usize; `base` is the absolute offset of `data[0]` in the whole file, so errors inside sub-readers report file offsets.
#[derive(Debug, Clone)]
pub struct Reader<'a> {
    data: &'a [u8],
    /// The whole file, which substreams and decoded data come from.
    root: &'a [u8],
    /// The stream of the value of an imported schema's root type being read, with its offset
    /// in the file: that schema's `_root._io` (see [`Reader::in_file_root`]). `None`: the
    /// whole file.
    file_root: Option<FileRoot<'a>>,
    pos: usize,
    base: u64,
    /// What every reader of the file shares (see [`Reader::sharing`]).
    shared: Option<&'a FileState>,
    /// How many values of recursive types are being read around the current position.
    depth: u32,
    /// For a reader over decoded bytes (a `process`ed value) and the readers made from it,
    /// where that value starts in the file: positions in decoded bytes are not file offsets,
    /// so its errors name this one.
    decoded_at: Option<u64>,
    /// What `data` is a range of: the file, or a buffer of decoded bytes (see [`StreamId`]).
    buffer: Buffer,
    /// Which of the files read with the shared state this reader's is (see
    /// [`Reader::sharing`]).
    file: FileNo,
    /// Bits of the last byte read that bit fields have not used yet.
    pub(crate) pending: crate::pending_bits::PendingBits,
}

/// What every reader of one file shares: the budget of bytes that values read by position may
/// still copy (such values can point many times at the same region, so without a limit a small
/// hostile file could make the reader copy its largest region once per pointer), and the values
/// being read by position, innermost last.
#[derive(Debug)]
pub struct FileState {
    budget: std::cell::Cell<u64>,
    visiting: std::cell::RefCell<Visits>,
    /// The file, shared by the instances left to read on demand (see [`Reader::detach`]) and
    /// the views of it: given, or copied once, when the first such instance is met or views
    /// become cheaper ([`Reader::keep_file_when_cheaper`]); with which of the files read
    /// with this state it is, since only readers of that one may view it.
    input: std::cell::OnceCell<(std::sync::Arc<crate::on_demand::Input>, FileNo)>,
    /// How many files readers joining this state have brought (see [`Reader::sharing`]).
    files: std::cell::Cell<u32>,
    /// Where the bytes of the file that values read by position claim end, the furthest
    /// (see [`Reader::note_placed`]).
    placed_end: std::cell::Cell<u64>,
    /// The bytes of the instances left unread, which they claim unread (see
    /// [`Reader::note_unread`]).
    unread: std::cell::RefCell<Vec<std::ops::Range<u64>>>,
    /// How many values being read are kept as read and never placed back (see
    /// [`Reader::reading_unplaced`]).
    unplaced_reads: std::cell::Cell<u32>,
    /// What the values that could have been views of the file have cost in allocations while
    /// it was not kept (see [`Reader::keep_file_when_cheaper`]).
    spent_on_copies: std::cell::Cell<u64>,
}

impl FileState {
    /// A state allowing values read by position to copy `budget` bytes in all.
    pub fn new(budget: u64) -> Self {
        FileState {
            budget: std::cell::Cell::new(budget),
            visiting: Default::default(),
            input: Default::default(),
            files: std::cell::Cell::new(FileNo::GIVEN.0 + 1),
            placed_end: Default::default(),
            unread: Default::default(),
            unplaced_reads: Default::default(),
            spent_on_copies: Default::default(),
        }
    }

    /// The same state, reading `input` (the file its reader reads): instances read on demand
    /// keep it instead of a copy.
    pub fn with_input(self, input: std::sync::Arc<crate::on_demand::Input>) -> Self {
        input.set_budget(self.budget.get());
        let _ = self.input.set((input, FileNo::GIVEN));
        self
    }

    /// The file kept, when it is `file`.
    fn input_of(&self, file: FileNo) -> Option<&std::sync::Arc<crate::on_demand::Input>> {
        self.input
            .get()
            .and_then(|(input, of)| (*of == file).then_some(input))
    }
}

/// Which of the files read with one [`FileState`] a reader reads, numbered as readers join it
/// (see [`Reader::sharing`]): a file copied for one reader is never viewed by a reader of
/// another, even one at the address the first was freed from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct FileNo(u32);

impl FileNo {
    /// The file given with the state ([`FileState::with_input`]).
    const GIVEN: FileNo = FileNo(0);
}

/// Where `data` starts in `file`, when it is a range of it.
fn offset_in(file: &[u8], data: &[u8]) -> Option<usize> {
    let (file, data) = (file.as_ptr_range(), data.as_ptr_range());
    (file.start <= data.start && data.end <= file.end)
        .then(|| data.start as usize - file.start as usize)
}

/// The stream of an imported schema's root value (see [`Reader::in_file_root`]).
#[derive(Debug, Clone, Copy)]
struct FileRoot<'a> {
    data: &'a [u8],
    base: u64,
    decoded_at: Option<u64>,
    buffer: Buffer,
}

/// A value being read by position (see [`Reader::visit`]), until dropped.
#[derive(Debug)]
pub struct Visiting<'a>(Option<&'a FileState>);

impl Drop for Visiting<'_> {
    fn drop(&mut self) {
        if let Some(state) = self.0 {
            state.visiting.borrow_mut().pop();
        }
    }
}

/// A value being read that is never placed back (see [`Reader::reading_unplaced`]), until
/// dropped.
#[derive(Debug)]
pub(crate) struct UnplacedRead<'a>(Option<&'a FileState>);

impl Drop for UnplacedRead<'_> {
    fn drop(&mut self) {
        if let Some(state) = self.0 {
            state.unplaced_reads.set(state.unplaced_reads.get() - 1);
        }
    }
}

/// How deep values of recursive types may nest: hostile input could otherwise nest them until
/// the stack runs out. Real formats nest a few levels.
pub const MAX_DEPTH: u32 = 64;

/// Generates fixed-size primitive readers; the offset in errors is where the read began
/// because `array` checks the length before consuming anything.
macro_rules! read_primitives {
    ($($name:ident => $ty:ty, $from:ident;)*) => {
        $(
            #[doc = concat!("Reads a `", stringify!($ty), "` (`", stringify!($from), "`).")]
            #[inline]
            pub fn $name(&mut self) -> Result<$ty> {
                Ok(<$ty>::$from(self.array()?))
            }
        )*
    };
}

impl<'a> Reader<'a> {
    /// A reader over a whole file (absolute offset 0 at `data[0]`).
    #[inline]
    pub fn new(data: &'a [u8]) -> Self {
        Reader {
            data,
            root: data,
            file_root: None,
            pos: 0,
            base: 0,
            shared: None,
            depth: 0,
            decoded_at: None,
            buffer: Buffer::FILE,
            file: FileNo::GIVEN,
            pending: Default::default(),
        }
    }

    /// Reads a value of a recursive type one level deeper, refusing to go past [`MAX_DEPTH`].
    pub fn nested<T>(&mut self, read: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        if self.depth >= MAX_DEPTH {
            return Err(self.error(ErrorKind::Invalid(format!(
                "values of a recursive type nest more than {MAX_DEPTH} deep"
            ))));
        }
        self.depth += 1;
        let value = read(self);
        self.depth -= 1;
        value
    }

    /// Shares `state` with every reader made from this one: the bytes values read by position
    /// may still copy, and the values being read by position around the current one.
    pub fn sharing(mut self, state: &'a FileState) -> Self {
        // The file given with the state is this one only if it is these very bytes: the state
        // holds them, so no other allocation can be where they are. Any other file is a new one.
        let given = state.input_of(FileNo::GIVEN);
        self.file = match given.is_some_and(|input| std::ptr::eq(input.bytes(), self.root)) {
            true => FileNo::GIVEN,
            false => {
                let file = state.files.get();
                state.files.set(file + 1);
                FileNo(file)
            }
        };
        self.shared = Some(state);
        self
    }

    /// Charges `n` bytes read by position against the budget; refused once it is spent.
    pub fn charge(&self, n: u64) -> Result<()> {
        let Some(state) = self.shared else {
            return Ok(());
        };
        match state.budget.get().checked_sub(n) {
            Some(left) => {
                state.budget.set(left);
                Ok(())
            }
            None => Err(self.error(ErrorKind::Invalid(
                "reading would take far more work than the file's size calls for: values read by position point many times at the same data, or searched fields are tried too often".into(),
            ))),
        }
    }

    /// Gives `n` bytes back to the budget: bytes a positioned read spans without reading them
    /// (a view of the file).
    fn refund(&self, n: u64) {
        if let Some(state) = self.shared {
            state.budget.set(state.budget.get().saturating_add(n));
        }
    }

    /// The budget of a whole-file read of `len` bytes (see [`FileState::new`]): values read by
    /// position may read about four times the file, and 4 MiB more, each charged
    /// [`Reader::POSITIONED_READ_COST`] before it is read, so that a file pointing many times
    /// at the same data (a cramfs directory pointing at every later one) ends once that is
    /// spent; searched fields (`-scan`, `-solve`) may parse about 2048 times it.
    pub fn budget_for(len: usize, searched: bool) -> u64 {
        let len = len as u64;
        match searched {
            true => len.saturating_mul(2048).saturating_add(64 << 20),
            false => len.saturating_mul(4).saturating_add(4 << 20),
        }
    }

    /// What a value read by position costs before any of its bytes: bounded work per read,
    /// however few bytes it reads.
    pub const POSITIONED_READ_COST: u64 = 256;

    /// Starts reading a value of type `T` by position, here, unless a value of the same type at
    /// the same position of the same stream is being read around it: Kaitai's instances make
    /// that the same value (a directory entry "." pointing at its own directory), so reading
    /// it again would never end. That is an [`ErrorKind::Cycle`], which [`crate::Instance`]
    /// keeps as a reference. The value is being read until the guard is dropped.
    pub fn visit<T: ?Sized + 'static>(&self) -> Result<Visiting<'a>> {
        self.visit_keyed(TypeKey::of::<T>())
    }

    /// [`Reader::visit`] for a type named `ty` (an interpreter's, whose types are not Rust's).
    pub fn visit_as(&self, ty: &'static str) -> Result<Visiting<'a>> {
        self.visit_keyed(TypeKey::Named(ty))
    }

    fn visit_keyed(&self, ty: TypeKey) -> Result<Visiting<'a>> {
        let Some(state) = self.shared else {
            return Ok(Visiting(None));
        };
        let visit = Visit {
            ty,
            stream: self.stream_id(),
            pos: self.pos,
        };
        if state.visiting.borrow().contains(&visit) {
            return Err(self.error(ErrorKind::Cycle {
                offset: self.absolute_pos(),
            }));
        }
        state.visiting.borrow_mut().push(visit);
        Ok(Visiting(Some(state)))
    }

    /// Records that a value read by position with this reader (every such read passes here,
    /// but an instance left unread: [`Reader::note_unread`]) claims bytes up to `len` past
    /// where the reader stands: until one of them lies past the bytes read in sequence, those
    /// are what such values claim (see [`crate::fields::claimed_as_read`]). A value in
    /// decoded bytes claims nothing of the file: the stored value they are decoded from does.
    pub(crate) fn note_placed(&self, len: usize) {
        if let Some(state) = self.shared
            && self.decoded_at.is_none()
        {
            let end = self.absolute_pos().saturating_add(len as u64);
            state.placed_end.set(state.placed_end.get().max(end));
        }
    }

    /// Notes that the `len` bytes at this reader's position are an instance left to read on
    /// demand: unread, it claims them (see [`crate::Instance::held`]), which the read tells
    /// (see [`crate::fields::claimed_as_read`]).
    pub(crate) fn note_unread(&self, len: usize) {
        if let Some(state) = self.shared
            && self.decoded_at.is_none()
        {
            if state.unplaced_reads.get() > 0 {
                // Not written, such a value claims nothing: nor does an instance in it.
                return self.note_placed(len);
            }
            let start = self.absolute_pos();
            let end = start.saturating_add(len as u64);
            let mut unread = state.unread.borrow_mut();
            // Room for one more: the read's own claim, pushed into this list at its end.
            unread.reserve(2);
            unread.push(start..end);
        }
    }

    /// Notes, until the guard is dropped, that the value being read is kept as read and never
    /// placed back ([`crate::fields::read_kept`], [`crate::fields::read_in`]): the instances
    /// left unread in it claim nothing.
    pub(crate) fn reading_unplaced(&self) -> UnplacedRead<'a> {
        if let Some(state) = self.shared {
            state.unplaced_reads.set(state.unplaced_reads.get() + 1);
        }
        UnplacedRead(self.shared)
    }

    /// The bytes of the file the instances left unread claim (see [`Reader::note_unread`]),
    /// taken from the read's state: asked once, when the read is over.
    pub(crate) fn take_unread_claims(&self) -> Vec<std::ops::Range<u64>> {
        self.shared
            .map(|state| state.unread.take())
            .unwrap_or_default()
    }

    /// Whether this reader reads the whole file, from its first byte (no substream, no
    /// decoded bytes).
    pub(crate) fn is_whole_file(&self) -> bool {
        self.stream_id() == StreamId::new(Buffer::FILE, 0, self.root.len())
            && self.file_root.is_none()
    }

    /// The stream this reader reads: which range of the file or of a buffer of decoded bytes.
    #[inline]
    pub fn stream_id(&self) -> StreamId {
        // `base` is where `data` starts in the file, or, in decoded bytes, where their value
        // starts in the file plus where `data` starts in them.
        let start = self.base.wrapping_sub(self.decoded_at.unwrap_or(0));
        StreamId::new(self.buffer, start, self.data.len())
    }

    /// Where the bytes that values read by position with this reader's file claim end, the
    /// furthest; `None` when the reader shares no state to tell, or an instance was read on
    /// demand meanwhile.
    pub(crate) fn placed_end(&self) -> Option<u64> {
        let state = self.shared?;
        // Instances read on demand have readers of their own, which note nothing here.
        let input = state.input.get();
        match input.is_some_and(|(input, _)| input.was_read_on_demand()) {
            true => None,
            false => Some(state.placed_end.get()),
        }
    }

    /// The whole file this reader reads a part of.
    pub fn file(&self) -> &'a [u8] {
        self.root
    }

    /// `bytes`, read by this reader from its file, as a view of the file it keeps (a
    /// [`FileState`] given the file, or one whose instances read on demand or whose values
    /// copied it, see [`Reader::keep_file_when_cheaper`]): nothing is copied. `None` when no
    /// file is kept, or `bytes` are not a range of it (decoded bytes).
    pub fn view(&self, bytes: &[u8]) -> Option<crate::ByteBuf> {
        let (input, start) = self.kept_at(bytes)?;
        Some(crate::ByteBuf::shared(input.clone(), start, bytes.len()))
    }

    /// The file kept, and where `bytes` start in it (see [`Reader::view`]).
    pub(crate) fn kept_at(
        &self,
        bytes: &[u8],
    ) -> Option<(&'a std::sync::Arc<crate::on_demand::Input>, usize)> {
        let input = self.shared?.input_of(self.file)?;
        Some((input, offset_in(self.root, bytes)?))
    }

    /// Keeps the file (see [`Reader::view`]) once the values that could have been views of it
    /// (byte fields, lists: this one included) have cost a share of its size in allocations
    /// ([`Reader::KEEP_AT`]), counting [`Reader::COPY_COST`] bytes each. Their bytes do not count:
    /// copied one value at a time or with the file, they are copied once either way (and the
    /// bytes between them are kept for writing back). So a file of many short values (a GIF's
    /// sub-blocks, many lists of key frames) is copied once and viewed, while one of a few
    /// large ones (a PNG's image data) is copied one value at a time, and one read for a few
    /// values (a disk image's boot sector) is never copied whole.
    pub fn keep_file_when_cheaper(&self) {
        let Some(state) = self.shared else { return };
        let spent = state.spent_on_copies.get().saturating_add(Self::COPY_COST);
        state.spent_on_copies.set(spent);
        if spent.saturating_mul(Self::KEEP_AT) >= self.root.len() as u64 {
            self.keep_file();
        }
    }

    /// True while a value read by position is read (the whole-file read of the root aside).
    fn reads_by_position(&self) -> bool {
        self.shared
            .is_some_and(|state| state.visiting.borrow().depth() > 1)
    }

    /// Keeps the file, so that values are views of it (see [`Reader::view`]), unless it is
    /// kept already or this reader reads decoded bytes.
    fn keep_file(&self) {
        let Some(state) = self.shared else { return };
        if state.input.get().is_some() || self.decoded_at.is_some() {
            return;
        }
        let input = crate::on_demand::Input::new(self.root, state.budget.get());
        let _ = state.input.set((std::sync::Arc::new(input), self.file));
    }

    /// What an allocation and its release cost, in bytes copied in as much time (see
    /// [`Reader::keep_file_when_cheaper`]).
    pub const COPY_COST: u64 = 256;

    /// The file is kept once its values' allocations cost `1 / KEEP_AT` of its size: early,
    /// since a file with many such values so far likely has many more. On files of many short
    /// lists, keeping the file at half its size read them 20–30% slower than at a 64th, which
    /// was as fast as keeping it at the first list (docs/performance.md); yet a file must hold
    /// 65,536 such values per GiB before it is copied whole.
    pub const KEEP_AT: u64 = 64;

    /// `bytes`, read by this reader from its file, as a view ([`Reader::view`], keeping the
    /// file [when cheaper](Reader::keep_file_when_cheaper)) or else a copy; a few bytes are
    /// copied inline ([`crate::ByteBuf::INLINE`]), which costs less than a view's reference
    /// to the file.
    pub fn keep(&self, bytes: &[u8]) -> crate::ByteBuf {
        if bytes.len() <= crate::ByteBuf::INLINE {
            return crate::ByteBuf::copied(bytes);
        }
        self.keep_file_when_cheaper();
        let by_position = self.reads_by_position();
        if by_position && bytes.len() as u64 >= self.root.len() as u64 / Self::KEEP_AT {
            // A large share of the file read by position, which values may point at many times
            // over (each cramfs inode reads the rest of the image): a view, never a copy.
            self.keep_file();
        }
        match self.view(bytes) {
            Some(view) => {
                // A view costs nothing of what the budget bounds (the bytes a value read by
                // position spans): its bytes are not read.
                if by_position {
                    self.refund(bytes.len() as u64);
                }
                view
            }
            None => crate::ByteBuf::copied(bytes),
        }
    }

    /// The rest of the stream, as [`Reader::keep`] keeps it.
    pub fn keep_rest(&mut self) -> crate::ByteBuf {
        let rest = self.rest();
        self.keep(rest)
    }

    /// This reader as a [`crate::on_demand::Detached`] one, to read from later, once the file it reads is no
    /// longer borrowed: `None` when what it reads is not a range of the file (decoded bytes),
    /// when bits of a byte are pending, or when it shares no [`FileState`] (a reader of one
    /// value, not of a file).
    pub fn detach(&self) -> Option<crate::on_demand::Detached> {
        let state = self.shared?;
        let in_root = |data: &[u8]| offset_in(self.root, data);
        if self.decoded_at.is_some() || !self.pending.is_empty() {
            return None;
        }
        let file_root = match self.file_root {
            Some(root) if root.decoded_at.is_some() => return None,
            Some(root) => Some(Box::new((in_root(root.data)?, root.data.len(), root.base))),
            None => None,
        };
        let (input, file) = state.input.get_or_init(|| {
            let input = crate::on_demand::Input::new(self.root, state.budget.get());
            (std::sync::Arc::new(input), self.file)
        });
        // Given with the state or copied for another reader, it must be this reader's file.
        if *file != self.file {
            return None;
        }
        Some(crate::on_demand::Detached {
            input: input.clone(),
            data: (in_root(self.data)?, self.data.len()),
            pos: self.pos,
            base: self.base,
            file_root,
            depth: self.depth,
        })
    }

    /// Reads with a reader where `at` stood, charging what it copies to the budget of the read
    /// that detached it.
    pub fn read_detached<T>(
        at: &crate::on_demand::Detached,
        read: impl FnOnce(&mut Reader<'_>) -> Result<T>,
    ) -> Result<T> {
        let input = &at.input;
        input.note_read_on_demand();
        let state = FileState::new(input.budget()).with_input(input.clone());
        let file = input.bytes();
        let window =
            |(start, len): (usize, usize)| file.get(start..start + len).unwrap_or_default();
        let mut r = Reader {
            data: window(at.data),
            root: file,
            file_root: at.file_root.as_deref().map(|&(start, len, base)| FileRoot {
                data: window((start, len)),
                base,
                decoded_at: None,
                buffer: Buffer::FILE,
            }),
            pos: at.pos,
            base: at.base,
            shared: Some(&state),
            depth: at.depth,
            decoded_at: None,
            buffer: Buffer::FILE,
            file: FileNo::GIVEN,
            pending: Default::default(),
        };
        let value = read(&mut r);
        input.set_budget(state.budget.get());
        value
    }

    /// Position relative to this reader's start.
    #[inline]
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// Position in the whole file.
    #[inline]
    pub fn absolute_pos(&self) -> u64 {
        self.base + self.pos as u64
    }

    /// Length of the data this reader covers.
    #[inline]
    pub fn size(&self) -> usize {
        self.data.len()
    }

    /// Bytes between the position and the end.
    #[inline]
    pub fn remaining(&self) -> usize {
        self.data.len().saturating_sub(self.pos)
    }

    /// Whether every byte has been consumed, and every bit of the last one.
    #[inline]
    pub fn is_eof(&self) -> bool {
        self.pos >= self.data.len() && self.pending.is_empty()
    }

    /// Moves to `pos` (relative to this reader's start); seeking exactly to the end is allowed.
    #[inline]
    pub fn seek(&mut self, pos: usize) -> Result<()> {
        if pos > self.data.len() {
            return Err(self.eof(pos.saturating_sub(self.pos)));
        }
        self.pos = pos;
        Ok(())
    }

    /// An error of kind `kind` at the current absolute position (see [`Reader::error_offset`]).
    #[cold]
    #[inline(never)]
    pub fn error(&self, kind: ErrorKind) -> Error {
        Error::new(self.error_offset(), kind)
    }

    #[cold]
    #[inline(never)]
    fn eof(&self, needed: usize) -> Error {
        self.error(ErrorKind::UnexpectedEof {
            needed: needed as u64,
            available: self.remaining() as u64,
        })
    }

    /// `n`, when the next `n` bytes are there; the error [`Reader::bytes`] gives otherwise.
    #[inline]
    pub fn ahead(&self, n: usize) -> Result<usize> {
        match n <= self.remaining() {
            true => Ok(n),
            false => Err(self.eof(n)),
        }
    }

    /// The next `n` bytes.
    #[inline]
    pub fn bytes(&mut self, n: usize) -> Result<&'a [u8]> {
        let end = self.pos.checked_add(n);
        match end.and_then(|end| self.data.get(self.pos..end)) {
            Some(b) => {
                self.pos += n;
                Ok(b)
            }
            None => Err(self.eof(n)),
        }
    }

    /// The next `N` bytes as an array.
    #[inline]
    pub fn array<const N: usize>(&mut self) -> Result<[u8; N]> {
        self.array_ref().copied()
    }

    /// The next `N` bytes, borrowed: a value built from more than a few of them (a fixed
    /// string, a fixed-size structure) copies them once, straight from the input, rather than
    /// moving an array through each `Result` on the way.
    #[inline]
    pub fn array_ref<const N: usize>(&mut self) -> Result<&'a [u8; N]> {
        match self.data.get(self.pos..).and_then(|d| d.first_chunk::<N>()) {
            Some(b) => {
                self.pos += N;
                Ok(b)
            }
            None => Err(self.eof(N)),
        }
    }

    /// Bytes for `count` elements of `elem_size` bytes each, with ONE bounds check (checked_mul; CountTooLarge error when count*elem_size overflows or exceeds remaining, so a count of 4 billion in a 100-byte file fails at once).
    #[inline]
    pub fn elements(&mut self, count: u64, elem_size: usize) -> Result<&'a [u8]> {
        let remaining = self.remaining();
        match count.checked_mul(elem_size as u64) {
            Some(total) if total <= remaining as u64 => self.bytes(total as usize),
            _ => Err(self.error(ErrorKind::CountTooLarge {
                count,
                elem_size: elem_size as u64,
                remaining: remaining as u64,
            })),
        }
    }

    /// Everything from pos to the end (consumes it).
    #[inline]
    pub fn rest(&mut self) -> &'a [u8] {
        let rest = self.data.get(self.pos..).unwrap_or_default();
        self.pos = self.data.len();
        rest
    }

    /// A reader over the next n bytes (consumed from self); its base is this reader's absolute position.
    #[inline]
    pub fn sub(&mut self, n: usize) -> Result<Reader<'a>> {
        let base = self.absolute_pos();
        let data = self.bytes(n)?;
        Ok(Reader {
            data,
            root: self.root,
            file_root: self.file_root,
            pos: 0,
            base,
            shared: self.shared,
            depth: self.depth,
            decoded_at: self.decoded_at,
            buffer: self.buffer,
            file: self.file,
            pending: Default::default(),
        })
    }

    /// Reads a value of an imported schema's root type (EXIF inside a JPEG segment): inside
    /// it, that schema's `_root._io` is the stream the value is read from (this reader's), as
    /// in Kaitai, not the whole file.
    pub fn in_file_root<T>(&mut self, read: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        let root = FileRoot {
            data: self.data,
            base: self.base,
            decoded_at: self.decoded_at,
            buffer: self.buffer,
        };
        let outer = self.file_root.replace(root);
        let value = read(self);
        self.file_root = outer;
        value
    }

    /// A reader at the start of `_root._io`: the stream of the imported schema's root value
    /// being read (see [`Reader::in_file_root`]), or the whole file.
    pub fn root_stream(&self) -> Reader<'a> {
        match self.file_root {
            Some(root) => Reader {
                data: root.data,
                base: root.base,
                decoded_at: root.decoded_at,
                buffer: root.buffer,
                ..self.whole_file()
            },
            None => self.whole_file(),
        }
    }

    /// A reader over the whole file (Kaitai's `_root._io`) at its start, wherever this one is
    /// (a substream, decoded data), sharing this reader's budget and nesting depth.
    pub fn whole_file(&self) -> Reader<'a> {
        Reader {
            data: self.root,
            root: self.root,
            file_root: self.file_root,
            pos: 0,
            base: 0,
            shared: self.shared,
            depth: self.depth,
            decoded_at: None,
            buffer: Buffer::FILE,
            file: self.file,
            pending: Default::default(),
        }
    }

    /// The bytes this reader covers: its stream (a range of the file, or decoded bytes).
    pub fn data(&self) -> &'a [u8] {
        self.data
    }

    /// A reader over `len` bytes at `start` of this one (whose base it extends), at their
    /// start: of the whole file ([`Reader::whole_file`]), another value's stream.
    pub fn region(&self, start: usize, len: usize) -> Result<Reader<'a>> {
        let mut at = self.clone();
        at.seek(start)?;
        let mut region = at.sub(len)?;
        region.pending = Default::default();
        Ok(region)
    }

    /// A reader over decoded bytes of a value that starts at absolute offset `start` of the
    /// file, sharing this reader's budget and nesting depth; its errors name `start`. The
    /// bytes are a stream of their own, which no other reader reads (see
    /// [`Reader::decoded_in`]).
    pub fn detached_at<'b>(&self, data: &'b [u8], start: u64) -> Reader<'b>
    where
        'a: 'b,
    {
        self.decoded_in(Buffer::fresh(), data, start)
    }

    /// [`Reader::detached_at`] for decoded bytes read before as `buffer`: bytes kept with a
    /// value and read again are the same stream each time.
    pub fn decoded_in<'b>(&self, buffer: Buffer, data: &'b [u8], start: u64) -> Reader<'b>
    where
        'a: 'b,
    {
        Reader {
            data,
            root: self.root,
            file_root: self.file_root,
            pos: 0,
            base: start,
            shared: self.shared,
            depth: self.depth,
            decoded_at: Some(start),
            buffer,
            file: self.file,
            pending: Default::default(),
        }
    }

    /// A reader over decoded bytes that stand for data at this position (see
    /// [`Reader::detached_at`]).
    pub fn detached<'b>(&self, data: &'b [u8]) -> Reader<'b>
    where
        'a: 'b,
    {
        self.detached_at(data, self.error_offset())
    }

    /// Where an error at the current position is reported: the position, or in decoded bytes
    /// the start of their value.
    pub fn error_offset(&self) -> u64 {
        self.decoded_at.unwrap_or_else(|| self.absolute_pos())
    }

    /// Bytes up to the terminator byte: returns the bytes including the terminator when `include` (and always consumes it when `consume`); error UnexpectedEof if no terminator is found and `eos_error`, else returns the rest.
    pub fn until(
        &mut self,
        terminator: u8,
        include: bool,
        consume: bool,
        eos_error: bool,
    ) -> Result<&'a [u8]> {
        let tail = self.data.get(self.pos..).unwrap_or_default();
        match tail.iter().position(|&b| b == terminator) {
            Some(i) => {
                let end = if include { i + 1 } else { i };
                let out = tail.get(..end).unwrap_or(tail);
                self.pos += if consume || include { i + 1 } else { i };
                Ok(out)
            }
            None if eos_error => Err(self.eof(tail.len() + 1)),
            None => Ok(self.rest()),
        }
    }

    /// [`Reader::until`] for text whose code units are `unit` bytes long: the terminator is
    /// `unit` bytes equal to `terminator` at a multiple of `unit` from here (a UTF-16 NUL).
    pub fn until_unit(
        &mut self,
        terminator: u8,
        unit: usize,
        include: bool,
        consume: bool,
        eos_error: bool,
    ) -> Result<&'a [u8]> {
        let unit = unit.max(1);
        let tail = self.data.get(self.pos..).unwrap_or_default();
        match crate::bytes::find_terminator(tail, terminator, unit) {
            Some(i) => {
                let end = if include { i + unit } else { i };
                let out = tail.get(..end).unwrap_or(tail);
                self.pos += if consume || include { i + unit } else { i };
                Ok(out)
            }
            None if eos_error => Err(self.eof(tail.len() + unit)),
            None => Ok(self.rest()),
        }
    }

    /// Cap for Vec::with_capacity: min(count, remaining / max(min_elem_size,1)) so hostile counts never preallocate beyond the input.
    #[inline]
    pub fn capacity_hint(&self, count: u64, min_elem_size: usize) -> usize {
        let fit = self.remaining() / min_elem_size.max(1);
        usize::try_from(count).map_or(fit, |c| c.min(fit))
    }

    /// Reads one byte.
    #[inline]
    pub fn read_u8(&mut self) -> Result<u8> {
        match self.data.get(self.pos) {
            Some(&b) => {
                self.pos += 1;
                Ok(b)
            }
            None => Err(self.eof(1)),
        }
    }

    /// Reads one signed byte.
    #[inline]
    pub fn read_i8(&mut self) -> Result<i8> {
        self.read_u8().map(|b| b as i8)
    }

    read_primitives! {
        read_u16_le => u16, from_le_bytes;
        read_u16_be => u16, from_be_bytes;
        read_i16_le => i16, from_le_bytes;
        read_i16_be => i16, from_be_bytes;
        read_u32_le => u32, from_le_bytes;
        read_u32_be => u32, from_be_bytes;
        read_i32_le => i32, from_le_bytes;
        read_i32_be => i32, from_be_bytes;
        read_u64_le => u64, from_le_bytes;
        read_u64_be => u64, from_be_bytes;
        read_i64_le => i64, from_le_bytes;
        read_i64_be => i64, from_be_bytes;
        read_f32_le => f32, from_le_bytes;
        read_f32_be => f32, from_be_bytes;
        read_f64_le => f64, from_le_bytes;
        read_f64_be => f64, from_be_bytes;
    }

    /// .NET BinaryReader 7-bit encoded length (up to 5 bytes for u32); Invalid error when longer or overflowing.
    pub fn read_7bit_u32(&mut self) -> Result<u32> {
        let start = self.pos;
        let mut value: u32 = 0;
        for i in 0..5u32 {
            let b = match self.read_u8() {
                Ok(b) => b,
                Err(e) => {
                    self.pos = start;
                    return Err(self.error(e.kind().clone()));
                }
            };
            let shift = 7 * i;
            // The fifth byte only has room for the top 4 bits of a u32 and must end the value.
            if i == 4 && b > 0x0f {
                self.pos = start;
                return Err(self.error(ErrorKind::Invalid(format!(
                    "7-bit encoded integer is longer than 5 bytes or overflows u32 (fifth byte {b:#04x})"
                ))));
            }
            value |= u32::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(value);
            }
        }
        // Unreachable in practice: the fifth byte either ends the value or was rejected above.
        self.pos = start;
        Err(self.error(ErrorKind::Invalid(
            "7-bit encoded integer is too long".into(),
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Writer;

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
        let (pos, rest) =
            Reader::read_detached(&at, |r| Ok((r.absolute_pos(), r.rest().to_vec()))).unwrap();
        assert_eq!((pos, rest), (2, vec![3, 4, 5]));
        // Reads again as often as asked, from the same place.
        assert_eq!(Reader::read_detached(&at, |r| r.read_u8()).unwrap(), 3);
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
        use crate::on_demand::Input;
        let (file, other) = (vec![1u8, 2], vec![1u8, 2]);
        let state = FileState::new(100).with_input(Input::owned(other));
        assert!(Reader::new(&file).sharing(&state).detach().is_none());
        let input = Input::owned(file);
        let state = FileState::new(100).with_input(input.clone());
        let at = Reader::new(input.bytes()).sharing(&state).detach().unwrap();
        assert_eq!(Reader::read_detached(&at, |r| r.read_u8()).unwrap(), 1);
    }

    #[test]
    fn a_file_changed_where_it_lies_is_another_file() {
        // The same address and length as the file copied, other bytes: what a file freed and
        // another allocated in its place looks like. Its reader must not view the copy.
        let mut file = vec![1u8; 40];
        let state = FileState::new(100);
        assert!(Reader::new(&file).sharing(&state).detach().is_some());
        file.fill(2);
        let r = Reader::new(&file).sharing(&state);
        assert!(
            r.view(&file).is_none(),
            "a view would show the bytes copied"
        );
        assert!(r.detach().is_none());
        assert_eq!(r.keep(&file).as_ref(), &file[..]);
    }

    #[test]
    fn streams_are_ranges_of_their_buffers_not_addresses() {
        let is_cycle = |v: Result<Visiting<'_>>| matches!(v.map(drop), Err(e) if matches!(e.kind(), ErrorKind::Cycle { .. }));
        let file: Vec<u8> = (0..16).collect();
        let state = FileState::new(10_000);
        let r = Reader::new(&file).sharing(&state);
        // A range of the file made again (an instance's substream) is the same stream.
        let _outer = r.region(4, 8).unwrap().visit_as("T").unwrap();
        assert!(is_cycle(r.region(4, 8).unwrap().visit_as("T")));
        assert!(r.region(4, 7).unwrap().visit_as("T").is_ok());
        // Bytes decoded again where earlier ones were (a buffer freed and its address reused)
        // are another stream; the same buffer read again is the same one.
        let decoded = vec![7u8; 8];
        let first = r.detached_at(&decoded, 4);
        let _inner = first.visit_as("T").unwrap();
        assert!(r.detached_at(&decoded, 4).visit_as("T").is_ok());
        let again = r.decoded_in(first.stream_id().buffer(), &decoded, 4);
        assert!(is_cycle(again.visit_as("T")));
        // The file's bytes read as decoded ones are not the file.
        assert!(r.whole_file().is_whole_file() && r.region(0, 16).unwrap().is_whole_file());
        assert!(!r.detached_at(&file, 0).is_whole_file());
    }

    fn eof_at(err: &Error) -> (u64, u64, u64) {
        match err.kind() {
            ErrorKind::UnexpectedEof { needed, available } => (err.offset(), *needed, *available),
            other => panic!("expected EOF, got {other:?}"),
        }
    }

    #[test]
    fn primitives_le_and_be() {
        let data = [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08];
        let mut r = Reader::new(&data);
        assert_eq!(r.read_u16_le().unwrap(), 0x0201);
        assert_eq!(r.read_u16_be().unwrap(), 0x0304);
        assert_eq!(r.read_i16_be().unwrap(), 0x0506);
        assert_eq!(r.read_i8().unwrap(), 7);
        assert_eq!(r.read_u8().unwrap(), 8);
        assert!(r.is_eof());

        let r = || Reader::new(&data);
        assert_eq!(r().read_u32_le().unwrap(), 0x0403_0201);
        assert_eq!(r().read_u32_be().unwrap(), 0x0102_0304);
        assert_eq!(r().read_u64_le().unwrap(), 0x0807_0605_0403_0201);
        assert_eq!(r().read_u64_be().unwrap(), 0x0102_0304_0506_0708);
        assert_eq!(r().read_i64_be().unwrap(), 0x0102_0304_0506_0708);

        let neg = [0xff, 0xfe, 0xff, 0xff];
        assert_eq!(Reader::new(&neg).read_i16_le().unwrap(), -257);
        assert_eq!(Reader::new(&neg).read_i16_be().unwrap(), -2);
        assert_eq!(Reader::new(&neg).read_i32_le().unwrap(), -257);
        assert_eq!(Reader::new(&neg).read_i8().unwrap(), -1);

        let mut w = Writer::new();
        w.write_f32_le(1.5);
        w.write_f32_be(-2.25);
        w.write_f64_le(std::f64::consts::PI);
        w.write_f64_be(-0.0);
        w.write_i64_le(i64::MIN);
        w.write_i32_be(-3);
        w.write_u16_be(0xbeef);
        w.write_i8(-128);
        let bytes = w.into_bytes().unwrap();
        let mut r = Reader::new(&bytes);
        assert_eq!(r.read_f32_le().unwrap(), 1.5);
        assert_eq!(r.read_f32_be().unwrap(), -2.25);
        assert_eq!(r.read_f64_le().unwrap(), std::f64::consts::PI);
        assert_eq!(r.read_f64_be().unwrap().to_bits(), (-0.0f64).to_bits());
        assert_eq!(r.read_i64_le().unwrap(), i64::MIN);
        assert_eq!(r.read_i32_be().unwrap(), -3);
        assert_eq!(r.read_u16_be().unwrap(), 0xbeef);
        assert_eq!(r.read_i8().unwrap(), -128);
        assert!(r.is_eof());
    }

    #[test]
    fn eof_errors_report_where_the_read_began() {
        let data = [0u8; 5];
        let mut r = Reader::new(&data);
        r.read_u16_le().unwrap();
        let err = r.read_u32_le().unwrap_err();
        assert_eq!(eof_at(&err), (2, 4, 3));
        assert!(err.path().is_empty());
        // A failed read consumes nothing.
        assert_eq!(r.pos(), 2);
        assert_eq!(eof_at(&r.bytes(10).unwrap_err()), (2, 10, 3));
        assert_eq!(eof_at(&r.ahead(10).unwrap_err()), (2, 10, 3));
        assert_eq!(r.ahead(3).unwrap(), 3);
        assert_eq!(
            eof_at(&r.bytes(usize::MAX).unwrap_err()),
            (2, u64::MAX >> (64 - usize::BITS), 3)
        );
        r.seek(5).unwrap();
        assert_eq!(eof_at(&r.read_u8().unwrap_err()), (5, 1, 0));
        assert_eq!(eof_at(&r.seek(9).unwrap_err()), (5, 4, 0));
        assert_eq!(eof_at(&r.array::<2>().unwrap_err()), (5, 2, 0));
    }

    #[test]
    fn hostile_count_fails_at_once() {
        let data = [0u8; 100];
        let mut r = Reader::new(&data);
        r.bytes(10).unwrap();
        let err = r.elements(u64::from(u32::MAX), 16).unwrap_err();
        assert_eq!(err.offset(), 10);
        assert_eq!(
            err.kind(),
            &ErrorKind::CountTooLarge {
                count: u64::from(u32::MAX),
                elem_size: 16,
                remaining: 90
            }
        );
        assert!(matches!(
            r.elements(u64::MAX, usize::MAX).unwrap_err().kind(),
            ErrorKind::CountTooLarge { .. }
        ));
        assert_eq!(r.pos(), 10);
        assert_eq!(r.elements(5, 18).unwrap().len(), 90);
        assert!(r.is_eof());
        assert_eq!(r.elements(0, 16).unwrap(), &[] as &[u8]);
    }

    #[test]
    fn capacity_hint_is_bounded_by_input() {
        let data = [0u8; 100];
        let r = Reader::new(&data);
        assert_eq!(r.capacity_hint(u64::from(u32::MAX), 16), 6);
        assert_eq!(r.capacity_hint(3, 16), 3);
        assert_eq!(r.capacity_hint(u64::MAX, 0), 100);
    }

    #[test]
    fn sub_readers_report_file_offsets() {
        let data: Vec<u8> = (0..32).collect();
        let mut r = Reader::new(&data);
        r.bytes(4).unwrap();
        let mut sub = r.sub(8).unwrap();
        assert_eq!(r.pos(), 12);
        assert_eq!((sub.pos(), sub.absolute_pos(), sub.size()), (0, 4, 8));
        sub.bytes(2).unwrap();
        let mut inner = sub.sub(4).unwrap();
        assert_eq!(inner.absolute_pos(), 6);
        assert_eq!(inner.read_u8().unwrap(), 6);
        let err = inner.read_u32_le().unwrap_err();
        assert_eq!(eof_at(&err), (7, 4, 3));
        assert_eq!(inner.error(ErrorKind::Invalid("x".into())).offset(), 7);
        assert_eq!(sub.rest(), &[10, 11]);
        assert!(sub.is_eof());
        assert_eq!(sub.rest(), &[] as &[u8]);
        assert_eq!(eof_at(&r.sub(21).unwrap_err()), (12, 21, 20));
    }

    #[test]
    fn until_terminator() {
        let data = b"ab\0cd\0ef";
        let mut r = Reader::new(data);
        assert_eq!(r.until(0, false, true, true).unwrap(), b"ab");
        assert_eq!(r.pos(), 3);
        assert_eq!(r.until(0, true, true, true).unwrap(), b"cd\0");
        assert_eq!(r.pos(), 6);
        let err = r.until(0, false, true, true).unwrap_err();
        assert_eq!(eof_at(&err), (6, 3, 2));
        assert_eq!(r.until(0, false, true, false).unwrap(), b"ef");
        assert!(r.is_eof());

        let mut r = Reader::new(data);
        assert_eq!(r.until(0, false, false, true).unwrap(), b"ab");
        assert_eq!(r.pos(), 2);
        assert_eq!(r.until(0, false, false, true).unwrap(), b"");
        assert_eq!(r.pos(), 2);
    }

    #[test]
    fn seven_bit_lengths() {
        for (value, len) in [
            (0u32, 1),
            (127, 1),
            (128, 2),
            (16383, 2),
            (16384, 3),
            (u32::MAX, 5),
        ] {
            let mut w = Writer::new();
            w.write_7bit_u32(value);
            let bytes = w.into_bytes().unwrap();
            assert_eq!(bytes.len(), len, "{value}");
            let mut r = Reader::new(&bytes);
            assert_eq!(r.read_7bit_u32().unwrap(), value);
            assert!(r.is_eof());
        }
        let mut w = Writer::new();
        w.write_7bit_u32(128);
        assert_eq!(w.as_slice(), &[0x80, 0x01]);
        assert_eq!(
            Reader::new(&[0xff, 0xff, 0xff, 0xff, 0x0f])
                .read_7bit_u32()
                .unwrap(),
            u32::MAX
        );

        // Six bytes: the fifth still has its continuation bit set.
        let long = [0x80, 0x80, 0x80, 0x80, 0x80, 0x00];
        let mut r = Reader::new(&long);
        r.seek(0).unwrap();
        let err = r.read_7bit_u32().unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::Invalid(_)));
        assert_eq!(err.offset(), 0);
        // Bits beyond 32 in the fifth byte overflow.
        let err = Reader::new(&[0xff, 0xff, 0xff, 0xff, 0x10])
            .read_7bit_u32()
            .unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::Invalid(_)));
        // Truncated encodings report EOF where the integer began.
        let data = [0u8, 0x80, 0x80];
        let mut r = Reader::new(&data);
        r.read_u8().unwrap();
        assert_eq!(r.read_7bit_u32().unwrap_err().offset(), 1);
    }

    #[test]
    fn writer_patch_and_reserve() {
        let mut w = Writer::with_capacity(8);
        w.write_u32_le(0);
        w.fill(0xaa, 2);
        w.reserve_slice(2).copy_from_slice(&[1, 2]);
        assert_eq!(w.pos(), 8);
        w.patch(0, &8u32.to_le_bytes()).unwrap();
        assert_eq!(w.as_slice(), &[8, 0, 0, 0, 0xaa, 0xaa, 1, 2]);
        let err = w.patch(6, &[0; 3]).unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::Encode(_)));
        assert!(w.patch(usize::MAX, &[0]).is_err());
        w.patch(8, &[]).unwrap();
    }
}
