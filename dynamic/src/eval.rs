//! Expressions evaluated on values read so far, with Kaitai's semantics as the generated code
//! has them: integers compute in `i64` with wrapping arithmetic, `/` and `%` round towards
//! negative infinity, an absent value equals nothing, strings compare by their bytes.

use skelcodec_codegen::expr::{BinOp, Expr, UnaryOp, to_source};
use skelcodec_codegen::model::{
    ByteOrder, Content, Field, FieldType, InstanceKind, IntType, NumberType, Scalar, Schema,
};
use skelcodec_codegen::names::IS_BE;
use skelcodec_runtime as rt;
use skelcodec_runtime::__private::messages::{self, Kind};

use crate::value::{Link, Val, Value};

/// Why an expression could not be evaluated: a message, reported at the reader's position.
pub(crate) type Evaluated = Result<Val, String>;

/// The names an expression sees besides the fields of its structure.
#[derive(Clone)]
pub(crate) struct Scope<'s> {
    pub schema: &'s Schema,
    /// The structure the expression belongs to.
    pub this: Link,
    /// `_index` of a repeated field's element.
    pub index: Option<i64>,
    /// `_` of `repeat-until`: the element just read.
    pub item: Option<Val>,
    /// The whole file, from which value instances read by position; `None` while a value is
    /// written, where what needs the stream (`_io`, look-aheads, sizes as read) is unknown.
    pub file: Option<&'s [u8]>,
    /// The `_parent` of the user values read in this scope when the field gives one
    /// (`parent:`; `Some(None)` for `parent: false`), instead of `this`.
    pub parent: Option<Option<Link>>,
    /// The resolved trees of the read path's expressions, when this scope reads (see
    /// [`crate::tree`]): a site with one is evaluated through it.
    pub trees: Option<&'s crate::tree::Trees>,
}

impl<'s> Scope<'s> {
    /// The scope of a structure's own expressions while it is read from `file`.
    pub fn of(schema: &'s Schema, this: Link, file: &'s [u8]) -> Self {
        Scope {
            schema,
            this,
            index: None,
            item: None,
            file: Some(file),
            parent: None,
            trees: None,
        }
    }

    /// The scope of a structure's own expressions while it is written.
    pub fn writing(schema: &'s Schema, this: Link) -> Self {
        Scope {
            file: None,
            ..Scope::of(schema, this, &[])
        }
    }

    /// The structure's stream stands where `r` does (`_io.pos`, `_io.eof`), while it is read.
    pub fn at(&self, r: &skelcodec_runtime::Reader<'_>) {
        self.this.node().pos.set((r.pos(), r.is_eof()));
    }

    /// Evaluates `e`, an expression of the read path (a site of [`crate::tree::Trees`]):
    /// through its resolved tree when it has one, else as written.
    pub fn eval_site(&self, e: &Expr) -> Evaluated {
        if let Some(trees) = self.trees {
            if let Some(tree) = trees.get(e) {
                return crate::tree::eval(self, trees, tree, e);
            }
            trees.note_fallback();
        }
        self.eval(e)
    }

    /// [`Scope::eval_site`] of an integer.
    pub fn int_site(&self, e: &Expr) -> Result<i64, String> {
        self.eval_site(e)?.into_int()
    }

    /// [`Scope::eval_site`] of a condition.
    pub fn bool_site(&self, e: &Expr) -> Result<bool, String> {
        as_bool(self.eval_site(e)?)
    }

