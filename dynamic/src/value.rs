//! Values read with a schema known only at run time, held as the generated code holds them
//! (the same runtime types for strings and bytes, the same shapes of lists, options and switch
//! cases), and the values expressions compute with.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use skelcodec_codegen::model::{FieldType, InstanceKind, IntType, ParamType, Scalar, TypeDef};
use skelcodec_runtime as rt;

/// One value of a field, as the generated code holds it.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// An integer, with the width and signedness it is stored with.
    Int(Int),
    /// A `f4`.
    F32(f32),
    /// A `f8`.
    F64(f64),
    /// A fixed-point number (`-scale`): its stored integer, worth `raw / div`.
    Fixed {
        /// The stored integer.
        raw: Int,
        /// The divisor.
        div: u32,
    },
    /// The components of a quaternion (x, y, z, w) or of a vector (x, y, z).
    Vector(Vec<Value>),
    /// A `b1` bit field.
    Bool(bool),
    /// A value of the schema's enum `def` (an index into its enums).
    Enum {
        /// The enum.
        def: usize,
        /// The stored integer.
        raw: i64,
    },
    /// A string of a constant size (`rt::FixedStr`).
    FixedStr(Vec<u8>),
    /// A terminated string (`rt::VarStr`).
    VarStr(rt::VarStr),
    /// A string delimited by its size alone (`rt::Text`).
    Text(rt::Text),
    /// Raw bytes.
    Bytes(rt::RawBytes),
    /// A value with nothing stored (repeated `contents`, the empty case of a switch).
    Unit,
    /// A structure.
    Struct(Rc<Struct>),
    /// A repeated field.
    List(Vec<Value>),
    /// A repeated field of plain elements (numbers, bit fields, strings of a constant size,
    /// structures of only such fields), kept as the bytes it was read from: its document and
    /// its expressions decode them.
    Packed(Packed),
    /// One case of a switch: its name in documents and its value.
    Case(Rc<str>, Box<Value>),
    /// A conditional field whose condition did not hold.
    Absent,
    /// A conditional field that holds nothing when present (`contents` with `if`).
    Present,
    /// A value read from the decoded content of the bytes it is stored in, kept with them.
    Decoded(Box<rt::Decoded<Value>>),
    /// A parse instance whose read failed (its failure is its own, as in Kaitai): the
    /// message, and the bytes it was to be read from when it is read on demand (see
    /// [`rt::Instance`]).
    Failed {
        /// The error, with its offset and the path inside the instance.
        message: Box<str>,
        /// The bytes it holds, written back as they were.
        held: Option<Box<rt::RawBytes>>,
    },
    /// A parse instance that is the value being read around it, which starts at this byte.
    Cycle(u64),
}

/// A list of elements of one fixed size, each read from its bytes alone, kept as those bytes:
/// a range of a copy of part of the file, shared by the lists read from that part. (Small
/// enough to be held in a [`Value`] without a box of its own.)
#[derive(Debug, Clone)]
pub struct Packed {
    /// How each element is read from its bytes.
    pub(crate) layout: Rc<Layout>,
    /// The copy the elements' bytes are in.
    pub(crate) page: Rc<Page>,
    /// Where the elements' bytes start in the file, and how many there are.
    pub(crate) range: (u32, u32),
}

/// A copy of part of a file.
#[derive(Debug)]
pub(crate) struct Page {
    /// Where the copy starts in the file.
    pub at: u64,
    /// The bytes.
    pub bytes: Vec<u8>,
}

/// Lists are equal when their elements are, wherever they were read.
impl PartialEq for Packed {
    fn eq(&self, other: &Self) -> bool {
        self.layout == other.layout && self.bytes() == other.bytes()
    }
}

/// How each element of a packed list is read from its bytes.
#[derive(Debug, PartialEq)]
pub(crate) struct Layout {
    /// The bytes of each element (more than none).
    pub size: usize,
    /// What they hold.
    pub element: Element,
}

