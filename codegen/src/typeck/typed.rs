//! The typed expression tree: a schema expression with its operators, literals, enum values,
//! sizes, methods and places (fields, parameters, instances, elements, streams) decided once,
//! every node carrying its type, for every back end to render.
//!
//! It holds no Rust: the generator renders it (`expr::render`), and a back end decides
//! nothing about an expression that the tree has not decided.

use skelcodec_runtime::__private::messages::Kind;
use skelcodec_runtime::encoding::Encoding;

use crate::expr::BinOp;

/// An expression, typed: what it computes and how.
#[derive(Debug, Clone)]
pub struct Typed {
    /// The type of its value.
    pub ty: Ty,
    /// Computing it can fail (`to_i` of text that is no number, `inflated(…)` of bytes that
    /// are no deflate stream), here or in a node below.
    pub can_fail: bool,
    /// What it computes.
    pub node: Node,
}

/// One node of a [`Typed`] tree.
#[derive(Debug, Clone)]
pub enum Node {
    /// An integer (`i64`; a literal beyond `i64::MAX` that fits 64 bits takes its bits).
    Int(i64),
    /// A float.
    Float(f64),
    /// A boolean.
    Bool(bool),
    /// A string literal.
    Text(String),
    /// Value `variant` (an index into its variants) of the schema's enum `enum_index`, as
    /// the scope it is written in names it (see `Schema::resolve_enum_value`).
    EnumValue { enum_index: usize, variant: usize },
    /// `not` of a boolean.
    Not(Box<Typed>),
    /// `-` of a number of the node's type.
    Negate(Box<Typed>),
    /// `~` of an integer.
    BitNot(Box<Typed>),
    /// `and` (`true`) or `or` (`false`) of two booleans.
    Logic {
        and: bool,
        a: Box<Typed>,
        b: Box<Typed>,
    },
    /// An arithmetic or bitwise operator on two numbers of the node's type: an integer an
    /// operation on floats takes is a [`Node::ToFloat`].
    Arithmetic(BinOp, Box<Typed>, Box<Typed>),
    /// An integer taken as a float.
    ToFloat(Box<Typed>),
    /// Two strings joined.
    Concat(Box<Typed>, Box<Typed>),
    /// A comparison of `a` and `b`, as [`Comparison`] says (the operator is the one that holds
    /// with the operands in this order).
    Compare {
        op: BinOp,
        how: Comparison,
        a: Box<Typed>,
        b: Box<Typed>,
    },
    /// `cond ? a : b`, the branches of the node's type or, for a structure, one of them that
    /// structure and the other one that may be absent.
    Choose {
        cond: Box<Typed>,
        a: Box<Typed>,
        b: Box<Typed>,
    },
    /// A number that may be absent, as 0 when it is.
    AbsentAsZero(Box<Typed>),
    /// A list literal; a byte-array literal among a list literal of byte arrays is a list
    /// literal of integers.
    List(Vec<Typed>),
    /// One of the functions of `-derived` expressions, of bytes.
    Call(Function, Box<Typed>),
    /// `list.sum(body)`: `body`, an integer, computed for each element of the list (`_`
    /// there, a [`Node::Element`]), added up.
    Sum { list: Box<Typed>, body: Box<Typed> },
    /// `f"…"`: the parts joined, integers in decimal.
    Format(Vec<Typed>),
    /// `text.to_i(radix)`: the number the text spells, which fails for text that spells none.
    ParseInt { text: Box<Typed>, radix: Box<Typed> },
    /// `text.substring(from, to)`.
    Substring {
        text: Box<Typed>,
        from: Box<Typed>,
        to: Box<Typed>,
    },
    /// `bytes.to_s(encoding)` of bytes or of a list literal of integers: decoded, or, where
    /// `decode` is `None` (UTF-8 and ASCII), the text is its bytes as skelcodec keeps them.
    ToText {
        bytes: Box<Typed>,
        decode: Option<Encoding>,
    },
    /// A property computed from a value (`text.length`, `n.to_s`, `list.max`).
    Property(Property, Box<Typed>),
    /// `_index`: the position of the element in scope of a repeated field.
    Index,
    /// `_`: the element in scope (of `repeat-until`, of the list a `-for-each` field follows,
    /// or of `sum`).
    Element,
    /// Field `index` of type `ty`: of the structure `of`, a value of that type, or of the
    /// structure in scope (where the scope is inside one element of the field, the elements
    /// read so far: `groups[_index - 1]`).
    Field {
        of: Option<Box<Typed>>,
        ty: usize,
        index: usize,
    },
    /// Parameter `index` of type `ty`: of the structure in scope while it is read or written
    /// (an argument), or a kept one (see `Param::kept`) of the structure `of` or of the
    /// finished structure in scope.
    Param {
        of: Option<Box<Typed>>,
        ty: usize,
        index: usize,
    },
    /// An element of the list `list` (a byte of a byte array): out of range, a number reads
    /// as 0, a boolean as false, and anything else is absent.
    Item { list: Box<Typed>, at: Position },
    /// Value instance `index` of type `ty`, of the structure `of` or of the structure in
    /// scope: its `value`, resolved inside that structure (an instance is computed where it
    /// is used).
    Instance {
        of: Option<Box<Typed>>,
        ty: usize,
        index: usize,
        value: Box<Typed>,
    },
    /// A number converted (`.as<u4>`, `.as<f4>`): a float to an integer towards zero, a
    /// number to a float of the width asked for.
    Convert { value: Box<Typed>, to: Numeric },
    /// A structure of any type (a `struct` parameter) as one of type `ty`: absent when it is
    /// of another.
    Downcast { value: Box<Typed>, ty: usize },
    /// Look-ahead instance `index` of type `ty`, an integer read at a position: kept in the
    /// structure `of` or in the finished structure in scope, or, where `read` is given, read
    /// while the structure in scope is read (the first time it is needed, as Kaitai does).
    LookAhead {
        of: Option<Box<Typed>>,
        ty: usize,
        index: usize,
        read: Option<LookAheadRead>,
    },
    /// A list literal of integers taken as bytes (a value instance `[0x41, 0x42]`).
    IntsAsBytes(Box<Typed>),
    /// An integer as a value of the enum `enum_index`.
    AsEnum {
        enum_index: usize,
        value: Box<Typed>,
    },
    /// `value` where `cond` holds; where it does not, absent, or for a number, boolean or enum
    /// value, what an absent one reads as (0, false, the enum's value 0).
    OnlyIf { cond: Box<Typed>, value: Box<Typed> },
    /// `then`, computed from the value of `value` where it is present (`value` may be
    /// absent): absent where it is not, or what an absent value reads as (0, false, no
    /// stream).
    WhenPresent { value: Box<Typed>, then: Box<Typed> },
    /// `present(value)`: whether `value`, which may be absent, is present.
    IsPresent(Box<Typed>),
    /// The case `variant` (an index into the switch's variants) of `value`, the value of the
    /// switch field `field` (type and index; not a list one case holds whole): `value.as<T>`
    /// of a switch, or a switch of one case that is a structure, taken as that case. Absent
    /// where the value holds another case.
    Case {
        value: Box<Typed>,
        field: (usize, usize),
        variant: usize,
    },
    /// `value is case`: whether `value`, the value (which may be absent) of the switch field
    /// `field` (type and index; not repeated), holds its case `variant` (an index into the
    /// switch's variants, see `model::switch_variants`).
    Holds {
        value: Box<Typed>,
        field: (usize, usize),
        variant: usize,
    },
    /// The value of the [`Node::WhenPresent`] this node is the `then` of, present. `field`:
    /// where it is a stored value, the field (type and index) it is, or is an element of.
    Present { field: Option<(usize, usize)> },
    /// `_io` of the structure `of`, which keeps it, or of the structure in scope: the stream
    /// it is read from (none while writing).
    Stream { of: Option<Box<Typed>> },
    /// A property of the stream `of`, or of the stream of the structure in scope.
    StreamProperty {
        of: Option<Box<Typed>>,
        property: StreamProperty,
    },
    /// A parameter of a value reached through another value, which does not keep it (see
    /// `Param::kept`): the argument `value` it was read with, resolved where it was given, as
    /// `of` says, or, for the structure in scope (whose names are another value's), where
    /// that structure's arguments were given.
    Argument {
        of: Option<Given>,
        value: Box<Typed>,
    },
    /// `value`, resolved in the scope the whole expression is written in, from inside another
    /// value reached from there (a value of a root type that holds itself, reached from the
    /// file's root: its `_root` is that root).
    AtHome(Box<Typed>),
    /// Whether the byte order a `meta/endian` switch chose is big-endian.
    BigEndian,
    /// `_sizeof` of the value `of`, a stored value or a structure (0 where it is absent), or
    /// of the structure in scope: the bytes it is written as (a root's without the bytes a
    /// file has after its value; a decoded value's as stored, before decoding).
    SizeOf { of: Option<Box<Typed>> },
}

