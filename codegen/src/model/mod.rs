//! The checked schema model: every name is resolved to an index, every expression is parsed,
//! and every extension is turned into an explicit type. This module holds the data; the
//! analyses over it are in `fixed` (fixed layouts), `live` (the instances readers use),
//! `normalize` (what `normalize()` recomputes, in which order), `sizes` (sizes the schema
//! alone decides) and `structure` (how types hold each other).

mod cases;
mod fixed;
mod live;
mod normalize;
mod sizes;
mod slots;
mod structure;
mod written;

pub use self::cases::{Arm, SwitchVariants, Variant, switch_variants};
pub use self::fixed::{Fixed, FixedKind};
pub use self::live::{live_instances, names_read_and_written, names_used_beside, read_and_written};
pub use self::normalize::{NormalizePlan, PASSES, Step, TypePlan};
pub use self::sizes::NumberType;
pub use self::slots::SlotSpan;

use crate::error::YamlPath;
use crate::expr::Expr;

/// A whole schema.
#[derive(Debug, Clone)]
pub struct Schema {
    /// `meta/id`, the name of the root type (snake_case).
    pub id: String,
    /// `meta/title`.
    pub title: Option<String>,
    /// Magic byte strings for format detection (`meta/-magic`).
    pub magic: Vec<Vec<u8>>,
    /// File extensions (`meta/file-extension`), without dots.
    pub extensions: Vec<String>,
    /// All types; index 0 is the root.
    pub types: Vec<TypeDef>,
    /// All enums.
    pub enums: Vec<EnumDef>,
    /// `-layout` of the root: how blocks read by position are laid out again.
    pub layout: Option<Layout>,
    /// The files the schema imports, transitively (the generated code is rebuilt when they
    /// change).
    pub imported: Vec<std::path::PathBuf>,
    /// What the schema should write otherwise, located (see `lint`).
    pub warnings: Vec<crate::error::SchemaError>,
    /// Fields whose declared derivation uses `_root` (`_root.sections.sum(…)` in the end
    /// record of a ZIP): the root computes each once, and `normalize()` sets it in every value
    /// of its type (see [`RootedDerived`]).
    pub rooted: Vec<RootedDerived>,
}

/// A field of a type below the root whose declared `-derived` uses `_root`: the same value for
/// every value of the type, computed by the root (`check()` compares it in each, `normalize()`
/// sets it in each).
#[derive(Debug, Clone)]
pub struct RootedDerived {
    /// The type of the field.
    pub ty: usize,
    /// The field.
    pub field: usize,
    /// Its derivation, an integer in the root's scope (`_root.x` as `x`).
    pub derived: Expr,
    /// Where it is declared (its `-derived`).
    pub at: YamlPath,
}

/// `-layout`: the blocks read by position, laid out one after another after the root's
/// sequential fields. Their offsets are derived: `check()` compares them with this layout and
/// `normalize()` moves the blocks there.
#[derive(Debug, Clone)]
pub struct Layout {
    /// The blocks, as listed.
    pub blocks: Vec<LayoutBlock>,
    /// Keep the order of the stored offsets (true), or lay blocks out as listed.
    pub keep_stored_order: bool,
    /// Every block starts at a multiple of this.
    pub align: u64,
    /// Start where the first block is stored, when that lies after the root's fields.
    pub keep_stored_start: bool,
    /// Root fields (lists or conditional) emptied by a new layout.
    pub clears: Vec<usize>,
}

/// One entry of `-layout/blocks`: a field read by position, reached from the root.
#[derive(Debug, Clone)]
pub struct LayoutBlock {
    /// The fields passed through on the way, outermost first.
    pub through: Vec<LayoutStep>,
    /// The type that owns the block's field and its offset.
    pub owner: usize,
    /// The field read by position (one block, even when it is a list).
    pub field: usize,
    /// The integer field its `pos` names.
    pub offset_field: usize,
    /// `pos` is `offset_field * unit`.
    pub unit: u64,
}

/// A field passed through on the way to a block.
#[derive(Debug, Clone, Copy)]
pub struct LayoutStep {
    /// The type that owns the field.
    pub owner: usize,
    /// The field.
    pub field: usize,
}

/// The name of the field that keeps the bytes after the root's value: no schema name starts
/// with `_`.
pub const TRAILING: &str = "_trailing";

/// The name of the field that keeps the bytes of a substream its type does not read.
pub const UNREAD: &str = "_unread";

/// A user type (a struct in the generated code).
#[derive(Debug, Clone)]
pub struct TypeDef {
    /// The schema name (snake_case; the root's is `meta/id`), unique among its siblings.
    pub id: String,
    /// The type it is declared in (`None` for the root; the root for top-level `types`).
    pub parent: Option<usize>,
    /// The name of its Rust items, unique in the schema: the id, prefixed by the names of the
    /// types it is nested in below the top level (`outer_inner`).
    pub rust_name: String,
    /// Documentation.
    pub doc: Option<String>,
    /// Parameters the user of the type passes in.
    pub params: Vec<Param>,
    /// Attributes in file order.
    pub fields: Vec<Field>,
    /// Value instances.
    pub instances: Vec<Instance>,
    /// `to-string`: the text of a value, a string expression (its `Display`).
    pub to_string: Option<Expr>,
    /// `meta/endian` as a `switch-on`, in the type that declares it.
    pub endian_choice: Option<EndianChoice>,
    /// Values keep the stream they were read from, because an instance elsewhere reads from
    /// it (`io: field._io`).
    pub keeps_stream: bool,
    /// Read both in place and from substreams (`size`): its `_unread` bytes are those a
    /// substream holding it leaves, filled by the field that reads it so; read in place, it
    /// has none (what follows is another value's).
    pub unread_from_holder: bool,
    /// The root field inside which every value of the type is read, when there is one: there
    /// `_root.f.x` is passed down from `f`'s own `x` while `f` is still being read.
    pub root_place: Option<RootPlace>,
    /// Fields of the values it holds derived from its own content (`header.len_image =
    /// data._sizeof`): inferred where such a field's one use is a size or count in this type.
    pub derived_members: Vec<DerivedMember>,
    /// Where it is declared.
    pub at: YamlPath,
}

