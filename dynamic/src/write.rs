//! Writes a value with a checked schema, as the generated writer does: every stored field
//! verbatim, with the runtime's own writers. What the reader will use to find its way (a
//! condition, a count, a `repeat-until` condition, a size, a switch's selector, a terminator)
//! is checked against the value first where it can be computed without the stream being read;
//! the interpreter then reads its output back, so a value that would read back as another is
//! refused even where no check could be made.

use std::borrow::Cow;
use std::rc::Rc;

use skelcodec_codegen::model::*;
use skelcodec_runtime::{self as rt, Error, ErrorKind, Writer};

use crate::choice::{self, Chosen};
use crate::debug::debug;
use crate::eval::Scope;
use crate::value::{Int, Link, Struct, Val, Value};

/// What writing one value shares.
struct Cx<'s> {
    schema: &'s Schema,
    /// The names of the switches' cases, once asked.
    cases: choice::CaseNames,
    /// Measuring: nothing is checked, and each structure's span is where it is written.
    measuring: bool,
}

/// Writes `value`, a value of the schema's root type, as a whole file.
pub(crate) fn write_file(schema: &Schema, value: &Value) -> rt::Result<Vec<u8>> {
    write_with(schema, value, Writer::new(), false)?.into_bytes()
}

/// The byte ranges of the file the fields of `value`, just read, claim (see
/// [`Writer::for_coverage`]).
pub(crate) fn coverage(schema: &Schema, value: &Value) -> rt::Result<Vec<std::ops::Range<usize>>> {
    write_with(schema, value, Writer::for_coverage(), false).map(|w| w.coverage())
}

/// The bytes `value`, of `field` of the structure `link`, is written as on its own, without
/// the writer's checks (a value read from another value's stream, written back into it).
pub(crate) fn field_bytes(
    schema: &Schema,
    link: &Link,
    field: &Field,
    value: &Value,
) -> rt::Result<Vec<u8>> {
    let cx = Cx {
        schema,
        cases: choice::CaseNames::default(),
        measuring: false,
    };
    let mut w = Writer::new();
    let written = write_field(
        &cx,
        &mut w,
        &Scope::writing(schema, link.clone()),
        field,
        value,
        false,
    );
    crate::value::release(value);
    written?;
    w.into_bytes()
}

/// The bytes `value`, the value of `field` of `link`, is written as on its own, when it places
/// nothing by position (what a value read from the end of the file is written back as, see
/// `Schema::from_file_end`).
pub(crate) fn own_bytes(
    schema: &Schema,
    link: &Link,
    field: &Field,
    value: &Value,
) -> rt::Result<Option<Vec<u8>>> {
    let cx = Cx {
        schema,
        cases: choice::CaseNames::default(),
        measuring: false,
    };
    let scope = Scope::writing(schema, link.clone());
    let bytes =
        rt::__private::fields::own_bytes(|w| write_field(&cx, w, &scope, field, value, false));
    crate::value::release(value);
    bytes
}

/// Writes `value` with `w`: a writer that recomputes checksums, or one whose disagreeing
/// checksums are then asked (see `rt::checksum`).
pub(crate) fn write_into(schema: &Schema, value: &Value, w: Writer) -> rt::Result<Writer> {
    write_with(schema, value, w, false)
}

/// Writes `value` without checking what the reader will use to find its way (sizes, counts,
/// conditions), so that each structure's span is the bytes it takes as it is: what a derived
/// size measures.
pub(crate) fn measure(schema: &Schema, value: &Value) -> rt::Result<()> {
    write_with(schema, value, Writer::new(), true).map(drop)
}

fn write_with(
    schema: &Schema,
    value: &Value,
    mut w: Writer,
    measuring: bool,
) -> rt::Result<Writer> {
    let Value::Struct(root) = value else {
        return Err(refused(0, "the value of a file is a structure".into()));
    };
    let written = write_struct(
        &Cx {
            schema,
            cases: choice::CaseNames::default(),
            measuring,
        },
        &mut w,
        root,
        None,
        !measuring,
    );
    // Checks computed instances and arguments.
    crate::value::release(value);
    written.map(|()| w)
}

