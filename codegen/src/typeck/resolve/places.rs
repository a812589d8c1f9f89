//! Places in expressions: names, fields, parameters, value instances, elements, streams and
//! the properties of values, resolved from the facts [`Reach`] gives of the scope.

use skelcodec_runtime::__private::messages;

use super::arguments::argument;
use super::{
    Reach, int_value, literal_number, parse_int, resolve, resolve_bool, resolve_int, typed,
};
use crate::expr::Expr;
use crate::model::switch_variants;
use crate::model::{
    Field, FieldType, Instance, InstanceKind, NumberType, Repeat, RootPlace, Schema,
    context_param_id,
};
use crate::names::IS_BE;
use crate::typeck::typed::*;
use crate::typeck::value_types::{
    element_ty, field_ty, item_ty, one_value, param_value_ty, place_value_ty,
};

/// The element `at` of `list`.
pub(super) fn item<R: Reach>(scope: &R, list: Typed, at: Position) -> Result<Typed, ExprError> {
    // An element of a list that may be absent is absent with it.
    if held(scope, &list).may_be_absent {
        return when_present(scope, list, |inner, present| item(inner, present, at));
    }
    let field = list_field(scope, &list);
    let ty = item_ty(scope.schema(), &list.ty, field)?;
    let can_fail = list.can_fail || matches!(&at, Position::At(at) if at.can_fail);
    let list = Box::new(list);
    Ok(typed(ty, can_fail, Node::Item { list, at }))
}

/// `e`, which is the name `name`.
pub(super) fn name<R: Reach>(scope: &R, name: &str) -> Result<Typed, ExprError> {
    match name {
        "_" => {
            return match scope.element() {
                Some(ty) => Ok(typed(ty, false, Node::Element)),
                None => invalid(
                    "`_` is only defined in `repeat-until`, in the arguments of a `-for-each` field and inside `sum(...)`",
                ),
            };
        }
        "_index" => {
            return match scope.has_index() {
                true => Ok(typed(Ty::Int, false, Node::Index)),
                false => invalid(
                    "`_index` is only defined in the attributes of a repeated field (its size, type arguments, switch selector and `valid`)",
                ),
            };
        }
        _ => {}
    }
    let ty = scope.scope_type();
    let def = &scope.schema().types[ty];
    if let Some(index) = def.fields.iter().position(|f| f.id == name) {
        return own_field(scope, ty, index);
    }
    let (mode, owned) = (scope.mode(), scope.through_another_value());
    match name {
        "_io" => {
            // A writer passes no stream; a finished value has one only where it keeps it.
            let known = match (mode, owned) {
                (Mode::Read | Mode::Write, false) => true,
                _ => def.keeps_stream,
            };
            match known {
                true => Ok(typed(Ty::Io, false, Node::Stream { of: None })),
                false => Err(ExprError::NeedsStream),
            }
        }
        "_sizeof" => match mode {
            Mode::Read => invalid("`_sizeof` is not known while reading; use it in `-derived`"),
            _ => Ok(typed(Ty::Int, false, Node::SizeOf { of: None })),
        },
        _ if let Some(index) = def.params.iter().position(|p| p.id == name) => {
            own_param(scope, ty, index)
        }
        _ if let Some(index) = def.instances.iter().position(|i| i.id == name) => {
            match def.instances[index].is_look_ahead() {
                true => look_ahead(scope, None, ty, index),
                false => value_instance(scope, None, ty, index),
            }
        }
        IS_BE if def.endian_choice.is_some() && !owned => match mode {
            Mode::Inspect => {
                invalid("the chosen byte order is only known while reading and writing")
            }
            _ => Ok(typed(Ty::Bool, false, Node::BigEndian)),
        },
        "_root" | "_parent" => unsupported(format!(
            "`{name}` as a whole value is not supported yet: use one of its fields (`{name}.field`)"
        )),
        _ => invalid(format!(
            "unknown name `{name}` in type `{}`: not a field, parameter or instance",
            def.id
        )),
    }
}

/// Parameter `index` of the structure in scope, of type `ty`.
fn own_param<R: Reach>(scope: &R, ty: usize, index: usize) -> Result<Typed, ExprError> {
    let param = &scope.schema().types[ty].params[index];
    let mode = scope.mode();
    // A finished value keeps the parameters its later values need; the others were arguments.
    let kept = param.kept && (scope.through_another_value() || mode == Mode::Inspect);
    if !kept {
        if scope.through_another_value() {
            return argument(scope, None, ty, index);
        }
        if mode == Mode::Inspect {
            return invalid(format!(
                "parameter `{}` is only known while reading and writing, not in `-derived` or instances",
                param.id
            ));
        }
        // The placeholder a writer is passed for it is no value.
        if mode == Mode::Write && param.writers_lack {
            return Err(ExprError::NeedsStream);
        }
    }
    let of = None;
    let node = Node::Param { of, ty, index };
    Ok(typed(param_value_ty(param.ty), false, node))
}

