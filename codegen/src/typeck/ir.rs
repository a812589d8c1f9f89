//! The typed IR: every expression the generator renders, compiled by the checker in the
//! scope where it runs, inside the structure that decides how it is used.
//!
//! The generator walks the model and this IR side by side (one [`TypeIr`] per type, one
//! [`FieldIr`] per field, one [`Arm`] per arm of a switch, in the model's order) and takes
//! every decision that involves an expression from here. It never compiles an expression, so
//! it cannot fail, and it cannot disagree with the checker: a writer check the checker could
//! not compile is [`Writer::FromStream`] here, and that same fact makes the codec read its
//! output back ([`Ir::verify_writes`]).

use proc_macro2::{Ident, TokenStream};

use super::expr::Ty;
use crate::model::{FieldType, Fixed, IntType, Scalar};

/// Rust for one expression, compiled by the checker.
pub type Rust = TokenStream;

/// What the checker decided for a whole schema.
pub struct Ir {
    /// One per type of the model, in order.
    pub types: Vec<TypeIr>,
    /// Some check a reader relies on needs the input stream, which a writer does not have:
    /// the codec reads its output back.
    pub verify_writes: bool,
    /// The root's parameters' defaults, as arguments, when every parameter has one: the root
    /// then has a whole-file codec.
    pub root_defaults: Option<Vec<Rust>>,
    /// One per [`crate::model::Schema::rooted`], in order: the value the root computes for
    /// every value of the field's type.
    pub rooted: Vec<Derivation>,
}

/// What the checker decided for one type.
pub struct TypeIr {
    /// One per field, in order.
    pub fields: Vec<FieldIr>,
    /// The values (`i64`) of the type's look-ahead instances, in order.
    pub look_aheads: Vec<Rust>,
    /// The `meta/endian` switch as the reader computes it (nothing read yet).
    pub read_order: Option<ByteOrder>,
    /// The `meta/endian` switch as the writer computes it.
    pub write_order: Option<ByteOrder>,
    /// `to-string`: a text expression.
    pub to_string: Option<Rust>,
    /// One per instance, in order: its method, when it gets one.
    pub methods: Vec<Option<Method>>,
    /// One per [`crate::model::TypeDef::derived_members`], in order: the value it should have,
    /// computed from the finished value.
    pub derived_members: Vec<Derivation>,
}

/// The value a derived field should have, computed from the finished value.
#[derive(Debug, Clone, Default)]
pub struct Derivation {
    /// An `i64`; when [`Derivation::can_fail`], an `rt::Result<i64>`.
    pub value: Rust,
    /// It can have no value (`inflated(…)` of bytes that are no deflate stream): `check()`
    /// then compares nothing, `normalize()` refuses with the error.
    pub can_fail: bool,
}

/// The method of a value instance, computed from the finished value.
#[derive(Debug, Clone)]
pub struct Method {
    /// The value's expression.
    pub body: Rust,
    /// Its type.
    pub ty: Ty,
    /// The expression can fail (`to_i` of text that is no number): the method returns a
    /// `Result`, the body's `?` its failure.
    pub can_fail: bool,
}

/// A `meta/endian` switch: each case's test (a `bool`) and whether it means big-endian, then
/// what holds when none matches.
pub struct ByteOrder {
    /// The cases in order.
    pub cases: Vec<(Rust, bool)>,
    /// The `_` case, or the selector to report when there is none.
    pub otherwise: Otherwise,
}

/// What a `meta/endian` switch does when no case matches.
pub enum Otherwise {
    /// The `_` case: whether it means big-endian.
    Default(bool),
    /// No `_` case: the selector's value, for the error.
    Refuse(Rust),
}

/// What the checker decided for one field.
pub struct FieldIr {
    /// How it is read.
    pub read: ReadField,
    /// How it is read once more, for a field read later (see
    /// [`crate::model::Field::read_later`]).
    pub read_again: Option<ReadField>,
    /// How it is written.
    pub write: WriteField,
    /// `-derived`: the value it should have, computed from the finished value.
    pub derived: Option<Derivation>,
    /// Of padding that follows a derived field ([`crate::model::Field::padding`]): the size
    /// it should have, computed from the finished value (`i64`).
    pub padding: Option<Rust>,
    /// Of a value read from a slot ([`crate::model::Schema::slot_path`]): how `normalize()`
    /// writes it back into the slot.
    pub slot: Option<SlotWrite>,
    /// Of a value read at a position counted from the end of the file: how `normalize()`
    /// writes it back into the file's unclaimed bytes.
    pub end: Option<EndWrite>,
    /// Of a field of a user type with kept parameters ([`crate::model::Param::kept`]): each
    /// one's index among the type's parameters, and the argument the field passes it,
    /// computed from the finished value (an element's `_index` is `index`): `check()` compares
    /// the values' kept arguments with them, `normalize()` sets them.
    pub kept_args: Vec<(usize, Rust)>,
}