/// What the bytes of each element of a packed list hold.
#[derive(Debug, PartialEq)]
pub(crate) enum Element {
    /// A plain value of this type.
    Plain(FieldType),
    /// A structure of type `ty` whose fields are all plain values, one after the other: their
    /// types, and their keys in documents.
    Struct {
        ty: usize,
        fields: Vec<FieldType>,
        keys: Keys,
    },
}

/// An integer as stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Int {
    /// Signed, of any width.
    Signed(i64),
    /// Unsigned, of any width.
    Unsigned(u64),
}

impl Int {
    /// The integer of layout `int` in `raw` (its bytes, as many as it has), big-endian or not.
    pub(crate) fn decode(raw: &[u8], int: IntType, big: bool) -> Int {
        // Byte by byte: a copy of a few bytes of varying length into a word costs a call.
        let push = |word: u64, byte: &u8| (word << 8) | u64::from(*byte);
        let unsigned = match big {
            true => raw.iter().fold(0, push),
            false => raw.iter().rev().fold(0, push),
        };
        match int.signed {
            true => {
                let shift = 64 - 8 * u32::from(int.bytes);
                Int::Signed(((unsigned << shift) as i64) >> shift)
            }
            false => Int::Unsigned(unsigned),
        }
    }

    /// `value` stored in layout `int`, when it fits there.
    pub(crate) fn fitting(value: i128, int: IntType) -> Option<Int> {
        let bits = 8 * u32::from(int.bytes);
        let (min, max) = match int.signed {
            true => (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1),
            false => (0, (1i128 << bits) - 1),
        };
        match int.signed {
            _ if !(min..=max).contains(&value) => None,
            true => Some(Int::Signed(value as i64)),
            false => Some(Int::Unsigned(value as u64)),
        }
    }

    /// Writes the integer in layout `int`, big-endian or not; false, writing nothing, when it
    /// does not fit there.
    pub(crate) fn write(self, int: IntType, big: bool, w: &mut rt::Writer) -> bool {
        let value = self.as_i128();
        if Int::fitting(value, int).is_none() {
            return false;
        }
        let word = value as u64;
        let n = usize::from(int.bytes);
        match big {
            true => w.bytes(&word.to_be_bytes()[8 - n..]),
            false => w.bytes(&word.to_le_bytes()[..n]),
        }
        true
    }

    /// The integer, whatever its signedness.
    pub(crate) fn as_i128(self) -> i128 {
        match self {
            Int::Signed(v) => i128::from(v),
            Int::Unsigned(v) => i128::from(v),
        }
    }

    /// The value expressions compute with: Kaitai computes in `i64`, where a `u8` above
    /// `i64::MAX` wraps.
    pub fn as_i64(self) -> i64 {
        match self {
            Int::Signed(v) => v,
            Int::Unsigned(v) => v as i64,
        }
    }
}

/// A value of a user type: its fields in the order of the schema, and what its instances
/// computed once asked.
#[derive(Debug)]
pub struct Struct {
    /// The type (an index into the schema's types).
    pub ty: usize,
    /// One per field of the type, `None` until it is read (or when it stores no value).
    pub fields: RefCell<Vec<Option<Value>>>,
    /// What expressions keep of it while it is read or written (none for most values).
    kept: RefCell<Option<Box<Kept>>>,
    /// The value's stream: where it starts in the file and how many bytes it has.
    pub(crate) io: Io,
    /// The bytes of the file no field claims, with their offsets: kept by a root value when
    /// some type reads a value by position.
    pub(crate) unclaimed: RefCell<Option<Vec<rt::__private::fields::Gap>>>,
    /// Where the value starts and ends in its stream (the end once it is read).
    pub(crate) span: Cell<(usize, usize)>,
    /// The position in its stream while it is read (`_io.pos`), and whether every bit of the
    /// stream is read there (`_io.eof`).
    pub(crate) pos: Cell<(usize, bool)>,
    /// The names of its fields in documents, shared by every value of the type.
    pub(crate) keys: Keys,
    /// The byte order its type's `meta/endian` switch chose for it, when it has one.
    pub(crate) is_be: Cell<Option<bool>>,
    /// The field being read, while it is a single value (the value shows while it is built).
    pub(crate) reading: Cell<Option<u32>>,
}