/// Value instance `index` of type `ty`, of `of` or of the structure in scope.
fn value_instance<R: Reach>(
    scope: &R,
    of: Option<Typed>,
    ty: usize,
    index: usize,
) -> Result<Typed, ExprError> {
    let inner = scope.instance_scope(of.as_ref(), ty);
    let value = instance_value(&inner, &scope.schema().types[ty].instances[index])?;
    let (value_ty, can_fail) = (value.ty.clone(), value.can_fail);
    let can_fail = can_fail || of.as_ref().is_some_and(|of| of.can_fail);
    let (of, value) = (of.map(Box::new), Box::new(value));
    let node = Node::Instance {
        of,
        ty,
        index,
        value,
    };
    Ok(typed(value_ty, can_fail, node))
}

/// The value of value instance `instance`, resolved in `scope`, the scope inside its
/// structure: its expression, as its `enum` when it has one, and where its `if` does not
/// hold what an absent value is.
pub fn instance_value<R: Reach>(scope: &R, instance: &Instance) -> Result<Typed, ExprError> {
    let InstanceKind::Value {
        value,
        cond,
        enum_idx,
    } = &instance.kind
    else {
        return invalid(format!("`{}` is a look-ahead, not a value", instance.id));
    };
    let mut t = resolve(scope, value)?;
    if t.ty == Ty::ListLit(Box::new(Ty::Int)) && value.is_byte_literal() {
        // A value instance `[0x41, 0x42]` is a byte array, as in Kaitai.
        let can_fail = t.can_fail;
        t = typed(Ty::Bytes, can_fail, Node::IntsAsBytes(t.into()));
    }
    if let Some(enum_index) = *enum_idx {
        if t.ty != Ty::Int {
            return invalid(format!(
                "`enum` needs an integer value, found {}",
                describe(&t.ty)
            ));
        }
        let (can_fail, value) = (t.can_fail, t.into());
        t = typed(
            Ty::Enum(enum_index),
            can_fail,
            Node::AsEnum { enum_index, value },
        );
    }
    let Some(cond) = cond else {
        return Ok(t);
    };
    let cond = resolve_bool(scope, cond)?;
    let ty = match &t.ty {
        // A structure is absent when the condition fails.
        Ty::User(_) => Ty::Opt(Box::new(t.ty.clone())),
        // A value that may be absent already is absent when the condition fails too.
        ty @ (Ty::Opt(_) | Ty::Int | Ty::Float | Ty::Bool | Ty::Enum(_)) => ty.clone(),
        other => {
            return unsupported(format!(
                "an instance with `if` must be a number, boolean or enum value, not {}",
                describe(other)
            ));
        }
    };
    let can_fail = cond.can_fail || t.can_fail;
    let (cond, value) = (cond.into(), t.into());
    Ok(typed(ty, can_fail, Node::OnlyIf { cond, value }))
}

/// Look-ahead instance `index` of type `ty`, of `of` or of the structure in scope.
fn look_ahead<R: Reach>(
    scope: &R,
    of: Option<Typed>,
    ty: usize,
    index: usize,
) -> Result<Typed, ExprError> {
    let instance = &scope.schema().types[ty].instances[index];
    let InstanceKind::Peek { cond, enum_idx, .. } = &instance.kind else {
        return invalid(format!("`{}` is not a look-ahead", instance.id));
    };
    // What the bytes there say decides, not the value: a writer's output is read back
    // instead (`reads_decide_from_data`).
    if scope.mode() == Mode::Write {
        return Err(ExprError::NeedsStream);
    }
    // Kept in the value by its reader, or read while the structure in scope is read.
    let reads = of.is_none() && !scope.through_another_value() && scope.mode() == Mode::Read;
    let read = match reads {
        true => Some(look_ahead_read(&scope.instance_scope(None, ty), instance)?),
        false => None,
    };
    let value_ty = enum_idx.map_or(Ty::Int, Ty::Enum);
    let ty_seen = match cond {
        Some(_) => Ty::Opt(Box::new(value_ty)),
        None => value_ty,
    };
    let fails = |t: &Typed| t.can_fail;
    let can_fail = of.as_ref().is_some_and(fails)
        || read
            .as_ref()
            .is_some_and(|r| fails(&r.pos) || r.cond.as_deref().is_some_and(fails));
    let of = of.map(Box::new);
    let node = Node::LookAhead {
        of,
        ty,
        index,
        read,
    };
    Ok(typed(ty_seen, can_fail, node))
}

/// Where and when look-ahead `instance` is read, resolved in `scope`, the scope inside its
/// structure while it is read.
pub fn look_ahead_read<R: Reach>(
    scope: &R,
    instance: &Instance,
) -> Result<LookAheadRead, ExprError> {
    let InstanceKind::Peek { pos, cond, .. } = &instance.kind else {
        return invalid(format!("`{}` is not a look-ahead", instance.id));
    };
    let pos = Box::new(resolve_int(scope, pos)?);
    let cond = match cond {
        Some(cond) => Some(Box::new(resolve_bool(scope, cond)?)),
        None => None,
    };
    Ok(LookAheadRead { pos, cond })
}