/// An integer field of a value held by a type, derived from the holder's content (see
/// [`TypeDef::derived_members`]): `check()` of the holder compares it, `normalize()` sets it.
#[derive(Debug, Clone)]
pub struct DerivedMember {
    /// The holder's field holding the value: a plain field of a user type.
    pub step: usize,
    /// The derived field of that value.
    pub field: usize,
    /// Its derivation, an integer in the holder's scope.
    pub derived: Expr,
    /// Where it comes from: inferred, or declared on the held value's field.
    pub origin: MemberOrigin,
}

/// Where a [`DerivedMember`] comes from.
#[derive(Debug, Clone)]
pub enum MemberOrigin {
    /// Inferred: the holder's field whose size or count it is.
    Inferred(Inferred),
    /// Declared on the held value's field with `_parent` (`-derived: crc32(_parent.body)`),
    /// at this place (its `-derived`).
    Declared(YamlPath),
}

/// When a field is read once more (see [`Field::read_later`]).
#[derive(Debug, Clone, PartialEq)]
pub struct ReadLater {
    /// The field after which it is read again.
    pub after: String,
    /// The parameters, as (type, parameter name), whose arguments use values read after it:
    /// empty the first time.
    pub empty_first: Vec<(usize, String)>,
}

/// Where within the root every value of a type is read (see [`TypeDef::root_place`]).
#[derive(Debug, Clone, PartialEq)]
pub enum RootPlace {
    /// The type is that of the root field named, and held nowhere else.
    Is(String),
    /// Every value of the type is held, at some depth, inside the root field named.
    Inside(String),
}

impl RootPlace {
    /// The root field's name.
    pub fn field(&self) -> &str {
        match self {
            RootPlace::Is(f) | RootPlace::Inside(f) => f,
        }
    }
}

/// The name of the implicit parameter holding `path`.
pub fn context_param_id(path: &[&str]) -> String {
    path.join("_")
}

/// A type parameter.
#[derive(Debug, Clone)]
pub struct Param {
    /// Name.
    pub id: String,
    /// Documentation.
    pub doc: Option<String>,
    /// Its type.
    pub ty: ParamType,
    /// `-default`: the value used when the root type is read without arguments.
    pub default: Option<Expr>,
    /// Kept in the value as a field, as read, because each element of a list gets its own
    /// argument (see `lower::kept_params`).
    pub kept: bool,
    /// Some value of the type is passed an argument only the input stream gives
    /// (`_root.ofs_footer`, an `_io.size - 8` of the root): writers do not know it, pass a
    /// placeholder, and leave out the checks that use it (see `lower::streams`).
    pub writers_lack: bool,
}

impl ParamType {
    /// True when a reader can keep an argument of this type to read later (a number, boolean,
    /// enum value or stream), as one that reads on demand does.
    pub fn is_kept_by_readers(self) -> bool {
        matches!(
            self,
            ParamType::Int(_) | ParamType::Bool | ParamType::Enum(_) | ParamType::Io
        )
    }

    /// True when a writer that lacks an argument of this type can pass a placeholder (a
    /// number, boolean, enum value, text or bytes; not a value it would read through).
    pub fn has_placeholder(self) -> bool {
        matches!(
            self,
            ParamType::Int(_)
                | ParamType::Bool
                | ParamType::Enum(_)
                | ParamType::Str
                | ParamType::Bytes
        )
    }
}

/// The types a parameter can have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamType {
    /// An integer.
    Int(IntType),
    /// A boolean.
    Bool,
    /// A value of an enum (index into [`Schema::enums`]).
    Enum(usize),
    /// A string's text (`str`).
    Str,
    /// A byte array (`bytes`).
    Bytes,
    /// A value of a user type, passed by reference.
    User(usize),
    /// A value of a user type that may be absent (`_parent.ext` of a conditional field),
    /// passed as an `Option` of a reference: only what uses it fails when it is absent.
    OptUser(usize),
    /// A list of integers (`u2[]`), passed as `i64`s.
    IntList,
    /// A list of values of a user type (`block[]`).
    UserList(usize),
    /// A stream (`_parent._io`), passed to read from it. A writer never reads from one: it
    /// passes an empty stream.
    Io,
    /// `struct`: a value of any user type, passed as `&dyn Any`; `.as<T>` takes it as one.
    AnyStruct,
    /// `struct[]`: values of any user types, passed as `&[&dyn Any]`.
    AnyStructList,
    /// `str[]`: the texts of strings, passed as `&[&[u8]]`.
    StrList,
    /// `io[]`: streams, passed as `&[&rt::Stream]`.
    IoList,
}

/// A checksum a field holds (`-derived: crc32(type, body)`): of the bytes the named fields of
/// its type are written as, one after another.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checksum {
    /// How it is computed.
    pub algorithm: ChecksumAlgorithm,
    /// The fields it covers, in order.
    pub over: Vec<String>,
}

/// The checksums a field can hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChecksumAlgorithm {
    /// CRC-32 (zlib, PNG, ZIP, gzip).
    Crc32,
    /// Adler-32 (zlib streams).
    Adler32,
}

impl ChecksumAlgorithm {
    /// Its name in schemas.
    pub fn name(self) -> &'static str {
        match self {
            ChecksumAlgorithm::Crc32 => "crc32",
            ChecksumAlgorithm::Adler32 => "adler32",
        }
    }
}

/// A derivation inferred from a plain schema: the later field that uses the derived one, and
/// as what (its `size`, or its `repeat-expr` count).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inferred {
    /// The field whose size or count the derived field gives.
    pub user: String,
    /// What the derived field is to it: `size` or `count`.
    pub role: &'static str,
}

/// The offset of a relocatable block (see [`Field::relocation`]): a plain integer field of the
/// same type, and the unit it counts in (`pos: sector * 512`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Relocation {
    /// The index of the offset field.
    pub offset: usize,
    /// Bytes per unit of the offset.
    pub unit: u64,
    /// Declared `-in-sequence` (see [`Field::in_sequence`]), and its type is read in sequence
    /// too: the block is bytes a sequential value holds, read again (a ZIP's local file section,
    /// which the central directory reads again at `ofs_local_header`). Where it no longer fits
    /// its offset, the offset follows those bytes: to the first place after the blocks before it
    /// (in the order of their stored offsets) where the file already holds them
    /// (`rt::relocation`).
    pub follows: bool,
}

