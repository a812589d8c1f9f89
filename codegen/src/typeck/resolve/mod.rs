//! Resolves a schema expression into a [`Typed`] tree: literals, operators, enum values,
//! sizes, methods, the functions of `-derived` expressions and places (fields, parameters,
//! value instances, elements, `_index`, `_`, streams) are typed and decided here, once, from
//! the facts of the scope the [`Reach`] trait gives; what the tree does not hold yet (see
//! `typed`) the back end reaches through it.

use skelcodec_runtime::__private::messages;
use skelcodec_runtime::encoding::Encoding;

mod arguments;
mod places;
pub mod uses;

pub use self::arguments::given;
use self::places::{attribute, cast, item, name};
pub use self::places::{branches, instance_value, look_ahead_read};
use super::typed::*;
use crate::expr::{BinOp, Expr, UnaryOp};
use crate::model::Schema;

/// A scope an expression is resolved in, as a back end sees it.
pub trait Reach {
    /// The schema.
    fn schema(&self) -> &Schema;

    /// The type the expression is written in, whose scope names enums and types.
    fn scope_type(&self) -> usize;

    /// True in a `-derived` expression, where `crc32`, `adler32` and `inflated` are known.
    fn deriving(&self) -> bool;

    /// True where a failure of the expression is reported: readers, writers and value
    /// instances, not `-derived`, `to-string` or a default.
    fn reports_failure(&self) -> bool;

    /// Where the expression runs.
    fn mode(&self) -> Mode;

    /// While reading, how many fields of the scope's type are read already.
    fn visible_fields(&self) -> usize;

    /// The expression decides how bytes are read: `-untrusted` values are out of reach.
    fn decides_reading(&self) -> bool;

    /// The scope's names are those of another value, reached through it (an instance of
    /// `header` inlined in `header.version`).
    fn through_another_value(&self) -> bool;

    /// The type of `_`, where it is defined.
    fn element(&self) -> Option<Ty>;

    /// `_index` is defined.
    fn has_index(&self) -> bool;

    /// Inside one element of a repeated field being read or written, the field's name: the
    /// name means the elements before this one there.
    fn prior_field(&self) -> Option<&str>;

    /// A writer evaluates the expression where the reader does (the arguments of a value,
    /// where the value starts): `_io.pos` is the writer's own position there.
    fn at_writer_pos(&self) -> bool;

    /// The expression is an argument of a value read from bytes of its own (`size`,
    /// `process`), which a reader computes before those bytes are read, Kaitai after.
    fn before_own_bytes(&self) -> bool;

    /// The value in scope is the file's root itself, not another value of the root type
    /// (which the root type may hold: recursion).
    fn at_file_root(&self) -> bool;

    /// Where the scope's names are another value's (see [`Reach::through_another_value`]):
    /// the scope the whole expression is written in.
    fn home(&self) -> Option<Self>
    where
        Self: Sized;

    /// The scope inside a structure of type `ty`, where its instances are computed: `of`,
    /// or the structure in scope (one level deeper, see [`Reach::too_deep`]).
    fn instance_scope(&self, of: Option<&Typed>, ty: usize) -> Self
    where
        Self: Sized;

    /// Instances and look-aheads reached through instances nest too deeply here (an instance
    /// that refers to itself).
    fn too_deep(&self) -> bool;

    /// In a step inside a value that may be absent (see [`Reach::present_scope`]): that
    /// value, which [`Node::Present`] is.
    fn present_value(&self) -> Option<Typed>;

    /// The scope where arguments given as `given` are resolved: inside their holder, one
    /// level deeper.
    fn arguments_scope(&self, given: &Given) -> Self
    where
        Self: Sized;

    /// Where the scope's names are another value's: the scope where that value's arguments
    /// were given (one level deeper), and those arguments; `None` where it was given none
    /// that are known (it is no field's value).
    fn owner_arguments(&self) -> Option<(Self, &[Expr])>
    where
        Self: Sized;

