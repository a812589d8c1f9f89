//! What a site needs of an expression: an integer, a boolean (`resolve_int`, `resolve_bool`)
//! or a stream (`io:`), the list a `-for-each` field follows, the value a switch matches on
//! and its case keys, a parameter's argument and how it is passed (or, the first time a
//! field read later is read, its empty value), the arguments of a processor, the enum of
//! `valid: in-enum`, an instance's condition, and whether a value is absent.
//!
//! Each is decided here, on the resolved tree, with the error a schema gets when it does not
//! fit, so that a checker needs no back end; a back end renders what is decided (the Rust
//! one in `typeck::expr`).

use super::places::{held, stored_field};
use super::{Reach, resolve, resolve_bool};
use crate::expr::Expr;
use crate::model::switch_variants;
use crate::model::{FieldType, InstanceKind, Param, ParamType, ReadLater};
use crate::typeck::typed::*;
use crate::typeck::value_types::switch_field;

/// `e`, which must be a stream (`io:`, the `_io` of a value).
pub fn stream<R: Reach>(scope: &R, e: &Expr) -> Result<Typed, ExprError> {
    let value = resolve(scope, e)?;
    match value.ty {
        Ty::Io => Ok(value),
        other => invalid(format!(
            "expected a stream (`_io` of a value), found {}",
            describe(&other)
        )),
    }
}

/// The list a `-for-each` field follows, which must be a list read earlier, and the type of
/// its elements.
pub fn list<R: Reach>(scope: &R, e: &Expr) -> Result<(Typed, Ty), ExprError> {
    let list = resolve(scope, e)?;
    match &list.ty {
        Ty::Array(elem) => {
            let elem = (**elem).clone();
            Ok((list, elem))
        }
        _ => invalid("`-for-each` takes a list read earlier"),
    }
}

/// How a switch matches the value it switches on (see [`selector`]).
#[derive(Debug, Clone)]
pub enum Selector {
    /// As it is: a number, boolean or enum value.
    Value(Typed),
    /// A string or byte array, by its bytes.
    Bytes(Typed),
    /// A string that may be absent (`list.last.magic`), by its bytes, or as the empty string
    /// where it is absent.
    TextOrEmpty(Typed),
}

impl Selector {
    /// The type of the value matched: a string that may be absent is matched as a string.
    pub fn ty(&self) -> Ty {
        match self {
            Selector::Value(value) | Selector::Bytes(value) => value.ty.clone(),
            Selector::TextOrEmpty(_) => Ty::Str,
        }
    }
}

/// The value a switch matches on, `on`, and how it is matched.
pub fn selector<R: Reach>(scope: &R, on: &Expr) -> Result<Selector, ExprError> {
    let value = resolve(scope, on)?;
    Ok(match &value.ty {
        Ty::Opt(inner) if inner.is_text() => Selector::TextOrEmpty(value),
        Ty::Str | Ty::StrLit | Ty::Bytes => Selector::Bytes(value),
        _ => Selector::Value(value),
    })
}

/// What a switch's case key matches (see [`case_key`]).
#[derive(Debug, Clone)]
pub enum CaseKey {
    /// These bytes: a string literal's, or a byte-array literal's (an element that is no
    /// byte reads as 0).
    Bytes(Vec<u8>),
    /// This value: an integer, boolean or enum literal.
    Value(Typed),
}

/// The case key `key` of a switch (an integer, string, boolean, enum or byte-array literal).
pub fn case_key<R: Reach>(scope: &R, key: &Expr) -> Result<CaseKey, ExprError> {
    Ok(match key {
        Expr::Str(s) => CaseKey::Bytes(s.as_bytes().to_vec()),
        Expr::List(items) => CaseKey::Bytes(
            items
                .iter()
                .map(|item| match item {
                    Expr::Int(n) => u8::try_from(*n).unwrap_or_default(),
                    _ => 0,
                })
                .collect(),
        ),
        other => CaseKey::Value(resolve(scope, other)?),
    })
}

/// How an argument is passed to a parameter (see [`argument`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Passing {
    /// As it is: a number, boolean, enum value, stream, or structure of any type.
    Value,
    /// A string's text or a byte array, by its bytes.
    Bytes,
    /// A structure or a list, by reference.
    Reference,
    /// A structure that may be absent, to a parameter that needs it: where it is absent, the
    /// reader or writer fails, as Kaitai does.
    PresentArgument,
    /// A structure of type `ty` that may be absent, as one that may be absent.
    Optional {
        /// The structure's type.
        ty: usize,
    },
    /// A structure, as one that may be absent (present).
    SomeReference,
    /// A structure of type `ty`, as a structure of any type (`struct`).
    AnyStruct {
        /// The structure's type.
        ty: usize,
    },
    /// A list of integers of any width, as integers (`i64`).
    Ints,
    /// A list of strings, as their texts.
    Texts,
}