/// `_io.attr`: a property of the stream of the structure in scope.
fn own_stream_property<R: Reach>(scope: &R, attr: &str) -> Result<Typed, ExprError> {
    let owned = scope.through_another_value();
    // A writer knows where it is in the stream it writes, not how long that stream is.
    let writer_pos = scope.mode() == Mode::Write && scope.at_writer_pos() && !owned;
    if !(writer_pos && attr == "pos") && scope.mode() != Mode::Read {
        return Err(ExprError::NeedsStream);
    }
    if scope.before_own_bytes() && !owned && matches!(attr, "pos" | "eof") {
        return unsupported(format!(
            "`_io.{attr}` in an argument of a value read from bytes of its own (`size`, `terminator`, `process`) is not supported: Kaitai computes it once those bytes are read"
        ));
    }
    stream_property(None, attr)
}

/// Property `attr` of the stream `of` (of the structure in scope when `None`).
fn stream_property(of: Option<Typed>, attr: &str) -> Result<Typed, ExprError> {
    let (property, ty) = match attr {
        "pos" => (StreamProperty::Pos, Ty::Int),
        "size" => (StreamProperty::Size, Ty::Int),
        "eof" => (StreamProperty::Eof, Ty::Bool),
        other => {
            return invalid(format!(
                "`_io.{other}` is unknown: use `pos`, `size` or `eof`"
            ));
        }
    };
    let can_fail = of.as_ref().is_some_and(|of| of.can_fail);
    let of = of.map(Box::new);
    Ok(typed(ty, can_fail, Node::StreamProperty { of, property }))
}

/// Field `index` of the structure in scope, of type `ty`.
fn own_field<R: Reach>(scope: &R, ty: usize, index: usize) -> Result<Typed, ExprError> {
    let field = &scope.schema().types[ty].fields[index];
    // Inside one of its elements, the list as read so far.
    let prior = !scope.through_another_value() && scope.prior_field() == Some(&field.id);
    if !prior {
        if scope.mode() == Mode::Read && index >= scope.visible_fields() {
            return invalid(messages::not_read_yet(&field.id));
        }
        usable(scope, field)?;
    }
    let of = None;
    Ok(typed(
        field_value_ty(scope, field),
        false,
        Node::Field { of, ty, index },
    ))
}

/// The index of field `attr` of type `ty`, when `attr` names a field of it (and no parameter
/// or instance).
fn field_named(schema: &Schema, ty: usize, attr: &str) -> Option<usize> {
    let def = &schema.types[ty];
    let other_member =
        def.params.iter().any(|p| p.id == attr) || def.instances.iter().any(|i| i.id == attr);
    let index = def.fields.iter().position(|f| f.id == attr)?;
    (!other_member).then_some(index)
}

/// Field `index` of `base`, a structure of type `ty`.
fn member_field<R: Reach>(
    scope: &R,
    base: Typed,
    ty: usize,
    index: usize,
) -> Result<Typed, ExprError> {
    let field = &scope.schema().types[ty].fields[index];
    usable(scope, field)?;
    let can_fail = base.can_fail;
    let of = Some(Box::new(base));
    let node = Node::Field { of, ty, index };
    Ok(typed(field_value_ty(scope, field), can_fail, node))
}

/// The type an expression sees of `field`'s value.
fn field_value_ty<R: Reach>(scope: &R, field: &Field) -> Ty {
    let may_be_absent = field.may_be_absent();
    place_value_ty(
        scope.schema(),
        field_ty(field),
        one_value(field),
        may_be_absent,
    )
}

/// Refuses a field whose value an expression cannot use here: `contents` that holds none,
/// and an `-untrusted` value where the expression decides how bytes are read.
fn usable<R: Reach>(scope: &R, field: &Field) -> Result<(), ExprError> {
    if matches!(field.ty, FieldType::Contents(_)) && field.stores_value() {
        return invalid(format!(
            "`{}` is repeated or conditional `contents`: it holds no bytes to use",
            field.id
        ));
    }
    if scope.decides_reading() && field.untrusted {
        return invalid(format!(
            "`{}` is `-untrusted`: it is reported by `check()`, never used to read; read by layout instead",
            field.id
        ));
    }
    Ok(())
}

/// `e`, which is `base.attr`.
pub(super) fn attribute<R: Reach>(
    scope: &R,
    e: &Expr,
    base: &Expr,
    attr: &str,
) -> Result<Typed, ExprError> {
    if attr == "to_i"
        && let Some(n) = literal_number(base, 10)
    {
        return Ok(typed(Ty::Int, false, Node::Int(n)));
    }
    if matches!(base, Expr::Name(n) if n == "_io") {
        return own_stream_property(scope, attr);
    }
    let schema = scope.schema();
    // A value instance of the root that is a constant, computed where it is used.
    if let Some(value) = schema.root_constant(scope.scope_type(), e) {
        return resolve(scope, value);
    }
    if let Some(path) = e.context_path() {
        return context(scope, &path);
    }
    let step = |b| Expr::Attr(Box::new(b), attr.to_owned());
    if let Some(distributed) = through_branches(scope, base, step) {
        return distributed;
    }
    // A field whose values all have one size has it before it is read.
    if let Some(size) = schema.static_path_size(scope.scope_type(), e) {
        return Ok(typed(Ty::Int, false, Node::Int(int_value(size as i128)?)));
    }
    if attr == "_sizeof" && matches!(base, Expr::Name(n) if n == "_root" || n == "_parent") {
        return invalid("`_root` and `_parent` are not supported: pass values down as `params`");
    }
    let base = resolve(scope, base)?;
    member_of(scope, base, attr)
}

