//! A growable byte sink for encoders.

use crate::canvas::Canvas;
use crate::error::{Error, ErrorKind, Result};
use crate::relocation;

/// A growable byte sink.
///
/// Values read from a position (Kaitai `pos` instances) are written as placed blocks: they are
/// kept aside and laid over the sequential bytes by [`Writer::into_bytes`], so that the
/// sequential part is never disturbed by where a block lands. Blocks may overlap only where
/// they agree, and together with the sequential bytes they must leave no hole.
#[derive(Debug, Default, Clone)]
pub struct Writer {
    buf: Vec<u8>,
    placed: Canvas,
    /// Where `buf` will land in the file: 0, or the position of the block being written.
    base: usize,
    /// Where the stream of the value being written starts in the file: positions of values
    /// read by position in their own stream (`pos` without `io`) count from there.
    stream_start: usize,
    /// Writes data that is processed before it lands in the file (see [`Writer::decoded`]):
    /// its positions are not the file's.
    detached: bool,
    /// Where the stream of the imported schema's root value being written starts (see
    /// [`Writer::in_file_root`]); `None`: `_root._io` is the whole file.
    file_root_start: Option<usize>,
    /// Of a detached writer: the blocks placed in the whole file (`io: _root._io`), which the
    /// writer of the file takes over ([`Writer::adopt_placed`]).
    file_blocks: Canvas,
    /// Bits written by bit fields that do not fill a byte yet.
    pub(crate) pending: crate::pending_bits::PendingBits,
    /// Only measures what the fields claim (see [`Writer::for_coverage`]).
    for_coverage: bool,
    /// Writes checksums recomputed rather than as stored (see [`Writer::checksum`]).
    recomputes_checksums: bool,
    /// Checksums written as stored that disagree with the bytes they cover.
    checksum_disagreements: Vec<crate::checksum::Disagreement>,
    /// Blocks whose offset follows where they are placed (see [`crate::relocation`]).
    relocation: relocation::State,
}

/// Generates fixed-size primitive writers.
macro_rules! write_primitives {
    ($($name:ident => $ty:ty, $to:ident;)*) => {
        $(
            #[doc = concat!("Writes a `", stringify!($ty), "` (`", stringify!($to), "`).")]
            #[inline]
            pub fn $name(&mut self, v: $ty) {
                self.buf.extend_from_slice(&v.$to());
            }
        )*
    };
}

/// What a writer writes for an instance read on demand that holds no value (see
/// [`crate::Instance::held`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Held<'a> {
    /// Its bytes, claimed without being written.
    Claimed(usize),
    /// Its bytes as read.
    Raw(&'a [u8]),
}

impl Writer {
    /// An empty writer.
    pub fn new() -> Self {
        Writer::default()
    }

    /// An empty writer that only measures which bytes of the file the fields of a value just
    /// read claim ([`Writer::coverage`]): an instance still unread claims its bytes without
    /// being read ([`crate::Instance::held`]). Its bytes are not the file's.
    pub fn for_coverage() -> Self {
        Writer {
            for_coverage: true,
            // Room for the headers and tables most files with positioned parts start with,
            // without growing by doubling from a few bytes.
            buf: Vec::with_capacity(256),
            ..Writer::default()
        }
    }

    /// An empty writer that plans where relocatable blocks go ([`Writer::into_relocation_plan`]).
    pub fn planning_relocations() -> Self {
        let mut w = Writer::default();
        w.relocation.mode = relocation::Mode::Planning;
        w
    }

    /// An empty writer that writes relocatable blocks where `moves` puts them (their offsets
    /// with them: [`crate::fields::relocated_offset`]) and zeros in every byte nothing covers.
    pub fn relocating(moves: relocation::Moves) -> Self {
        let mut w = Writer::default();
        w.relocation.mode = relocation::Mode::Moving(std::sync::Arc::new(moves));
        w
    }

