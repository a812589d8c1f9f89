//! Writes a value with a checked schema, as the generated writer does: every stored field
//! verbatim, with the runtime's own writers. What the reader will use to find its way (a
//! condition, a count, a `repeat-until` condition, a size, a switch's selector, a terminator)
//! is checked against the value first where it can be computed without the stream being read;
//! the interpreter then reads its output back, so a value that would read back as another is
//! refused even where no check could be made.

use std::cell::RefCell;
use std::rc::Rc;

use skelcodec_codegen::model::*;
use skelcodec_runtime::{self as rt, Error, ErrorKind, Writer};

use crate::choice::{self, Chosen};
use crate::eval::Scope;
use crate::value::{Link, Struct, Val, Value};

/// What writing one value shares.
struct Cx<'s> {
    schema: &'s Schema,
    /// Every structure written, to release what only checking needed (see [`write_file`]).
    nodes: RefCell<Vec<Rc<Struct>>>,
}

/// Writes `value`, a value of the schema's root type, as a whole file.
pub(crate) fn write_file(schema: &Schema, value: &Value) -> rt::Result<Vec<u8>> {
    let Value::Struct(root) = value else {
        return Err(refused(0, "the value of a file is a structure".into()));
    };
    let cx = Cx {
        schema,
        nodes: RefCell::default(),
    };
    let mut w = Writer::new();
    let written = write_struct(&cx, &mut w, root, None, true);
    // Checks computed instances and arguments, which may link values in a cycle.
    for node in cx.nodes.take() {
        node.params.take();
        node.instances.take();
    }
    written?;
    w.into_bytes()
}

fn refused(offset: usize, message: String) -> Error {
    Error::new(offset as u64, ErrorKind::Encode(message))
}

/// An error at the writer's position.
fn encode_error(w: &Writer, message: impl Into<String>) -> Error {
    rt::fields::encode_error(w, message.into())
}

/// A value of the wrong shape for its field: only a value not made by the reader or from a
/// document can be one.
fn misshapen(w: &Writer, value: &Value) -> Error {
    encode_error(w, format!("this field cannot hold {value:?}"))
}

/// Writes the fields of `node` one after another; `checked` is false where its arguments are
/// unknown (computed from the stream), so that nothing computed from them is checked.
fn write_struct(
    cx: &Cx<'_>,
    w: &mut Writer,
    node: &Rc<Struct>,
    parent: Option<Link>,
    checked: bool,
) -> rt::Result<()> {
    let def = &cx.schema.types[node.ty];
    node.instances.replace(vec![None; def.instances.len()]);
    cx.nodes.borrow_mut().push(node.clone());
    let link = Link::new(node.clone(), parent);
    let scope = Scope::writing(cx.schema, link);
    if let Some(choice) = &def.endian_choice {
        node.is_be.set(Some(byte_order(w, &scope, choice, node)?));
    }
    let fields = node.fields.borrow();
    for (index, field) in def.fields.iter().enumerate() {
        if field.is_read_only() {
            continue;
        }
        let Some(value) = &fields[index] else {
            return Err(encode_error(w, "the value has no such field").in_path(field.id.clone()));
        };
        write_field(cx, w, &scope, field, value, checked)
            .map_err(|e| e.in_path(field.id.clone()))?;
    }
    Ok(())
}

/// The byte order the value chooses; one whose selector needs the stream keeps the order it
/// was read with.
fn byte_order(
    w: &Writer,
    scope: &Scope<'_>,
    choice: &EndianChoice,
    node: &Struct,
) -> rt::Result<bool> {
    match choice::byte_order(scope, choice) {
        Ok(Chosen::Found(big)) => Ok(big),
        Ok(Chosen::Unmatched(selector)) => Err(encode_error(
            w,
            format!("no byte order for {selector:?}: the `meta/endian` switch has no case for it"),
        )),
        Err(message) => node
            .is_be
            .get()
            .ok_or_else(|| encode_error(w, format!("the byte order cannot be chosen: {message}"))),
    }
}