    /// The scope where the value of `value`, which may be absent, is present (one level
    /// deeper), the [`Node::Present`] of a [`Node::WhenPresent`].
    fn present_scope(&self, value: &Typed) -> Self
    where
        Self: Sized;

    /// Told when a node that can fail is made where no leaf reports it (`inflated(…)`).
    fn note_failure(&self);

    /// The scope inside one element of a list whose elements have type `elem`, where `_` is
    /// that element.
    fn element_scope(&self, elem: Ty) -> Self
    where
        Self: Sized;

    /// The scope inside a structure of type `ty` reached from this one (one level deeper),
    /// where the arguments it was read with are not known.
    fn structure_scope(&self, ty: usize) -> Self
    where
        Self: Sized;
}

/// `e`, resolved in `scope`.
pub fn resolve<R: Reach>(scope: &R, e: &Expr) -> Result<Typed, ExprError> {
    // Instances and look-aheads are resolved where they are used, each one level deeper.
    if scope.too_deep() {
        return invalid("expression nests too deeply (an instance that refers to itself?)");
    }
    let leaf = |ty, node| Ok(typed(ty, false, node));
    match e {
        Expr::Int(n) => leaf(Ty::Int, Node::Int(int_value(*n)?)),
        Expr::Float(f) => leaf(Ty::Float, Node::Float(*f)),
        Expr::Bool(b) => leaf(Ty::Bool, Node::Bool(*b)),
        Expr::Str(s) => leaf(Ty::StrLit, Node::Text(s.clone())),
        Expr::EnumLit { enum_name, variant } => {
            let schema = scope.schema();
            let (enum_index, found) = schema
                .resolve_enum_value(scope.scope_type(), enum_name, variant)
                .or_else(invalid)?;
            let variants = &schema.enums[enum_index].variants;
            let variant = variants.iter().position(|v| v.id == found.id).unwrap_or(0);
            leaf(
                Ty::Enum(enum_index),
                Node::EnumValue {
                    enum_index,
                    variant,
                },
            )
        }
        Expr::SizeOf { ty, bits } => {
            let Some(size) = scope.schema().sizeof_named(scope.scope_type(), ty) else {
                return invalid(format!(
                    "`sizeof<{ty}>`: `{ty}` is not a type whose values all have the same size"
                ));
            };
            let size = if *bits { size * 8 } else { size };
            leaf(Ty::Int, Node::Int(int_value(size as i128)?))
        }
        Expr::Unary(op, inner) => unary(scope, *op, inner),
        Expr::Binary(op, a, b) => binary(scope, *op, a, b),
        Expr::Ternary(c, a, b) => choose(scope, c, a, b),
        Expr::List(items) => list(scope, items),
        Expr::Call(name, args) => call(scope, name, args),
        Expr::FString(parts) => format(scope, parts),
        Expr::Method(recv, name, args) if name == "sum" => sum(scope, recv, args),
        Expr::Method(recv, name, args) => text_method(scope, recv, name, args),
        Expr::Attr(base, attr) => attribute(scope, e, base, attr),
        Expr::Name(name) => self::name(scope, name),
        Expr::Index(list, at) => {
            let list = resolve(scope, list)?;
            let at = resolve_int(scope, at)?;
            item(scope, list, Position::At(Box::new(at)))
        }
        Expr::Cast(base, target) => cast(scope, base, target),
        Expr::Present(value) => places::present(scope, value),
        Expr::Holds(value, case) => places::holds(scope, value, case),
    }
}

/// `e`, which must be an integer.
pub fn resolve_int<R: Reach>(scope: &R, e: &Expr) -> Result<Typed, ExprError> {
    expect(resolve(scope, e)?, Ty::Int, messages::Kind::Integer)
}

/// `e`, which must be a boolean.
pub fn resolve_bool<R: Reach>(scope: &R, e: &Expr) -> Result<Typed, ExprError> {
    expect(resolve(scope, e)?, Ty::Bool, messages::Kind::Boolean)
}