    /// Of a planning writer that has written a whole value: where its relocatable blocks go,
    /// or `None` when they all fit where their offsets say and every byte is covered.
    pub fn into_relocation_plan(mut self) -> Result<Option<relocation::Moves>> {
        self.flush_bits();
        let mut canvas = self.placed;
        canvas.paint(self.base, self.buf, "the sequential content")?;
        relocation::plan(&mut canvas, self.relocation.deferred)
    }

    /// Where the plan moved the block whose offset field is `key` (see [`crate::relocation`]).
    pub(crate) fn moved(&self, key: usize) -> Option<u64> {
        self.relocation.moved(key)
    }

    /// True when a block placed in this writer's stream (`in_file`: in the whole file) is
    /// in the file's own stream, where a relocatable block may move.
    pub(crate) fn places_in_file(&self, in_file: bool) -> bool {
        let stream_is_file = match in_file {
            true => self.file_root_start.is_none(),
            false => !self.relocation.bounded && self.stream_start == 0,
        };
        stream_is_file && !self.detached
    }

    /// Places a relocatable `block` at `at`: set aside for the plan when this writer plans and
    /// nothing is placed relative to it, placed at once otherwise.
    pub(crate) fn place_relocatable(
        &mut self,
        at: usize,
        field: &'static str,
        ((key, unit), follows): ((usize, u64), bool),
        mut block: Writer,
    ) -> Result<()> {
        let planning = matches!(self.relocation.mode, relocation::Mode::Planning);
        if !planning || block.relocation.anchored {
            return self.place(at, field, block);
        }
        block.flush_bits();
        let bytes = std::mem::take(&mut block.buf);
        self.relocation.deferred.push(relocation::Deferred {
            at,
            bytes,
            field,
            key,
            unit,
            follows,
        });
        // Its own bytes are set aside; what it placed is placed.
        self.adopt_nested(block)
    }

    /// Notes a block placed relative to a stream other than the file (see
    /// [`crate::relocation::State::anchored`]).
    pub(crate) fn anchor(&mut self) {
        self.relocation.anchored = true;
    }

    /// An empty writer that writes every checksum recomputed from the bytes it covers.
    pub fn recomputing_checksums() -> Self {
        Writer {
            recomputes_checksums: true,
            ..Writer::default()
        }
    }

    /// For a checksum stored as `stored`, covering the sequential bytes written since
    /// position `start`: the value to write instead when this writer recomputes checksums; a
    /// disagreement is noted otherwise (see [`Writer::checksum_disagreements`]).
    pub fn checksum(
        &mut self,
        algorithm: crate::checksum::Algorithm,
        start: usize,
        stored: u32,
    ) -> Option<u32> {
        let covered = self
            .buf
            .get(start.saturating_sub(self.base)..)
            .unwrap_or_default();
        let computed = algorithm.of(covered);
        if self.recomputes_checksums {
            return Some(computed);
        }
        if computed != stored {
            self.checksum_disagreements
                .push(crate::checksum::Disagreement {
                    offset: self.pos(),
                    stored,
                    computed,
                });
        }
        None
    }

    /// The checksums written as stored that disagree with the bytes they cover.
    pub fn checksum_disagreements(&self) -> &[crate::checksum::Disagreement] {
        &self.checksum_disagreements
    }

    /// Of a writer that has written a whole value: the checksums that disagree, each named by
    /// `field_at` (the path of the field holding a byte of the output); none when the output
    /// cannot be made.
    pub fn into_checksum_mismatches(
        mut self,
        field_at: impl Fn(&[u8], usize) -> String,
    ) -> Vec<crate::Mismatch> {
        let found = std::mem::take(&mut self.checksum_disagreements);
        let Ok(bytes) = self.into_bytes() else {
            return Vec::new();
        };
        found
            .into_iter()
            .map(|d| crate::Mismatch {
                path: field_at(&bytes, d.offset),
                stored: d.stored.into(),
                computed: d.computed.into(),
            })
            .collect()
    }

    /// True when nothing was placed by position (see [`Writer::place`]).
    pub fn places_nothing(&self) -> bool {
        self.placed.is_empty() && self.file_blocks.is_empty()
    }