    /// Evaluates `e`.
    pub fn eval(&self, e: &Expr) -> Evaluated {
        match e {
            Expr::Int(n) => int_literal(*n),
            Expr::Float(f) => Ok(Val::Float(*f)),
            Expr::Bool(b) => Ok(Val::Bool(*b)),
            Expr::Str(s) => Ok(Val::Str(s.as_bytes().to_vec())),
            Expr::Name(name) => self.name(name),
            Expr::EnumLit { enum_name, variant } => self.enum_literal(enum_name, variant),
            Expr::Unary(op, inner) => unary(*op, self.eval(inner)?),
            Expr::Binary(op, a, b) => self.binary(*op, a, b),
            Expr::Ternary(cond, then, otherwise) => match self.eval(cond)? {
                Val::Bool(true) => self.eval(then),
                Val::Bool(false) => self.eval(otherwise),
                other => Err(format!("`?:` needs a condition, found {other}")),
            },
            Expr::Attr(base, name) => self.attr(base, name),
            Expr::Method(recv, name, args) => self.method(recv, name, args),
            Expr::Index(list, index) => {
                let (list, index) = (self.eval(list)?, self.int(index)?);
                item_at(list, index)
            }
            Expr::Cast(inner, target) => {
                let value = self.eval(inner)?;
                Ok(match (NumberType::named(target), value) {
                    (Some(NumberType::Int(_)), Val::Float(f)) => Val::Int(f as i64),
                    (Some(NumberType::F4), Val::Int(n)) => Val::Float(f64::from(n as f32)),
                    (Some(NumberType::F4), Val::Float(f)) => Val::Float(f64::from(f as f32)),
                    (Some(NumberType::F8), Val::Int(n)) => Val::Float(n as f64),
                    // A switch value taken as one of its cases, or a value already of the type.
                    (_, value) => value,
                })
            }
            Expr::Present(value) => self
                .stored(value, |v| !matches!(v, Value::Absent))
                .map(Val::Bool),
            Expr::Holds(value, case) => self
                .stored(
                    value,
                    |v| matches!(v, Value::Case(name, _) if **name == *case),
                )
                .map(Val::Bool),
            Expr::Call(name, args) => self.call(name, args),
            Expr::SizeOf { ty, bits } => {
                let size = (self.schema.sizeof_named(self.this.ty(), ty))
                    .ok_or_else(|| format!("`{ty}` has no fixed size"))?;
                Ok(Val::Int(size as i64 * if *bits { 8 } else { 1 }))
            }
            Expr::List(items) => items
                .iter()
                .map(|item| self.eval(item))
                .collect::<Result<_, _>>()
                .map(Val::List),
            Expr::FString(parts) => {
                let mut out = Vec::new();
                for part in parts {
                    format_part(&mut out, self.eval(part)?)?;
                }
                Ok(Val::Str(out))
            }
        }
    }

    /// The size of the bytes a parse instance read on demand is read from (its `size`), when
    /// it has one and it can be computed.
    pub fn window_len(&self, field: &skelcodec_codegen::model::Field) -> Option<i64> {
        use skelcodec_codegen::model::Size;
        let size = match (&field.substream, &field.ty) {
            (Some(size), _) | (None, FieldType::Bytes { size, .. }) => size,
            _ => return None,
        };
        match size {
            Size::Const(n) => Some(*n as i64),
            Size::Expr(e) => self.int(e).ok(),
            _ => None,
        }
    }

    /// Evaluates an integer.
    pub fn int(&self, e: &Expr) -> Result<i64, String> {
        self.eval(e)?.into_int()
    }

    /// Evaluates a condition.
    pub fn bool(&self, e: &Expr) -> Result<bool, String> {
        as_bool(self.eval(e)?)
    }

    fn name(&self, name: &str) -> Evaluated {
        match name {
            "_index" => self
                .index
                .map(Val::Int)
                .ok_or_else(|| "`_index` outside a repeated field".to_owned()),
            "_" => self
                .item
                .clone()
                .ok_or_else(|| "`_` outside `repeat-until`".to_owned()),
            _ => member(self.schema, &self.this, name, self.file),
        }
    }

    /// `test` of the value as stored of `value`, a field of this structure (what it holds, not
    /// what expressions see of it: a present `contents` is no value to them); an instance not
    /// read is absent.
    fn stored<T>(&self, value: &Expr, test: impl FnOnce(&Value) -> T) -> Result<T, String> {
        let node = self.this.node();
        let fields = &self.schema.types[node.ty].fields;
        let index = match value {
            Expr::Name(name) => fields.iter().position(|f| f.id == *name),
            _ => None,
        };
        let stored = node.fields.borrow();
        match index {
            Some(i) => Ok(test(stored[i].as_ref().unwrap_or(&Value::Absent))),
            None => Err(format!("`{}` is no field", to_source(value))),
        }
    }

    fn enum_literal(&self, enum_name: &str, variant: &str) -> Evaluated {
        let (idx, variant) =
            (self.schema).resolve_enum_value(self.this.ty(), enum_name, variant)?;
        Ok(Val::Enum(idx, variant.value))
    }

    fn binary(&self, op: BinOp, a: &Expr, b: &Expr) -> Evaluated {
        if matches!(op, BinOp::And | BinOp::Or) {
            let a = self.bool(a)?;
            // Both sides are evaluated only as far as Rust's `&&` and `||` evaluate them.
            return Ok(Val::Bool(match op {
                BinOp::And => a && self.bool(b)?,
                _ => a || self.bool(b)?,
            }));
        }
        let (a, b) = (self.eval(a)?, self.eval(b)?);
        if op.is_comparison() {
            return compare(op, &a, &b).map(Val::Bool);
        }
        arithmetic(op, a, b)
    }