/// Writes one field: its condition, its repetition, its values.
fn write_field(
    cx: &Cx<'_>,
    w: &mut Writer,
    scope: &Scope<'_>,
    field: &Field,
    value: &Value,
    checked: bool,
) -> rt::Result<()> {
    let mut scope = scope.clone();
    if let Some(parent) = &field.parent {
        scope.parent = match scope.eval(parent) {
            Ok(Val::Struct(link)) => Some(Some(link)),
            _ => Some(None),
        };
    }
    if let Some(cond) = field.cond.as_ref().filter(|_| checked)
        && let Ok(holds) = scope.bool(cond)
    {
        match (holds, value) {
            (true, Value::Absent) => {
                return Err(encode_error(w, "missing, but its `if` condition holds"));
            }
            (false, Value::Absent) => {}
            (false, _) => {
                return Err(encode_error(
                    w,
                    "present, but its `if` condition does not hold",
                ));
            }
            (true, _) => {}
        }
    }
    match (value, &field.ty) {
        (Value::Absent, _) => Ok(()),
        (Value::Present, ty) => write_one(cx, w, &scope, ty, &Value::Unit, checked),
        (Value::Case(name, list), FieldType::Switch(switch)) if field.switches_whole_list() => {
            let ty = held_case(cx, w, &scope, switch, name, checked)?;
            write_repeated(cx, w, &scope, field, &ty, list, checked)
                .map_err(|e| e.in_path(name.to_string()))
        }
        (value, ty) => write_repeated(cx, w, &scope, field, ty, value, checked),
    }
}

/// The type of the case `name` a switch's value holds, refused when the selector calls for
/// another.
fn held_case(
    cx: &Cx<'_>,
    w: &Writer,
    scope: &Scope<'_>,
    switch: &Switch,
    name: &str,
    checked: bool,
) -> rt::Result<FieldType> {
    let Some(ty) = choice::case_named(cx.schema, switch, name) else {
        return Err(encode_error(w, format!("the switch has no case `{name}`")));
    };
    match choice::case(cx.schema, scope, switch)
        .ok()
        .filter(|_| checked)
    {
        Some(Chosen::Found((chosen, _))) if *chosen != *name => Err(encode_error(
            w,
            format!("the selector calls for `{chosen}`, but the value holds another case"),
        )),
        Some(Chosen::Unmatched(_)) => Err(encode_error(w, "the selector matches no case")),
        _ => Ok(ty),
    }
}

/// Writes the values of a field by its `repeat`, after checking what ends the list.
fn write_repeated(
    cx: &Cx<'_>,
    w: &mut Writer,
    scope: &Scope<'_>,
    field: &Field,
    ty: &FieldType,
    value: &Value,
    checked: bool,
) -> rt::Result<()> {
    if field.repeat == Repeat::None {
        return write_sized(cx, w, scope, field, ty, value, checked);
    }
    let Value::List(items) = value else {
        return Err(misshapen(w, value));
    };
    if checked {
        check_list_end(w, scope, field, ty, items)?;
    }
    // Elements that see the list being read see only the elements before them: checks made
    // on the whole list would not be the reader's.
    let checked = checked && !field.refers_to_itself();
    for (index, item) in items.iter().enumerate() {
        let scope = Scope {
            index: Some(index as i64),
            ..scope.clone()
        };
        write_sized(cx, w, &scope, field, ty, item, checked).map_err(|e| e.at_index(index))?;
    }
    Ok(())
}

/// Before writing a list, what the reader uses to end it: a count must equal its length; a
/// `repeat-until` condition must hold for its last element and no other.
fn check_list_end(
    w: &Writer,
    scope: &Scope<'_>,
    field: &Field,
    ty: &FieldType,
    items: &[Value],
) -> rt::Result<()> {
    match &field.repeat {
        Repeat::Expr(count) => match scope.int(count) {
            Ok(count) => rt::fields::check_count(count, items.len(), w),
            Err(_) => Ok(()),
        },
        Repeat::Until(done) => {
            rt::fields::check_until(items, w, |item, index| {
                let scope = Scope {
                    index: Some(index as i64),
                    item: Some(crate::eval::to_val(ty, item, &scope.this)),
                    ..scope.clone()
                };
                // A condition that cannot be computed is taken to hold where the reader stops.
                scope.bool(done).unwrap_or(index + 1 == items.len())
            })
        }
        Repeat::None | Repeat::Eos | Repeat::ForEach(_) => Ok(()),
    }
}

/// Writes one value of `ty` as the field delimits it: a switch's case, the bytes a decoded
/// value is stored in, a substream of its `size` or up to its terminator, or in place.
fn write_sized(
    cx: &Cx<'_>,
    w: &mut Writer,
    scope: &Scope<'_>,
    field: &Field,
    ty: &FieldType,
    value: &Value,
    checked: bool,
) -> rt::Result<()> {
    if let FieldType::Switch(switch) = ty {
        let Value::Case(name, inner) = value else {
            return Err(misshapen(w, value));
        };
        let case = held_case(cx, w, scope, switch, name, checked)?;
        return write_sized(cx, w, scope, field, &case, inner, checked)
            .map_err(|e| e.in_path(name.to_string()));
    }
    if let Some(decode) = &field.decode {
        let Value::Decoded(decoded) = value else {
            return Err(misshapen(w, value));
        };
        return write_decoded(cx, w, scope, decode, ty, decoded, checked);
    }
    let start = w.pos();
    let expected = match &field.substream {
        None | Some(Size::Eos) => return write_one(cx, w, scope, ty, value, checked),
        Some(Size::Terminator {
            byte,
            include,
            consume,
            eos_error,
        }) => {
            write_one(cx, w, scope, ty, value, checked)?;
            return rt::fields::end_terminated(w, start, *byte, *include, *consume, *eos_error);
        }
        Some(Size::Const(n)) => Some(*n as i64),
        Some(Size::Expr(e)) => scope.int(e).ok().filter(|_| checked),
    };
    write_one(cx, w, scope, ty, value, checked)?;
    match expected {
        Some(size) => rt::fields::check_len(size, w.pos() - start, w),
        None => Ok(()),
    }
}