/// How a value is held, which decides what a step inside it gives where it is absent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Held {
    /// It may be absent (a conditional field, an element past the end of its list).
    pub may_be_absent: bool,
    /// It is a stored value (a field's or an element's), not one an expression computes.
    pub stored: bool,
}

/// Where the arguments of a value were given: by `site`, a field of the structure `holder`
/// or, where it is `None`, of the structure in scope; resolved inside that structure, one
/// level deeper.
#[derive(Debug, Clone)]
pub struct Given {
    /// The structure holding the field.
    pub holder: Option<Box<Typed>>,
    /// The field, and its case.
    pub site: Site,
}

/// The field (and for a switch field, the case) a value was read as, whose arguments it was
/// given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Site {
    /// The type holding the field.
    pub ty: usize,
    /// The field's index there.
    pub field: usize,
    /// For a switch field, the variant the value is (see `model::switch_variants`).
    pub case: Option<usize>,
}

/// Where a look-ahead is read, and when: resolved inside its structure.
#[derive(Debug, Clone)]
pub struct LookAheadRead {
    /// The position, an integer.
    pub pos: Box<Typed>,
    /// Its `if`: where it does not hold, nothing is read and the value is absent.
    pub cond: Option<Box<Typed>>,
}

/// What a [`Node::Convert`] converts to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Numeric {
    /// An integer (`i64`).
    Int,
    /// A 32-bit float, held as `f64`.
    F4,
    /// A 64-bit float.
    F8,
}