/// An attribute of `seq`.
#[derive(Debug, Clone)]
pub struct Field {
    /// Name.
    pub id: String,
    /// Documentation.
    pub doc: Option<String>,
    /// What one element is.
    pub ty: FieldType,
    /// `if`: present only when this holds.
    pub cond: Option<Expr>,
    /// Repetition.
    pub repeat: Repeat,
    /// `-derived`: how the stored value follows from the content, declared or inferred.
    pub derived: Option<Expr>,
    /// Where [`Field::derived`] was inferred from, when the schema did not declare it: the
    /// field's one use (see `typeck::infer`).
    pub derived_inferred: Option<Inferred>,
    /// Read by position at an offset that follows where the block is placed (inferred where
    /// the offset's one use is this `pos`): `normalize()` moves a block that no longer fits
    /// where its offset says to the end of the file and sets the offset (`rt::relocation`).
    pub relocation: Option<Relocation>,
    /// `-derived: false`: never derived, not even by inference.
    pub never_derived: bool,
    /// `-derived: crc32(a, b)`: a checksum of the bytes other fields are written as.
    pub checksum: Option<Checksum>,
    /// Its declared `-derived` uses `_parent` or `_root`: the holder computes it (a
    /// [`DerivedMember`]) or the root does ([`RootedDerived`]), and [`Field::derived`] is empty.
    pub derived_elsewhere: bool,
    /// Raw bytes whose size follows a derived field (RIFF's pad byte, `size: len % 2`):
    /// `normalize()` resizes them, with zeros, to the size their expression gives (inferred,
    /// see `typeck::infer`).
    pub padding: bool,
    /// `-untrusted`: a derived value that reading never believes (a stated size that may lie);
    /// the checker rejects every read-time expression that uses it.
    pub untrusted: bool,
    /// `size`, `size-eos` or `terminator` on a user type or switch: each value is read from
    /// a substream of the bytes so delimited.
    pub substream: Option<Size>,
    /// `process`, or `pad-right` or a terminator within a size on a user type: each value is
    /// read from its bytes decoded, and keeps its bytes as stored (`rt::Decoded`).
    pub decode: Option<Decode>,
    /// `valid`: the rules each value read must keep, checked in order.
    pub valid: Vec<Valid>,
    /// A `pos` instance: the value is read at this position of the stream, not in sequence,
    /// and written back as a block placed there.
    pub position: Option<Expr>,
    /// `io`: the stream a value read by position is read from.
    pub stream: Stream,
    /// `parent`: what its user type's `_parent` is, when not the type holding it: another
    /// value (`_parent`, `_root`), or nothing (`false`, held as `Expr::Bool(false)`).
    pub parent: Option<Expr>,
    /// Read by position and kept as read, never written: it is read from another value's
    /// stream, or its position needs the input stream (`_io.size - 128`), which a writer does
    /// not have. Its bytes are written by whatever else holds them (another value, the file's
    /// unclaimed bytes), and the codec reads its output back to refuse an edit they would
    /// not show.
    pub kept_as_read: bool,
    /// A parse instance that no reader or writer needs, read on its own as Kaitai reads
    /// instances only when used: its value is an `rt::Instance`, whose failure (or cycle) is
    /// its own, and it writes nothing when it has no value (its bytes are kept by what holds
    /// them). Those that readers or writers need are plain values, read before their first
    /// user.
    pub parse_instance: bool,
    /// Declared under `instances` (a parse instance, or a value instance of the stream's
    /// position): read or evaluated once, just before its first user, not in sequence.
    pub from_instance: bool,
    /// A list whose elements' instances use the list itself (`_parent.files[idx + 1]`): Kaitai
    /// evaluates them once the list is complete, so the elements are read once more then,
    /// each from where it started, with the whole list.
    pub read_again: bool,
    /// Its type's instances use values read after it (`_root.pe.sections` in a symbol of a
    /// header read before them), which Kaitai evaluates lazily: it is read in place with those
    /// arguments empty, then once more, from where it started, after the last of them.
    pub read_later: Option<ReadLater>,
    /// `-scan`: the field runs to the first occurrence of these bytes after which the rest of
    /// the type parses exactly to the end of its stream.
    pub scan: Option<Vec<u8>>,
    /// `-fill: index`: padding whose bytes should read 00 01 02 …
    pub fill_index: bool,
    /// `-in-sequence: true` on an instance read by position: its value is one the file holds
    /// in sequence too, read again (see [`Relocation::follows`]).
    pub in_sequence: bool,
    /// Where it is declared.
    pub at: YamlPath,
}

impl Schema {
    /// True when some block's offset follows where it is placed (see [`Field::relocation`]).
    pub fn has_relocations(&self) -> bool {
        self.types
            .iter()
            .any(|def| def.fields.iter().any(|f| f.relocation.is_some()))
    }

    /// Every offset that follows where its block is placed (see [`Field::relocation`]): the
    /// type, the offset field, the block and the unit the offset counts in.
    pub fn relocated_offsets(&self) -> impl Iterator<Item = (&TypeDef, &Field, &Field, u64)> {
        self.types.iter().flat_map(|def| {
            def.fields.iter().filter_map(move |block| {
                let r = block.relocation?;
                Some((def, &def.fields[r.offset], block, r.unit))
            })
        })
    }