/// The value of `path`, a `_parent`/`_root` path (`_root.header.version`): the implicit
/// parameter lowering made of it (see `lower::context`), or in the file's root, `_root.x` is
/// its own `x`.
fn context<R: Reach>(scope: &R, path: &[&str]) -> Result<Typed, ExprError> {
    let (schema, ty, owned) = (
        scope.schema(),
        scope.scope_type(),
        scope.through_another_value(),
    );
    // `_root` of this scope's value is the value itself: a file's root, unless the root type
    // also holds values of itself (recursion) and this may be one of those.
    let own_root = ty != 0 || scope.at_file_root() || schema.holders(0).is_empty();
    if let ["_root", name] = path
        && schema.is_file_root(ty)
        && !owned
        && own_root
    {
        return resolve(scope, &Expr::Name((*name).to_owned()));
    }
    // A value of a root type that holds itself, reached from the file's root: its `_root` is
    // that root (`next.root_value` of `root_value: _root.value`).
    if path[0] == "_root"
        && ty == 0
        && owned
        && let Some(home) = scope.home()
        && home.scope_type() == 0
        && !home.through_another_value()
        && home.at_file_root()
    {
        let value = context(&home, path)?;
        return Ok(typed(
            value.ty.clone(),
            value.can_fail,
            Node::AtHome(Box::new(value)),
        ));
    }
    let def = &schema.types[ty];
    let id = context_param_id(path);
    if def.params.iter().any(|p| p.id == id) {
        return resolve(scope, &Expr::Name(id));
    }
    if let ["_root", field, next, rest @ ..] = path {
        let chain = Expr::attr_chain;
        // The root field's own type has the names itself; elsewhere `_root.field` is
        // passed down whole and the names are taken from it.
        let own = !owned && def.root_place == Some(RootPlace::Is((*field).to_owned()));
        if own {
            return resolve(scope, &chain(Expr::Name((*next).to_owned()), rest));
        }
        let (base, last) = (&path[1..path.len() - 1], path[path.len() - 1]);
        let base = resolve(scope, &chain(Expr::Name("_root".to_owned()), base))?;
        return member_of(scope, base, last);
    }
    let described = path.join(".");
    if ty == 0 && path[0] == "_root" {
        return unsupported(format!(
            "`{described}` in a value of the root type, which values of it hold too (recursion), is not supported yet: only the file's root knows it is the root"
        ));
    }
    if ty == 0 {
        return invalid(format!(
            "`{described}`: the root type has no parent (`_parent` is null there)"
        ));
    }
    match schema.holders(ty).is_empty() {
        true => invalid(format!(
            "`{described}`: no type of this file holds a value of type `{}`, so nothing gives it this value",
            def.id
        )),
        // Kaitai follows the holder it has at run time; skelcodec needs every holder to
        // have it.
        false => unsupported(format!("`{described}` is not known in type `{}`", def.id)),
    }
}

/// `(c ? a : b).x` where `a` and `b` have different types (two structures, two switches)
/// and no common one: `c ? a.x : b.x`, `step` applied to each branch. `None` when `base`
/// is no such choice (see [`branches`]).
fn through_branches<R: Reach>(
    scope: &R,
    base: &Expr,
    step: impl Fn(Expr) -> Expr,
) -> Option<Result<Typed, ExprError>> {
    let owned = scope.through_another_value();
    let (c, a, b) = branches(scope.schema(), scope.scope_type(), owned, base)?;
    if resolve(scope, base).is_ok() {
        return None;
    }
    let distributed = Expr::Ternary(Box::new(c), Box::new(step(a)), Box::new(step(b)));
    Some(resolve(scope, &distributed))
}

/// The condition and branches of `base`, in type `ty`: a ternary, or a value instance of the
/// type (without `if` or `enum`; `owned`: its names are another value's, which has none)
/// whose value is one.
pub fn branches(
    schema: &Schema,
    ty: usize,
    owned: bool,
    base: &Expr,
) -> Option<(Expr, Expr, Expr)> {
    let value = match base {
        Expr::Name(name) if !owned => {
            let instance = schema.types[ty].instances.iter().find(|i| i.id == *name)?;
            match &instance.kind {
                InstanceKind::Value {
                    value,
                    cond: None,
                    enum_idx: None,
                } => value,
                _ => return None,
            }
        }
        other => other,
    };
    match value {
        Expr::Ternary(c, a, b) => Some(((**c).clone(), (**a).clone(), (**b).clone())),
        _ => None,
    }
}