/// Which element of a list an [`Node::Item`] is.
#[derive(Debug, Clone)]
pub enum Position {
    /// `list[at]`.
    At(Box<Typed>),
    /// `list.first`.
    First,
    /// `list.last`.
    Last,
}

/// A property of a stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StreamProperty {
    /// `pos`: where it stands (a writer's own position where it writes what a reader reads).
    Pos,
    /// `size`: how many bytes it has.
    Size,
    /// `eof`: whether it stands at its end.
    Eof,
}

/// Where an expression runs, which decides what names mean.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// In a reader: only the fields read so far exist, `_io` is the stream being read.
    Read,
    /// In a writer: every field exists, parameters are arguments, no stream is read.
    Write,
    /// In `check`, `normalize` and value instances: the finished value, without parameters.
    Inspect,
}

/// A property computed from the value of a string, byte array, list or number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Property {
    /// `length` of a string or byte array, `size` of a byte array or a list: its length.
    Length,
    /// `to_s` of an integer: its decimal digits.
    Decimal,
    /// `to_i` of a float (towards zero), an enum value (its number) or a boolean (0 or 1).
    ToInt,
    /// `reverse` of a string.
    Reverse,
    /// `min` of a list or byte array: its least element, or 0 (an empty string) when empty.
    Min,
    /// `max` of a list or byte array: its greatest element, or 0 (an empty string) when empty.
    Max,
}

/// How two values compare.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Comparison {
    /// Numbers (an integer and a float as floats), booleans or values of one enum.
    Scalars,
    /// Strings or byte arrays, byte by byte.
    Bytes,
    /// The left value may be absent, or both may be (`both`): an absent value equals
    /// nothing, present ones compare as `present` says.
    MayBeAbsent {
        both: bool,
        present: Box<Comparison>,
    },
    /// A byte array ordered against a list literal of integers, taken as bytes.
    BytesWithIntLiteral,
    /// `==` or `!=` of a byte array or a list of integers with a list literal of integers.
    IntsMatch,
    /// `==` or `!=` of a list of strings with a list literal of strings.
    TextsMatch,
}

/// The functions of `-derived` expressions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Function {
    /// `crc32(bytes)`: an integer.
    Crc32,
    /// `adler32(bytes)`: an integer.
    Adler32,
    /// `inflated(bytes)`: the bytes of a raw deflate stream, inflated; it fails for bytes that
    /// are no such stream.
    Inflated,
}