    /// The names of the fields kept as read (see [`Field::kept_as_read`]): views of bytes
    /// other values hold, which `normalize()` reads again (`rt::settle`).
    pub fn view_names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = (self.types.iter())
            .flat_map(|def| def.fields.iter().filter(|f| f.kept_as_read))
            .map(|f| f.id.as_str())
            .collect();
        names.sort_unstable();
        names.dedup();
        names
    }

    /// True when `normalize()` ends by writing the value and reading it again: blocks may move
    /// (see [`Field::relocation`]) or views be read again (see [`Schema::view_names`]).
    pub fn settles(&self) -> bool {
        self.has_relocations() || !self.view_names().is_empty()
    }

    /// True when some field holds a checksum (`-derived: crc32(…)`), which the writer computes.
    pub fn has_checksums(&self) -> bool {
        self.types
            .iter()
            .any(|def| def.fields.iter().any(|f| f.checksum.is_some()))
    }

    /// Every field of a held value derived in its holder (see [`TypeDef::derived_members`]):
    /// the holder, the field's path from it (`header.len_image`), its derivation as a schema
    /// would say it, and where it comes from.
    pub fn derived_member_fields(
        &self,
    ) -> impl Iterator<Item = (&TypeDef, String, String, &MemberOrigin)> {
        self.types.iter().flat_map(move |def| {
            def.derived_members.iter().filter_map(move |member| {
                let step = &def.fields[member.step];
                let child = *step.ty.user_types().first()?;
                let field = &self.types[child].fields[member.field];
                let path = format!("{}.{}", step.id, field.id);
                let derivation = crate::expr::to_source(&member.derived);
                Some((def, path, derivation, &member.origin))
            })
        })
    }

    /// Every derived field, declared or inferred, with its type and its derivation as a schema
    /// says it (`body._sizeof + 4`, `crc32(type_raw, body)`).
    pub fn derived_fields(&self) -> impl Iterator<Item = (&TypeDef, &Field, String)> {
        self.types.iter().flat_map(|def| {
            def.fields.iter().filter_map(move |f| {
                let derivation = match (&f.derived, &f.checksum, &f.ty) {
                    (Some(derived), ..) => crate::expr::to_source(derived),
                    (None, Some(c), _) => {
                        format!("{}({})", c.algorithm.name(), c.over.join(", "))
                    }
                    (
                        None,
                        None,
                        FieldType::Bytes {
                            size: Size::Expr(size),
                            ..
                        },
                    ) if f.padding => format!("{} zero bytes", crate::expr::to_source(size)),
                    _ => return None,
                };
                Some((def, f, derivation))
            })
        })
    }
}

impl Field {
    /// The expressions that decide how the field is read and that a writer checks: its
    /// condition, count, sizes, processor arguments, `valid` rules and switch selectors.
    pub fn checked_expressions(&self) -> Vec<&Expr> {
        let mut exprs: Vec<&Expr> = self.cond.iter().collect();
        match &self.repeat {
            Repeat::Expr(e) | Repeat::Until(e) => exprs.push(e),
            _ => {}
        }
        if let Some(Size::Expr(size)) = &self.substream {
            exprs.push(size);
        }
        if let Some(decode) = &self.decode {
            exprs.extend(decode.expressions());
        }
        exprs.extend(self.valid.iter().map(|v| &v.rule));
        let mut types = vec![&self.ty];
        while let Some(t) = types.pop() {
            match t {
                FieldType::Str {
                    size: Size::Expr(e),
                    ..
                }
                | FieldType::Bytes {
                    size: Size::Expr(e),
                    ..
                } => exprs.push(e),
                FieldType::Switch(s) => {
                    exprs.push(&s.on);
                    types.extend(s.cases.iter().map(|c| &c.ty));
                    types.extend(s.default.as_deref());
                }
                _ => {}
            }
        }
        exprs
    }

    /// Every expression the field computes while it is read: [`Field::checked_expressions`],
    /// its position, the list a `-for-each` follows and the arguments of its user types.
    pub fn expressions(&self) -> Vec<&Expr> {
        let mut exprs = self.checked_expressions();
        exprs.extend(&self.position);
        if let Stream::Of(stream) = &self.stream {
            exprs.push(stream);
        }
        if let Repeat::ForEach(list) = &self.repeat {
            exprs.push(list);
        }
        let mut types = vec![&self.ty];
        while let Some(t) = types.pop() {
            match t {
                FieldType::User { args, .. } => exprs.extend(args),
                FieldType::Switch(s) => {
                    types.extend(s.cases.iter().map(|c| &c.ty));
                    types.extend(s.default.as_deref());
                }
                _ => {}
            }
        }
        exprs
    }

    /// True when an element's own expressions (its size, its type's arguments) use the
    /// elements of the same list read before it (`groups[_index - 1]`), as Kaitai allows.
    pub fn refers_to_itself(&self) -> bool {
        // A repeated switch is an enum of lists, or a list whose elements each choose their
        // case: neither is read with the elements before.
        self.repeat != Repeat::None
            && !matches!(self.repeat, Repeat::ForEach(_))
            && !matches!(self.ty, FieldType::Switch(_))
            && self.expressions().iter().any(|e| e.mentions(&self.id))
    }

    /// True for a repeated switch whose selector depends on the element (`_index`, or the
    /// `_` a `-for-each` gives each element): every element chooses its own case, so the
    /// field is a list of the switch's enum, each value holding one element.
    pub fn switches_per_element(&self) -> bool {
        let FieldType::Switch(switch) = &self.ty else {
            return false;
        };
        switch.per_element(&self.repeat)
    }

    /// The size expression of raw bytes that may be padding following a derived field: read
    /// in sequence, always present, held as they are.
    pub fn padding_size(&self) -> Option<&Expr> {
        match &self.ty {
            FieldType::Bytes {
                size: Size::Expr(size),
                align: 0 | 1,
                ..
            } if self.repeat == Repeat::None
                && self.cond.is_none()
                && self.position.is_none()
                && !self.from_instance
                && self.decode.is_none()
                && self.substream.is_none()
                && self.valid.is_empty() =>
            {
                Some(size)
            }
            _ => None,
        }
    }

    /// True for a repeated switch whose selector is the same for the whole list: one case
    /// holds every element (an enum of lists).
    pub fn switches_whole_list(&self) -> bool {
        self.repeat != Repeat::None
            && matches!(self.ty, FieldType::Switch(_))
            && !self.switches_per_element()
    }

    /// True when the field is read at a position of the type's own stream or of the file's
    /// (not of another value's stream).
    pub fn is_placed(&self) -> bool {
        self.position.is_some() && !matches!(self.stream, Stream::Of(_))
    }

    /// True when the field is kept as read and never written (see [`Field::kept_as_read`]).
    pub fn is_read_only(&self) -> bool {
        self.kept_as_read
    }