/// What expressions keep of a value: the arguments it was read with, and its instances,
/// computed the first time they are used (Kaitai evaluates an instance once).
#[derive(Debug, Default)]
struct Kept {
    params: Vec<Held>,
    instances: Vec<Option<Held>>,
    /// The arguments of its type's kept parameters, as read: part of the value.
    args: Vec<Value>,
    /// The arguments of its type's kept parameters it was last measured with (see
    /// `write::measure`): those `check()` compares `args` with.
    measured_args: Vec<Value>,
}

impl Struct {
    /// A value of type `ty` with `fields`, whose document keys are `keys`, read from `io` at
    /// `start`; its arguments are `params`.
    pub(crate) fn new(
        ty: usize,
        fields: Vec<Option<Value>>,
        params: Vec<Val>,
        keys: Keys,
        (io, start, eof): (Io, usize, bool),
    ) -> Self {
        Struct {
            ty,
            fields: RefCell::new(fields),
            kept: RefCell::new((!params.is_empty()).then(|| {
                Box::new(Kept {
                    params: params.into_iter().map(Held::Val).collect(),
                    ..Kept::default()
                })
            })),
            io,
            unclaimed: RefCell::default(),
            span: Cell::new((start, start)),
            pos: Cell::new((start, eof)),
            keys,
            is_be: Cell::new(None),
            reading: Cell::new(None),
        }
    }
}

impl Struct {
    /// Argument `i` the value was read with.
    pub(crate) fn param(&self, i: usize) -> Option<Val> {
        self.kept.borrow().as_ref()?.params.get(i).map(Held::val)
    }

    /// Keeps the arguments the value is written with.
    pub(crate) fn keep_params(&self, params: Vec<Val>) {
        self.kept.borrow_mut().get_or_insert_default().params =
            params.into_iter().map(Held::Val).collect();
    }

    /// Instance `i` as computed, when it was.
    pub(crate) fn instance(&self, i: usize) -> Option<Val> {
        self.kept
            .borrow()
            .as_ref()?
            .instances
            .get(i)?
            .as_ref()
            .map(Held::val)
    }

    /// Keeps instance `i` as computed (caches are released after a read or write, and kept
    /// again as expressions ask).
    pub(crate) fn keep_instance(&self, i: usize, value: Val) {
        let mut kept = self.kept.borrow_mut();
        let instances = &mut kept.get_or_insert_default().instances;
        if instances.len() <= i {
            instances.resize_with(i + 1, || None);
        }
        instances[i] = Some(Held::Val(value));
    }

    /// Forgets the value instances computed, of its type `def`: they are computed again from
    /// the value as it is now. A look-ahead's value is what the bytes said where it was first
    /// used, part of the value as read (the generated code keeps it in a field).
    pub(crate) fn forget_instances(&self, def: &TypeDef) {
        if let Some(kept) = self.kept.borrow_mut().as_mut() {
            let kinds = def.instances.iter().map(|i| &i.kind);
            for (instance, kind) in kept.instances.iter_mut().zip(kinds) {
                if let InstanceKind::Value { .. } = kind {
                    *instance = None;
                }
            }
        }
    }

    /// Forgets what expressions kept that links values to each other (see [`release`]).
    pub(crate) fn release(&self) {
        let mut kept = self.kept.borrow_mut();
        let Some(held) = kept.as_mut() else {
            return;
        };
        // What links a value to the values around it, in a cycle, is kept by weak links: the
        // arguments and instances stay for expressions on the finished value (`header.base`),
        // and an instance is computed once, as in Kaitai (a look-ahead at `_io.pos + 1` reads
        // where it was first used).
        let instances = held.instances.iter_mut().flatten();
        for kept in held.params.iter_mut().chain(instances) {
            kept.weaken();
        }
        let instances = held.instances.iter().flatten();
        if held.params.is_empty() && held.args.is_empty() && instances.count() == 0 {
            *kept = None;
        }
    }