    fn attr(&self, base: &Expr, name: &str) -> Evaluated {
        if name == "_sizeof"
            && let Some(size) = self.field_sizeof(base)?
        {
            return Ok(Val::Int(size as i64));
        }
        if let Some(len) = self.list_len(base, name) {
            return Ok(Val::Int(len as i64));
        }
        let value = self.eval(base)?;
        match (value, name) {
            (Val::Struct(link), _) => member(self.schema, &link, name, self.file),
            (Val::Io(_, pos, _), "pos") => Ok(Val::Int(pos as i64)),
            (Val::Io(io, ..), "size") => Ok(Val::Int(io.len as i64)),
            (Val::Io(.., eof), "eof") => Ok(Val::Bool(eof)),
            (Val::List(items), "size" | "length") => Ok(Val::Int(items.len() as i64)),
            (Val::List(items), "first") => Ok(items.into_iter().next().unwrap_or(Val::Null)),
            (Val::List(items), "last") => Ok(items.into_iter().last().unwrap_or(Val::Null)),
            (Val::List(items), "min" | "max") => {
                let better = if name == "min" { BinOp::Lt } else { BinOp::Gt };
                let mut best: Option<Val> = None;
                for item in items {
                    best = Some(match best {
                        Some(best) if !compare(better, &item, &best)? => best,
                        _ => item,
                    });
                }
                best.ok_or_else(|| format!("`{name}` of an empty list"))
            }
            (Val::Bytes(b), "size" | "length") => Ok(Val::Int(b.len() as i64)),
            (Val::Bytes(b), "first") => Ok(b.first().map_or(Val::Null, |x| Val::Int((*x).into()))),
            (Val::Bytes(b), "last") => Ok(b.last().map_or(Val::Null, |x| Val::Int((*x).into()))),
            (Val::Bytes(b), "min") => {
                Ok(b.iter().min().map_or(Val::Null, |x| Val::Int((*x).into())))
            }
            (Val::Bytes(b), "max") => {
                Ok(b.iter().max().map_or(Val::Null, |x| Val::Int((*x).into())))
            }
            (Val::Str(s), "length") => {
                Ok(Val::Int(String::from_utf8_lossy(&s).chars().count() as i64))
            }
            (Val::Str(s), "reverse") => Ok(Val::Str(rt::bytes::reverse_text(&s))),
            (Val::Str(s), "to_i") => number(&s, 10),
            (Val::Int(n), "to_s") => Ok(Val::Str(rt::bytes::decimal(n))),
            (Val::Float(f), "to_i") => Ok(Val::Int(f as i64)),
            (Val::Enum(_, n), "to_i") => Ok(Val::Int(n)),
            (Val::Bool(b), "to_i") => Ok(Val::Int(i64::from(b))),
            // What an absent value holds is absent too (the generated code's `map_or`): the
            // size of an absent list reads as 0.
            (Val::Null, _) => Ok(Val::Null),
            (other, name) => Err(format!("no property `{name}` of {other}")),
        }
    }

    /// `size` of a list field of this structure (`channels.size`), counted as stored: what
    /// the list's value in expressions would count, without making it (its elements, each a
    /// structure, a copy of a string). `None` for anything else.
    fn list_len(&self, base: &Expr, name: &str) -> Option<usize> {
        let Expr::Name(field) = base else {
            return None;
        };
        if !matches!(name, "size" | "length") || field.starts_with('_') {
            return None;
        }
        let node = self.this.node();
        let index = (self.schema.types[node.ty].fields.iter()).position(|f| f.id == *field)?;
        match node.fields.borrow()[index].as_ref()? {
            Value::List(items) => Some(items.len()),
            Value::Packed(packed) => Some(packed.len()),
            _ => None,
        }
    }

    /// `_sizeof` of a field (`magic._sizeof`, `header.len._sizeof`): the bytes it takes, fixed
    /// by its type or taken by its value as read; `None` when `base` names no field.
    fn field_sizeof(&self, base: &Expr) -> Result<Option<usize>, String> {
        if let Expr::Index(list, at) = base
            && let Expr::Name(name) = list.as_ref()
        {
            return self.element_sizeof(name, self.int(at)?);
        }
        let (holder, name) = match base {
            Expr::Name(name) => (self.this.clone(), name),
            Expr::Attr(inner, name) => match self.eval(inner)? {
                Val::Struct(link) => (link, name),
                _ => return Ok(None),
            },
            _ => return Ok(None),
        };
        let def = &self.schema.types[holder.ty()];
        let Some(index) = def.fields.iter().position(|f| f.id == *name) else {
            return Ok(None);
        };
        if let Some(size) = self.schema.static_field_size(&def.fields[index]) {
            return Ok(Some(size));
        }
        self.file.ok_or_else(needs_stream)?;
        let fields = holder.node().fields.borrow();
        let Some(value) = fields[index].as_ref() else {
            return Ok(None);
        };
        if let Value::Decoded(decoded) = value
            && let Some(len) = self.measured_len(&def.fields[index], decoded)
        {
            return Ok(Some(len));
        }
        Ok(Some(stored_len(value)))
    }