fn expect(t: Typed, ty: Ty, kind: messages::Kind) -> Result<Typed, ExprError> {
    match t.ty == ty {
        true => Ok(t),
        false => invalid(messages::expected(kind, describe(&t.ty))),
    }
}

fn typed(ty: Ty, can_fail: bool, node: Node) -> Typed {
    Typed { ty, can_fail, node }
}

/// An integer literal as `i64`: one above `i64::MAX` that fits 64 bits takes the same bits,
/// as in Kaitai's Java target, so that equality with a wrapped `u8` holds.
pub fn int_value(n: i128) -> Result<i64, ExprError> {
    match (i64::try_from(n), u64::try_from(n)) {
        (Ok(n), _) => Ok(n),
        (Err(_), Ok(unsigned)) => Ok(unsigned as i64),
        _ => invalid(messages::too_wide(n)),
    }
}

fn unary<R: Reach>(scope: &R, op: UnaryOp, inner: &Expr) -> Result<Typed, ExprError> {
    let (ty, inner) = match op {
        UnaryOp::Not => (Ty::Bool, resolve_bool(scope, inner)?),
        UnaryOp::BitNot => (Ty::Int, resolve_int(scope, inner)?),
        UnaryOp::Neg => match resolve(scope, inner)? {
            number if matches!(number.ty, Ty::Int | Ty::Float) => (number.ty.clone(), number),
            other => return invalid(format!("cannot negate {}", describe(&other.ty))),
        },
    };
    let can_fail = inner.can_fail;
    let inner = Box::new(inner);
    let node = match op {
        UnaryOp::Not => Node::Not(inner),
        UnaryOp::BitNot => Node::BitNot(inner),
        UnaryOp::Neg => Node::Negate(inner),
    };
    Ok(typed(ty, can_fail, node))
}

fn binary<R: Reach>(scope: &R, op: BinOp, a: &Expr, b: &Expr) -> Result<Typed, ExprError> {
    if matches!(op, BinOp::And | BinOp::Or) {
        let (a, b) = (resolve_bool(scope, a)?, resolve_bool(scope, b)?);
        let can_fail = a.can_fail || b.can_fail;
        let (and, a, b) = (op == BinOp::And, a.into(), b.into());
        return Ok(typed(Ty::Bool, can_fail, Node::Logic { and, a, b }));
    }
    let (a, b) = (resolve(scope, a)?, resolve(scope, b)?);
    if op.is_comparison() {
        return compare(op, a, b);
    }
    if op == BinOp::Add && a.ty.is_text() && b.ty.is_text() {
        let can_fail = a.can_fail || b.can_fail;
        return Ok(typed(Ty::Str, can_fail, Node::Concat(a.into(), b.into())));
    }
    let to_float = |t: Typed| typed(Ty::Float, t.can_fail, Node::ToFloat(t.into()));
    let (a, b, ty) = match (&a.ty, &b.ty) {
        (Ty::Int, Ty::Int) => (a, b, Ty::Int),
        (Ty::Float, Ty::Float) => (a, b, Ty::Float),
        (Ty::Int, Ty::Float) => (to_float(a), b, Ty::Float),
        (Ty::Float, Ty::Int) => (a, to_float(b), Ty::Float),
        (ta, tb) => {
            return invalid(messages::needs_numbers(
                op.symbol(),
                describe(ta),
                describe(tb),
            ));
        }
    };
    if ty == Ty::Float && !matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div) {
        return invalid(messages::needs_integers(op.symbol()));
    }
    let can_fail = a.can_fail || b.can_fail;
    Ok(typed(
        ty,
        can_fail,
        Node::Arithmetic(op, a.into(), b.into()),
    ))
}

/// `a op b`, a comparison; the operands are swapped (and the operator mirrored) where the
/// comparison needs the other one first.
fn compare(op: BinOp, a: Typed, b: Typed) -> Result<Typed, ExprError> {
    let (how, swapped) = comparison(op, &a.ty, &b.ty)?;
    let can_fail = a.can_fail || b.can_fail;
    let (op, a, b) = match swapped {
        true => (op.mirrored(), b, a),
        false => (op, a, b),
    };
    let (a, b) = (Box::new(a), Box::new(b));
    Ok(typed(Ty::Bool, can_fail, Node::Compare { op, how, a, b }))
}