    /// The arguments of its type's kept parameters (see [`skelcodec_codegen::model::Param::kept`]), in their order.
    pub(crate) fn args(&self) -> std::cell::Ref<'_, [Value]> {
        std::cell::Ref::map(self.kept.borrow(), |kept| {
            kept.as_ref().map_or(&[][..], |kept| &kept.args[..])
        })
    }

    /// The arguments of its type's kept parameters it was last measured with.
    pub(crate) fn measured_args(&self) -> Vec<Value> {
        self.kept
            .borrow()
            .as_ref()
            .map_or(Vec::new(), |kept| kept.measured_args.clone())
    }

    /// Keeps the arguments of its type's kept parameters it is measured with.
    pub(crate) fn keep_measured_args(&self, args: Vec<Value>) {
        if !args.is_empty() {
            self.kept.borrow_mut().get_or_insert_default().measured_args = args;
        }
    }

    /// Sets the argument of its type's `j`th kept parameter.
    pub(crate) fn set_arg(&self, j: usize, arg: Value) {
        if let Some(held) = self
            .kept
            .borrow_mut()
            .as_mut()
            .and_then(|k| k.args.get_mut(j))
        {
            *held = arg;
        }
    }

    /// Keeps the arguments of its type's kept parameters.
    pub(crate) fn keep_args(&self, args: Vec<Value>) {
        if !args.is_empty() {
            self.kept.borrow_mut().get_or_insert_default().args = args;
        }
    }

    /// Becomes `other`, a value of the same type (read again): its fields, arguments and
    /// unclaimed bytes.
    pub(crate) fn take_from(&self, other: &Struct) {
        self.fields.replace(other.fields.take());
        self.unclaimed.replace(other.unclaimed.take());
        self.kept.replace(other.kept.take());
    }
}

impl Value {
    /// The bytes of a string or byte array, as stored (a decoded one's: what it decoded to).
    pub(crate) fn text_or_bytes(&self) -> Option<&[u8]> {
        match self {
            Value::Text(text) => Some(text.as_bytes()),
            Value::VarStr(text) => Some(text.as_bytes()),
            Value::Bytes(bytes) => Some(bytes.0.as_slice()),
            _ => None,
        }
    }

    /// The integer `value` as a field of type `ty` holds it (a flag: 1 or 0), when it fits.
    pub(crate) fn of_int(ty: &FieldType, value: i64) -> Option<Value> {
        match ty {
            // A `u8` holds a negative value as its bits, as the generated code stores it.
            FieldType::Number(Scalar::Int(int)) if !int.signed && int.bytes == 8 => {
                rt::__private::arith::narrow::<u64>(value, 0)
                    .ok()
                    .map(|n| Value::Int(Int::Unsigned(n)))
            }
            FieldType::Number(Scalar::Int(int)) => Int::fitting(value.into(), *int).map(Value::Int),
            FieldType::Vlq => u32::try_from(value)
                .ok()
                .map(|n| Value::Int(Int::Unsigned(n.into()))),
            FieldType::Bits { width: 1, .. } => Some(Value::Bool(value != 0)),
            _ => None,
        }
    }

    /// The arguments of `def`'s kept parameters among `params` (its arguments), as its values
    /// keep them.
    pub(crate) fn kept_args(def: &TypeDef, params: &[Val]) -> Vec<Value> {
        (def.params.iter().zip(params))
            .filter(|(param, _)| param.kept)
            .map(|(param, arg)| Value::of_arg(param.ty, arg))
            .collect()
    }

    /// A kept argument (see [`Value::of_arg`]) as a number, as `check()` reports it.
    pub(crate) fn arg_as_int(&self) -> Option<i128> {
        match self {
            Value::Int(n) => Some(n.as_i128()),
            Value::Bool(b) => Some(i128::from(*b)),
            Value::Enum { raw, .. } => Some(i128::from(*raw)),
            _ => None,
        }
    }

    /// True for a value whose size can be told: not an instance that failed or is a cycle
    /// (an absent one measures 0).
    pub(crate) fn is_measured(&self) -> bool {
        !matches!(self, Value::Failed { .. } | Value::Cycle(_))
    }

    /// True for a value that is there: not absent, and not an instance that failed or is a
    /// cycle.
    pub(crate) fn is_held(&self) -> bool {
        !matches!(self, Value::Absent | Value::Failed { .. } | Value::Cycle(_))
    }