    /// The bytes the value `decoded` of `field`, measured as written (see
    /// [`Field::is_measured_as_written`]), is written as, as the generated code measures it.
    pub(crate) fn measured_len(
        &self,
        field: &Field,
        decoded: &rt::Decoded<Value>,
    ) -> Option<usize> {
        field.is_measured_as_written().then(|| {
            let stored = decoded.stored.0.len();
            self.reframed(field, decoded)
                .map_or(stored, |new| new.len())
        })
    }

    /// The new stored bytes of the value `decoded` of `field`, measured as written, once it is
    /// no longer stored as the bytes it has (see `rt::process::restored`).
    pub(crate) fn reframed(&self, field: &Field, decoded: &rt::Decoded<Value>) -> Option<Vec<u8>> {
        let decode = field
            .decode
            .as_ref()
            .filter(|_| field.is_measured_as_written())?;
        let value = decoded.value.text_or_bytes()?;
        let processor = crate::process::processor(decode, &|e| self.eval(e)).ok()?;
        let data = (value, decoded.rest.0.as_slice());
        let stored = &decoded.stored.0;
        let frame = decode.frame(decode.reframed_size().of(stored));
        rt::process::restored(&processor, data, stored, frame)
    }

    /// `_sizeof` of element `at` of the list field `name` of this structure (`segments[_index]`):
    /// the bytes it takes as read; `None` when `name` is no list field or has no such element.
    fn element_sizeof(&self, name: &str, at: i64) -> Result<Option<usize>, String> {
        let def = &self.schema.types[self.this.ty()];
        let Some(index) = def.fields.iter().position(|f| f.id == name) else {
            return Ok(None);
        };
        self.file.ok_or_else(needs_stream)?;
        let fields = self.this.node().fields.borrow();
        let at = usize::try_from(at).ok();
        Ok(match (&fields[index], at) {
            (Some(Value::List(items)), Some(at)) => items.get(at).map(stored_len),
            (Some(Value::Packed(packed)), Some(at)) => {
                (at < packed.len()).then_some(packed.layout.size)
            }
            _ => None,
        })
    }

    /// `crc32(bytes)`, `adler32(bytes)` and `inflated(bytes)`, the functions of `-derived`
    /// (the checker refuses them elsewhere); `inflated` of bytes that are no whole raw
    /// deflate stream fails.
    fn call(&self, name: &str, args: &[Expr]) -> Evaluated {
        let [arg] = args else {
            return Err(format!("`{name}(…)` takes one value"));
        };
        let bytes = match self.eval(arg)? {
            Val::Bytes(bytes) => bytes,
            other => return Err(format!("`{name}(…)` takes bytes, found {other}")),
        };
        match name {
            "crc32" => Ok(Val::Int(rt::checksum::crc32(&bytes).into())),
            "adler32" => Ok(Val::Int(rt::checksum::adler32(&bytes).into())),
            "inflated" => rt::process::inflated(&bytes)
                .map(Val::Bytes)
                .map_err(|e| e.kind().to_string()),
            other => Err(format!("unknown function `{other}`")),
        }
    }

    fn method(&self, recv: &Expr, name: &str, args: &[Expr]) -> Evaluated {
        let value = self.eval(recv)?;
        match (value, name, args) {
            (Val::Bytes(b), "to_s", [Expr::Str(label)]) => decoded(&b, label),
            (Val::List(items), "to_s", [Expr::Str(label)]) => {
                let ints = items.into_iter().map(Val::into_int);
                decoded(
                    &rt::bytes::from_ints(&ints.collect::<Result<Vec<_>, _>>()?),
                    label,
                )
            }
            (Val::Str(s), "to_i", [radix]) => number(&s, self.int(radix)?),
            (Val::Str(s), "substring", [from, to]) => Ok(Val::Str(rt::bytes::substring(
                &s,
                self.int(from)?,
                self.int(to)?,
            ))),
            (Val::List(items), "sum", [body]) => {
                let mut sum = 0i64;
                for item in items {
                    let scope = Scope {
                        item: Some(item),
                        ..self.clone()
                    };
                    sum = sum.wrapping_add(scope.int(body)?);
                }
                Ok(Val::Int(sum))
            }
            (other, name, _) => Err(format!("no method `{name}` of {other}")),
        }
    }
}

/// A value as a condition: an absent one is false.
pub(crate) fn as_bool(value: Val) -> Result<bool, String> {
    match value {
        Val::Bool(b) => Ok(b),
        Val::Null => Ok(false),
        other => Err(messages::expected(Kind::Boolean, other)),
    }
}