/// Member or property `attr` of the value `base`.
pub fn member_of<R: Reach>(scope: &R, base: Typed, attr: &str) -> Result<Typed, ExprError> {
    // The bytes a decoded value that may be absent takes are its holder's.
    if attr != "_sizeof" && held(scope, &base).may_be_absent {
        return when_present(scope, base, |inner, present| {
            member_of(inner, present, attr)
        });
    }
    if attr == "_sizeof" {
        return size_of(scope, base);
    }
    // A stream kept with a value (`header._io.size`) is known to a reader and to instances
    // of the value read, not to a writer.
    if base.ty == Ty::Io {
        if scope.mode() == Mode::Write {
            return Err(ExprError::NeedsStream);
        }
        return stream_property(Some(base), attr);
    }
    if let Ty::User(ty) = base.ty {
        let def = &scope.schema().types[ty];
        if attr == "_io" {
            return match def.keeps_stream {
                true => {
                    let (can_fail, of) = (base.can_fail, Some(Box::new(base)));
                    Ok(typed(Ty::Io, can_fail, Node::Stream { of }))
                }
                false => invalid(format!(
                    "values of type `{}` do not keep their stream here",
                    def.id
                )),
            };
        }
        let params = &def.params;
        let kept = params.iter().position(|p| p.id == attr && p.kept);
        let instances = &scope.schema().types[ty].instances;
        if let Some(index) = instances.iter().position(|i| i.id == attr) {
            return match instances[index].is_look_ahead() {
                true => look_ahead(scope, Some(base), ty, index),
                false => value_instance(scope, Some(base), ty, index),
            };
        }
        return match (field_named(scope.schema(), ty, attr), kept) {
            (Some(index), _) => member_field(scope, base, ty, index),
            (None, Some(index)) => {
                let (can_fail, ty_seen) = (base.can_fail, param_value_ty(params[index].ty));
                let of = Some(Box::new(base));
                Ok(typed(ty_seen, can_fail, Node::Param { of, ty, index }))
            }
            (None, None) => match params.iter().position(|p| p.id == attr) {
                Some(index) => argument(scope, Some(&base), ty, index),
                None => invalid(format!(
                    "type `{}` has no field or instance `{attr}`",
                    def.id
                )),
            },
        };
    }
    if matches!(base.ty, Ty::Array(_) | Ty::ListLit(_) | Ty::Bytes) {
        match attr {
            "first" => return item(scope, base, Position::First),
            "last" => return item(scope, base, Position::Last),
            _ => {}
        }
    }
    // A switch of one case that is a structure is that case; a switch of lists one case holds
    // whole is a list.
    if base.ty == Ty::Switch
        && let Some((ty, index)) = stored_field(scope, &base)
    {
        let field = &scope.schema().types[ty].fields[index];
        if attr == "size" && field.switches_whole_list() {
            let can_fail = base.can_fail;
            let node = Node::Property(Property::Length, Box::new(base));
            return Ok(typed(Ty::Int, can_fail, node));
        }
        if !matches!(attr, "size" | "to_s")
            && let Some(case) = sole_variant(scope.schema(), field)?
        {
            return member_of(scope, switch_case(base, (ty, index), case), attr);
        }
    }
    if attr == "to_i" && base.ty.is_text() {
        return parse_int(scope, base, typed(Ty::Int, false, Node::Int(10)));
    }
    match value_property(attr, &base.ty) {
        Some((property, ty)) => {
            let can_fail = base.can_fail;
            Ok(typed(ty, can_fail, Node::Property(property, base.into())))
        }
        None => invalid(format!("{} has no property `{attr}`", describe(&base.ty))),
    }
}

/// `base._sizeof`: the bytes of a stored value (a field, an element) or of a structure, 0
/// where it is absent.
fn size_of<R: Reach>(scope: &R, base: Typed) -> Result<Typed, ExprError> {
    let structure = |ty: &Ty| matches!(ty, Ty::User(_));
    let structure = match &base.ty {
        Ty::Opt(inner) => structure(inner),
        ty => structure(ty),
    };
    if !structure && !is_stored_value(scope, &base) {
        return invalid("`_sizeof` applies to a field");
    }
    let (can_fail, of) = (base.can_fail, Some(Box::new(base)));
    Ok(typed(Ty::Int, can_fail, Node::SizeOf { of }))
}

/// Whether `t` is a stored value, whose bytes `_sizeof` counts: a field (but `contents`
/// reached through another value, which is computed), an element of a list that is a field,
/// either where it is present.
fn is_stored_value<R: Reach>(scope: &R, t: &Typed) -> bool {
    match &t.node {
        Node::Field { of, ty, index } => {
            let field = &scope.schema().types[*ty].fields[*index];
            of.is_none() || !matches!(field.ty, FieldType::Contents(_))
        }
        Node::Item { list, .. } => list_field(scope, list).is_some(),
        Node::Present { field } => field.is_some(),
        Node::WhenPresent { then, .. } => is_stored_value(scope, then),
        _ => false,
    }
}