/// How `ta op tb` compares, and whether the operands must be swapped for it.
fn comparison(op: BinOp, ta: &Ty, tb: &Ty) -> Result<(Comparison, bool), ExprError> {
    let how = match (ta, tb) {
        (Ty::Int | Ty::Float, Ty::Int | Ty::Float) | (Ty::Bool, Ty::Bool) => Comparison::Scalars,
        (Ty::Enum(x), Ty::Enum(y)) if x == y => Comparison::Scalars,
        // As in Kaitai: an enum value is compared with its `to_i`.
        (Ty::Enum(_), Ty::Int) | (Ty::Int, Ty::Enum(_)) => {
            let message = messages::cannot_compare(describe(ta), describe(tb));
            return invalid(format!("{message}: compare the enum value's `to_i`"));
        }
        (Ty::Str | Ty::StrLit, Ty::Str | Ty::StrLit) | (Ty::Bytes, Ty::Bytes) => Comparison::Bytes,
        (Ty::Opt(_), _) | (_, Ty::Opt(_)) => return absent_comparison(op, ta, tb),
        (Ty::Bytes | Ty::Array(_) | Ty::ListLit(_), _) => return list_comparison(op, ta, tb),
        _ => return invalid(messages::cannot_compare(describe(ta), describe(tb))),
    };
    // Strings and byte arrays are ordered byte by byte, as Kaitai orders them.
    let ordered = !matches!(ta, Ty::Bool | Ty::Enum(_)) && !matches!(tb, Ty::Bool | Ty::Enum(_));
    if !ordered && !matches!(op, BinOp::Eq | BinOp::Ne) {
        return invalid("only numbers, strings and byte arrays can be ordered with < <= > >=");
    }
    Ok((how, false))
}

/// A comparison with a value that may be absent, which equals nothing: that one first.
fn absent_comparison(op: BinOp, ta: &Ty, tb: &Ty) -> Result<(Comparison, bool), ExprError> {
    let Ty::Opt(a) = ta else {
        let (how, swapped) = absent_comparison(op.mirrored(), tb, ta)?;
        return Ok((how, !swapped));
    };
    let (both, b) = match tb {
        Ty::Opt(b) => (true, &**b),
        b => (false, b),
    };
    match comparison(op, a, b)? {
        (present, false) => Ok((
            Comparison::MayBeAbsent {
                both,
                present: Box::new(present),
            },
            false,
        )),
        // Only a list literal goes second, and no list literal may be absent.
        (_, true) => invalid(messages::cannot_compare(describe(ta), describe(tb))),
    }
}

/// `==` and `!=` between a list value and a list literal, or between two byte arrays.
fn list_comparison(op: BinOp, ta: &Ty, tb: &Ty) -> Result<(Comparison, bool), ExprError> {
    let int_literal = |t: &Ty| matches!(t, Ty::ListLit(elem) if **elem == Ty::Int);
    let how = match (ta, tb) {
        (Ty::ListLit(_), _) if !matches!(tb, Ty::ListLit(_)) => {
            let (how, swapped) = list_comparison(op.mirrored(), tb, ta)?;
            return Ok((how, !swapped));
        }
        // Ordered against a byte-array literal: compared as bytes.
        (Ty::Bytes, b) if int_literal(b) && !matches!(op, BinOp::Eq | BinOp::Ne) => {
            return Ok((Comparison::BytesWithIntLiteral, false));
        }
        (Ty::Bytes, b) if int_literal(b) => Comparison::IntsMatch,
        (Ty::Array(x), b) if **x == Ty::Int && int_literal(b) => Comparison::IntsMatch,
        (Ty::Array(x), Ty::ListLit(y)) if **x == Ty::Str && **y == Ty::StrLit => {
            Comparison::TextsMatch
        }
        _ => return invalid(messages::cannot_compare(describe(ta), describe(tb))),
    };
    match op {
        BinOp::Eq | BinOp::Ne => Ok((how, false)),
        _ => invalid("lists and byte arrays compare with == and != only"),
    }
}