/// `bytes.to_s(label)`: the bytes decoded as text in the encoding `label` names.
pub(crate) fn decoded(bytes: &[u8], label: &str) -> Evaluated {
    let encoding = rt::encoding::Encoding::for_label(label)
        .ok_or_else(|| rt::__private::messages::unknown_encoding(label))?;
    Ok(Val::Str(encoding.decode(bytes).into_owned().into_bytes()))
}

/// Why an expression cannot be evaluated while a value is written: the stream it reads from
/// is the one being written.
pub(crate) fn needs_stream() -> String {
    "this needs the stream being read, which a writer does not have".to_owned()
}

fn int_literal(n: i128) -> Evaluated {
    // A literal above `i64::MAX` takes the same bits, as the generated code does.
    match (i64::try_from(n), u64::try_from(n)) {
        (Ok(n), _) => Ok(Val::Int(n)),
        (Err(_), Ok(unsigned)) => Ok(Val::Int(unsigned as i64)),
        _ => Err(messages::too_wide(n)),
    }
}

pub(crate) fn unary(op: UnaryOp, value: Val) -> Evaluated {
    match (op, value) {
        (UnaryOp::Not, Val::Bool(b)) => Ok(Val::Bool(!b)),
        (UnaryOp::Neg, Val::Int(n)) => Ok(Val::Int(n.wrapping_neg())),
        (UnaryOp::Neg, Val::Float(f)) => Ok(Val::Float(-f)),
        (UnaryOp::BitNot, Val::Int(n)) => Ok(Val::Int(!n)),
        (op, other) => Err(format!("cannot apply {op:?} to {other}")),
    }
}

/// `part` of an f-string appended to `out`: text as it is, integers in decimal.
pub(crate) fn format_part(out: &mut Vec<u8>, part: Val) -> Result<(), String> {
    match part {
        Val::Str(s) => out.extend(s),
        Val::Int(n) => out.extend(n.to_string().into_bytes()),
        other => return Err(format!("cannot format {other}")),
    }
    Ok(())
}

/// The element `index` of the list or byte array `list` (a byte as an integer); absent
/// (null) out of range.
pub(crate) fn item_at(list: Val, index: i64) -> Evaluated {
    let item = match list {
        Val::List(items) => usize::try_from(index)
            .ok()
            .and_then(|i| items.into_iter().nth(i)),
        Val::Bytes(bytes) => usize::try_from(index)
            .ok()
            .and_then(|i| bytes.get(i).map(|b| Val::Int(i64::from(*b)))),
        other => return Err(format!("cannot index {other}")),
    };
    Ok(item.unwrap_or(Val::Null))
}

/// `a op b` of two integers, wrapping as Kaitai's 64-bit integers do; `None` for an operator
/// that needs other operands.
pub(crate) fn int_arithmetic(op: BinOp, a: i64, b: i64) -> Option<i64> {
    Some(match op {
        BinOp::Add => a.wrapping_add(b),
        BinOp::Sub => a.wrapping_sub(b),
        BinOp::Mul => a.wrapping_mul(b),
        BinOp::Div => rt::__private::arith::div(a, b),
        BinOp::Mod => rt::__private::arith::modulo(a, b),
        BinOp::Shl => a.wrapping_shl(b as u32),
        BinOp::Shr => a.wrapping_shr(b as u32),
        BinOp::BitAnd => a & b,
        BinOp::BitOr => a | b,
        BinOp::BitXor => a ^ b,
        _ => return None,
    })
}

pub(crate) fn arithmetic(op: BinOp, a: Val, b: Val) -> Evaluated {
    match (a, b) {
        (Val::Str(a), Val::Str(b)) if op == BinOp::Add => Ok(Val::Str(rt::bytes::concat(&a, &b))),
        (Val::Int(a), Val::Int(b)) => match int_arithmetic(op, a, b) {
            Some(n) => Ok(Val::Int(n)),
            None => Err(format!("`{}` needs other operands", op.symbol())),
        },
        (Val::Int(a), Val::Float(b)) => float_arithmetic(op, a as f64, b),
        (Val::Float(a), Val::Int(b)) => float_arithmetic(op, a, b as f64),
        (Val::Float(a), Val::Float(b)) => float_arithmetic(op, a, b),
        (a, b) => Err(messages::needs_numbers(
            op.symbol(),
            format_args!("{a:?}"),
            format_args!("{b:?}"),
        )),
    }
}

