//! Builds the typed IR ([`super::ir`]): compiles every expression the generator renders, in
//! the scope the generated code evaluates it in, and reports each that does not compile at its
//! place in the schema.

use crate::sanitization::case_ident;
use quote::quote;

use super::expr::{ExprError, Mode, Pass, Scope, Ty};
use super::ir::{self, Rust, Writer};
use crate::error::{Located, YamlPath};
use crate::expr::{BinOp, Expr};
use crate::model::switch_variants;
use crate::model::*;
use crate::repr::stored_value;

/// The IR of a schema, or every error met building it, the first apart.
pub fn build(schema: &Schema) -> Result<ir::Ir, (Located, Vec<Located>)> {
    let mut errors = Errors::default();
    let types = (0..schema.types.len())
        .map(|ty| type_ir(schema, ty, &mut errors))
        .collect::<Vec<_>>();
    let rooted = rooted(schema, &mut errors);
    let root_defaults = root_defaults(schema);
    let mut met = errors.met.into_iter();
    if let Some(first) = met.next() {
        return Err((first, met.collect()));
    }
    Ok(ir::Ir {
        verify_writes: errors.from_stream,
        types,
        root_defaults,
        rooted,
    })
}

/// The derivations the root computes ([`Schema::rooted`]), compiled in its scope.
fn rooted(schema: &Schema, errors: &mut Errors) -> Vec<ir::Derivation> {
    let root = Scope::new(schema, 0, Mode::Inspect, schema.types[0].fields.len()).deriving();
    (schema.rooted.iter())
        .map(|rooted| errors.take(&rooted.at, derivation(&root, &rooted.derived)))
        .collect()
}

/// The errors met so far, and whether some writer check needs the input stream.
#[derive(Default)]
struct Errors {
    met: Vec<Located>,
    from_stream: bool,
}

impl Errors {
    /// The compiled expression; an error, noted, yields an empty expression (the IR is then
    /// dropped).
    fn take<T: Default>(&mut self, at: &YamlPath, result: Result<T, ExprError>) -> T {
        result.unwrap_or_else(|e| {
            self.met.push(Located::new(at, e.message()));
            T::default()
        })
    }

    /// A check the writer makes when it can: [`Writer::FromStream`] when it needs the input
    /// stream (the codec then reads its output back).
    fn writer<T: Default>(&mut self, at: &YamlPath, result: Result<T, ExprError>) -> Writer<T> {
        match result {
            Err(ExprError::NeedsStream) => {
                self.from_stream = true;
                Writer::FromStream
            }
            other => Writer::Computed(self.take(at, other)),
        }
    }

    /// An expression the writer must compute itself (`what`: a position, an argument): one
    /// that needs the input stream is an error.
    fn writable<T: Default>(
        &mut self,
        at: &YamlPath,
        what: &str,
        result: Result<T, ExprError>,
    ) -> T {
        let result = result.map_err(|e| match e {
            ExprError::NeedsStream => ExprError::Invalid(super::not_writable(what)),
            e => e,
        });
        self.take(at, result)
    }
}