fn refused(offset: usize, message: String) -> Error {
    Error::new(offset as u64, ErrorKind::Encode(message))
}

/// An error at the writer's position.
fn encode_error(w: &Writer, message: impl Into<String>) -> Error {
    rt::__private::fields::encode_error(w, message.into())
}

/// A value of the wrong shape for its field: only a value not made by the reader or from a
/// document can be one.
fn misshapen(w: &Writer, value: &Value) -> Error {
    use rt::__private::messages::Kind;
    let held = match value {
        Value::Int(_) | Value::Fixed { .. } => Kind::Integer.to_string(),
        Value::F32(_) | Value::F64(_) => Kind::Float.to_string(),
        Value::Bool(_) => Kind::Boolean.to_string(),
        Value::Enum { .. } => Kind::EnumValue.to_string(),
        Value::FixedStr(_) | Value::VarStr(_) | Value::Text(_) => Kind::String.to_string(),
        Value::Bytes(_) => Kind::Bytes.to_string(),
        Value::Struct(_) => Kind::Structure.to_string(),
        Value::List(_) | Value::Packed(_) | Value::Vector(_) => Kind::List.to_string(),
        Value::Case(..) => "a switch's case".into(),
        Value::Decoded(_) => "a decoded value".into(),
        Value::Unit | Value::Absent | Value::Present => "nothing".into(),
        Value::Failed { .. } | Value::Cycle(_) => "a parse instance's failure".into(),
    };
    encode_error(w, format!("this field cannot hold {held}"))
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
    // Instances are computed again from the value as written.
    node.forget_instances(def);
    let link = Link::new(node.clone(), parent);
    let scope = Scope::writing(cx.schema, link);
    if let Some(choice) = &def.endian_choice {
        node.is_be.set(Some(byte_order(w, &scope, choice, node)?));
    }
    let start = w.pos();
    // Inside an imported schema's root value, its `_root._io` is that value's stream.
    match cx.schema.roots_imported_stream(node.ty) {
        true => w.in_file_root(|w| write_fields(cx, w, &scope, node, checked))?,
        false => write_fields(cx, w, &scope, node, checked)?,
    }
    if cx.measuring {
        node.span.set((start, w.pos()));
    }
    Ok(())
}

/// Writes the fields of `node` in order, those read by position placed where they were, and
/// a root's unclaimed bytes.
fn write_fields(
    cx: &Cx<'_>,
    w: &mut Writer,
    scope: &Scope<'_>,
    node: &Struct,
    checked: bool,
) -> rt::Result<()> {
    let def = &cx.schema.types[node.ty];
    let fields = node.fields.borrow();
    // Where the bytes each checksum covers start, once written.
    let mut covered_from = vec![0; def.fields.len()];
    for (index, field) in def.fields.iter().enumerate() {
        if field.is_read_only() {
            // Measured too, where they are not written: their sizes are derived as well. One
            // that cannot be written (a failed instance) has nothing to measure.
            if let (true, Some(value)) = (cx.measuring, &fields[index]) {
                let _ = write_field(cx, &mut Writer::new(), scope, field, value, false);
            }
            continue;
        }
        let Some(value) = &fields[index] else {
            return Err(encode_error(w, "the value has no such field").in_path(field.id.clone()));
        };
        for (at, start) in covered_from.iter_mut().enumerate() {
            let covers = def.fields[at].checksum.as_ref();
            if covers.is_some_and(|c| c.over.first() == Some(&field.id)) {
                *start = w.pos();
            }
        }
        let recomputed;
        let value = match (&field.checksum, offset_unit(def, index)) {
            (Some(checksum), _) => {
                recomputed = checksum_written(w, checksum, covered_from[index], value);
                &recomputed
            }
            (None, Some(unit)) => {
                recomputed = offset_written(w, field, offset_key(value), unit, value)
                    .map_err(|e| e.in_path(field.id.clone()))?;
                &recomputed
            }
            (None, None) => value,
        };
        // The key of a relocatable block's offset: the offset's place while it is written.
        let relocation = field.relocation.and_then(|r| {
            let offset = fields[r.offset].as_ref()?;
            Some(((offset_key(offset), r.unit), r.follows))
        });
        let written = match &field.position {
            Some(pos) if !matches!(value, Value::Absent) => {
                let placed = Placed {
                    owner: node.ty,
                    field,
                    pos,
                    relocation,
                };
                write_placed(cx, w, scope, placed, value, checked)
            }
            _ => write_field(cx, w, scope, field, value, checked),
        };
        written.map_err(|e| e.in_path(field.id.clone()))?;
    }
    if cx.schema.keeps_unclaimed(node.ty) {
        let gaps = node.unclaimed.borrow();
        rt::__private::fields::write_gaps(w, gaps.as_deref().unwrap_or_default())
            .map_err(|e| e.in_field(crate::value::UNCLAIMED))?;
    }
    Ok(())
}