fn float_arithmetic(op: BinOp, a: f64, b: f64) -> Evaluated {
    Ok(Val::Float(match op {
        BinOp::Add => a + b,
        BinOp::Sub => a - b,
        BinOp::Mul => a * b,
        BinOp::Div => a / b,
        _ => return Err(messages::needs_integers(op.symbol())),
    }))
}

/// Compares two values; an absent value equals nothing.
pub(crate) fn compare(op: BinOp, a: &Val, b: &Val) -> Result<bool, String> {
    use std::cmp::Ordering;
    let order: Option<Ordering> = match (a, b) {
        (Val::Null, _) | (_, Val::Null) => return Ok(op == BinOp::Ne),
        (Val::Int(a), Val::Int(b)) => Some(a.cmp(b)),
        (Val::Int(a), Val::Float(b)) => (*a as f64).partial_cmp(b),
        (Val::Float(a), Val::Int(b)) => a.partial_cmp(&(*b as f64)),
        (Val::Float(a), Val::Float(b)) => a.partial_cmp(b),
        (Val::Bool(a), Val::Bool(b)) => Some(a.cmp(b)),
        (Val::Enum(_, a), Val::Enum(_, b)) => Some(a.cmp(b)),
        (Val::Str(a), Val::Str(b)) | (Val::Bytes(a), Val::Bytes(b)) => Some(a.cmp(b)),
        (Val::Bytes(a), Val::List(b)) => byte_list(b).map(|b| a.as_slice().cmp(b.as_slice())),
        (Val::List(a), Val::Bytes(b)) => byte_list(a).map(|a| a.as_slice().cmp(b.as_slice())),
        // Lists are equal when their elements are, one by one.
        (Val::List(a), Val::List(b)) if matches!(op, BinOp::Eq | BinOp::Ne) => {
            let mut equal = a.len() == b.len();
            for (a, b) in a.iter().zip(b) {
                equal = equal && compare(BinOp::Eq, a, b)?;
            }
            return Ok(equal == (op == BinOp::Eq));
        }
        (a, b) => {
            return Err(messages::cannot_compare(
                format_args!("{a:?}"),
                format_args!("{b:?}"),
            ));
        }
    };
    // NaN compares unequal to everything, as `f64` does.
    Ok(match order {
        None => op == BinOp::Ne,
        Some(o) => match op {
            BinOp::Eq => o == Ordering::Equal,
            BinOp::Ne => o != Ordering::Equal,
            BinOp::Lt => o == Ordering::Less,
            BinOp::Le => o != Ordering::Greater,
            BinOp::Gt => o == Ordering::Greater,
            _ => o != Ordering::Less,
        },
    })
}

/// A list of integers as the bytes it spells, when each is a byte.
fn byte_list(items: &[Val]) -> Option<Vec<u8>> {
    (items.iter())
        .map(|v| match v {
            Val::Int(n) => u8::try_from(*n).ok(),
            _ => None,
        })
        .collect()
}

/// `name` of the structure `link`: a field read so far, a parameter, an instance, or one of
/// `_parent`, `_root`, `_io`, `_sizeof`.
pub(crate) fn member(schema: &Schema, link: &Link, name: &str, file: Option<&[u8]>) -> Evaluated {
    let node = link.node();
    let def = &schema.types[node.ty];
    // The names of the structure's own members start with a letter.
    match name {
        _ if !name.starts_with('_') => {}
        // Kaitai passes `_parent` and `_root` only between the types of one file.
        "_parent" => {
            let parent = link.0.parent.clone();
            let home = |link: &Link| schema.types[link.ty()].at.file();
            let local = parent.filter(|parent| home(parent) == home(link));
            return Ok(local.map_or(Val::Null, Val::Struct));
        }
        "_root" => return Ok(file_root(schema, link).map_or(Val::Null, Val::Struct)),
        "_io" => {
            file.ok_or_else(needs_stream)?;
            let (pos, eof) = node.pos.get();
            return Ok(Val::Io(node.io.clone(), pos, eof));
        }
        // The byte order the type chose; a type that does not choose has it as a parameter.
        IS_BE if node.is_be.get().is_some() => {
            return Ok(node.is_be.get().map_or(Val::Null, Val::Bool));
        }
        "_sizeof" => {
            file.ok_or_else(needs_stream)?;
            let (start, end) = node.span.get();
            return Ok(Val::Int(end.saturating_sub(start) as i64));
        }
        _ => {}
    }
    if let Some(i) = def.fields.iter().position(|f| f.id == name) {
        let fields = node.fields.borrow();
        let Some(value) = &fields[i] else {
            return Err(messages::not_read_yet(name));
        };
        return Ok(to_val(&def.fields[i].ty, value, link));
    }
    if let Some(i) = def.params.iter().position(|p| p.id == name) {
        return Ok(node.param(i).unwrap_or(Val::Null));
    }
    if let Some(i) = def.instances.iter().position(|p| p.id == name) {
        if let InstanceKind::Peek {
            pos,
            ty,
            cond,
            enum_idx,
        } = &def.instances[i].kind
        {
            return look_ahead(schema, link, i, file, (pos, *ty, cond.as_ref(), *enum_idx));
        }
        if let Some(known) = node.instance(i) {
            return Ok(known);
        }
        let value = instance(schema, link, i, file)?;
        node.keep_instance(i, value.clone());
        return Ok(value);
    }
    Err(format!("`{}` has no member `{name}`", def.id))
}