    /// The value a kept parameter of type `ty` holds for the argument `arg` (see
    /// [`skelcodec_codegen::model::Param::kept`]): a number, boolean or enum value, as the generated value's field.
    pub(crate) fn of_arg(ty: ParamType, arg: &Val) -> Value {
        match (ty, arg) {
            (ParamType::Enum(def), Val::Int(raw) | Val::Enum(_, raw)) => {
                Value::Enum { def, raw: *raw }
            }
            (_, Val::Bool(b)) => Value::Bool(*b),
            (_, Val::Int(n) | Val::Enum(_, n)) => Value::Int(Int::Signed(*n)),
            _ => Value::Absent,
        }
    }
}

/// Releases what expressions kept in the structures of `value` (arguments, instances computed
/// once), which may link a value to the values around it, in a cycle.
pub(crate) fn release(value: &Value) {
    match value {
        Value::Struct(node) => {
            node.release();
            for field in node.fields.borrow().iter().flatten() {
                release(field);
            }
        }
        Value::List(items) | Value::Vector(items) => items.iter().for_each(release),
        Value::Case(_, inner) => release(inner),
        Value::Decoded(decoded) => release(&decoded.value),
        _ => {}
    }
}

impl PartialEq for Struct {
    fn eq(&self, other: &Self) -> bool {
        self.ty == other.ty
            && *self.fields.borrow() == *other.fields.borrow()
            && *self.args() == *other.args()
            && *self.unclaimed.borrow() == *other.unclaimed.borrow()
    }
}

/// A stream that is a range of the file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Io {
    /// Where it starts in the file (for decoded bytes, where the value they stand for starts).
    pub start: u64,
    /// How many bytes it has.
    pub len: usize,
    /// Its bytes when they are decoded ones, not a range of the file (shared by the values
    /// read from them).
    pub decoded: Option<Rc<[u8]>>,
    /// Which buffer `decoded` is, so that the readers made from it read one stream (the
    /// file's when it is a range of the file).
    pub buffer: rt::stream::Buffer,
}

impl Io {
    /// The stream's bytes, given the file.
    pub fn bytes<'a>(&'a self, file: &'a [u8]) -> &'a [u8] {
        match &self.decoded {
            Some(bytes) => bytes,
            None => usize::try_from(self.start)
                .ok()
                .and_then(|start| file.get(start..start.checked_add(self.len)?))
                .unwrap_or_default(),
        }
    }
}

/// The document keys of a type's fields, in the order of its fields (`None` for a field not
/// in documents), shared by every value of the type.
pub(crate) type Keys = Rc<[Option<Rc<str>>]>;

/// The document key of a root value's unclaimed bytes (see [`Struct`]).
pub(crate) const UNCLAIMED: &str = "unclaimed";

/// The names of the components of a quaternion; a vector has the first three.
pub(crate) const COMPONENTS: [&str; 4] = ["x", "y", "z", "w"];

/// A value as expressions see it.
#[derive(Debug, Clone)]
pub(crate) enum Val {
    Int(i64),
    Float(f64),
    Bool(bool),
    /// Text, by its bytes.
    Str(Vec<u8>),
    Bytes(Vec<u8>),
    Enum(usize, i64),
    Struct(Link),
    List(Vec<Val>),
    /// A stream, the position in it and whether every bit of it is read.
    Io(Io, usize, bool),
    /// An absent value: it equals nothing.
    Null,
}

/// A value as error messages name it: a number, a short text, or its kind (a structure or a
/// list is not printed whole).
impl Val {
    /// Whether it holds a structure, which links it to the values around that one.
    fn links(&self) -> bool {
        match self {
            Val::Struct(_) => true,
            Val::List(items) => items.iter().any(Val::links),
            _ => false,
        }
    }

    /// The value as an integer, where an expression needs one: an enum's value, 0 for nothing
    /// (an absent number).
    pub(crate) fn into_int(self) -> Result<i64, String> {
        match self {
            Val::Int(n) | Val::Enum(_, n) => Ok(n),
            Val::Null => Ok(0),
            other => Err(rt::__private::messages::expected(
                rt::__private::messages::Kind::Integer,
                other,
            )),
        }
    }
}