/// `arg`, the argument of parameter `param`, and how it is passed: its type must be one the
/// parameter's type takes.
pub fn argument<R: Reach>(
    scope: &R,
    param: &Param,
    arg: &Expr,
) -> Result<(Typed, Passing), ExprError> {
    let value = resolve(scope, arg)?;
    let ty = &value.ty;
    let list_of = |elem: Ty| matches!(ty, Ty::ListLit(e) | Ty::Array(e) if **e == elem);
    let passing = match (param.ty, ty) {
        (ParamType::Int(_), Ty::Int) | (ParamType::Bool, Ty::Bool) => Passing::Value,
        (ParamType::Enum(want), Ty::Enum(have)) if want == *have => Passing::Value,
        (ParamType::Str, _) if ty.is_text() => Passing::Bytes,
        (ParamType::Bytes, Ty::Bytes) => Passing::Bytes,
        (ParamType::User(want), Ty::User(have)) if want == *have => Passing::Reference,
        // Kaitai fails where such an argument is absent; so do readers and writers.
        (ParamType::User(want), Ty::Opt(have)) if **have == Ty::User(want) => {
            if scope.mode() == Mode::Inspect {
                return invalid("a structure that may be absent is no default value");
            }
            Passing::PresentArgument
        }
        (ParamType::OptUser(want), Ty::Opt(have)) if **have == Ty::User(want) => {
            Passing::Optional { ty: want }
        }
        (ParamType::OptUser(want), Ty::User(have)) if want == *have => Passing::SomeReference,
        (ParamType::Io, Ty::Io) | (ParamType::AnyStruct, Ty::AnyStruct) => Passing::Value,
        (ParamType::AnyStruct, Ty::User(have)) => Passing::AnyStruct { ty: *have },
        (ParamType::IntList, Ty::ListLit(elem)) if **elem == Ty::Int => Passing::Reference,
        (ParamType::IntList, Ty::Array(elem)) if **elem == Ty::Int => Passing::Ints,
        (ParamType::UserList(want), Ty::Array(elem)) if **elem == Ty::User(want) => {
            Passing::Reference
        }
        (ParamType::AnyStructList, _) if list_of(Ty::AnyStruct) => Passing::Reference,
        (ParamType::StrList, _) if list_of(Ty::StrLit) => Passing::Reference,
        (ParamType::IoList, _) if list_of(Ty::Io) => Passing::Reference,
        (ParamType::StrList, Ty::Array(elem)) if **elem == Ty::Str => Passing::Texts,
        _ => {
            return invalid(format!(
                "this argument is {}, which the parameter's type does not take",
                describe(ty)
            ));
        }
    };
    Ok((value, passing))
}

/// The two reads of a field read later (see [`Field::read_later`]).
///
/// [`Field::read_later`]: crate::model::Field::read_later
#[derive(Debug, Clone, Copy)]
pub enum Pass {
    /// In place: arguments that use values read after it are empty.
    First,
    /// After them: arguments see the fields before this index.
    Again(usize),
}

/// What a field passes for a parameter (see [`later_argument`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LaterArgument {
    /// The parameter's empty value (see [`empty_value`]): the first read of a field read
    /// later, whose argument uses values read after it.
    Empty,
    /// The argument, seeing the fields before this index: the second read.
    Again(usize),
    /// The argument, where the field is read.
    Given,
}

/// What the field being read passes for parameter `param` of user type `ty`, where the field
/// is read later (see [`Field::read_later`]) as `later` says: pass `Pass`.
///
/// [`Field::read_later`]: crate::model::Field::read_later
pub fn later_argument(
    later: Option<(&ReadLater, Pass)>,
    ty: usize,
    param: &Param,
) -> LaterArgument {
    match later {
        Some((later, Pass::First))
            if later
                .empty_first
                .iter()
                .any(|(t, p)| *t == ty && *p == param.id) =>
        {
            LaterArgument::Empty
        }
        Some((_, Pass::Again(visible))) => LaterArgument::Again(visible),
        _ => LaterArgument::Given,
    }
}