    /// Whether this writer only measures coverage (see [`Writer::for_coverage`]).
    pub fn is_for_coverage(&self) -> bool {
        self.for_coverage
    }

    /// Claims the next `len` bytes without writing them: only for a writer that measures
    /// coverage, whose bytes are then not the file's.
    fn claim(&mut self, len: usize) {
        let at = self.pos();
        self.placed.claim(at..at.saturating_add(len));
    }

    /// Claims `len` bytes at `at` as a block placed there would (`in_file`: in the whole
    /// file, as [`crate::fields::write_at_root`] places it): for a writer that only measures
    /// coverage, without a block of its own.
    pub(crate) fn claim_placed(&mut self, at: usize, len: usize, in_file: bool) {
        let canvas = match in_file && self.detached && self.file_root_start.is_none() {
            true => &mut self.file_blocks,
            false => &mut self.placed,
        };
        canvas.claim(at..at.saturating_add(len));
    }

    /// Writes what an instance read on demand holds without a value (see
    /// [`crate::Instance::held`]).
    pub fn hold(&mut self, held: Held<'_>) {
        match held {
            Held::Claimed(len) => self.claim(len),
            Held::Raw(bytes) => self.bytes(bytes),
        }
    }

    /// An empty writer with room for `n` bytes.
    pub fn with_capacity(n: usize) -> Self {
        Writer {
            buf: Vec::with_capacity(n),
            ..Writer::default()
        }
    }

    /// Position in the file of the next byte written.
    #[inline]
    pub fn pos(&self) -> usize {
        self.base.saturating_add(self.buf.len())
    }

    /// An error of kind `kind` at the position of the next byte written.
    #[cold]
    #[inline(never)]
    pub fn error(&self, kind: ErrorKind) -> Error {
        Error::new(self.pos() as u64, kind)
    }

    /// `_io.pos` as the reader of the bytes written so far sees it: the position in the
    /// stream of the value being written (see [`Writer::in_substream`]), a byte whose bits
    /// are only partly written counted whole (a reader of bit fields has consumed it).
    #[inline]
    pub fn stream_pos(&self) -> usize {
        let partial = usize::from(!self.pending.is_empty());
        self.pos()
            .saturating_sub(self.stream_start)
            .saturating_add(partial)
    }

    /// Where the stream of the value being written starts in the file (see
    /// [`Writer::in_substream`]).
    #[inline]
    pub fn stream_start(&self) -> usize {
        self.stream_start
    }

    /// Writes a value of a substream (`size` on a user type) that starts here: the positions
    /// of the values it reads by position in its own stream count from here.
    pub fn in_substream(&mut self, write: impl FnOnce(&mut Self) -> Result<()>) -> Result<()> {
        let start = self.pos();
        let outer = std::mem::replace(&mut self.stream_start, start);
        let bounded = std::mem::replace(&mut self.relocation.bounded, true);
        let written = write(self);
        self.stream_start = outer;
        self.relocation.bounded = bounded;
        written
    }

    /// Writes a value of an imported schema's root type: inside it, that schema's `_root._io`
    /// is the stream the value is written in (see [`crate::Reader::in_file_root`]).
    pub fn in_file_root(&mut self, write: impl FnOnce(&mut Self) -> Result<()>) -> Result<()> {
        let outer = self.file_root_start.replace(self.stream_start);
        let bounded = std::mem::replace(&mut self.relocation.bounded, true);
        let written = write(self);
        self.file_root_start = outer;
        self.relocation.bounded = bounded;
        written
    }

    /// Where `_root._io` starts when it is an imported schema's root stream.
    pub(crate) fn file_root_start(&self) -> Option<usize> {
        self.file_root_start
    }

    /// An empty writer for data that is processed (compressed, decoded…) before it lands in
    /// the file: values it places in its own stream are laid over its bytes, those it places
    /// in the whole file are taken over by the file's writer ([`Writer::adopt_placed`]).
    pub fn decoded() -> Self {
        Writer {
            detached: true,
            ..Writer::default()
        }
    }