    /// True for a decoded string or byte array (not a list, not read by position) stored as
    /// it is or in a text encoding: text in an encoding, a byte array or text framed by a
    /// terminator or padding. Such a value is measured by the bytes it is written as
    /// (`_sizeof`); `check()` reports stored bytes its edited value is no longer stored as,
    /// and `normalize()` stores it anew (see [`Decode::reframed_size`]). Compressed and
    /// transformed values are measured by their stored bytes, so that measuring one never
    /// decompresses it.
    pub fn is_measured_as_written(&self) -> bool {
        let constant = |d: &Decode| {
            matches!(
                d.process,
                None | Some(Process::Encoding(_) | Process::UnknownEncoding(_))
            )
        };
        matches!(self.ty, FieldType::Str { .. } | FieldType::Bytes { .. })
            && self.repeat == Repeat::None
            && !self.parse_instance
            && self.decode.as_ref().is_some_and(constant)
    }

    /// True when the field's value may be absent: it has an `if`, or it is a parse instance
    /// (absent, failed or a cycle).
    pub fn may_be_absent(&self) -> bool {
        self.cond.is_some() || self.parse_instance
    }

    /// True when the field is conditional and holds no value (`contents` or padding with
    /// `if`): its documents say `true` when it is present (`rt::present`).
    pub fn is_presence_flag(&self) -> bool {
        self.cond.is_some()
            && self.repeat == Repeat::None
            && self.decode.is_none()
            && matches!(self.ty, FieldType::Contents(_) | FieldType::Nothing)
    }

    /// True when this is a field the compiler adds to keep bytes after a value (`_trailing`,
    /// `_unread`): left out of documents when empty.
    pub fn is_kept_tail(&self) -> bool {
        self.id == TRAILING || self.id == UNREAD
    }

    /// A field the compiler adds (its name starts with `_`, which no schema name does): one
    /// value of `ty`, always present, stored so that it is written back.
    pub fn added(id: &str, doc: &str, ty: FieldType, at: &YamlPath) -> Self {
        Field {
            id: id.to_owned(),
            doc: Some(doc.to_owned()),
            ty,
            cond: None,
            repeat: Repeat::None,
            derived: None,
            derived_inferred: None,
            relocation: None,
            never_derived: false,
            checksum: None,
            derived_elsewhere: false,
            padding: false,
            untrusted: false,
            substream: None,
            decode: None,
            valid: Vec::new(),
            position: None,
            stream: Stream::Own,
            kept_as_read: false,
            parse_instance: false,
            from_instance: false,
            read_again: false,
            read_later: None,
            parent: None,
            scan: None,
            fill_index: false,
            in_sequence: false,
            at: at.clone(),
        }
    }

    /// Bytes that follow each value outside it: the terminator that delimits a user type's
    /// substream when it is consumed but not part of the value.
    pub fn delimiter_len(&self) -> usize {
        match self.substream {
            Some(Size::Terminator {
                include: false,
                consume: true,
                ..
            }) => 1,
            _ => 0,
        }
    }

    /// True when the value keeps this field: everything but fixed `contents` read once, whose
    /// bytes the schema already knows. Repeated or conditional `contents` keep how many times
    /// (or whether) they were read.
    pub fn stores_value(&self) -> bool {
        !matches!(self.ty, FieldType::Contents(_))
            || self.repeat != Repeat::None
            || self.cond.is_some()
    }
}

/// How each value of a field is decoded from the bytes it is stored in: the bytes are
/// delimited by `size`, cut to their content, run through the processor, and the value is read
/// from the result.
#[derive(Debug, Clone, PartialEq)]
pub struct Decode {
    /// The stored bytes.
    pub size: Size,
    /// What of them is the content.
    pub content: Content,
    /// `process`: `None` when the value is only framed.
    pub process: Option<Process>,
}

impl Decode {
    /// How the content sits in the stored bytes, for the reader to cut it out and the writer
    /// to frame new content; `size`: the frame's size, when the writer knows it.
    pub fn frame(&self, size: Option<i64>) -> skelcodec_runtime::process::Frame {
        // A terminator the reader leaves in the stream is not part of the frame.
        let terminator = match self.size {
            Size::Terminator { consume: false, .. } => None,
            _ => self.content.terminator,
        };
        skelcodec_runtime::process::Frame {
            terminator,
            include: self.content.include,
            pad_right: self.content.pad_right,
            size,
            unit: usize::from(self.content.unit.max(1)),
        }
    }

    /// The size new bytes of an edited value are padded to when `check()` and `normalize()`
    /// store it anew: a fixed size stays, a computed one stays what the stored bytes had
    /// (growing past it, the bytes grow and a derived size follows them), and a value that
    /// ends at its terminator or at the stream's end is not padded.
    pub fn reframed_size(&self) -> ReframedSize {
        match &self.size {
            Size::Const(n) => ReframedSize::Fixed(*n as i64),
            Size::Expr(_) => ReframedSize::AsStored,
            Size::Eos | Size::Terminator { .. } => ReframedSize::Unpadded,
        }
    }

    /// True when the stored bytes are the content alone: no terminator, no padding. A value
    /// so stored is written as its processor encodes it, whatever size it had.
    pub fn frames_nothing(&self) -> bool {
        let frame = self.frame(None);
        frame.terminator.is_none() && frame.pad_right.is_none()
    }

    /// The terminator of text whose code units are wider than a byte (a UTF-16 NUL) when its
    /// size is one: its byte, its width, whether it is consumed and whether a missing one is an
    /// error.
    pub fn wide_terminator(&self) -> Option<(u8, usize, bool, bool)> {
        match self.size {
            Size::Terminator {
                byte,
                consume,
                eos_error,
                ..
            } if self.content.unit > 1 => {
                Some((byte, usize::from(self.content.unit), consume, eos_error))
            }
            _ => None,
        }
    }

    /// The expressions it computes: its size and its processor's arguments.
    pub fn expressions(&self) -> Vec<&Expr> {
        let mut exprs: Vec<&Expr> = match &self.size {
            Size::Expr(e) => vec![e],
            _ => Vec::new(),
        };
        match &self.process {
            Some(Process::Xor(e) | Process::Rol(e) | Process::Ror(e)) => exprs.push(e),
            Some(Process::Custom { args, .. }) => exprs.extend(args),
            Some(Process::Zlib | Process::Encoding(_) | Process::UnknownEncoding(_)) | None => {}
        }
        exprs
    }
}