/// Writes a value decoded from the bytes it is stored in: the bytes as read while they still
/// decode to the value, else the value encoded and framed anew.
fn write_decoded(
    cx: &Cx<'_>,
    w: &mut Writer,
    scope: &Scope<'_>,
    decode: &Decode,
    ty: &FieldType,
    decoded: &rt::Decoded<Value>,
    checked: bool,
) -> rt::Result<()> {
    let size = match &decode.size {
        Size::Const(n) => Some(*n as i64),
        Size::Expr(e) => scope.int(e).ok(),
        Size::Eos | Size::Terminator { .. } => None,
    };
    let Ok(processor) = crate::process::processor(scope, decode) else {
        // Arguments computed from the stream: the bytes as read are written, and reading the
        // output back refuses an edit they do not hold.
        w.bytes(&decoded.stored.0);
        return Ok(());
    };
    let mut inner = Writer::decoded();
    write_one(cx, &mut inner, scope, ty, &decoded.value, checked)?;
    inner.end_with(&decoded.rest.0);
    w.adopt_placed(&mut inner)?;
    let data = inner.into_bytes()?;
    let frame = decode.frame(size.filter(|_| checked));
    let stored = rt::process::stored_bytes(w, &processor, &data, &decoded.stored.0, frame)?;
    match (decode.wide_terminator(), size) {
        (Some((byte, unit, consume, eos_error)), _) => {
            rt::fields::check_terminated_units(&stored, byte, unit, consume, eos_error, w)?;
        }
        (None, Some(size)) if checked => rt::fields::check_len(size, stored.len(), w)?,
        _ => {}
    }
    w.bytes(&stored);
    Ok(())
}

/// Writes one value of `ty`.
fn write_one(
    cx: &Cx<'_>,
    w: &mut Writer,
    scope: &Scope<'_>,
    ty: &FieldType,
    value: &Value,
    checked: bool,
) -> rt::Result<()> {
    match (ty, value) {
        (FieldType::Number(scalar), value) => write_scalar(w, scope, *scalar, value),
        (FieldType::Quat(scalar) | FieldType::Vec3(scalar), Value::Vector(components)) => {
            let count = if matches!(ty, FieldType::Quat(_)) {
                4
            } else {
                3
            };
            rt::fields::check_count(count, components.len(), w)?;
            for (name, value) in crate::value::COMPONENTS.iter().zip(components) {
                write_scalar(w, scope, *scalar, value).map_err(|e| e.in_field(name))?;
            }
            Ok(())
        }
        (FieldType::Enum { raw, .. }, Value::Enum { raw: n, .. }) => {
            let big = is_big(w, scope, raw.order)?;
            // A `u8` value above `i64::MAX` is held as its bit pattern, as the reader made it.
            let n = match (raw.bytes, raw.signed) {
                (8, false) => crate::value::Int::Unsigned(*n as u64),
                _ => crate::value::Int::Signed(*n),
            };
            match n.write(*raw, big, w) {
                true => Ok(()),
                false => Err(out_of_range(w, n.as_i128(), *raw)),
            }
        }
        (FieldType::Vlq, Value::Int(n)) => {
            let n = u32::try_from(n.as_i128()).map_err(|_| {
                encode_error(w, format!("{} does not fit in a `vlq` (u32)", n.as_i128()))
            })?;
            w.write_7bit_u32(n);
            Ok(())
        }
        (FieldType::Str { size, align, .. }, value) => {
            let bytes = match value {
                Value::FixedStr(raw) => raw.as_slice(),
                Value::VarStr(s) => s.as_bytes(),
                Value::Text(s) => s.as_bytes(),
                value => return Err(misshapen(w, value)),
            };
            write_bytes(w, scope, size, *align, bytes, checked)
        }
        (FieldType::Bytes { size, align, .. }, Value::Bytes(b)) => {
            write_bytes(w, scope, size, *align, &b.0, checked)
        }
        (
            FieldType::Bits {
                width, big_endian, ..
            },
            value,
        ) => {
            let raw = match value {
                Value::Bool(b) => u64::from(*b),
                Value::Int(n) => u64::try_from(n.as_i128()).unwrap_or(u64::MAX),
                // A negative raw value fits in no bit field: `u64::MAX` is refused.
                Value::Enum { raw, .. } => u64::try_from(*raw).unwrap_or(u64::MAX),
                value => return Err(misshapen(w, value)),
            };
            match big_endian {
                true => w.write_bits_be(u32::from(*width), raw),
                false => w.write_bits_le(u32::from(*width), raw),
            }
        }
        (FieldType::BitPadding, Value::Int(n)) => {
            w.align_to_byte(u8::try_from(n.as_i128()).unwrap_or(u8::MAX))
        }
        (FieldType::Contents(expected), _) => {
            w.bytes(expected);
            Ok(())
        }
        (FieldType::Nothing, _) => Ok(()),
        (FieldType::Array { elem, len }, Value::List(items)) => {
            rt::fields::check_count(*len as i64, items.len(), w)?;
            for (index, item) in items.iter().enumerate() {
                write_one(cx, w, scope, elem, item, checked).map_err(|e| e.at_index(index))?;
            }
            Ok(())
        }
        (FieldType::User { ty, args }, Value::Struct(node)) if node.ty == *ty => {
            let params: Result<Vec<Val>, String> = args.iter().map(|a| scope.eval(a)).collect();
            let checked = checked && params.is_ok();
            node.params.replace(params.unwrap_or_default());
            let parent = scope
                .parent
                .clone()
                .unwrap_or_else(|| Some(scope.this.clone()));
            write_struct(cx, w, node, parent, checked)
        }
        (FieldType::Switch(switch), Value::Case(name, inner)) => {
            let case = held_case(cx, w, scope, switch, name, checked)?;
            write_one(cx, w, scope, &case, inner, checked).map_err(|e| e.in_path(name.to_string()))
        }
        (_, value) => Err(misshapen(w, value)),
    }
}