    /// An empty writer for a block placed at `at` of this writer's stream, which starts at
    /// `stream_start`, so that the offsets of its errors are positions in that stream.
    pub(crate) fn block(&self, at: usize, stream_start: usize) -> Self {
        Writer {
            base: at,
            stream_start,
            detached: self.detached,
            file_root_start: self.file_root_start,
            for_coverage: self.for_coverage,
            recomputes_checksums: self.recomputes_checksums,
            relocation: self.relocation.nested(self.relocation.bounded),
            ..Writer::default()
        }
    }

    /// An empty writer for a block placed at `at` of the whole file.
    pub(crate) fn file_block(&self, at: usize) -> Self {
        Writer {
            base: at,
            for_coverage: self.for_coverage,
            recomputes_checksums: self.recomputes_checksums,
            relocation: self.relocation.nested(false),
            ..Writer::default()
        }
    }

    /// Appends bytes.
    #[inline]
    pub fn bytes(&mut self, b: &[u8]) {
        self.buf.extend_from_slice(b);
    }

    /// Appends `n` copies of `byte`.
    #[inline]
    pub fn fill(&mut self, byte: u8, n: usize) {
        self.buf.resize(self.buf.len() + n, byte);
    }

    /// The bytes written: the sequential bytes with every placed block laid over them. Refused
    /// where a block disagrees with the sequential bytes it overlaps, or where bytes before the
    /// end would be left unwritten (they would read back as zeros no value holds).
    pub fn into_bytes(mut self) -> Result<Vec<u8>> {
        // Bits that end the content without filling their byte: the rest of it is zeros.
        self.flush_bits();
        if self.placed.is_empty() {
            return Ok(self.buf);
        }
        let mut canvas = self.placed;
        canvas.paint(self.base, self.buf, "the sequential content")?;
        if matches!(self.relocation.mode, relocation::Mode::Moving(_)) {
            canvas.fill_holes()?;
        }
        canvas.into_bytes()
    }

    /// Appends the bytes a decoded value's stream holds after the value (`rt::Decoded::rest`),
    /// after completing a partly written byte: they are where the reader found them.
    pub fn end_with(&mut self, rest: &[u8]) {
        self.flush_bits();
        self.bytes(rest);
    }

    /// Places `block`, written by `field`, at absolute position `at`, with the blocks placed
    /// while producing it. Refused where it disagrees with bytes already written or placed.
    pub fn place(&mut self, at: usize, field: &'static str, mut block: Writer) -> Result<()> {
        let end = at.saturating_add(block.buf.len());
        let from = at.max(self.base);
        let to = end.min(self.pos());
        if from < to && self.buf[from - self.base..to - self.base] != block.buf[from - at..to - at]
        {
            return Err(Error::new(
                at as u64,
                ErrorKind::Encode(format!(
                    "`{field}` at {:?} overlaps the sequential content at {:?} with other bytes",
                    at..end,
                    self.base..self.pos()
                )),
            ));
        }
        self.placed
            .paint(at, std::mem::take(&mut block.buf), field)?;
        self.adopt_nested(block)
    }

    /// Takes over what `block` placed while it was written, and what it noted.
    fn adopt_nested(&mut self, block: Writer) -> Result<()> {
        self.checksum_disagreements
            .extend(block.checksum_disagreements);
        self.relocation.adopt(block.relocation);
        self.placed.merge(block.placed)?;
        self.place_in_file_canvas(block.file_blocks)
    }

    /// Places `block` (a [`Writer::file_block`]) at absolute position `at` of the whole file:
    /// in this writer's own bytes when it writes the file, aside when it is detached.
    pub(crate) fn place_in_file(
        &mut self,
        at: usize,
        field: &'static str,
        block: Writer,
    ) -> Result<()> {
        if !self.detached {
            return self.place(at, field, block);
        }
        self.checksum_disagreements
            .extend(block.checksum_disagreements);
        self.file_blocks.paint(at, block.buf, field)?;
        self.file_blocks.merge(block.placed)
    }