/// The property `attr` of a value of type `ty`, and the property's type; `None` where the
/// value has no such property (structures and streams have members, not properties). Text's
/// `to_i`, which can fail, is [`parse_int`].
pub fn value_property(attr: &str, ty: &Ty) -> Option<(Property, Ty)> {
    let text = ty.is_text();
    let list_of = |elem: &[Ty]| matches!(ty, Ty::Array(e) | Ty::ListLit(e) if elem.contains(e));
    let ordered = list_of(&[Ty::Int, Ty::Float, Ty::Str, Ty::StrLit]) || *ty == Ty::Bytes;
    let least = match ty {
        Ty::Array(e) | Ty::ListLit(e) if **e == Ty::Float => Ty::Float,
        Ty::Array(e) | Ty::ListLit(e) if e.is_text() => Ty::Str,
        _ => Ty::Int,
    };
    Some(match attr {
        "length" if text || *ty == Ty::Bytes => (Property::Length, Ty::Int),
        "size" if matches!(ty, Ty::Bytes | Ty::Array(_) | Ty::ListLit(_)) => {
            (Property::Length, Ty::Int)
        }
        "to_s" if *ty == Ty::Int => (Property::Decimal, Ty::Str),
        "to_i" if matches!(ty, Ty::Float | Ty::Enum(_) | Ty::Bool) => (Property::ToInt, Ty::Int),
        "reverse" if text => (Property::Reverse, Ty::Str),
        "min" if ordered => (Property::Min, least),
        "max" if ordered => (Property::Max, least),
        _ => return None,
    })
}

/// `step` applied to the value of `value`, which may be absent, where it is present.
fn when_present<R: Reach>(
    scope: &R,
    value: Typed,
    step: impl FnOnce(&R, Typed) -> Result<Typed, ExprError>,
) -> Result<Typed, ExprError> {
    let inner = scope.present_scope(&value);
    let present_ty = match &value.ty {
        Ty::Opt(present) => (**present).clone(),
        // A number that may be absent, which reads as 0.
        present => present.clone(),
    };
    let field = stored_field(scope, &value);
    let then = step(&inner, typed(present_ty, false, Node::Present { field }))?;
    let ty = absent_step_ty(&then.ty, held(&inner, &then));
    let can_fail = value.can_fail || then.can_fail;
    let (value, then) = (Box::new(value), Box::new(then));
    Ok(typed(ty, can_fail, Node::WhenPresent { value, then }))
}

/// The type of a step, of type `ty` and held as `held`, inside a value that may be absent:
/// where the value is absent, a number (a stored enum value too) reads as 0, a computed
/// boolean as false and a computed stream as none; anything else is absent.
fn absent_step_ty(ty: &Ty, held: Held) -> Ty {
    match (ty, held) {
        (
            ty,
            Held {
                may_be_absent: true,
                ..
            },
        ) => ty.clone(),
        (Ty::Int | Ty::Float | Ty::Enum(_), Held { stored: true, .. }) => ty.clone(),
        (Ty::Int | Ty::Float | Ty::Bool | Ty::Io | Ty::Opt(_), Held { stored: false, .. }) => {
            ty.clone()
        }
        (ty, _) => Ty::Opt(Box::new(ty.clone())),
    }
}

/// How the value of `t` is held.
pub(super) fn held<R: Reach>(scope: &R, t: &Typed) -> Held {
    let computed = Held {
        // A structure that may be absent (an instance choosing between conditional fields).
        may_be_absent: matches!(&t.ty, Ty::Opt(inner) if matches!(**inner, Ty::User(_))),
        stored: false,
    };
    match &t.node {
        Node::Field { of, ty, index } => {
            let field = &scope.schema().types[*ty].fields[*index];
            match (&field.ty, of) {
                // Through another value, `contents` is computed, never borrowed from it.
                (FieldType::Contents(_), Some(_)) => computed,
                _ => Held {
                    may_be_absent: field.may_be_absent(),
                    stored: true,
                },
            }
        }
        Node::Item { list, .. } => {
            let stored = list_field(scope, list).is_some();
            match (&t.ty, stored) {
                (Ty::Int | Ty::Bool, _) => computed,
                (_, true) => Held {
                    may_be_absent: true,
                    stored: true,
                },
                // A structure, or a stream, of a list passed as a parameter.
                (Ty::Opt(_), false) => Held {
                    may_be_absent: true,
                    stored: false,
                },
                _ => computed,
            }
        }
        Node::Present { field } => Held {
            may_be_absent: false,
            stored: field.is_some(),
        },
        Node::WhenPresent { then, .. } => {
            let then = held(scope, then);
            match then.may_be_absent || then.stored {
                true => Held {
                    may_be_absent: true,
                    stored: then.stored,
                },
                false => computed,
            }
        }
        _ => computed,
    }
}