/// The unit of the offset field `index` of `def` counts a relocatable block's position in
/// (see `rt::relocation`), when it is one.
fn offset_unit(def: &TypeDef, index: usize) -> Option<u64> {
    let r = def
        .fields
        .iter()
        .find_map(|f| f.relocation.filter(|r| r.offset == index))?;
    Some(r.unit)
}

/// The key of an offset field while its value is written: the value's address, which the
/// writer that plans and the one that moves see alike (see `rt::relocation`).
fn offset_key(value: &Value) -> usize {
    std::ptr::from_ref(value).addr()
}

/// The value the offset of a relocatable block is written as: where the writer places the
/// block, or as stored.
fn offset_written(
    w: &Writer,
    field: &Field,
    key: usize,
    unit: u64,
    stored: &Value,
) -> rt::Result<Value> {
    let Value::Int(n) = stored else {
        return Ok(stored.clone());
    };
    let at = rt::__private::fields::relocated_offset(w, key, unit, n.as_i128())?;
    match i64::try_from(at)
        .ok()
        .and_then(|at| Value::of_int(&field.ty, at))
    {
        Some(moved) => Ok(moved),
        None => Err(encode_error(
            w,
            format!("the block would move to {at}, past what the offset can hold"),
        )),
    }
}

/// The value a checksum field is written as: as stored, or recomputed by a writer that
/// recomputes checksums (see `rt::checksum`) from the bytes written since `start`.
fn checksum_written(w: &mut Writer, checksum: &Checksum, start: usize, stored: &Value) -> Value {
    let algorithm = match checksum.algorithm {
        ChecksumAlgorithm::Crc32 => rt::checksum::Algorithm::Crc32,
        ChecksumAlgorithm::Adler32 => rt::checksum::Algorithm::Adler32,
    };
    let as_number = match stored {
        Value::Int(n) => n.as_i64() as u32,
        Value::Bytes(b) => rt::checksum::Held::to_u32(b),
        _ => 0,
    };
    match (w.checksum(algorithm, start, as_number), stored) {
        (None, _) => stored.clone(),
        (Some(sum), Value::Bytes(b)) => Value::Bytes(rt::checksum::Held::written(b, Some(sum))),
        (Some(sum), Value::Int(Int::Signed(_))) => Value::Int(Int::Signed(i64::from(sum as i32))),
        (Some(sum), _) => Value::Int(Int::Unsigned(sum.into())),
    }
}