/// `c ? a : b`.
fn choose<R: Reach>(scope: &R, c: &Expr, a: &Expr, b: &Expr) -> Result<Typed, ExprError> {
    let cond = resolve_bool(scope, c)?;
    let a = absent_number_as_zero(resolve(scope, a)?);
    let b = absent_number_as_zero(resolve(scope, b)?);
    let (ta, tb) = (&a.ty, &b.ty);
    let ty = if ta.is_text() && tb.is_text() || *ta == Ty::Bytes && *tb == Ty::Bytes {
        // A view of a field and a computed string: either may be borrowed.
        if *ta == Ty::Bytes { Ty::Bytes } else { Ty::Str }
    } else {
        match (ta, tb) {
            // A structure and one that may be absent: either may be absent.
            (Ty::Opt(inner), Ty::User(_)) if **inner == *tb => ta.clone(),
            (Ty::User(_), Ty::Opt(inner)) if **inner == *ta => tb.clone(),
            _ => same_branch_type(ta, tb)?,
        }
    };
    let can_fail = cond.can_fail || a.can_fail || b.can_fail;
    let (cond, a, b) = (cond.into(), a.into(), b.into());
    Ok(typed(ty, can_fail, Node::Choose { cond, a, b }))
}

/// The type of both branches of `?:`, which must be the same.
fn same_branch_type(ta: &Ty, tb: &Ty) -> Result<Ty, ExprError> {
    // Each switch field has an enum of its own.
    let switch = |ty: &Ty| matches!(ty, Ty::Switch) || *ty == Ty::Opt(Box::new(Ty::Switch));
    if switch(ta) || switch(tb) {
        return unsupported(
            "the branches of `?:` are switch values, which have no common type: take each as one of its cases with `.as<type>`",
        );
    }
    if ta == tb {
        return Ok(ta.clone());
    }
    let message = format!(
        "the branches of `?:` differ: {} and {}",
        describe(ta),
        describe(tb)
    );
    // Kaitai finds a common type for numbers, and for a value and one that may be absent.
    match comparable_kinds(ta, tb) {
        true => unsupported(message),
        false => invalid(message),
    }
}

/// True when Kaitai gives two branches of `?:` of types `a` and `b` a common type: both
/// numbers, the same kind of value where one may be absent, or lists of such elements (a list
/// literal of integers is bytes to Kaitai).
fn comparable_kinds(a: &Ty, b: &Ty) -> bool {
    let strip = |t: &Ty| match t {
        Ty::Opt(inner) => (**inner).clone(),
        Ty::StrLit => Ty::Str,
        other => other.clone(),
    };
    let numeric = |t: &Ty| matches!(t, Ty::Int | Ty::Float);
    let bytes = |t: &Ty| matches!(t, Ty::Bytes) || *t == Ty::ListLit(Box::new(Ty::Int));
    let (a, b) = (strip(a), strip(b));
    match (&a, &b) {
        (Ty::Array(x) | Ty::ListLit(x), Ty::Array(y) | Ty::ListLit(y)) => {
            comparable_kinds(x, y) || (bytes(x) && bytes(y))
        }
        (Ty::User(_), Ty::User(_)) => true,
        _ => a == b || (numeric(&a) && numeric(&b)),
    }
}

/// A number that may be absent, as a number that reads 0 when it is: the rule for conditional
/// numbers in expressions, for computed ones (a conditional look-ahead) where a branch of `?:`
/// needs a number.
fn absent_number_as_zero(t: Typed) -> Typed {
    match &t.ty {
        Ty::Opt(inner) if **inner == Ty::Int => {
            let can_fail = t.can_fail;
            typed(Ty::Int, can_fail, Node::AbsentAsZero(t.into()))
        }
        _ => t,
    }
}