impl std::fmt::Display for Val {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        const SHOWN: usize = 32;
        match self {
            Val::Int(n) => write!(f, "{n}"),
            Val::Float(x) => write!(f, "{x}"),
            Val::Bool(b) => write!(f, "{b}"),
            Val::Str(s) => {
                let text = String::from_utf8_lossy(&s[..s.len().min(SHOWN)]);
                let more = if s.len() > SHOWN { "…" } else { "" };
                write!(f, "the string {text:?}{more}")
            }
            Val::Bytes(b) => {
                let hex = rt::bytes::to_hex(&b[..b.len().min(SHOWN)]);
                let more = if b.len() > SHOWN { "…" } else { "" };
                write!(f, "the bytes {hex}{more}")
            }
            Val::Enum(_, n) => write!(f, "the enum value {n}"),
            Val::Struct(_) => write!(f, "{}", rt::__private::messages::Kind::Structure),
            Val::List(items) => write!(f, "a list of {} elements", items.len()),
            Val::Io(..) => write!(f, "a stream"),
            Val::Null => write!(f, "nothing"),
        }
    }
}

/// A value an expression keeps in a structure: as computed while the structure is read, and by
/// weak links once it is (see [`Struct::release`]), so that no value keeps alive the values
/// that hold it.
#[derive(Debug)]
enum Held {
    /// As computed.
    Val(Val),
    /// A structure, by weak links to it and to the structures it was read in; held itself
    /// when nothing else holds it (an element of a packed list, made when it is asked for).
    Struct(Option<Rc<Struct>>, Vec<std::rc::Weak<Struct>>),
    /// A list holding structures.
    List(Vec<Held>),
}

impl Held {
    /// The value; a structure no longer held by anything is absent.
    fn val(&self) -> Val {
        match self {
            Held::Val(val) => val.clone(),
            // `_own` keeps the structure alive when nothing else does.
            Held::Struct(_own, chain) => {
                let mut link = None;
                for node in chain.iter().rev() {
                    let Some(node) = node.upgrade() else {
                        return Val::Null;
                    };
                    link = Some(Link::new(node, link));
                }
                link.map_or(Val::Null, Val::Struct)
            }
            Held::List(items) => Val::List(items.iter().map(Held::val).collect()),
        }
    }

    /// The same value by weak links.
    fn weaken(&mut self) {
        let Held::Val(val) = self else {
            return;
        };
        *self = match val {
            Val::Struct(link) => {
                let own = (Rc::strong_count(link.node()) == 1).then(|| link.node().clone());
                let chain = std::iter::successors(Some(&*link), |l| l.0.parent.as_ref());
                Held::Struct(own, chain.map(|l| Rc::downgrade(l.node())).collect())
            }
            Val::List(items) if items.iter().any(Val::links) => {
                let mut items: Vec<Held> = items.drain(..).map(Held::Val).collect();
                items.iter_mut().for_each(Held::weaken);
                Held::List(items)
            }
            _ => return,
        };
    }
}

/// A structure with the structures it was read in (`_parent`, `_root`).
#[derive(Debug, Clone)]
pub(crate) struct Link(pub Rc<Chain>);

/// One structure and the link to the structure that holds it.
#[derive(Debug)]
pub(crate) struct Chain {
    pub node: Rc<Struct>,
    pub parent: Option<Link>,
}

impl Link {
    /// A structure held by `parent` (none for the root).
    pub fn new(node: Rc<Struct>, parent: Option<Link>) -> Self {
        Link(Rc::new(Chain { node, parent }))
    }

    pub(crate) fn node(&self) -> &Rc<Struct> {
        &self.0.node
    }

    /// The structure's type.
    pub fn ty(&self) -> usize {
        self.0.node.ty
    }

    /// Sets field `index` of the structure (a value read, or the elements read so far).
    pub fn set_field(&self, index: usize, value: Value) {
        self.0.node.fields.borrow_mut()[index] = Some(value);
    }
}