/// The type of a value in an expression.
#[derive(Debug, Clone, PartialEq)]
pub enum Ty {
    /// `i64`.
    Int,
    /// `f64`.
    Float,
    /// `bool`.
    Bool,
    /// A string value (compared through its text bytes).
    Str,
    /// A string literal.
    StrLit,
    /// Raw bytes.
    Bytes,
    /// An enum value.
    Enum(usize),
    /// A user-type value.
    User(usize),
    /// A list.
    Array(Box<Ty>),
    /// A list literal of integers or of strings (`[0x50, 0x4b]`, `["a", "b"]`).
    ListLit(Box<Ty>),
    /// A switch value (only its `_sizeof` is usable).
    Switch,
    /// A quaternion or vector.
    Composite,
    /// The reader stream.
    Io,
    /// A structure of any type (a `struct` parameter, `&dyn Any`): only `.as<T>` applies.
    AnyStruct,
    /// A value that may be absent (a conditional field that is not a number, an element past
    /// the end of its list): `Option` of the inner value. It equals nothing when absent.
    Opt(Box<Ty>),
}

impl Ty {
    /// Whether a value instance may have this type without a method of its own: a structure
    /// (or one that may be absent), which expressions reach by inlining the instance.
    pub fn is_inlined_structure(&self) -> bool {
        match self {
            Ty::User(_) => true,
            Ty::Opt(inner) => inner.is_inlined_structure(),
            _ => false,
        }
    }

    /// Whether a value instance may have this type, and so get a method of its own.
    pub fn is_instance_value(&self) -> bool {
        match self {
            Ty::Int | Ty::Float | Ty::Bool | Ty::Enum(_) | Ty::Str | Ty::StrLit | Ty::Bytes => true,
            Ty::Opt(inner) => inner.is_instance_value(),
            _ => false,
        }
    }

    /// A string, literal or not.
    pub fn is_text(&self) -> bool {
        matches!(self, Ty::Str | Ty::StrLit)
    }
}

/// Why an expression does not compile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExprError {
    /// The expression needs the input stream, which only a reader has.
    NeedsStream,
    /// A real mistake in the schema: Kaitai rejects it too.
    Invalid(String),
    /// Kaitai accepts it, skelcodec cannot compile it yet (a value only a finished tree has,
    /// a kind of value it has no Rust form for).
    Unsupported(String),
}

impl ExprError {
    /// The plain message.
    pub fn message(&self) -> String {
        match self {
            ExprError::NeedsStream => "`_io` is only available while reading".into(),
            ExprError::Invalid(m) | ExprError::Unsupported(m) => m.clone(),
        }
    }

    /// True when the schema itself is wrong, rather than beyond what skelcodec supports.
    pub fn is_schema_mistake(&self) -> bool {
        matches!(self, ExprError::Invalid(_))
    }
}

pub(crate) fn invalid<T>(message: impl Into<String>) -> Result<T, ExprError> {
    Err(ExprError::Invalid(message.into()))
}

/// What Kaitai accepts and skelcodec cannot compile yet (see [`ExprError::Unsupported`]).
pub(crate) fn unsupported<T>(message: impl Into<String>) -> Result<T, ExprError> {
    Err(ExprError::Unsupported(message.into()))
}

/// How a message names a value of type `ty` ("an integer", "a list").
pub(crate) fn describe(ty: &Ty) -> String {
    match ty {
        Ty::Int => Kind::Integer.to_string(),
        Ty::Float => Kind::Float.to_string(),
        Ty::Bool => Kind::Boolean.to_string(),
        Ty::Str | Ty::StrLit => Kind::String.to_string(),
        Ty::Bytes => Kind::Bytes.to_string(),
        Ty::Enum(_) => Kind::EnumValue.to_string(),
        Ty::User(_) => Kind::Structure.to_string(),
        Ty::Array(_) => Kind::List.to_string(),
        Ty::ListLit(_) => "a list literal".into(),
        Ty::Switch => "a switch value".into(),
        Ty::Composite => "a quaternion or vector".into(),
        Ty::AnyStruct => "a structure of any type (`struct`)".into(),
        Ty::Io => "the stream `_io`".into(),
        Ty::Opt(inner) => format!("{} that may be absent", describe(inner)),
    }
}