/// A list literal: of integers, floats, strings, streams, byte arrays (`[[0x00], [0x4e]]`)
/// or structures of any types (a `struct[]`).
fn list<R: Reach>(scope: &R, items: &[Expr]) -> Result<Typed, ExprError> {
    let resolved = items
        .iter()
        .map(|item| resolve(scope, item))
        .collect::<Result<Vec<_>, _>>()?;
    let can_fail = resolved.iter().any(|t| t.can_fail);
    let list = |elem, items| {
        Ok(typed(
            Ty::ListLit(Box::new(elem)),
            can_fail,
            Node::List(items),
        ))
    };
    if !items.is_empty() && items.iter().all(Expr::is_byte_literal) {
        return list(Ty::Bytes, resolved);
    }
    if !items.is_empty() && resolved.iter().all(|t| matches!(t.ty, Ty::User(_))) {
        return list(Ty::AnyStruct, resolved);
    }
    let elem = match resolved.first().map(|t| &t.ty) {
        None | Some(Ty::Int) => Ty::Int,
        Some(Ty::StrLit) => Ty::StrLit,
        Some(Ty::Float) => Ty::Float,
        Some(Ty::Io) => Ty::Io,
        Some(other) => {
            return unsupported(format!(
                "a list literal holds integers, floats, strings, byte arrays, streams or structures, not {}",
                describe(other)
            ));
        }
    };
    if resolved.iter().any(|t| t.ty != elem) {
        return invalid("the elements of a list literal must all have the same type");
    }
    list(elem, resolved)
}

/// `crc32(bytes)`, `adler32(bytes)` (integers) and `inflated(bytes)` (the bytes of a raw
/// deflate stream, inflated): the functions of `-derived` expressions.
fn call<R: Reach>(scope: &R, name: &str, args: &[Expr]) -> Result<Typed, ExprError> {
    let function = match name {
        "crc32" => Function::Crc32,
        "adler32" => Function::Adler32,
        "inflated" => Function::Inflated,
        _ => {
            return invalid(format!(
                "unknown function `{name}` (`-derived` knows `crc32(bytes)`, `adler32(bytes)` and `inflated(bytes)`)"
            ));
        }
    };
    if !scope.deriving() {
        return invalid(format!(
            "`{name}(…)` is a function of `-derived` expressions, not of Kaitai's: a reader does not compute it"
        ));
    }
    let [arg] = args else {
        return invalid(format!(
            "`{name}(…)` takes one value, of bytes (`{name}(body)`); a checksum of several fields names them alone: `{name}(type, body)`"
        ));
    };
    let bytes = resolve(scope, arg)?;
    if bytes.ty != Ty::Bytes {
        return invalid(format!(
            "`{name}(…)` takes bytes (a byte field, `inflated(…)`), not {}",
            describe(&bytes.ty)
        ));
    }
    let (ty, fails) = match function {
        Function::Inflated => {
            scope.note_failure();
            (Ty::Bytes, true)
        }
        _ => (Ty::Int, false),
    };
    let can_fail = fails || bytes.can_fail;
    Ok(typed(ty, can_fail, Node::Call(function, bytes.into())))
}

/// `list.sum(value)`: `value` of each element `_`, added up.
fn sum<R: Reach>(scope: &R, recv: &Expr, args: &[Expr]) -> Result<Typed, ExprError> {
    let [arg] = args else {
        return invalid("`sum` takes one argument: the value to add up for each element `_`");
    };
    let list = resolve(scope, recv)?;
    let Ty::Array(elem) = &list.ty else {
        return invalid(format!("`sum` needs a list, found {}", describe(&list.ty)));
    };
    let inner = scope.element_scope((**elem).clone());
    let body = resolve_int(&inner, arg)?;
    // A back end adds up in a closure, which cannot return a failure.
    if body.can_fail {
        return unsupported(
            "`sum` of a value that can fail (`to_i`, `inflated(…)`) is not supported",
        );
    }
    let can_fail = list.can_fail;
    let (list, body) = (list.into(), body.into());
    Ok(typed(Ty::Int, can_fail, Node::Sum { list, body }))
}