fn type_ir(schema: &Schema, ty: usize, errors: &mut Errors) -> ir::TypeIr {
    let def = &schema.types[ty];
    let after = Scope::new(schema, ty, Mode::Read, def.fields.len());
    let inspect = Scope::new(schema, ty, Mode::Inspect, def.fields.len());
    let look_aheads = def
        .look_aheads()
        .map(|instance| {
            let kept = after.look_ahead_read(instance).map(|(cond, raw)| match cond {
                Some(cond) => quote!(if #cond { ::core::option::Option::Some(rt::LookAhead(#raw)) } else { ::core::option::Option::None }),
                None => quote!(rt::LookAhead(#raw)),
            });
            errors.take(&instance.at.key("pos"), kept)
        })
        .collect();
    let (read_order, write_order) = match &def.endian_choice {
        Some(choice) => {
            let read = Scope::new(schema, ty, Mode::Read, 0);
            let write = Scope::new(schema, ty, Mode::Write, def.fields.len());
            (
                Some(byte_order(&read, choice, errors)),
                Some(byte_order(&write, choice, errors)),
            )
        }
        None => (None, None),
    };
    let to_string = def.to_string.as_ref().map(|text| {
        let text = inspect.compile(text).map(|(tokens, _)| tokens);
        errors.take(&def.at.key("to-string"), text)
    });
    // An instance gets a method when it can be computed from the finished value alone.
    let methods = def
        .instances
        .iter()
        .map(|instance| match &instance.kind {
            InstanceKind::Value { .. } => {
                let scope = inspect.reporting_failure();
                let (body, ty) = scope.instance_value(instance).ok()?;
                ty.is_instance_value().then(|| ir::Method {
                    body,
                    ty,
                    can_fail: scope.can_fail(),
                })
            }
            InstanceKind::Peek { .. } => None,
        })
        .collect();
    let fields = def
        .fields
        .iter()
        .enumerate()
        .map(|(index, field)| {
            // The first error of each field is reported: the others often follow from it.
            let before = errors.met.len();
            let field_ir = ir::FieldIr {
                read: read_field(schema, ty, index, field, Pass::First, errors),
                read_again: read_again(schema, ty, index, field, errors),
                write: write_field(schema, ty, field, errors),
                derived: field.derived.as_ref().map(|derived| {
                    let scope = inspect.for_derived(field).deriving();
                    errors.take(&field.at.key("-derived"), derivation(&scope, derived))
                }),
                padding: field
                    .padding_size()
                    .filter(|_| field.padding)
                    .map(|size| errors.take(&field.at.key("size"), inspect.int(size))),
                slot: slot_write(schema, ty, field),
                end: end_write(schema, ty, field),
                kept_args: kept_args(schema, ty, field),
            };
            errors.met.truncate(before + 1);
            field_ir
        })
        .collect();
    let derived_members = def
        .derived_members
        .iter()
        .map(|member| {
            let at = match &member.origin {
                MemberOrigin::Declared(at) => at.clone(),
                MemberOrigin::Inferred(_) => def.fields[member.step].at.key("size"),
            };
            errors.take(&at, derivation(&inspect.deriving(), &member.derived))
        })
        .collect();
    ir::TypeIr {
        fields,
        look_aheads,
        read_order,
        write_order,
        to_string,
        methods,
        derived_members,
    }
}

/// A derivation compiled in `scope` (made by [`Scope::deriving`]): an `i64`, or, when it can
/// fail, a closure's `rt::Result<i64>` whose body returns the failure with `?`.
pub(super) fn derivation(scope: &Scope, derived: &Expr) -> Result<ir::Derivation, ExprError> {
    let value = scope.int(derived)?;
    Ok(match scope.can_fail() {
        false => ir::Derivation {
            value,
            can_fail: false,
        },
        true => ir::Derivation {
            value: quote!((|| -> rt::Result<i64> { ::core::result::Result::Ok(#value) })()),
            can_fail: true,
        },
    })
}

/// How a value read from a slot is written back into it, when its position and its writer
/// compile where `normalize()` runs; `None` otherwise (it stays as read, and an edit of it is
/// refused), never an error.
fn slot_write(schema: &Schema, ty: usize, field: &Field) -> Option<ir::SlotWrite> {
    let path = schema.slot_path(ty, field)?;
    let mut steps = Vec::new();
    let mut holder = ty;
    for name in &path {
        let step = schema.types[holder].fields.iter().find(|f| f.id == *name)?;
        steps.push((step.id.clone(), step.may_be_absent()));
        holder = *step.ty.user_types().first()?;
    }
    let inspect = Scope::new(schema, ty, Mode::Inspect, schema.types[ty].fields.len());
    let pos = inspect.int(field.position.as_ref()?).ok()?;
    Some(ir::SlotWrite {
        path: steps,
        pos,
        written: written_on_its_own(schema, ty, field)?,
    })
}

/// How a value read from the end of the file (see [`Schema::from_file_end`]) is written back
/// into the file's unclaimed bytes, when its writer compiles where `normalize()` runs.
fn end_write(schema: &Schema, ty: usize, field: &Field) -> Option<ir::EndWrite> {
    Some(ir::EndWrite {
        from_end: schema.from_file_end(ty, field)?,
        written: written_on_its_own(schema, ty, field)?,
    })
}

/// How a value kept as read is written on its own: as a field of its holder, in sequence,
/// with the checks of any writer; `None` where a check would need the input stream.
fn written_on_its_own(schema: &Schema, ty: usize, field: &Field) -> Option<Box<ir::WrittenField>> {
    let in_sequence = Field {
        kept_as_read: false,
        position: None,
        stream: Stream::Own,
        ..field.clone()
    };
    let mut scratch = Errors::default();
    let ir::WriteField::Written(written) = write_field(schema, ty, &in_sequence, &mut scratch)
    else {
        return None;
    };
    (scratch.met.is_empty() && !scratch.from_stream).then_some(written)
}

/// The arguments `field` of type `ty` passes to its values' kept parameters (see
/// [`Param::kept`]), where `check()` and `normalize()` run: a field held plainly (in sequence,
/// not a switch, not conditional), each argument that compiles there; the others stay as read
/// (the writer refuses a value written with another), never an error.
fn kept_args(schema: &Schema, ty: usize, field: &Field) -> Vec<(usize, Rust)> {
    let FieldType::User { ty: child, args } = &field.ty else {
        return Vec::new();
    };
    let plain = field.cond.is_none()
        && field.position.is_none()
        && !field.from_instance
        && !field.kept_as_read
        && field.decode.is_none()
        && field.substream.is_none();
    if !plain {
        return Vec::new();
    }
    let inspect = Scope::new(schema, ty, Mode::Inspect, schema.types[ty].fields.len());
    let scope = match field.repeat {
        Repeat::None => inspect,
        _ => inspect.with_index(quote::quote!(index)),
    };
    let params = &schema.types[*child].params;
    (args.iter().zip(params).enumerate())
        .filter(|(_, (_, param))| {
            param.kept
                && !param.writers_lack
                && matches!(
                    param.ty,
                    ParamType::Int(_) | ParamType::Bool | ParamType::Enum(_)
                )
        })
        .filter_map(|(index, (arg, param))| Some((index, scope.argument(param, arg).ok()?)))
        .collect()
}

/// The root's parameters' defaults, when every parameter has one that compiles.
fn root_defaults(schema: &Schema) -> Option<Vec<Rust>> {
    let root = schema.types.first()?;
    let scope = Scope::new(schema, 0, Mode::Inspect, 0);
    root.params
        .iter()
        .map(|p| scope.argument(p, p.default.as_ref()?).ok())
        .collect()
}

fn byte_order(scope: &Scope, choice: &EndianChoice, errors: &mut Errors) -> ir::ByteOrder {
    let cases = choice
        .cases
        .iter()
        .map(|case| {
            let equal = Expr::Binary(
                BinOp::Eq,
                Box::new(choice.on.clone()),
                Box::new(case.key.clone()),
            );
            (
                errors.writable(&case.at, "a byte order", scope.bool(&equal)),
                case.big,
            )
        })
        .collect();
    let otherwise = match choice.default {
        Some(big) => ir::Otherwise::Default(big),
        None => {
            let selector = scope.compile(&choice.on).map(|(tokens, _)| tokens);
            ir::Otherwise::Refuse(errors.writable(
                &choice.at.key("switch-on"),
                "a byte order",
                selector,
            ))
        }
    };
    ir::ByteOrder { cases, otherwise }
}

/// The second read of a field read later (see [`Field::read_later`]), whose arguments see
/// the fields up to the one it is read after.
fn read_again(
    schema: &Schema,
    ty: usize,
    index: usize,
    field: &Field,
    errors: &mut Errors,
) -> Option<ir::ReadField> {
    let later = field.read_later.as_ref()?;
    let fields = &schema.types[ty].fields;
    let after = fields.iter().position(|f| f.id == later.after)?;
    // Its errors are those of the first read.
    let mut again = Errors::default();
    let read = read_field(schema, ty, index, field, Pass::Again(after + 1), &mut again);
    match again.met.is_empty() {
        true => Some(read),
        false => {
            errors.met.extend(again.met);
            None
        }
    }
}

/// How `field`, at `index` of type `ty`, is read; `pass` matters for a field read later.
fn read_field(
    schema: &Schema,
    ty: usize,
    index: usize,
    field: &Field,
    pass: Pass,
    errors: &mut Errors,
) -> ir::ReadField {
    let scope = Scope::new(schema, ty, Mode::Read, index);
    let scope = match &field.read_later {
        Some(later) => scope.reading_later(later, pass),
        None => scope,
    };
    let values_scope = match &field.stream {
        Stream::Of(_) | Stream::Root if field.position.is_some() => scope.in_other_stream(),
        _ => scope.clone(),
    };
    let at = &field.at;
    let cond = field
        .cond
        .as_ref()
        .map(|cond| errors.take(&at.key("if"), scope.bool(cond)));
    let position = field.position.as_ref().map(|pos| ir::Position {
        pos: errors.take(&at.key("pos"), scope.int(pos)),
        stream: match &field.stream {
            Stream::Own if field.kept_as_read => ir::PositionStream::Kept,
            Stream::Own => ir::PositionStream::Own,
            Stream::Root => ir::PositionStream::Root,
            Stream::Of(stream) => {
                ir::PositionStream::Of(errors.take(&at.key("io"), scope.stream(stream)))
            }
        },
    });
    let solved = match &field.ty {
        FieldType::Remembered {
            value,
            solve: Some(_),
            ..
        } => Some(errors.take(&at.key("-remember"), scope.int(value))),
        _ => None,
    };
    let valid = match field.valid.is_empty() {
        true => Vec::new(),
        false => {
            let after = Scope::new(schema, ty, Mode::Read, index + 1);
            errors.take(&at.key("valid"), after.valid_rules(field))
        }
    };
    let values = match &field.ty {
        FieldType::Switch(switch) if field.switches_per_element() => {
            // The selector and every case are the element's own, computed where it is read.
            let (repeat, element) = read_repeat(field, &field.ty, &values_scope, errors);
            let switch = read_switch(schema, field, switch, &element, errors, |ty, errors| {
                ir::List {
                    repeat: ir::Repeat::One,
                    one: one(schema, field, ty, &element, errors),
                }
            });
            ir::Values::Elements(ir::Elements { repeat, switch })
        }
        FieldType::Switch(switch) => ir::Values::Switch(read_switch(
            schema,
            field,
            switch,
            &values_scope,
            errors,
            |ty, errors| read_list(schema, field, ty, &values_scope, errors),
        )),
        ty => ir::Values::One(read_list(schema, field, ty, &values_scope, errors)),
    };
    ir::ReadField {
        cond,
        position,
        solved,
        valid,
        values,
        can_fail: scope.can_fail(),
    }
}

/// How `switch`, the type of `field`, is read: its selector compiled in `scope` and checked
/// against the case keys, each case with its values as `list` makes them.
fn read_switch(
    schema: &Schema,
    field: &Field,
    switch: &Switch,
    scope: &Scope,
    errors: &mut Errors,
    list: impl FnMut(&FieldType, &mut Errors) -> ir::List<ir::Reading>,
) -> ir::Switch<ir::Reading> {
    let at = &field.at;
    let selector = scope.selector(&switch.on);
    let on = at.key("type").key("switch-on");
    let text = matches!(selector, Ok((_, Ty::Str)));
    let selector = errors.take(&on, selector.map(|(tokens, _)| tokens));
    if let Ok((_, selector)) = scope.compile(&switch.on) {
        let keys = switch.cases.iter().map(|case| &case.key);
        let cases = at.key("type").key("cases");
        let checked = keys.map(|key| super::check_case_key(scope, &selector, key, &cases));
        errors.met.extend(checked.filter_map(Result::err));
    }
    let (cases, arms) = switch_cases(schema, switch, at, scope, errors, list);
    ir::Switch {
        selector,
        text,
        expected: switch.keys_as_written(),
        cases,
        arms,
    }
}

/// The cases of a switch, each with its values as `list` makes them, and its arms with their
/// patterns.
fn switch_cases<S: ir::Stage>(
    schema: &Schema,
    switch: &Switch,
    at: &YamlPath,
    scope: &Scope,
    errors: &mut Errors,
    mut list: impl FnMut(&FieldType, &mut Errors) -> ir::List<S>,
) -> (Vec<ir::Case<S>>, Vec<ir::Arm<S>>) {
    let variants = switch_variants(schema, switch);
    let cases: Vec<ir::Case<S>> = variants
        .variants
        .iter()
        .map(|v| ir::Case {
            ident: case_ident(&v.name),
            name: v.name.clone(),
            ty: v.ty.clone(),
            list: list(v.ty, errors),
        })
        .collect();
    let on = &at.key("type").key("cases");
    // Each arm's index is one of `variants.variants`, the cases' order.
    let arms = variants
        .arms
        .iter()
        .map(|arm| ir::Arm {
            pattern: arm.key.map(|key| errors.take(on, scope.case_pattern(key))),
            case: cases[arm.variant].clone(),
        })
        .collect();
    (cases, arms)
}

/// The scope of one element's own expressions (size, arguments) while reading: they see its
/// index as `_index`, and, when they use them, the elements read before it as `_prior`.
fn read_element<'s>(field: &'s Field, scope: &Scope<'s>) -> Scope<'s> {
    let scope = scope.with_index(quote!(_index));
    match field.refers_to_itself() {
        true => scope.with_prior(field, quote!(_prior)),
        false => scope,
    }
}

/// How the values of `field` of type `ty` (its own, or one case of its switch) are read.
fn read_list<'s>(
    schema: &Schema,
    field: &'s Field,
    ty: &FieldType,
    scope: &Scope<'s>,
    errors: &mut Errors,
) -> ir::List<ir::Reading> {
    let (repeat, element) = read_repeat(field, ty, scope, errors);
    let one = one(schema, field, ty, &element, errors);
    ir::List { repeat, one }
}

/// What ends the list of `field`, whose elements are of type `ty`, while reading, and the
/// scope of one element's own expressions (`scope` itself for a single value).
fn read_repeat<'s>(
    field: &'s Field,
    ty: &FieldType,
    scope: &Scope<'s>,
    errors: &mut Errors,
) -> (ir::Repeat<ir::Reading>, Scope<'s>) {
    let at = &field.at;
    match &field.repeat {
        Repeat::None => (ir::Repeat::One, scope.clone()),
        Repeat::Expr(count) => (
            ir::Repeat::Times(errors.take(&at.key("repeat-expr"), scope.int(count))),
            read_element(field, scope),
        ),
        Repeat::Eos => (ir::Repeat::Eos, read_element(field, scope)),
        Repeat::ForEach(list) => {
            let at = at.key("-for-each");
            let (list, each) = for_each(scope, list, |e| errors.take(&at, e));
            (ir::Repeat::Each(list), read_element(field, &each))
        }
        Repeat::Until(until) => {
            let item = until_item(field);
            let done = scope.with_element_of(item, ty).with_index(quote!(_index));
            let done = errors.take(&at.key("repeat-until"), done.bool(until));
            (ir::Repeat::Until(done), read_element(field, scope))
        }
    }
}

/// The `_` of a `repeat-until` condition: the element just read (`item`), through its
/// `rt::Decoded` when it is decoded; the element of a switch whose elements choose their case
/// is its enum, whose every case keeps its own stored bytes.
fn until_item(field: &Field) -> Rust {
    match field.switches_per_element() {
        true => quote!(item),
        false => stored_value(field, quote!(item)),
    }
}

/// The list a `-for-each` field follows, and `scope` with `_` bound to its element `each`;
/// `accept` notes the list's error.
fn for_each<'s>(
    scope: &Scope<'s>,
    list: &Expr,
    accept: impl FnOnce(Result<Rust, ExprError>) -> Rust,
) -> (Rust, Scope<'s>) {
    match scope.list(list) {
        Ok((tokens, elem)) => (tokens, scope.with_element(quote!(each), elem)),
        Err(e) => (accept(Err(e)), scope.clone()),
    }
}

fn write_field(schema: &Schema, ty: usize, field: &Field, errors: &mut Errors) -> ir::WriteField {
    if field.is_read_only() {
        return ir::WriteField::ReadOnly;
    }
    let scope = Scope::new(schema, ty, Mode::Write, schema.types[ty].fields.len());
    let at = &field.at;
    let pos = field
        .position
        .as_ref()
        .map(|pos| errors.writable(&at.key("pos"), "a `pos`", scope.int(pos)));
    let cond = field
        .cond
        .as_ref()
        .map(|cond| errors.writer(&at.key("if"), scope.bool(cond)));
    let valid = errors.writer(&at.key("valid"), scope.valid_rules(field));
    let values = match &field.ty {
        FieldType::Switch(switch) if field.switches_per_element() => {
            // Each element is checked against the case its selector gives.
            let (repeat, element) = write_repeat(field, &field.ty, &scope, errors);
            let switch = write_switch(schema, field, switch, &element, errors, |ty, errors| {
                ir::List {
                    repeat: ir::Repeat::One,
                    one: one(schema, field, ty, &element, errors),
                }
            });
            ir::Values::Elements(ir::Elements { repeat, switch })
        }
        FieldType::Switch(switch) => ir::Values::Switch(write_switch(
            schema,
            field,
            switch,
            &scope,
            errors,
            |ty, errors| write_list(schema, field, ty, &scope, errors),
        )),
        ty => ir::Values::One(write_list(schema, field, ty, &scope, errors)),
    };
    let fields = &schema.types[ty].fields;
    let relocation = field
        .relocation
        .map(|r| (fields[r.offset].id.clone(), r.unit, r.follows));
    let offset_unit = fields.iter().find_map(|block| {
        let r = block.relocation?;
        (fields[r.offset].id == field.id).then_some(r.unit)
    });
    ir::WriteField::Written(Box::new(ir::WrittenField {
        pos,
        pos_in_file: field.stream == Stream::Root,
        relocation,
        offset_unit,
        cond,
        valid,
        values,
        can_fail: scope.can_fail(),
    }))
}

/// How `switch`, the type of `field`, is written: its selector compiled in `scope`, each case
/// with its values as `list` makes them.
fn write_switch(
    schema: &Schema,
    field: &Field,
    switch: &Switch,
    scope: &Scope,
    errors: &mut Errors,
    list: impl FnMut(&FieldType, &mut Errors) -> ir::List<ir::Writing>,
) -> ir::Switch<ir::Writing> {
    let at = &field.at;
    let on = at.key("type").key("switch-on");
    let selector = scope.selector(&switch.on).map(|(tokens, _)| tokens);
    let selector = errors.writer(&on, selector);
    let (cases, arms) = switch_cases(schema, switch, at, scope, errors, list);
    ir::Switch {
        selector,
        text: false,
        expected: switch.keys_as_written(),
        cases,
        arms,
    }
}

/// The scope of one element's own expressions while writing: they see its index as `index`,
/// and, when they use them, the elements written before it (of the field's value, which is
/// `value` when conditional or switched).
fn write_element<'s>(field: &'s Field, scope: &Scope<'s>) -> Scope<'s> {
    let scope = scope.with_index(quote!(index));
    if !field.refers_to_itself() {
        return scope;
    }
    let access = match field.may_be_absent() || matches!(field.ty, FieldType::Switch(_)) {
        true => quote!(value),
        false => {
            let ident = crate::sanitization::field_ident(&field.id);
            quote!(self.#ident)
        }
    };
    // A list read again once complete gives each element the whole list, as its reader did.
    match field.read_again {
        true => scope.with_prior(field, quote!((&#access[..]))),
        false => scope.with_prior(field, quote!((&#access[..index]))),
    }
}

/// How the values of `field` of type `ty` (its own, or one case of its switch) are written.
fn write_list<'s>(
    schema: &Schema,
    field: &'s Field,
    ty: &FieldType,
    scope: &Scope<'s>,
    errors: &mut Errors,
) -> ir::List<ir::Writing> {
    let (repeat, element) = write_repeat(field, ty, scope, errors);
    let one = one(schema, field, ty, &element, errors);
    ir::List { repeat, one }
}

/// What ends the list of `field`, whose elements are of type `ty`, while writing, and the
/// scope of one element's own expressions (`scope` itself for a single value).
fn write_repeat<'s>(
    field: &'s Field,
    ty: &FieldType,
    scope: &Scope<'s>,
    errors: &mut Errors,
) -> (ir::Repeat<ir::Writing>, Scope<'s>) {
    let at = &field.at;
    match &field.repeat {
        Repeat::None => (ir::Repeat::One, scope.clone()),
        Repeat::Expr(count) => (
            ir::Repeat::Times(errors.writer(&at.key("repeat-expr"), scope.int(count))),
            write_element(field, scope),
        ),
        Repeat::Eos => (ir::Repeat::Eos, write_element(field, scope)),
        // A switch writes each of its lists whole, without its partners.
        Repeat::ForEach(_) if field.switches_whole_list() => {
            (ir::Repeat::Eos, write_element(field, scope))
        }
        Repeat::ForEach(list) => {
            let at = at.key("-for-each");
            let (list, each) = for_each(scope, list, |e| {
                errors.writable(&at, "a `-for-each` list", e)
            });
            (ir::Repeat::Each(list), each.with_index(quote!(index)))
        }
        Repeat::Until(until) => {
            let item = until_item(field);
            let done = scope.with_element_of(item, ty).with_index(quote!(_index));
            let done = errors.writer(&at.key("repeat-until"), done.bool(until));
            (ir::Repeat::Until(done), write_element(field, scope))
        }
    }
}

/// How a stage keeps what the expression compiler gives: the reader evaluates every
/// expression; the writer leaves out a check that needs the input stream, refuses an argument
/// that does, and has no use for a remembered value.
trait Compile: ir::Stage {
    /// A check (a condition, size, count, selector, processor).
    fn check(errors: &mut Errors, at: &YamlPath, result: Result<Rust, ExprError>) -> Self::Check;

    /// The value of a `-remember`ed integer, compiled by `compile` when the stage needs it.
    fn remembered(
        errors: &mut Errors,
        at: &YamlPath,
        compile: impl FnOnce() -> Result<Rust, ExprError>,
    ) -> Self::Remembered;

    /// The arguments of a value of a user type, each compiled for its parameter.
    fn arguments(
        errors: &mut Errors,
        at: &YamlPath,
        schema: &Schema,
        args: Vec<(&Param, Result<Rust, ExprError>)>,
    ) -> Vec<Rust>;
}

impl Compile for ir::Reading {
    fn check(errors: &mut Errors, at: &YamlPath, result: Result<Rust, ExprError>) -> Rust {
        errors.take(at, result)
    }

    fn remembered(
        errors: &mut Errors,
        at: &YamlPath,
        compile: impl FnOnce() -> Result<Rust, ExprError>,
    ) -> Rust {
        errors.take(at, compile())
    }

    fn arguments(
        errors: &mut Errors,
        at: &YamlPath,
        _: &Schema,
        args: Vec<(&Param, Result<Rust, ExprError>)>,
    ) -> Vec<Rust> {
        let args = args.into_iter().map(|(_, arg)| arg).collect();
        errors.take(at, args)
    }
}

impl Compile for ir::Writing {
    fn check(errors: &mut Errors, at: &YamlPath, result: Result<Rust, ExprError>) -> Writer {
        errors.writer(at, result)
    }

    fn remembered(_: &mut Errors, _: &YamlPath, _: impl FnOnce() -> Result<Rust, ExprError>) {}

    fn arguments(
        errors: &mut Errors,
        at: &YamlPath,
        schema: &Schema,
        args: Vec<(&Param, Result<Rust, ExprError>)>,
    ) -> Vec<Rust> {
        let args = args.into_iter().map(|(param, arg)| match arg {
            // The writer uses it in no check (`Param::writers_lack`); the codec reads its
            // output back.
            Err(ExprError::NeedsStream) if param.writers_lack => {
                errors.from_stream = true;
                Ok(placeholder(schema, param.ty))
            }
            arg => arg,
        });
        let args = args.collect();
        errors.writable(at, "an argument", args)
    }
}

/// What a writer passes for a parameter it lacks (see [`Param::writers_lack`]).
fn placeholder(schema: &Schema, ty: ParamType) -> Rust {
    match ty {
        ParamType::Bool => quote!(false),
        ParamType::Enum(idx) => {
            let name = crate::sanitization::enum_ident(&schema.enums[idx]);
            quote!(#name::from_raw(0))
        }
        ParamType::Str | ParamType::Bytes => quote!(&[]),
        _ => quote!(0i64),
    }
}

/// One value of `field` of type `ty`, its expressions compiled in `scope` for stage `S`.
fn one<S: Compile>(
    schema: &Schema,
    field: &Field,
    ty: &FieldType,
    scope: &Scope,
    errors: &mut Errors,
) -> ir::One<S> {
    let at = &field.at;
    let size = |size: &Size, errors: &mut Errors| {
        sized(size, |e| S::check(errors, &at.key("size"), scope.int(e)))
    };
    let decode = field.decode.as_ref().map(|decode| ir::Decode {
        spec: decode.clone(),
        size: size(&decode.size, errors),
        processor: S::check(errors, &at.key("process"), scope.processor(decode)),
    });
    let substream = field.substream.as_ref().map(|s| size(s, errors));
    // Kaitai passes the arguments of a value read from bytes of its own (`size`, `process`)
    // once those bytes are read, in the outer stream: no writer is there before writing them.
    let own_bytes = field.substream.is_some() || field.decode.is_some();
    ir::One {
        substream,
        decode,
        value: value(schema, ty, scope, !own_bytes, at, errors),
    }
}

/// A size with its expression compiled by `compile`.
fn sized<S: ir::Stage>(size: &Size, compile: impl FnOnce(&Expr) -> S::Check) -> ir::Size<S> {
    match size {
        Size::Const(n) => ir::Size::Const(*n),
        Size::Expr(e) => ir::Size::Computed {
            from_stream: e.mentions("_io"),
            len: compile(e),
        },
        Size::Eos => ir::Size::Eos,
        Size::Terminator {
            byte,
            include,
            consume,
            eos_error,
        } => ir::Size::Terminator {
            byte: *byte,
            include: *include,
            consume: *consume,
            eos_error: *eos_error,
        },
    }
}

/// What one value of type `ty` is, its sizes, remembered value and arguments compiled in
/// `scope` for stage `S`; `at_start`: a writer passes the arguments where the reader does.
fn value<S: Compile>(
    schema: &Schema,
    ty: &FieldType,
    scope: &Scope,
    at_start: bool,
    at: &YamlPath,
    errors: &mut Errors,
) -> ir::Value<S> {
    match ty {
        FieldType::Number(s) => ir::Value::Number(*s),
        FieldType::Bits {
            width,
            big_endian,
            enum_idx,
        } => ir::Value::Bits {
            width: *width,
            big_endian: *big_endian,
            enum_idx: *enum_idx,
        },
        FieldType::BitPadding => ir::Value::BitPadding,
        FieldType::Vlq => ir::Value::Vlq,
        FieldType::Enum { enum_idx, raw } => ir::Value::Enum {
            enum_idx: *enum_idx,
            raw: *raw,
        },
        FieldType::Quat(_) | FieldType::Vec3(_) | FieldType::Array { .. } => {
            match schema.fixed_layout(ty) {
                Some(fixed) => ir::Value::Fixed(fixed),
                None => {
                    let message = "the elements of a fixed-size array must have a fixed size";
                    errors.met.push(Located::new(at, message));
                    ir::Value::Nothing
                }
            }
        }
        FieldType::Str {
            size: Size::Const(n),
            align,
            ..
        } if *align <= 1 => ir::Value::FixedStr(*n),
        FieldType::Str {
            size: s,
            align,
            terminated,
            ..
        } => ir::Value::Str {
            size: sized(s, |e| S::check(errors, &at.key("size"), scope.int(e))),
            align: *align,
            terminated: *terminated,
        },
        FieldType::Bytes { size: s, align, .. } => ir::Value::Bytes {
            size: sized(s, |e| S::check(errors, &at.key("size"), scope.int(e))),
            align: *align,
        },
        FieldType::Remembered { value, ty, .. } => ir::Value::Remembered {
            int: *ty,
            value: S::remembered(errors, &at.key("-remember"), || scope.int(value)),
        },
        FieldType::Contents(bytes) => ir::Value::Contents(bytes.clone()),
        FieldType::User { ty, args } => ir::Value::User {
            ty: *ty,
            args: {
                // A writer passes them where the value starts, as the reader does.
                let scope = match at_start {
                    true => scope.at_writer_pos(),
                    false => scope.in_outer_stream(),
                };
                let params = &schema.types[*ty].params;
                let args = args.iter().zip(params);
                let args = args.map(|(arg, param)| (param, scope.argument_to(*ty, param, arg)));
                S::arguments(errors, &at.key("type"), schema, args.collect())
            },
        },
        FieldType::Nothing => ir::Value::Nothing,
        FieldType::Switch(_) => {
            errors
                .met
                .push(Located::new(at, "a switch case cannot be a switch"));
            ir::Value::Nothing
        }
    }
}