/// The field `list` is, or is the present value of, when it is a repeated field or a
/// fixed-size array.
fn list_field<'s, R: Reach>(scope: &'s R, list: &Typed) -> Option<&'s Field> {
    let (ty, index) = match &list.node {
        Node::Field { ty, index, .. } => (*ty, *index),
        Node::Present { field } => (*field)?,
        _ => return None,
    };
    let field = &scope.schema().types[ty].fields[index];
    let list = field.repeat != Repeat::None || matches!(field.ty, FieldType::Array { .. });
    list.then_some(field)
}

/// The field (type and index) the value of `t` is, or is an element of, where it is a stored
/// value (see `Node::Present`).
pub(super) fn stored_field<R: Reach>(scope: &R, t: &Typed) -> Option<(usize, usize)> {
    if !held(scope, t).stored {
        return None;
    }
    match &t.node {
        Node::Field { ty, index, .. } => Some((*ty, *index)),
        Node::Item { list, .. } => stored_field(scope, list),
        Node::Present { field } => *field,
        Node::WhenPresent { then, .. } => stored_field(scope, then),
        _ => None,
    }
}

/// `e`, which is `base.as<target>`.
pub(super) fn cast<R: Reach>(scope: &R, base: &Expr, target: &str) -> Result<Typed, ExprError> {
    let step = |b| Expr::Cast(Box::new(b), target.to_owned());
    if let Some(distributed) = through_branches(scope, base, step) {
        return distributed;
    }
    let base = resolve(scope, base)?;
    cast_of(scope, base, target)
}

/// The value `base` as `target`: a number converted, a switch value taken as the case that
/// holds `target` (absent when it holds another), or a value already of that type.
fn cast_of<R: Reach>(scope: &R, base: Typed, target: &str) -> Result<Typed, ExprError> {
    let number = NumberType::named(target);
    if base.ty == Ty::Switch && number.is_none() {
        if held(scope, &base).may_be_absent {
            return when_present(scope, base, |inner, present| {
                cast_of(inner, present, target)
            });
        }
        let Some((ty, index)) = stored_field(scope, &base) else {
            return no_case(target);
        };
        let field = &scope.schema().types[ty].fields[index];
        let case = cast_variant(scope.schema(), scope.scope_type(), field, target)?;
        return Ok(switch_case(base, (ty, index), case));
    }
    // An integer, also one that may be absent (and reads as 0 then), is an integer already.
    let to_int = matches!(NumberType::named(target), Some(NumberType::Int(_)));
    if to_int && base.ty == Ty::Int {
        return Ok(base);
    }
    if held(scope, &base).may_be_absent {
        return when_present(scope, base, |inner, present| {
            cast_of(inner, present, target)
        });
    }
    let can_fail = base.can_fail;
    if let Some(number) = number {
        let to = match number {
            NumberType::Int(_) => Numeric::Int,
            NumberType::F4 => Numeric::F4,
            NumberType::F8 => Numeric::F8,
        };
        let ty = match to {
            Numeric::Int => Ty::Int,
            Numeric::F4 | Numeric::F8 => Ty::Float,
        };
        return match (&base.ty, to) {
            (Ty::Float, Numeric::Int) | (Ty::Int | Ty::Float, Numeric::F4 | Numeric::F8) => {
                let value = Box::new(base);
                Ok(typed(ty, can_fail, Node::Convert { value, to }))
            }
            (other, _) => invalid(format!("cannot convert {} to `{target}`", describe(other))),
        };
    }
    let int_list = |list: &str| {
        let elem = list.strip_suffix("[]").and_then(NumberType::named);
        matches!(elem, Some(NumberType::Int(_)))
    };
    let named = scope.schema().resolve_type(scope.scope_type(), target);
    match (target, &base.ty) {
        ("bytes", Ty::Bytes) | ("str", Ty::Str | Ty::StrLit) => Ok(base),
        ("bytes", Ty::ListLit(elem)) if **elem == Ty::Int => {
            Ok(typed(Ty::Bytes, can_fail, Node::IntsAsBytes(base.into())))
        }
        // A list of integers as a typed list (`[1, 2].as<u2[]>`).
        (list, Ty::ListLit(elem) | Ty::Array(elem)) if **elem == Ty::Int && int_list(list) => {
            Ok(base)
        }
        // A `struct` parameter is the type asked for, or absent.
        (_, Ty::AnyStruct) => match named {
            Some(ty) => {
                let node = Node::Downcast {
                    value: base.into(),
                    ty,
                };
                Ok(typed(Ty::Opt(Box::new(Ty::User(ty))), can_fail, node))
            }
            None => invalid(format!("`{target}` is not a type of this schema")),
        },
        (_, Ty::User(ty)) if named == Some(*ty) => Ok(base),
        (_, ty) => invalid(format!("cannot take {} as `{target}`", describe(ty))),
    }
}