/// Kaitai `process`: a reversible transformation of the stored bytes.
#[derive(Debug, Clone, PartialEq)]
pub enum Process {
    /// `xor(key)`: an integer (one byte) or a byte array, cycled.
    Xor(Expr),
    /// `rol(n)`: each byte rotated left.
    Rol(Expr),
    /// `ror(n)`: each byte rotated right.
    Ror(Expr),
    /// `zlib`.
    Zlib,
    /// Text in an encoding other than UTF-8: the value is its decoded UTF-8 text.
    Encoding(skelcodec_runtime::encoding::Encoding),
    /// Text in an encoding Kaitai does not know (the label): reading or writing it fails.
    UnknownEncoding(String),
    /// A processor the schema names (`my_fx(args)`, `a.b.my_fx`): a Rust type `MyFx` (`a::b::MyFx`)
    /// in scope where the codec is expanded, built by `MyFx::new(args)`, implementing
    /// `rt::process::Process`.
    Custom {
        /// The modules of its path, as written (`a`, `b`).
        modules: Vec<String>,
        /// Its name, as written (`my_fx`).
        name: String,
        /// Its arguments.
        args: Vec<Expr>,
    },
}

/// One rule of `valid`.
#[derive(Debug, Clone, PartialEq)]
pub struct Valid {
    /// Which rule: it names the error.
    pub kind: ValidKind,
    /// The condition on `_`, the value (unused for `in-enum`).
    pub rule: Expr,
    /// What was expected, in words (`equal to 5`).
    pub expected: String,
}

/// The rules of `valid`, as Kaitai names their errors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValidKind {
    /// `eq` (or a bare value).
    Eq,
    /// `min`.
    Min,
    /// `max`.
    Max,
    /// `any-of`.
    AnyOf,
    /// `in-enum: true`: a value its enum names.
    InEnum,
    /// `expr`.
    Expr,
}

/// A value instance: a computed property.
#[derive(Debug, Clone)]
pub struct Instance {
    /// Name.
    pub id: String,
    /// Documentation.
    pub doc: Option<String>,
    /// What it computes.
    pub kind: InstanceKind,
    /// Where it is declared.
    pub at: YamlPath,
}

impl Instance {
    /// A look-ahead (`pos` and an integer type): kept in the value, read where its type's reader
    /// first uses it, or once the type is read (Kaitai evaluates an instance once, when first
    /// needed, even at `_io.pos + n`).
    pub fn is_look_ahead(&self) -> bool {
        matches!(&self.kind, InstanceKind::Peek { .. })
    }
}

/// What an instance computes.
#[derive(Debug, Clone, PartialEq)]
pub enum InstanceKind {
    /// `value`: an expression, with Kaitai's `if` (absent, it reads as 0, false or the enum's
    /// value 0, as absent numbers do) and `enum` (the integer as a value of that enum).
    Value {
        /// The expression.
        value: Expr,
        /// `if`: the value exists only when this holds.
        cond: Option<Expr>,
        /// `enum`: the enum the integer value is read as.
        enum_idx: Option<usize>,
    },
    /// `pos` with an integer `type`: the integer at that stream position, read without moving
    /// (a look-ahead while reading; -1 past the end of the stream).
    Peek {
        /// The position.
        pos: Expr,
        /// The integer read there.
        ty: IntType,
        /// `if`: read only when it holds; absent otherwise.
        cond: Option<Expr>,
        /// `enum`: the integer as a value of this enum (index into [`Schema::enums`]).
        enum_idx: Option<usize>,
    },
}

/// An integer layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IntType {
    /// 1, 2, 4 or 8.
    pub bytes: u8,
    /// Signed (`s`) or unsigned (`u`).
    pub signed: bool,
    /// The order of its bytes.
    pub order: ByteOrder,
}

/// The order of a number's bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ByteOrder {
    /// Least significant byte first.
    Little,
    /// Most significant byte first.
    Big,
    /// Decided while reading by the `meta/endian` `switch-on` of the type or of one it is
    /// nested in ([`EndianChoice`]): the local `_is_be` of readers and writers.
    Chosen,
}

/// One case of an [`EndianChoice`].
#[derive(Debug, Clone)]
pub struct EndianCase {
    /// The value the selector is compared with.
    pub key: Expr,
    /// Whether it means big-endian.
    pub big: bool,
    /// Where it is declared.
    pub at: YamlPath,
}

/// `meta/endian` as a `switch-on`: the byte order of a type and the types nested in it,
/// decided for each value.
#[derive(Debug, Clone)]
pub struct EndianChoice {
    /// The selector.
    pub on: Expr,
    /// The cases other than `_`, in order.
    pub cases: Vec<EndianCase>,
    /// The `_` case: whether it means big-endian.
    pub default: Option<bool>,
    /// Where it is declared (`meta/endian`).
    pub at: YamlPath,
}

/// A float layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FloatType {
    /// 4 or 8.
    pub bytes: u8,
    /// The order of its bytes.
    pub order: ByteOrder,
}

/// A number as stored: integer, float, or fixed-point (`-scale`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scalar {
    /// An integer.
    Int(IntType),
    /// A float.
    Float(FloatType),
    /// A fixed-point value: `raw / div`, stored raw.
    Fixed {
        /// The stored integer.
        raw: IntType,
        /// The divisor.
        div: u32,
    },
}

impl Scalar {
    /// Bytes on disk.
    pub fn size(self) -> usize {
        match self {
            Scalar::Int(i) | Scalar::Fixed { raw: i, .. } => usize::from(i.bytes),
            Scalar::Float(f) => usize::from(f.bytes),
        }
    }
}