    /// Places the blocks of a canvas of the whole file.
    fn place_in_file_canvas(&mut self, blocks: Canvas) -> Result<()> {
        match self.detached {
            true => self.file_blocks.merge(blocks),
            false => self.placed.merge(blocks),
        }
    }

    /// Takes over the blocks `other` placed in the whole file (`io: _root._io`): `other`
    /// ([`Writer::decoded`]) writes data that is processed before it lands in the file.
    pub fn adopt_placed(&mut self, other: &mut Writer) -> Result<()> {
        self.place_in_file_canvas(std::mem::take(&mut other.file_blocks))
    }

    /// The byte ranges the output will cover: the sequential bytes and every placed block,
    /// sorted and merged.
    pub fn coverage(&self) -> Vec<std::ops::Range<usize>> {
        let mut ranges = self.placed.coverage();
        ranges.push(self.base..self.pos());
        crate::canvas::merge_ranges(ranges)
    }

    /// The bytes written so far.
    pub fn as_slice(&self) -> &[u8] {
        &self.buf
    }

    /// The bytes written since position `pos` (a value of [`Writer::pos`]).
    pub fn written_since(&self, pos: usize) -> &[u8] {
        let start = pos.saturating_sub(self.base);
        self.buf.get(start..).unwrap_or_default()
    }

    /// Mutable access to the reserved tail, for bulk element encoding: grows by n zero bytes and returns them.
    #[inline]
    pub fn reserve_slice(&mut self, n: usize) -> &mut [u8] {
        let start = self.buf.len();
        self.buf.resize(start + n, 0);
        self.buf.get_mut(start..).unwrap_or_default()
    }

    /// Overwrites bytes already written at `at` (for back-patching); Encode error if out of range.
    pub fn patch(&mut self, at: usize, b: &[u8]) -> Result<()> {
        let len = self.buf.len();
        match at
            .checked_add(b.len())
            .and_then(|end| self.buf.get_mut(at..end))
        {
            Some(dst) => {
                dst.copy_from_slice(b);
                Ok(())
            }
            None => Err(patch_error(at, b.len(), len)),
        }
    }

    /// Writes one byte.
    #[inline]
    pub fn write_u8(&mut self, v: u8) {
        self.buf.push(v);
    }

    /// Writes one signed byte.
    #[inline]
    pub fn write_i8(&mut self, v: i8) {
        self.buf.push(v as u8);
    }

    write_primitives! {
        write_u16_le => u16, to_le_bytes;
        write_u16_be => u16, to_be_bytes;
        write_i16_le => i16, to_le_bytes;
        write_i16_be => i16, to_be_bytes;
        write_u32_le => u32, to_le_bytes;
        write_u32_be => u32, to_be_bytes;
        write_i32_le => i32, to_le_bytes;
        write_i32_be => i32, to_be_bytes;
        write_u64_le => u64, to_le_bytes;
        write_u64_be => u64, to_be_bytes;
        write_i64_le => i64, to_le_bytes;
        write_i64_be => i64, to_be_bytes;
        write_f32_le => f32, to_le_bytes;
        write_f32_be => f32, to_be_bytes;
        write_f64_le => f64, to_le_bytes;
        write_f64_be => f64, to_be_bytes;
    }

    /// Writes a .NET BinaryWriter 7-bit encoded length (1 to 5 bytes).
    pub fn write_7bit_u32(&mut self, mut v: u32) {
        while v >= 0x80 {
            self.buf.push((v as u8) | 0x80);
            v >>= 7;
        }
        self.buf.push(v as u8);
    }
}

#[cold]
#[inline(never)]
fn patch_error(at: usize, n: usize, len: usize) -> Error {
    Error::new(
        at as u64,
        ErrorKind::Encode(format!(
            "cannot patch {n} bytes at {at}: only {len} bytes have been written"
        )),
    )
}