/// `_root` of the structure `link`: the root value of the file that declares its type, as
/// Kaitai never passes `_root` from one file's types to another's (an imported schema's
/// types see the value of its root type that holds them); none when no such value holds it.
fn file_root(schema: &Schema, link: &Link) -> Option<Link> {
    let home = schema.types[link.ty()].at.file();
    let target = schema.file_root(link.ty());
    let mut found = None;
    let mut at = Some(link.clone());
    while let Some(node) = at {
        if schema.types[node.ty()].at.file() != home {
            break;
        }
        if node.ty() == target {
            found = Some(node.clone());
        }
        at = node.0.parent.clone();
    }
    found
}

/// Computes instance `i` of the structure `link`.
pub(crate) fn instance(schema: &Schema, link: &Link, i: usize, file: Option<&[u8]>) -> Evaluated {
    let scope = Scope {
        file,
        ..Scope::of(schema, link.clone(), &[])
    };
    match &schema.types[link.node().ty].instances[i].kind {
        InstanceKind::Value {
            value,
            cond,
            enum_idx,
        } => {
            if let Some(cond) = cond
                && !scope.bool(cond)?
            {
                return Ok(Val::Null);
            }
            let value = scope.eval(value)?;
            Ok(match (enum_idx, value) {
                (Some(idx), Val::Int(n)) => Val::Enum(*idx, n),
                (_, value) => value,
            })
        }
        InstanceKind::Peek { .. } => Err("a look-ahead is not computed as a value".into()),
    }
}

/// Look-ahead instance `i` of the structure `link`: the integer at a position of its stream,
/// read without moving and once (-1 past the end); its `if` is evaluated at each use, and
/// when it does not hold nothing is read (as in Kaitai, which does not even seek).
pub(crate) fn look_ahead(
    schema: &Schema,
    link: &Link,
    i: usize,
    file: Option<&[u8]>,
    (pos, int, cond, enum_idx): (&Expr, IntType, Option<&Expr>, Option<usize>),
) -> Evaluated {
    let file = file.ok_or_else(needs_stream)?;
    let scope = Scope::of(schema, link.clone(), file);
    if let Some(cond) = cond
        && !scope.bool(cond)?
    {
        return Ok(Val::Null);
    }
    let node = link.node();
    let known = node.instance(i);
    let raw = match known {
        Some(raw) => raw,
        None => {
            let found = peek_at(&scope, pos, int)?;
            let raw = Val::Int(found.map_or(-1, |(_, n)| n.as_i64()));
            node.keep_instance(i, raw.clone());
            raw
        }
    };
    Ok(match (enum_idx, raw) {
        (Some(idx), Val::Int(n)) => Val::Enum(idx, n),
        (_, raw) => raw,
    })
}

/// The integer a look-ahead reads at `pos` of the stream of the scope's structure, with
/// where it is in that stream; `None` past its end.
fn peek_at(
    scope: &Scope<'_>,
    pos: &Expr,
    int: IntType,
) -> Result<Option<(usize, crate::value::Int)>, String> {
    let file = scope.file.ok_or_else(needs_stream)?;
    let at = scope.int(pos)?;
    let size = usize::from(int.bytes);
    let bytes = scope.this.node().io.bytes(file);
    let found = usize::try_from(at)
        .ok()
        .and_then(|at| Some((at, bytes.get(at..at.checked_add(size)?)?)));
    let Some((at, raw)) = found else {
        return Ok(None);
    };
    let big = match int.order {
        ByteOrder::Big => true,
        ByteOrder::Little => false,
        ByteOrder::Chosen => scope.bool(&Expr::Name(IS_BE.to_owned()))?,
    };
    Ok(Some((at, crate::value::Int::decode(raw, int, big))))
}