/// Writes a value read by position as a block placed where it was read. A parse instance that
/// failed writes the bytes it holds when it holds some, else nothing (its bytes are kept as
/// the file's unclaimed bytes), as does a cycle; measuring what the fields claim, one read on
/// demand claims its bytes, as the generated reader's, still unread then, does.
fn write_placed(
    cx: &Cx<'_>,
    w: &mut Writer,
    scope: &Scope<'_>,
    placed: Placed<'_>,
    value: &Value,
    checked: bool,
) -> rt::Result<()> {
    let Placed {
        owner,
        field,
        pos,
        relocation,
    } = placed;
    let held = match value {
        Value::Failed { held: None, .. } | Value::Cycle(_) => return Ok(()),
        Value::Failed {
            held: Some(bytes), ..
        } => Some(rt::writer::Held::Raw(&bytes.0)),
        _ if w.is_for_coverage() && cx.schema.reads_on_demand(owner, field) => {
            let len = scope
                .window_len(field)
                .and_then(|n| usize::try_from(n).ok());
            len.map(rt::writer::Held::Claimed)
        }
        _ => None,
    };
    let pos = scope
        .int(pos)
        .map_err(|m| encode_error(w, format!("its position cannot be computed: {m}")))?;
    let name = crate::intern::interned(&field.id);
    let write = |w: &mut Writer| match held {
        Some(held) => {
            w.hold(held);
            Ok(())
        }
        None => write_field(cx, w, scope, field, value, checked),
    };
    // A measure takes each block's length alone: where it lands is the layout's, which may
    // be about to move it (an edit that grows a block makes it overlap the next one).
    if cx.measuring {
        return write(&mut Writer::new());
    }
    let in_file = field.stream == Stream::Root;
    match (relocation, in_file) {
        (Some((offset, true)), _) => {
            rt::__private::fields::write_at_following(w, pos, in_file, name, offset, write)
        }
        (Some((offset, false)), _) => {
            rt::__private::fields::write_at_relocatable(w, pos, in_file, name, offset, write)
        }
        (None, true) => rt::__private::fields::write_at_root(w, pos, name, write),
        (None, false) => rt::__private::fields::write_at(w, pos, name, write),
    }
}

/// A field read by position, with the type that holds it, its position and, for a
/// relocatable block, the key and unit of its offset.
struct Placed<'a> {
    owner: usize,
    field: &'a Field,
    pos: &'a skelcodec_codegen::expr::Expr,
    relocation: Option<((usize, u64), bool)>,
}