/// The empty value of a parameter (see [`empty_value`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EmptyValue {
    /// The integer 0.
    Zero,
    /// `false`.
    False,
    /// The enum's value 0.
    EnumZero,
    /// No structure (for a structure that may be absent).
    Absent,
    /// A stream without bytes.
    NoStream,
    /// An empty text, byte array or list.
    Empty,
}

/// The empty value of `param`, passed the first time a field read later is read: a structure
/// has none.
pub fn empty_value(param: &Param) -> Result<EmptyValue, ExprError> {
    Ok(match param.ty {
        ParamType::Int(_) => EmptyValue::Zero,
        ParamType::Bool => EmptyValue::False,
        ParamType::Enum(_) => EmptyValue::EnumZero,
        ParamType::OptUser(_) => EmptyValue::Absent,
        ParamType::Io => EmptyValue::NoStream,
        ParamType::User(_) | ParamType::AnyStruct => {
            return unsupported(format!(
                "`{}` is a structure read after the value that needs it, and has no empty value to read that value with first",
                param.id
            ));
        }
        ParamType::AnyStructList
        | ParamType::StrList
        | ParamType::IoList
        | ParamType::Str
        | ParamType::Bytes
        | ParamType::IntList
        | ParamType::UserList(_) => EmptyValue::Empty,
    })
}

/// `valid: in-enum` of a value of type `element`: the enum whose names it must be one of.
pub fn in_enum(element: &FieldType) -> Result<usize, ExprError> {
    match element {
        FieldType::Enum { enum_idx, .. }
        | FieldType::Bits {
            enum_idx: Some(enum_idx),
            ..
        } => Ok(*enum_idx),
        _ => invalid("`in-enum` applies to values of an enum"),
    }
}

/// How an argument of a processor is passed (see [`processor_argument`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProcessorArgument {
    /// An integer or boolean, as it is.
    Value,
    /// A string or byte array, by its bytes.
    Bytes,
    /// A list literal of integers, as its bytes.
    IntsAsBytes,
}

/// `arg`, an argument of a processor (`process: rol(n)`, custom ones): an integer, a boolean
/// or bytes (a list literal of integers is its bytes).
pub fn processor_argument<R: Reach>(
    scope: &R,
    arg: &Expr,
) -> Result<(Typed, ProcessorArgument), ExprError> {
    let value = resolve(scope, arg)?;
    let passing = match &value.ty {
        Ty::Int | Ty::Bool => ProcessorArgument::Value,
        Ty::Bytes | Ty::Str | Ty::StrLit => ProcessorArgument::Bytes,
        Ty::ListLit(elem) if **elem == Ty::Int => ProcessorArgument::IntsAsBytes,
        other => {
            return invalid(format!(
                "a processor takes integers, booleans and bytes, not {other:?}"
            ));
        }
    };
    Ok((value, passing))
}

/// The key of `process: xor(key)`: an integer or bytes, as [`processor_argument`] passes it.
pub fn xor_key<R: Reach>(scope: &R, key: &Expr) -> Result<(Typed, ProcessorArgument), ExprError> {
    let (value, passing) = processor_argument(scope, key)?;
    if value.ty == Ty::Bool {
        return invalid("`xor` takes an integer or bytes as its key, not a boolean");
    }
    Ok((value, passing))
}

/// The condition of an instance with `if`, where its value is absent when the condition
/// fails (see [`instance_condition`]).
#[derive(Debug, Clone)]
pub enum InstanceCondition {
    /// `v`, an instance of the structure in scope: its condition, resolved here.
    Own(Typed),
    /// `x.v`, an instance of `base`, a structure of type `ty`: its condition, resolved inside
    /// `base` (where `base` may be absent, inside its present value; without its arguments).
    Of {
        /// The structure.
        base: Typed,
        /// Its type.
        ty: usize,
        /// `base` may be absent.
        may_be_absent: bool,
        /// The condition.
        cond: Typed,
    },
}