/// What look-ahead instance `i` of the structure `link` reads, for a field map: where in its
/// structure's stream, its type and its value; `None` when its `if` does not hold, it is
/// past the end, or it cannot be computed (nothing is read then). Not kept in the structure:
/// mapping changes no value.
pub(crate) fn peeked(
    schema: &Schema,
    link: &Link,
    i: usize,
    file: &[u8],
) -> Option<(usize, FieldType, Value)> {
    let InstanceKind::Peek {
        pos,
        ty,
        cond,
        enum_idx,
    } = &schema.types[link.ty()].instances.get(i)?.kind
    else {
        return None;
    };
    let scope = Scope::of(schema, link.clone(), file);
    if let Some(cond) = cond
        && !scope.bool(cond).ok()?
    {
        return None;
    }
    let (at, n) = peek_at(&scope, pos, *ty).ok()??;
    Some(match enum_idx {
        Some(idx) => (
            at,
            FieldType::Enum {
                enum_idx: *idx,
                raw: *ty,
            },
            Value::Enum {
                def: *idx,
                raw: n.as_i64(),
            },
        ),
        None => (at, FieldType::Number(Scalar::Int(*ty)), Value::Int(n)),
    })
}

/// How expressions see a stored value of type `ty`, held by the structure `holder`.
pub(crate) fn to_val(ty: &FieldType, value: &Value, holder: &Link) -> Val {
    let content = |raw: &[u8]| match ty {
        FieldType::Str { content, .. } | FieldType::Bytes { content, .. } => {
            view(raw, *content).to_vec()
        }
        _ => raw.to_vec(),
    };
    match value {
        Value::Int(n) => Val::Int(n.as_i64()),
        Value::F32(f) => Val::Float(f64::from(*f)),
        Value::F64(f) => Val::Float(*f),
        Value::Fixed { raw, div } => Val::Float(raw.as_i128() as f64 / f64::from(*div)),
        Value::Vector(_) => Val::Null,
        Value::Bool(b) => Val::Bool(*b),
        Value::Enum { def, raw } => Val::Enum(*def, *raw),
        Value::FixedStr(raw) => Val::Str(content(raw)),
        Value::VarStr(s) => Val::Str(content(s.as_bytes())),
        Value::Text(s) => Val::Str(content(s.as_bytes())),
        Value::Bytes(b) => Val::Bytes(content(&b.0)),
        Value::Unit | Value::Absent | Value::Failed { .. } | Value::Cycle(_) => Val::Null,
        Value::Present => Val::Bool(true),
        Value::Struct(node) => Val::Struct(Link::new(node.clone(), Some(holder.clone()))),
        Value::List(items) => {
            let elem = match ty {
                FieldType::Array { elem, .. } => elem,
                ty => ty,
            };
            Val::List(
                items
                    .iter()
                    .map(|item| to_val(elem, item, holder))
                    .collect(),
            )
        }
        Value::Packed(packed) => {
            let elem = match ty {
                FieldType::Array { elem, .. } => elem,
                ty => ty,
            };
            let items = (0..packed.len()).map(|index| to_val(elem, &packed.element(index), holder));
            Val::List(items.collect())
        }
        Value::Case(_, inner) => to_val(&FieldType::Nothing, inner, holder),
        Value::Decoded(decoded) => to_val(ty, &decoded.value, holder),
    }
}

/// What of a string's or byte array's bytes expressions see (see [`Content`]).
fn view(raw: &[u8], content: Content) -> &[u8] {
    rt::bytes::content_in_units(
        raw,
        content.pad_right,
        content.terminator,
        content.include,
        usize::from(content.unit.max(1)),
    )
}

/// The bytes a value as read takes: its stored bytes, a structure's span, a list's elements.
pub(crate) fn stored_len(value: &Value) -> usize {
    match value {
        Value::Int(_)
        | Value::F32(_)
        | Value::F64(_)
        | Value::Fixed { .. }
        | Value::Vector(_)
        | Value::Bool(_)
        | Value::Enum { .. } => 0,
        Value::FixedStr(raw) => raw.len(),
        Value::VarStr(s) => s.as_bytes().len(),
        Value::Text(s) => s.len(),
        Value::Bytes(b) => b.0.len(),
        Value::Unit | Value::Absent | Value::Present | Value::Failed { .. } | Value::Cycle(_) => 0,
        Value::Struct(node) => {
            let (start, end) = node.span.get();
            end.saturating_sub(start)
        }
        Value::List(items) => items.iter().map(stored_len).sum(),
        Value::Packed(packed) => packed.bytes().len(),
        Value::Case(_, inner) => stored_len(inner),
        Value::Decoded(decoded) => decoded.stored.0.len(),
    }
}

/// `text.to_i(radix)`: the number, or the failure Kaitai raises for text that is none.
pub(crate) fn number(text: &[u8], radix: i64) -> Evaluated {
    rt::bytes::parse_int(text, radix)
        .map(Val::Int)
        .map_err(|e| format!("`to_i`: {e}"))
}