/// How many bytes a string or byte array takes.
#[derive(Debug, Clone, PartialEq)]
pub enum Size {
    /// A constant.
    Const(usize),
    /// An expression evaluated while reading.
    Expr(Expr),
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

/// What of a string's or byte array's bytes is its value, as Kaitai reads it: trailing
/// `pad-right` bytes are stripped, then the value ends at its terminator. The field keeps every
/// byte it read (padding, terminator, garbage after it), so that writing is byte-exact.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Content {
    /// `pad-right`: the byte stripped from the end.
    pub pad_right: Option<u8>,
    /// `terminator`, or NUL for `strz`: the value ends at its first occurrence.
    pub terminator: Option<u8>,
    /// `include`: the terminator is part of the value.
    pub include: bool,
    /// The terminator is this many bytes equal to `terminator` at a multiple of it from the
    /// start: the code unit of the text's encoding (2 for UTF-16); 0 or 1 for a byte.
    pub unit: u8,
}

impl Content {
    /// True when the value is not simply the text before the first NUL (what `rt::VarStr` and
    /// `rt::FixedStr` show): padding is stripped, another byte terminates, or the terminator
    /// is part of the value. Such text is held framed (`rt::Decoded`), as byte arrays with a
    /// terminator or padding are.
    pub fn frames_beyond_nul(&self) -> bool {
        self.pad_right.is_some() || self.include || self.terminator.is_some_and(|t| t != 0)
    }
}

/// See [`Decode::reframed_size`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReframedSize {
    /// The schema's size.
    Fixed(i64),
    /// The size of the bytes stored for the value (none when a document gave only the value).
    AsStored,
    /// No padding.
    Unpadded,
}

impl ReframedSize {
    /// The frame's size for a value stored in `stored`.
    pub fn of(self, stored: &[u8]) -> Option<i64> {
        match self {
            ReframedSize::Fixed(n) => Some(n),
            ReframedSize::AsStored => skelcodec_runtime::process::size_as_stored(stored),
            ReframedSize::Unpadded => None,
        }
    }
}

/// The stream a value read by position is read from and placed back in.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Stream {
    /// The stream of the type that holds it (its substream, when it has one).
    #[default]
    Own,
    /// The whole file (`io: _root._io`): its position is absolute, wherever the type is.
    Root,
    /// The stream another value was read from (`io: _parent.header._io`), which that value
    /// keeps. The value read there is kept as read and never written: its bytes belong to the
    /// value whose stream it is.
    Of(Expr),
}

/// What one element of a field is.
#[derive(Debug, Clone, PartialEq)]
pub enum FieldType {
    /// A number.
    Number(Scalar),
    /// A bit field (`b1` … `b64`): an unsigned integer of `width` bits, a boolean for `b1`, or
    /// a value of an enum.
    Bits {
        /// 1 to 64.
        width: u8,
        /// Big-endian bit order (from the top of each byte).
        big_endian: bool,
        /// `enum`: the integer as a value of that enum.
        enum_idx: Option<usize>,
    },
    /// The bits a byte-aligned field drops from a partly read byte after bit fields, kept so
    /// that they are written back (a field the compiler adds, `_bits_before_<field>`).
    BitPadding,
    /// A .NET 7-bit encoded length (`vlq_base128_le`, at most 5 bytes, minimal encoding).
    Vlq,
    /// An integer mapped to an enum.
    Enum {
        /// Index into [`Schema::enums`].
        enum_idx: usize,
        /// The stored integer.
        raw: IntType,
    },
    /// A quaternion x, y, z, w.
    Quat(Scalar),
    /// A 3-vector x, y, z.
    Vec3(Scalar),
    /// A string kept byte for byte.
    Str {
        /// Its size.
        size: Size,
        /// Bytes on disk are rounded up to a multiple of this (`-align`).
        align: usize,
        /// `strz` (or a terminator): the text ends at the first NUL; otherwise every byte is text.
        terminated: bool,
        /// What of the bytes is the text.
        content: Content,
    },
    /// Raw bytes.
    Bytes {
        /// Their size.
        size: Size,
        /// Bytes on disk are rounded up to a multiple of this (`-align`).
        align: usize,
        /// What of the bytes is the value expressions see.
        content: Content,
    },
    /// A fixed number of fixed-size elements (`repeat-expr` with a literal count): `[T; N]`.
    Array {
        /// The element.
        elem: Box<FieldType>,
        /// The count.
        len: usize,
    },
    /// A value computed while reading (`-remember`), kept in the value, never written.
    Remembered {
        /// How it is computed.
        value: Expr,
        /// Its integer type.
        ty: IntType,
        /// `-solve`: when the value is 0, the range of candidates to try.
        solve: Option<(i64, i64)>,
    },
    /// Fixed contents: checked on read, written as is, not stored.
    Contents(Vec<u8>),
    /// A user type with arguments for its parameters.
    User {
        /// Index into [`Schema::types`].
        ty: usize,
        /// One expression per parameter.
        args: Vec<Expr>,
    },
    /// A choice of type by the value of an expression.
    Switch(Switch),
    /// Nothing: the case of an unsized switch without `_` whose selector matches no key
    /// (Kaitai's `null`). Reads and writes no bytes.
    Nothing,
}

/// `switch-on` with its cases.
#[derive(Debug, Clone, PartialEq)]
pub struct Switch {
    /// The selector.
    pub on: Expr,
    /// Cases in schema order; `_` becomes `default`.
    pub cases: Vec<SwitchCase>,
    /// The `_` case.
    pub default: Option<Box<FieldType>>,
}