/// For `v` or `x.v` naming an instance with `if`, its condition (when it does not hold,
/// Kaitai's value is null; skelcodec's is what an absent number reads as). `None` for
/// anything else, a base that does not resolve included.
pub fn instance_condition<R: Reach>(
    scope: &R,
    e: &Expr,
) -> Result<Option<InstanceCondition>, ExprError> {
    let schema = scope.schema();
    let condition = |ty: usize, name: &str| {
        schema.types[ty]
            .instances
            .iter()
            .find_map(|i| match &i.kind {
                InstanceKind::Value { cond, .. } | InstanceKind::Peek { cond, .. }
                    if i.id == name =>
                {
                    cond.as_ref()
                }
                _ => None,
            })
    };
    let (base, name) = match e {
        Expr::Name(name) => {
            return match condition(scope.scope_type(), name) {
                Some(cond) => Ok(Some(InstanceCondition::Own(resolve_bool(scope, cond)?))),
                None => Ok(None),
            };
        }
        Expr::Attr(base, name) => (base, name),
        _ => return Ok(None),
    };
    let Ok(base) = resolve(scope, base) else {
        return Ok(None);
    };
    let (ty, may_be_absent) = match &base.ty {
        Ty::User(ty) => (*ty, false),
        Ty::Opt(inner) => match **inner {
            Ty::User(ty) => (ty, true),
            _ => return Ok(None),
        },
        _ => return Ok(None),
    };
    let Some(cond) = condition(ty, name) else {
        return Ok(None);
    };
    let inside = match may_be_absent {
        true => scope.present_scope(&base).structure_scope(ty),
        false => scope.structure_scope(ty),
    };
    let cond = resolve_bool(&inside, cond)?;
    Ok(Some(InstanceCondition::Of {
        base,
        ty,
        may_be_absent,
        cond,
    }))
}

/// Whether a value is absent (see [`absence`]).
#[derive(Debug, Clone)]
pub enum Absence {
    /// It is always there.
    Never,
    /// It is never there: `_parent` or `_root` of a value of a type of another file, which
    /// Kaitai passes only between the types of one file.
    Always,
    /// Where the condition of the instance it is fails.
    ConditionFails(InstanceCondition),
    /// Where `value` is absent: `may_be_absent` when it is held as a value that may be absent
    /// (a conditional field, an element past the end of its list), else its type is one that
    /// may be absent; `switch`, the switch field (type and index) whose value it is, where
    /// that value may have matched no case, which is absent too.
    Value {
        /// The value.
        value: Typed,
        /// It is held as a value that may be absent.
        may_be_absent: bool,
        /// The switch field whose value it is, where that may match no case.
        switch: Option<(usize, usize)>,
    },
}

/// Whether the value `e` names is absent (a conditional field that was not read, an element
/// past the end of its list), numbers included, which elsewhere read as 0.
pub fn absence<R: Reach>(scope: &R, e: &Expr) -> Result<Absence, ExprError> {
    if let Some(condition) = instance_condition(scope, e)? {
        return Ok(Absence::ConditionFails(condition));
    }
    let schema = scope.schema();
    // A value of a type of another file has no `_parent` or `_root` there: Kaitai passes
    // them only between the types of one file.
    if let Expr::Attr(base, attr) = e
        && (attr == "_parent" || attr == "_root")
        && matches!(base.as_ref(), Expr::Name(_))
        && let Ok(base) = resolve(scope, base)
        && let Ty::User(ty) = present_ty(&base.ty)
        && schema.types[*ty].at.file() != schema.types[scope.scope_type()].at.file()
    {
        return Ok(Absence::Always);
    }
    let value = resolve(scope, e)?;
    let may_be_absent = held(scope, &value).may_be_absent;
    let switch = may_match_nothing(scope, &value);
    if !may_be_absent && switch.is_none() && !matches!(value.ty, Ty::Opt(_)) {
        return Ok(Absence::Never);
    }
    Ok(Absence::Value {
        value,
        may_be_absent,
        switch,
    })
}

/// The type of a value where it is present.
fn present_ty(ty: &Ty) -> &Ty {
    match ty {
        Ty::Opt(inner) => inner,
        ty => ty,
    }
}

/// The switch field (type and index) whose value `t` is, where that value may have matched
/// no case: a switch value, but not a list of them that each chose their case.
fn may_match_nothing<R: Reach>(scope: &R, t: &Typed) -> Option<(usize, usize)> {
    let schema = scope.schema();
    let (ty, index) = stored_field(scope, t)?;
    let field = &schema.types[ty].fields[index];
    let FieldType::Switch(switch) = &field.ty else {
        return None;
    };
    if field.switches_per_element() && !is_element(t) {
        return None;
    }
    switch_field(schema, switch)?;
    let variants = switch_variants(schema, switch).variants;
    variants
        .iter()
        .any(|v| *v.ty == FieldType::Nothing)
        .then_some((ty, index))
}

/// Whether `t` is one element of a list (where it is present).
fn is_element(t: &Typed) -> bool {
    match &t.node {
        Node::Item { .. } => true,
        Node::WhenPresent { then, .. } => is_element(then),
        _ => false,
    }
}