/// `e`, which is `value is case`: whether the switch value `value` holds the case `case`.
pub(super) fn holds<R: Reach>(scope: &R, value: &Expr, case: &str) -> Result<Typed, ExprError> {
    let value = resolve(scope, value)?;
    let schema = scope.schema();
    let stored = stored_field(scope, &value);
    // An element of a list of numbers is computed, but still one of the list.
    let list = match &value.node {
        Node::Item { list, .. } => list_field(scope, list),
        _ => None,
    };
    let of = stored.map(|(ty, index)| &schema.types[ty].fields[index]);
    let variant = held_variant(of.or(list), schema, case)?;
    let Some((ty, index)) = stored else {
        return invalid("only a switch value holds a case");
    };
    let (can_fail, value) = (value.can_fail, Box::new(value));
    let field = (ty, index);
    Ok(typed(
        Ty::Bool,
        can_fail,
        Node::Holds {
            value,
            field,
            variant,
        },
    ))
}

/// The variant (see `model::switch_variants`) of the case named `case` of `field`, the
/// field a value is (`None`: a value that is no field's), which `is` asks about.
fn held_variant(field: Option<&Field>, schema: &Schema, case: &str) -> Result<usize, ExprError> {
    let Some(FieldType::Switch(switch)) = field.map(|f| &f.ty) else {
        return invalid("only a switch value holds a case");
    };
    if field.is_some_and(|f| f.repeat != Repeat::None) {
        return invalid("only a switch value of one case holds a case");
    }
    let variants = switch_variants(schema, switch).variants;
    match variants.iter().position(|v| v.name == case) {
        Some(variant) => Ok(variant),
        None => invalid(messages::no_such_case(case)),
    }
}

/// `case` of `value`, the value of the switch field `field` (type and index): see
/// `Node::Case`.
fn switch_case(value: Typed, field: (usize, usize), case: SwitchCase) -> Typed {
    let (can_fail, value) = (value.can_fail, Box::new(value));
    let variant = case.variant;
    let node = Node::Case {
        value,
        field,
        variant,
    };
    typed(Ty::Opt(Box::new(case.ty)), can_fail, node)
}

/// A case of a switch field that an expression takes.
struct SwitchCase {
    /// An index into the switch's variants (see `model::switch_variants`).
    variant: usize,
    /// The type of its value.
    ty: Ty,
}

/// The case of the switch field `field` that holds `target` (a type of the schema as type
/// `scope_ty` names it, `bytes` or `str`), which `.as<target>` takes.
fn cast_variant(
    schema: &Schema,
    scope_ty: usize,
    field: &Field,
    target: &str,
) -> Result<SwitchCase, ExprError> {
    let user = schema.resolve_type(scope_ty, target);
    let holds_target = |ty: &FieldType| match (ty, target) {
        (FieldType::Bytes { .. }, "bytes") | (FieldType::Str { .. }, "str") => true,
        (FieldType::User { ty, .. }, _) => Some(*ty) == user,
        _ => false,
    };
    match &field.ty {
        // One case holds the whole list.
        FieldType::Switch(switch) if !field.switches_whole_list() => {
            let variants = switch_variants(schema, switch).variants;
            match variants.iter().position(|v| holds_target(v.ty)) {
                Some(variant) => Ok(switch_case_of(variants[variant].ty, variant)),
                None => no_case(target),
            }
        }
        _ => no_case(target),
    }
}

/// The error of `.as<target>` of a switch value without such a case.
fn no_case<T>(target: &str) -> Result<T, ExprError> {
    invalid(format!("no case of this switch is of type `{target}`"))
}

/// The case of the switch field `field` that is its only case that reads something, when
/// that is a structure: Kaitai types such a switch (one with just `_`) by that case. `None`
/// where the switch has other cases.
fn sole_variant(schema: &Schema, field: &Field) -> Result<Option<SwitchCase>, ExprError> {
    let FieldType::Switch(switch) = &field.ty else {
        return Ok(None);
    };
    let variants = switch_variants(schema, switch).variants;
    // A case that matched nothing makes the value absent, not of another type.
    if variants
        .iter()
        .filter(|v| *v.ty != FieldType::Nothing)
        .count()
        != 1
    {
        return Ok(None);
    }
    let structure = variants
        .iter()
        .position(|v| matches!(v.ty, FieldType::User { .. }));
    match structure.filter(|_| !field.switches_whole_list()) {
        Some(variant) => Ok(Some(switch_case_of(variants[variant].ty, variant))),
        None => {
            invalid("a switch value has no fields: take it as one of its cases with `.as<type>`")
        }
    }
}

/// Variant `variant` of a switch, whose case is of type `case`.
fn switch_case_of(case: &FieldType, variant: usize) -> SwitchCase {
    let ty = match case {
        FieldType::User { ty, .. } => Ty::User(*ty),
        other => element_ty(other),
    };
    SwitchCase { variant, ty }
}

/// `present(value)`: whether `value` is present, `true` for a value that is always there.
pub(super) fn present<R: Reach>(scope: &R, value: &Expr) -> Result<Typed, ExprError> {
    let value = resolve(scope, value)?;
    let can_fail = value.can_fail;
    let node = match held(scope, &value).may_be_absent {
        true => Node::IsPresent(Box::new(value)),
        false => Node::Bool(true),
    };
    Ok(typed(Ty::Bool, can_fail, node))
}