impl Switch {
    /// The case keys as written, for the error of a selector that matches none.
    pub fn keys_as_written(&self) -> String {
        self.cases
            .iter()
            .map(|c| crate::expr::to_source(&c.key))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// True when the switch, of a field repeated by `repeat`, chooses a case for each element:
    /// its selector uses the element's `_index`, or the element `_` of the list a
    /// `-for-each` follows.
    pub fn per_element(&self, repeat: &Repeat) -> bool {
        match repeat {
            Repeat::None => false,
            Repeat::ForEach(_) => self.on.mentions("_index") || self.on.mentions("_"),
            Repeat::Expr(_) | Repeat::Eos | Repeat::Until(_) => self.on.mentions("_index"),
        }
    }
}

/// One case of a switch.
#[derive(Debug, Clone, PartialEq)]
pub struct SwitchCase {
    /// The value the selector is compared with.
    pub key: Expr,
    /// The type read in that case.
    pub ty: FieldType,
}

/// Repetition of a field.
#[derive(Debug, Clone, PartialEq)]
pub enum Repeat {
    /// A single value.
    None,
    /// `repeat: expr`.
    Expr(Expr),
    /// `repeat: eos`.
    Eos,
    /// `repeat: until` (the element is `_`).
    Until(Expr),
    /// `-for-each`: once per element of a list read earlier; `_` is that element.
    ForEach(Expr),
}

/// An enum.
#[derive(Debug, Clone)]
pub struct EnumDef {
    /// Name (snake_case), unique in its type.
    pub id: String,
    /// The type it is declared in (the root for top-level `enums`).
    pub owner: usize,
    /// The name of its Rust enum, unique in the schema (`outer_animal` for an enum of `outer`).
    pub rust_name: String,
    /// Where it is declared.
    pub at: YamlPath,
    /// Variants in value order.
    pub variants: Vec<EnumVariant>,
}

/// One enum variant.
#[derive(Debug, Clone)]
pub struct EnumVariant {
    /// Name (snake_case).
    pub id: String,
    /// The name of its Rust variant (CamelCase), unique in the enum: `gsm_610` and `gsm610`
    /// would both be `Gsm610`, so the second gets its value appended.
    pub rust_name: String,
    /// Value.
    pub value: i64,
    /// Documentation.
    pub doc: Option<String>,
}

impl TypeDef {
    /// The index of the parse instance (see [`Field::parse_instance`]) whose size or count
    /// `field`'s inferred derivation measures: read on its own, it may be unread or have failed,
    /// and the derivation holds only where it was read or is absent (not where it failed).
    pub fn held_user(&self, field: &Field) -> Option<usize> {
        match &field.derived_inferred {
            Some(inferred) => self.held(inferred),
            None => self.held_by(field.derived.as_ref()?),
        }
    }

    /// The parse instance of this type a declared derivation reads (`local_header.…` of a
    /// ZIP's central directory entry): it holds only where that instance was read or is
    /// absent, as [`TypeDef::held_user`].
    pub fn held_by(&self, derived: &Expr) -> Option<usize> {
        self.fields
            .iter()
            .position(|f| f.parse_instance && derived.mentions(&f.id))
    }

    /// The parse instance a derived member measures or reads, as [`TypeDef::held_user`].
    pub fn member_held(&self, member: &DerivedMember) -> Option<usize> {
        match &member.origin {
            MemberOrigin::Inferred(inferred) => self.held(inferred),
            MemberOrigin::Declared(_) => self.held_by(&member.derived),
        }
    }

    /// The index of the parse instance of this type an inferred derivation measures, when its
    /// user is one (see [`TypeDef::held_user`]).
    pub fn held(&self, inferred: &Inferred) -> Option<usize> {
        self.fields
            .iter()
            .position(|f| f.id == inferred.user && f.parse_instance)
    }

    /// Its look-ahead instances (an integer at a `pos`): read while reading and kept in the
    /// value, never written.
    pub fn look_aheads(&self) -> impl Iterator<Item = &Instance> {
        self.instances.iter().filter(|i| i.is_look_ahead())
    }

    /// True when the type passes its own stream on (`_io` as an argument, for a
    /// `_parent._io`): its reader then keeps a `rt::Stream` of it.
    pub fn passes_own_stream(&self) -> bool {
        self.expressions().iter().any(|e| e.uses_stream_value())
    }

    /// Every expression of the type: its fields', its instances' and `to-string`.
    pub fn expressions(&self) -> Vec<&Expr> {
        let mut exprs: Vec<&Expr> = self.fields.iter().flat_map(Field::expressions).collect();
        for instance in &self.instances {
            match &instance.kind {
                InstanceKind::Value { value, cond, .. } => {
                    exprs.extend([value].into_iter().chain(cond))
                }
                InstanceKind::Peek { pos, cond, .. } => exprs.extend([pos].into_iter().chain(cond)),
            }
        }
        exprs.extend(&self.to_string);
        if let Some(choice) = &self.endian_choice {
            exprs.push(&choice.on);
        }
        exprs
    }
}

impl FieldType {
    /// Raw bytes to the end of the stream: what a field the compiler adds to keep bytes holds.
    pub fn rest_of_stream() -> Self {
        FieldType::Bytes {
            size: Size::Eos,
            align: 1,
            content: Content::default(),
        }
    }
    /// Calls `f` with the type and the arguments of every user type a value of this type
    /// holds directly (each case's, for a switch).
    pub fn for_each_user_mut(&mut self, f: &mut impl FnMut(usize, &mut Vec<Expr>)) {
        match self {
            FieldType::User { ty, args } => f(*ty, args),
            FieldType::Switch(s) => {
                for case in &mut s.cases {
                    case.ty.for_each_user_mut(f);
                }
                if let Some(default) = &mut s.default {
                    default.for_each_user_mut(f);
                }
            }
            _ => {}
        }
    }

    /// Calls `f` with each user type a value of this type holds directly (each case's, for a
    /// switch) and the arguments it is given.
    pub fn for_each_user(&self, f: &mut impl FnMut(usize, &[Expr])) {
        match self {
            FieldType::User { ty, args } => f(*ty, args),
            FieldType::Switch(s) => {
                for case in &s.cases {
                    case.ty.for_each_user(f);
                }
                if let Some(default) = &s.default {
                    default.for_each_user(f);
                }
            }
            _ => {}
        }
    }

    /// True when an argument of a value of this type (of any case, for a switch) uses its
    /// owner's stream (`_io.pos`).
    pub fn passes_stream(&self) -> bool {
        match self {
            FieldType::User { args, .. } => args.iter().any(|arg| arg.mentions("_io")),
            FieldType::Switch(s) => s
                .cases
                .iter()
                .map(|c| &c.ty)
                .chain(s.default.as_deref())
                .any(FieldType::passes_stream),
            _ => false,
        }
    }

    /// The user types a value of this type holds directly (each case's, for a switch).
    pub fn user_types(&self) -> Vec<usize> {
        match self {
            FieldType::User { ty, .. } => vec![*ty],
            FieldType::Switch(s) => s
                .cases
                .iter()
                .map(|c| &c.ty)
                .chain(s.default.as_deref())
                .flat_map(FieldType::user_types)
                .collect(),
            _ => Vec::new(),
        }
    }
}