/// `f"len={len}"`: the text, with each integer in decimal and each string as it is.
fn format<R: Reach>(scope: &R, parts: &[Expr]) -> Result<Typed, ExprError> {
    let mut resolved = Vec::with_capacity(parts.len());
    for part in parts {
        let part = resolve(scope, part)?;
        if !matches!(part.ty, Ty::Str | Ty::StrLit | Ty::Int) {
            return invalid(format!(
                "an f-string takes integers and strings, not {}",
                describe(&part.ty)
            ));
        }
        resolved.push(part);
    }
    let can_fail = resolved.iter().any(|t| t.can_fail);
    Ok(typed(Ty::Str, can_fail, Node::Format(resolved)))
}

/// `text.to_i(radix)`, `text.substring(from, to)`, `bytes.to_s(encoding)`.
fn text_method<R: Reach>(
    scope: &R,
    recv: &Expr,
    name: &str,
    args: &[Expr],
) -> Result<Typed, ExprError> {
    if !matches!(name, "to_i" | "substring" | "to_s") {
        return invalid(format!(
            "unknown method `{name}` (skelcodec supports `sum`, `to_i`, `substring` and `to_s`)"
        ));
    }
    let value = resolve(scope, recv)?;
    let text = value.ty.is_text();
    let ints = value.ty == Ty::ListLit(Box::new(Ty::Int));
    match (name, args) {
        ("to_i", [Expr::Int(radix)])
            if let Some(n) = i64::try_from(*radix)
                .ok()
                .and_then(|r| literal_number(recv, r)) =>
        {
            Ok(typed(Ty::Int, false, Node::Int(n)))
        }
        ("to_i", [radix]) if text => {
            let radix = resolve_int(scope, radix)?;
            parse_int(scope, value, radix)
        }
        ("substring", [from, to]) if text => {
            let (from, to) = (resolve_int(scope, from)?, resolve_int(scope, to)?);
            let can_fail = value.can_fail || from.can_fail || to.can_fail;
            let (text, from, to) = (value.into(), from.into(), to.into());
            Ok(typed(Ty::Str, can_fail, Node::Substring { text, from, to }))
        }
        ("to_s", [Expr::Str(label)]) if value.ty == Ty::Bytes || ints => {
            // Kaitai compiles any name and fails when the text is decoded.
            let Some(encoding) = Encoding::for_label(label) else {
                return unsupported(messages::unknown_encoding(label));
            };
            let decode = (!crate::keys::text_is_its_bytes(encoding)).then_some(encoding);
            let can_fail = value.can_fail;
            let bytes = value.into();
            Ok(typed(Ty::Str, can_fail, Node::ToText { bytes, decode }))
        }
        _ => invalid(format!(
            "`{name}` takes {} of a string{}, found {} with {} argument(s)",
            match name {
                "to_i" => "a radix",
                "substring" => "the start and end",
                _ => "an encoding name",
            },
            if name == "to_s" { " (on bytes)" } else { "" },
            describe(&value.ty),
            args.len()
        )),
    }
}

/// `text.to_i(radix)` (or `text.to_i`), which fails for text that is no number: a reader's
/// or writer's failure at its position, an instance method's own; refused where nothing could
/// report it (`-derived`, `to-string`, a default).
pub fn parse_int<R: Reach>(scope: &R, text: Typed, radix: Typed) -> Result<Typed, ExprError> {
    if !scope.reports_failure() {
        return unsupported(
            "`to_i` of text fails for text that is no number, which is only reported while reading, writing or in a value instance",
        );
    }
    scope.note_failure();
    let (text, radix) = (text.into(), radix.into());
    Ok(typed(Ty::Int, true, Node::ParseInt { text, radix }))
}

/// The number a string literal spells in `radix`, which cannot fail (`"-72".to_i`).
pub fn literal_number(text: &Expr, radix: i64) -> Option<i64> {
    match text {
        Expr::Str(text) => skelcodec_runtime::bytes::parse_int(text.as_bytes(), radix).ok(),
        _ => None,
    }
}