/// Writes a number.
fn write_scalar(
    w: &mut Writer,
    scope: &Scope<'_>,
    scalar: Scalar,
    value: &Value,
) -> rt::Result<()> {
    let (int, n) = match (scalar, value) {
        (Scalar::Int(int), Value::Int(n)) => (int, n),
        (Scalar::Fixed { raw, .. }, Value::Fixed { raw: n, .. }) => (raw, n),
        (Scalar::Float(float), value) => {
            let big = is_big(w, scope, float.order)?;
            match (value, big) {
                (Value::F32(f), true) => w.bytes(&f.to_be_bytes()),
                (Value::F32(f), false) => w.bytes(&f.to_le_bytes()),
                (Value::F64(f), true) => w.bytes(&f.to_be_bytes()),
                (Value::F64(f), false) => w.bytes(&f.to_le_bytes()),
                (value, _) => return Err(misshapen(w, value)),
            }
            return Ok(());
        }
        (_, value) => return Err(misshapen(w, value)),
    };
    match n.write(int, is_big(w, scope, int.order)?, w) {
        true => Ok(()),
        false => Err(out_of_range(w, n.as_i128(), int)),
    }
}

/// Writes the bytes of a string or byte array, refused when the reader would delimit them
/// otherwise.
fn write_bytes(
    w: &mut Writer,
    scope: &Scope<'_>,
    size: &Size,
    align: usize,
    bytes: &[u8],
    checked: bool,
) -> rt::Result<()> {
    let expected = match size {
        Size::Const(n) => Some(*n as i64),
        Size::Expr(e) => scope.int(e).ok().filter(|_| checked),
        Size::Eos => None,
        Size::Terminator {
            byte,
            consume,
            eos_error,
            ..
        } => {
            rt::fields::check_terminated(bytes, *byte, *consume, *eos_error, w)?;
            None
        }
    };
    if let Some(expected) = expected {
        rt::fields::check_len(rt::fields::padded_len(expected, align), bytes.len(), w)?;
    }
    w.bytes(bytes);
    Ok(())
}

fn out_of_range(w: &Writer, n: i128, int: IntType) -> Error {
    let sign = if int.signed { 's' } else { 'u' };
    encode_error(w, format!("{n} does not fit in a `{sign}{}`", int.bytes))
}

/// Whether numbers of `order` are written big-endian: a chosen order is the one the value's
/// type chose, or was passed down (`_is_be`).
fn is_big(w: &Writer, scope: &Scope<'_>, order: ByteOrder) -> rt::Result<bool> {
    match order {
        ByteOrder::Big => Ok(true),
        ByteOrder::Little => Ok(false),
        ByteOrder::Chosen => scope
            .bool(&skelcodec_codegen::expr::Expr::Name(
                skelcodec_codegen::sanitization::IS_BE.to_owned(),
            ))
            .map_err(|m| encode_error(w, format!("the byte order is unknown: {m}"))),
    }
}