/// Refuses a value whose kept arguments (see [`Param::kept`]) are not those it is written
/// with, as the generated writer does.
fn check_kept_args(
    cx: &Cx<'_>,
    w: &Writer,
    def: &TypeDef,
    node: &Struct,
    params: &[Val],
) -> rt::Result<()> {
    // The value keeps an argument for each kept parameter; a writer that lacks one cannot
    // compare it (the codec reads its output back).
    let kept = def.params.iter().zip(params).filter(|(p, _)| p.kept);
    for ((param, arg), stored) in kept.zip(node.args().iter()) {
        if param.writers_lack {
            continue;
        }
        let written = Value::of_arg(param.ty, arg);
        if *stored != written {
            let (stored, written) = (debug(cx.schema, stored), debug(cx.schema, &written));
            // `Arguments` shows as its text under `Debug`: the values as `debug` shows them.
            let error = rt::__private::fields::kept_argument_changed(
                w,
                &format_args!("{stored}"),
                &format_args!("{written}"),
            );
            return Err(error.in_field(crate::intern::interned(&param.id)));
        }
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
        Ok(Chosen::Unmatched(selector)) => Err(rt::__private::fields::undecided_byte_order(
            w,
            choice::shown_selector(&selector),
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
        rt::__private::fields::check_condition(holds, !matches!(value, Value::Absent), w)?;
    }
    match (value, &field.ty) {
        (Value::Absent, _) => Ok(()),
        (Value::Present, ty) => write_one(cx, w, &scope, ty, &Value::Unit, checked),
        (Value::Case(name, list), FieldType::Switch(switch)) if field.switches_whole_list() => {
            let ty = held_case(cx, w, &scope, switch, name, checked)?;
            write_repeated(cx, w, &scope, field, ty, list, checked)
                .map_err(|e| e.in_path(name.to_string()))
        }
        (value, ty) => write_repeated(cx, w, &scope, field, ty, value, checked),
    }
}

/// The type of the case `name` a switch's value holds, refused when the selector calls for
/// another.
fn held_case<'s>(
    cx: &Cx<'s>,
    w: &Writer,
    scope: &Scope<'_>,
    switch: &'s Switch,
    name: &str,
    checked: bool,
) -> rt::Result<&'s FieldType> {
    let Some(ty) = choice::case_named(cx.schema, &cx.cases, switch, name) else {
        return Err(encode_error(w, rt::__private::messages::no_such_case(name)));
    };
    match choice::case(cx.schema, &cx.cases, scope, switch)
        .ok()
        .filter(|_| checked)
    {
        Some(Chosen::Found((chosen, _))) if *chosen != *name => {
            let selector = skelcodec_codegen::expr::to_source(&switch.on);
            Err(rt::__private::fields::case_mismatch(
                w, &selector, &chosen, name,
            ))
        }
        Some(Chosen::Unmatched(_)) => Err(rt::__private::fields::no_case_matches(w)),
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
    let items = match value {
        Value::List(items) => Cow::Borrowed(items.as_slice()),
        // Its bytes, as read, are its elements written: only their count is to be checked.
        Value::Packed(packed) if packed.is_read_as(ty) => {
            if let (true, Repeat::Expr(count)) = (checked, &field.repeat) {
                check_count(w, scope, count, packed.len())?;
            }
            w.bytes(packed.bytes());
            return Ok(());
        }
        Value::Packed(packed) => Cow::Owned(packed.elements()),
        _ => return Err(misshapen(w, value)),
    };
    let items = &*items;
    if checked {
        check_list_end(w, scope, field, ty, items)?;
    }
    // Elements that see the list being read see only the elements before them: checks made
    // on the whole list would not be the reader's.
    let checked = checked && !field.refers_to_itself();
    let partners = partners(scope, field);
    for (index, item) in items.iter().enumerate() {
        let scope = Scope {
            index: Some(index as i64),
            item: partners.as_ref().and_then(|p| p.get(index).cloned()),
            ..scope.clone()
        };
        write_sized(cx, w, &scope, field, ty, item, checked).map_err(|e| e.at_index(index))?;
    }
    Ok(())
}

/// Before writing a list of `len` elements, its count must be `len` where it can be computed.
fn check_count(
    w: &Writer,
    scope: &Scope<'_>,
    count: &skelcodec_codegen::expr::Expr,
    len: usize,
) -> rt::Result<()> {
    match scope.int(count) {
        Ok(count) => rt::__private::fields::check_count(count, len, w),
        Err(_) => Ok(()),
    }
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
        Repeat::Expr(count) => check_count(w, scope, count, items.len()),
        Repeat::Until(done) => {
            rt::__private::fields::check_until(items, w, |item, index| {
                let scope = Scope {
                    index: Some(index as i64),
                    item: Some(crate::eval::to_val(ty, item, &scope.this)),
                    ..scope.clone()
                };
                // A condition that cannot be computed is taken to hold where the reader stops.
                scope.bool(done).unwrap_or(index + 1 == items.len())
            })
        }
        Repeat::ForEach(_) => match partners(scope, field) {
            Some(partners) => {
                rt::__private::fields::check_count(partners.len() as i64, items.len(), w)
            }
            None => Ok(()),
        },
        Repeat::None | Repeat::Eos => Ok(()),
    }
}