/// How a value read from a slot is written back into it.
pub struct SlotWrite {
    /// The fields to the slot, from the value's holder, and whether each may be absent.
    pub path: Vec<(String, bool)>,
    /// Its position in the slot's stream (`i64`), computed from the finished value.
    pub pos: Rust,
    /// How it is written on its own.
    pub written: Box<WrittenField>,
}

/// How a value read at a position counted from the end of the file (`pos: _io.size - 769`),
/// which no field writes, is written back into the file's unclaimed bytes that hold it.
pub struct EndWrite {
    /// How far from the end it starts.
    pub from_end: u64,
    /// How it is written on its own.
    pub written: Box<WrittenField>,
}

/// The stages that compile a field's expressions: the reader has the stream, the writer may
/// not be able to evaluate some checks.
pub trait Stage: Clone {
    /// A check the stage evaluates.
    type Check: Clone;
    /// The value of a `-remember`ed integer.
    type Remembered: Clone;
}

/// Reading: every expression is evaluated.
#[derive(Clone)]
pub struct Reading;

/// Writing: a check that needs the input stream is [`Writer::FromStream`].
#[derive(Clone)]
pub struct Writing;

impl Stage for Reading {
    type Check = Rust;
    type Remembered = Rust;
}

impl Stage for Writing {
    type Check = Writer;
    type Remembered = ();
}

/// A check as the writer compiles it.
#[derive(Clone)]
pub enum Writer<T = Rust> {
    /// The writer evaluates it.
    Computed(T),
    /// It needs the input stream: the writer leaves it out and the codec reads its output
    /// back.
    FromStream,
}

impl<T> Writer<T> {
    /// The compiled check, when the writer has it.
    pub fn computed(&self) -> Option<&T> {
        match self {
            Writer::Computed(rust) => Some(rust),
            Writer::FromStream => None,
        }
    }
}

/// How a field is read.
pub struct ReadField {
    /// `if`: a `bool`.
    pub cond: Option<Rust>,
    /// `pos` and `io`.
    pub position: Option<Position>,
    /// For a `-remember`ed integer solved by reading the rest: the value it must have.
    pub solved: Option<Rust>,
    /// The `valid` rules: whether each holds for `item`.
    pub valid: Vec<Rust>,
    /// The values.
    pub values: Values<Reading>,
    /// An expression of the read can fail (`to_i`): its `?` returns the failure.
    pub can_fail: bool,
}

/// Where a field read by position is read.
pub struct Position {
    /// `pos`: an `i64`.
    pub pos: Rust,
    /// `io`.
    pub stream: PositionStream,
}

/// The stream a field is read from by position.
pub enum PositionStream {
    /// The type's own stream.
    Own,
    /// The type's own stream, the field never placed back (kept as read).
    Kept,
    /// The whole file.
    Root,
    /// Another value's stream: a `&rt::Stream`.
    Of(Rust),
}

/// How a field is written.
pub enum WriteField {
    /// Never written: its bytes belong to another value's stream, or its position needs the
    /// input stream.
    ReadOnly,
    /// Written.
    Written(Box<WrittenField>),
}

/// How a field that is written is written.
pub struct WrittenField {
    /// `pos`: an `i64`.
    pub pos: Option<Rust>,
    /// `io: _root._io`: `pos` is a position in the whole file, not in the type's own stream
    /// (which may be a substream).
    pub pos_in_file: bool,
    /// A block whose offset follows where it is placed (see
    /// [`crate::model::Field::relocation`]): the offset field, the unit it counts in, and
    /// whether it follows the sequential bytes it is read again from
    /// ([`crate::model::Relocation::follows`]).
    pub relocation: Option<(String, u64, bool)>,
    /// The unit of the offset this field stores for such a block: written where the plan
    /// places the block.
    pub offset_unit: Option<u64>,
    /// `if`: a `bool`.
    pub cond: Option<Writer>,
    /// The `valid` rules: whether each holds for `item`.
    pub valid: Writer<Vec<Rust>>,
    /// The values.
    pub values: Values<Writing>,
    /// An expression of the write can fail (`to_i`): its `?` returns the failure.
    pub can_fail: bool,
}

/// The values of a field: one list (or one value), a switch of them, or a list of switches.
pub enum Values<S: Stage> {
    /// A field of one type.
    One(List<S>),
    /// A switch: one case for the field's value, or for its whole list.
    Switch(Switch<S>),
    /// A repeated switch whose elements each choose their case (see
    /// [`crate::model::Field::switches_per_element`]): the selector is computed for each
    /// element, and each case's list is [`Repeat::One`].
    Elements(Elements<S>),
}

/// A list whose elements each choose their case of a switch.
pub struct Elements<S: Stage> {
    /// What ends the list.
    pub repeat: Repeat<S>,
    /// The switch of one element, its selector and cases compiled in the element's scope
    /// (`_index`, the `_` of a `-for-each`).
    pub switch: Switch<S>,
}