/// The list a `-for-each` field follows, one partner per element (`_` of its expressions),
/// when it can be computed; a switch's case holds its list whole, without partners.
fn partners(scope: &Scope<'_>, field: &Field) -> Option<Vec<Val>> {
    match (&field.repeat, field.switches_whole_list()) {
        (Repeat::ForEach(list), false) => match scope.eval(list) {
            Ok(Val::List(items)) => Some(items),
            _ => None,
        },
        _ => None,
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
        return write_sized(cx, w, scope, field, case, inner, checked)
            .map_err(|e| e.in_path(name.to_string()));
    }
    if let Some(decode) = &field.decode {
        let Value::Decoded(decoded) = value else {
            return Err(misshapen(w, value));
        };
        return write_decoded(cx, w, scope, decode, ty, decoded, checked);
    }
    // Positions in a substream count from where it starts.
    if field.substream.is_some() && matches!(ty, FieldType::User { .. }) {
        return w.in_substream(|w| write_delimited(cx, w, scope, field, ty, value, checked));
    }
    write_delimited(cx, w, scope, field, ty, value, checked)
}

/// Writes one value of `ty` in place, or delimited by the field's size or terminator.
fn write_delimited(
    cx: &Cx<'_>,
    w: &mut Writer,
    scope: &Scope<'_>,
    field: &Field,
    ty: &FieldType,
    value: &Value,
    checked: bool,
) -> rt::Result<()> {
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
            return rt::__private::fields::end_terminated(
                w, start, *byte, *include, *consume, *eos_error,
            );
        }
        Some(Size::Const(n)) => Some(*n as i64),
        Some(Size::Expr(e)) => scope.int(e).ok().filter(|_| checked),
    };
    write_one(cx, w, scope, ty, value, checked)?;
    match expected {
        Some(size) => rt::__private::fields::check_len(size, w.pos() - start, w),
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
    let Ok(processor) = crate::process::processor(decode, &|e| scope.eval(e)) else {
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
            rt::__private::fields::check_terminated_units(
                &stored, byte, unit, consume, eos_error, w,
            )?;
        }
        (None, Some(size)) if checked => rt::__private::fields::check_len(size, stored.len(), w)?,
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
            rt::__private::fields::check_count(count, components.len(), w)?;
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
        // Kept in the value, never in the file.
        (FieldType::Nothing | FieldType::Remembered { .. }, _) => Ok(()),
        (FieldType::Array { elem, len }, Value::List(items)) => {
            rt::__private::fields::check_count(*len as i64, items.len(), w)?;
            for (index, item) in items.iter().enumerate() {
                write_one(cx, w, scope, elem, item, checked).map_err(|e| e.at_index(index))?;
            }
            Ok(())
        }
        (FieldType::User { ty, args }, Value::Struct(node)) if node.ty == *ty => {
            let params: Result<Vec<Val>, String> = args.iter().map(|a| scope.eval(a)).collect();
            let checked = checked && params.is_ok();
            let params = params.unwrap_or_default();
            let def = &cx.schema.types[*ty];
            if checked {
                check_kept_args(cx, w, def, node, &params)?;
            }
            if cx.measuring {
                node.keep_measured_args(Value::kept_args(def, &params));
            }
            node.keep_params(params);
            let parent = scope
                .parent
                .clone()
                .unwrap_or_else(|| Some(scope.this.clone()));
            write_struct(cx, w, node, parent, checked)
        }
        (FieldType::Switch(switch), Value::Case(name, inner)) => {
            let case = held_case(cx, w, scope, switch, name, checked)?;
            write_one(cx, w, scope, case, inner, checked).map_err(|e| e.in_path(name.to_string()))
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
            rt::__private::fields::check_terminated(bytes, *byte, *consume, *eos_error, w)?;
            None
        }
    };
    if let Some(expected) = expected {
        rt::__private::fields::check_len(
            rt::__private::fields::padded_len(expected, align),
            bytes.len(),
            w,
        )?;
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
                skelcodec_codegen::names::IS_BE.to_owned(),
            ))
            .map_err(|m| encode_error(w, format!("the byte order is unknown: {m}"))),
    }
}