/// A switch field.
pub struct Switch<S: Stage> {
    /// The selector (a byte slice for text and bytes).
    pub selector: S::Check,
    /// The selector is text: shown as such in errors.
    pub text: bool,
    /// The case keys as written, for the error when none matches.
    pub expected: String,
    /// One per variant of the switch's enum (see [`crate::model::switch_variants`]), in order.
    pub cases: Vec<Case<S>>,
    /// The arms in order, the default last.
    pub arms: Vec<Arm<S>>,
}

/// One arm of a switch.
pub struct Arm<S: Stage> {
    /// The match pattern of the case key; `None` for the default.
    pub pattern: Option<Rust>,
    /// The variant it reads into.
    pub case: Case<S>,
}

/// One variant of a switch's enum, and how its values are read or written.
#[derive(Clone)]
pub struct Case<S: Stage> {
    /// The variant's Rust name.
    pub ident: Ident,
    /// Its name in documents and paths.
    pub name: String,
    /// The type of its values.
    pub ty: FieldType,
    /// Its values.
    pub list: List<S>,
}

/// A list of values of one type (or one value), with what ends it.
#[derive(Clone)]
pub struct List<S: Stage> {
    /// What ends the list.
    pub repeat: Repeat<S>,
    /// One value.
    pub one: One<S>,
}

/// What ends a list.
#[derive(Clone)]
pub enum Repeat<S: Stage> {
    /// One value, no list.
    One,
    /// `repeat-expr`: the count, an `i64`.
    Times(S::Check),
    /// `repeat: eos`.
    Eos,
    /// `-for-each`: the list followed, whose element each value sees as `_` (`each`).
    Each(Rust),
    /// `repeat-until`: whether `item`, at `_index`, is the last (a `bool`).
    Until(S::Check),
}

/// One value of a field: the bytes it is delimited by, and what it is.
#[derive(Clone)]
pub struct One<S: Stage> {
    /// The substream `size` delimits, when the value has one.
    pub substream: Option<Size<S>>,
    /// How it is decoded from its stored bytes (`process`, framing).
    pub decode: Option<Decode<S>>,
    /// What it is.
    pub value: Value<S>,
}

/// A value decoded from the bytes it is stored in.
#[derive(Clone)]
pub struct Decode<S: Stage> {
    /// How it is stored, as the schema says.
    pub spec: crate::model::Decode,
    /// The stored bytes' size.
    pub size: Size<S>,
    /// The processor, an `impl rt::process::Process` expression.
    pub processor: S::Check,
}

/// A size.
#[derive(Clone)]
pub enum Size<S: Stage> {
    /// A constant.
    Const(usize),
    /// An `i64` expression; `from_stream` when it reads `_io` (computed before the reader is
    /// lent).
    Computed {
        /// The size.
        len: S::Check,
        /// It reads the stream.
        from_stream: bool,
    },
    /// To the end of the stream.
    Eos,
    /// Up to a terminator byte.
    Terminator {
        /// The terminator.
        byte: u8,
        /// The terminator is part of the value.
        include: bool,
        /// The terminator is consumed.
        consume: bool,
        /// A missing terminator is an error.
        eos_error: bool,
    },
}

/// What one value is: the field kinds, with their expressions compiled.
#[derive(Clone)]
pub enum Value<S: Stage> {
    /// A number.
    Number(Scalar),
    /// An integer of `width` bits, possibly an enum's.
    Bits {
        /// The width.
        width: u8,
        /// Big-endian bit order.
        big_endian: bool,
        /// The enum.
        enum_idx: Option<usize>,
    },
    /// Alignment to the next byte after bit fields.
    BitPadding,
    /// A variable-length integer.
    Vlq,
    /// An enum value stored as an integer.
    Enum {
        /// The enum.
        enum_idx: usize,
        /// The stored integer.
        raw: IntType,
    },
    /// A value of a fixed layout: quaternions, vectors, fixed-size arrays.
    Fixed(Fixed),
    /// Text of a constant size, unaligned.
    FixedStr(usize),
    /// Text.
    Str {
        /// Its size.
        size: Size<S>,
        /// The unit its size is padded to.
        align: usize,
        /// Ends at a terminator within its size.
        terminated: bool,
    },
    /// Raw bytes.
    Bytes {
        /// Their size.
        size: Size<S>,
        /// The unit their size is padded to.
        align: usize,
    },
    /// An integer computed while reading, not stored in the file.
    Remembered {
        /// Its Rust type.
        int: IntType,
        /// Its value.
        value: S::Remembered,
    },
    /// Fixed bytes.
    Contents(Vec<u8>),
    /// A value of a user type, read with arguments.
    User {
        /// The type.
        ty: usize,
        /// The arguments.
        args: Vec<Rust>,
    },
    /// No bytes.
    Nothing,
}
