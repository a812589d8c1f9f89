//! The checking pass: types every expression of a lowered schema in the context where it runs
//! (while reading, while writing, when inspecting a finished value), so that a mistake is
//! reported at its place in the schema instead of as a Rust compile error in generated code.
//! Every error of the schema is returned at once.
//!
//! `resolve` turns an expression into a typed tree (`typed`), which holds no Rust: literals,
//! operators, enum values, sizes, methods and most places decided once, stored values typed
//! by `value_types`. [`expr`] is the Rust side: its scope gives the resolver the facts of
//! where an expression runs, reaches the places the tree does not hold yet, and renders
//! trees. Once every part of
//! the schema checks, `build` makes the typed IR (`ir`): every expression the generator
//! renders, compiled where it runs, inside the structure that uses it. The generator (`emit`)
//! only renders the IR.

mod build;
pub mod context;
pub mod expr;
pub(crate) mod infer;
pub(crate) mod ir;
pub(crate) mod reach;
pub mod resolve;
// Each node's fields are told by the doc comment of its variant.
#[allow(missing_docs)]
pub mod typed;
pub(crate) mod value_types;

use self::expr::{ExprError, Mode, Scope, Ty, describe};
use crate::error::{Located, YamlPath};
use crate::expr::Expr;
use crate::model::*;

/// Checks a whole schema; returns its typed IR and the warnings (value instances only the
/// finished value could compute, which get no method), or every error (the first of each
/// field, instance and type), the first apart.
pub(crate) fn check(schema: &Schema) -> Result<(ir::Ir, Vec<Located>), (Located, Vec<Located>)> {
    let mut errors = Vec::new();
    let mut note = |result: Result<(), Located>| errors.extend(result.err());
    note(reject_recursion(schema));
    note(reject_huge_sizes(schema));
    let live = live_instances(schema);
    let mut warnings = Vec::new();
    for (ty, def) in schema.types.iter().enumerate() {
        for (index, field) in def.fields.iter().enumerate() {
            note(check_field(schema, field));
            note(check_in_sequence(field));
            if let Some(checksum) = &field.checksum {
                note(check_checksum(def, index, checksum));
            }
        }
        if let Some(choice) = &def.endian_choice {
            note(check_byte_order(schema, ty, choice));
        }
        let inspect = Scope::new(schema, ty, Mode::Inspect, def.fields.len());
        if let Some(text) = &def.to_string {
            let at = def.at.key("to-string");
            match inspect.compile(text) {
                Ok((_, Ty::Str | Ty::StrLit)) => {}
                Ok(_) => note(Err(Located::new(&at, "`to-string` must be a string"))),
                Err(e) => note(Err(Located::new(&at, e.message()))),
            }
        }
        for instance in &def.instances {
            if let InstanceKind::Peek { pos, cond, .. } = &instance.kind {
                let read = Scope::new(schema, ty, Mode::Read, def.fields.len());
                note(located(&instance.at.key("pos"), read.int(pos)));
                if let Some(cond) = cond {
                    note(located(&instance.at.key("if"), read.bool(cond)));
                }
                continue;
            }
            let at = instance.at.key("value");
            // An instance that uses parameters is inlined where it is used and gets no method.
            let read = Scope::new(schema, ty, Mode::Read, def.fields.len());
            let compiled = inspect
                .reporting_failure()
                .instance_value(instance)
                .or_else(|_| read.instance_value(instance));
            let dead = !live.contains(&(ty, instance.id.as_str()));
            let unavailable = |why: &str| {
                Located::new(
                    &at,
                    format!("value instance `{}` gets no method: {why}", instance.id),
                )
            };
            match compiled {
                Ok((_, ty)) if ty.is_instance_value() || ty.is_inlined_structure() => {}
                Ok((_, ty)) if dead || matches!(ty, Ty::Array(_) | Ty::ListLit(_)) => {
                    warnings.push(unavailable(&format!(
                        "a value of this kind ({}) is not supported yet as an instance method; expressions use it inlined",
                        describe(&ty)
                    )))
                }
                Ok(_) => note(Err(Located::new(
                    &at,
                    "a value instance must be a number, a boolean, an enum value, a string, bytes or a structure",
                ))),
                // Kaitai computes it lazily from the finished tree, which an owned value has
                // no pointer back into; nothing reads or writes with it, so only it is missing.
                // Kaitai's own errors are errors even where nothing uses the instance.
                Err(e) if dead && !e.is_schema_mistake() => {
                    warnings.push(unavailable(&e.message()))
                }
                Err(e) => note(Err(Located::new(&at, e.message()))),
            }
        }
    }
    // Every expression the generated code evaluates is compiled once for reading and once for
    // writing, by `build`, which reports those that do not compile.
    let built = build::build(schema);
    let mut errors = errors.into_iter();
    match (errors.next(), built) {
        (None, Ok(ir)) => Ok((ir, warnings)),
        (None, Err(failed)) => Err(failed),
        (Some(first), built) => {
            let mut others: Vec<Located> = errors.collect();
            if let Err((built_first, built_others)) = built {
                for e in std::iter::once(built_first).chain(built_others) {
                    if e != first && !others.contains(&e) {
                        others.push(e);
                    }
                }
            }
            Err((first, others))
        }
    }
}

/// A type may hold itself through a conditional, repeated or switched field (its readers count
/// the depth), but not through fields it always has: such a value would never end.
fn reject_recursion(schema: &Schema) -> Result<(), Located> {
    // The user types a value always holds: those of its fields that are neither conditional
    // nor repeated nor chosen by a switch nor parse instances (a cycle ends there).
    let always = |ty: usize| {
        schema.types[ty].fields.iter().filter_map(|f| match f.ty {
            FieldType::User { ty, .. } if !f.may_be_absent() && f.repeat == Repeat::None => {
                Some(ty)
            }
            _ => None,
        })
    };
    // A type no value of the root always holds may contain itself: Kaitai reads such a value
    // lazily (gettext's hash chain, read from a program); skelcodec reads it until it nests
    // too deep or meets the same type at the same position again (a cycle), an error of what
    // holds it: an instance, which fails on its own, or the program's read.
    let mut always_held = vec![false; schema.types.len()];
    let mut stack = vec![0];
    while let Some(ty) = stack.pop() {
        if !std::mem::replace(&mut always_held[ty], true) {
            stack.extend(always(ty));
        }
    }
    for start in (0..schema.types.len()).filter(|&t| always_held[t]) {
        let mut stack: Vec<usize> = always(start).collect();
        let mut seen = vec![false; schema.types.len()];
        while let Some(ty) = stack.pop() {
            if ty == start {
                let def = &schema.types[start];
                return Err(Located::new(
                    &def.at,
                    format!(
                        "type `{}` always contains itself, so a value would never end: make the field that leads back to it conditional (`if`) or repeated",
                        def.id
                    ),
                ));
            }
            if !std::mem::replace(&mut seen[ty], true) {
                stack.extend(always(ty));
            }
        }
    }
    Ok(())
}

/// The most bytes the schema alone may give a value or a field: far beyond any file, and small
/// enough that no sum of sizes overflows in the generator or in generated code.
const MAX_STATIC_SIZE: usize = 1 << 40;

/// Refuses constant sizes and counts, and types whose constant parts add up, beyond
/// [`MAX_STATIC_SIZE`].
fn reject_huge_sizes(schema: &Schema) -> Result<(), Located> {
    for def in &schema.types {
        let mut total = 0usize;
        for field in &def.fields {
            let constant = |size: Option<&Size>| match size {
                Some(Size::Const(n)) => *n,
                _ => 0,
            };
            let text_size = match &field.ty {
                FieldType::Bytes { size, .. } | FieldType::Str { size, .. } => Some(size),
                _ => None,
            };
            let count = match &field.repeat {
                Repeat::Expr(Expr::Int(n)) => usize::try_from(*n).unwrap_or(usize::MAX),
                _ => 0,
            };
            let largest = [
                constant(text_size),
                constant(field.decode.as_ref().map(|d| &d.size)),
                constant(field.substream.as_ref()),
                schema.fixed_size_of(&field.ty).unwrap_or(0),
                schema.static_field_size(field).unwrap_or(0),
                count,
            ]
            .into_iter()
            .max()
            .unwrap_or(0);
            total = total.saturating_add(largest);
            if total > MAX_STATIC_SIZE {
                return Err(Located::new(
                    &field.at,
                    format!(
                        "a value of type `{}` would take more than 2^40 bytes by the schema alone (a constant size, count or the sizes of its fields)",
                        def.id
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// `meta/endian` as a `switch-on`: the reader chooses before reading any field, the writer
/// from the whole value, so the selector and every case must compile in both.
fn check_byte_order(schema: &Schema, ty: usize, choice: &EndianChoice) -> Result<(), Located> {
    let read = Scope::new(schema, ty, Mode::Read, 0);
    let write = Scope::new(schema, ty, Mode::Write, schema.types[ty].fields.len());
    let on_at = choice.at.key("switch-on");
    let (_, selector) = read
        .compile(&choice.on)
        .map_err(|e| Located::new(&on_at, e.message()))?;
    writable(&on_at, "a byte order", write.compile(&choice.on))?;
    for case in &choice.cases {
        check_case_key(&read, &selector, &case.key, &case.at)?;
        let equal = Expr::Binary(
            crate::expr::BinOp::Eq,
            Box::new(choice.on.clone()),
            Box::new(case.key.clone()),
        );
        located(&case.at, read.bool(&equal))?;
        located(&case.at, write.bool(&equal))?;
    }
    Ok(())
}

/// True when `snake`'s Rust type name is that of one of the schema's own types or enums.
fn names_an_item(schema: &Schema, snake: &str) -> bool {
    let rust = crate::sanitization::type_ident(snake);
    schema
        .types
        .iter()
        .map(crate::sanitization::struct_ident)
        .chain(schema.enums.iter().map(crate::sanitization::enum_ident))
        .any(|item| item == rust)
}

fn located(at: &YamlPath, result: Result<impl Sized, ExprError>) -> Result<(), Located> {
    result
        .map(|_| ())
        .map_err(|e| Located::new(at, e.message()))
}

/// What of a field is checked apart from its expressions (which `build` compiles).
fn check_field(schema: &Schema, field: &Field) -> Result<(), Located> {
    let at = &field.at;
    if field.fill_index && (field.cond.is_some() || !matches!(field.ty, FieldType::Bytes { .. })) {
        return Err(Located::new(
            &at.key("-fill"),
            "`-fill` applies to raw bytes that are always present",
        ));
    }
    if let Some(Decode {
        process: Some(Process::Custom { modules, name, .. }),
        ..
    }) = &field.decode
        && modules.is_empty()
        && names_an_item(schema, name)
    {
        return Err(Located::new(
            &at.key("process"),
            format!(
                "processor `{name}` has the Rust name of a type or enum of this schema, which would stand for it: name it by its module (`my_mod.{name}`) or rename it"
            ),
        ));
    }
    Ok(())
}

/// `-in-sequence` declares that an instance reads again a value the file holds in sequence:
/// its offset must follow where the instance is placed, and its type be read in sequence too.
fn check_in_sequence(field: &Field) -> Result<(), Located> {
    if !field.in_sequence || field.relocation.is_some_and(|r| r.follows) {
        return Ok(());
    }
    let why = match field.relocation {
        None => "its offset does not follow where it is placed",
        Some(_) => "no field reads its type in sequence",
    };
    Err(Located::new(
        &field.at.key("-in-sequence"),
        format!(
            "`-in-sequence` needs an instance read by position in the file's stream, whose offset is an integer used only as its `pos`, of a type read in sequence too (`{}`: {why})",
            field.id
        ),
    ))
}

/// A checksum covers fields of its own type read in sequence before it, one after another:
/// the writer computes it over the bytes it has just written.
fn check_checksum(def: &TypeDef, index: usize, checksum: &Checksum) -> Result<(), Located> {
    let at = def.fields[index].at.key("-derived");
    let positions: Vec<Option<usize>> = checksum
        .over
        .iter()
        .map(|name| def.fields[..index].iter().position(|f| f.id == *name))
        .collect();
    let in_sequence = |i: usize| {
        let field = &def.fields[i];
        field.position.is_none() && !field.from_instance && !field.parse_instance
    };
    let covered = match positions.iter().copied().collect::<Option<Vec<usize>>>() {
        Some(covered) if covered.iter().all(|&i| in_sequence(i)) => covered,
        _ => {
            return Err(Located::new(
                &at,
                "a checksum covers fields of its type read in sequence before it",
            ));
        }
    };
    if covered.windows(2).any(|pair| pair[1] != pair[0] + 1) {
        return Err(Located::new(
            &at,
            "a checksum covers fields that follow one another, named in their order",
        ));
    }
    Ok(())
}

/// Why `what`, computed from the input stream, cannot be written.
fn not_writable(what: &str) -> String {
    format!(
        "{what} computed from `_io` cannot be written back yet: a writer has the value, not the input stream"
    )
}

fn writable(
    at: &YamlPath,
    what: &str,
    result: Result<impl Sized, ExprError>,
) -> Result<(), Located> {
    match result {
        Ok(_) => Ok(()),
        Err(ExprError::NeedsStream) => Err(Located::new(at, not_writable(what))),
        Err(e) => Err(Located::new(at, e.message())),
    }
}

pub(super) fn check_case_key(
    read: &Scope,
    selector: &Ty,
    key: &Expr,
    at: &YamlPath,
) -> Result<(), Located> {
    let literal = matches!(
        key,
        Expr::Int(_) | Expr::Str(_) | Expr::Bool(_) | Expr::EnumLit { .. }
    ) || key.is_byte_literal();
    if !literal {
        return Err(Located::new(
            at,
            format!(
                "case `{}` must be a literal (integer, string, boolean, enum value or bytes)",
                crate::expr::to_source(key)
            ),
        ));
    }
    let (_, key_ty) = read
        .compile(key)
        .map_err(|e| Located::new(at, e.message()))?;
    // Text that may be absent is matched as empty when it is (see `Scope::selector`).
    let selector = match selector {
        Ty::Opt(inner) if matches!(**inner, Ty::Str | Ty::StrLit) => &Ty::Str,
        other => other,
    };
    let compatible = matches!(
        (selector, &key_ty),
        (Ty::Int, Ty::Int)
            | (Ty::Bool, Ty::Bool)
            | (Ty::Str, Ty::StrLit)
            | (Ty::Bytes, Ty::ListLit(_))
    ) || matches!((selector, &key_ty), (Ty::Enum(a), Ty::Enum(b)) if a == b);
    if compatible {
        Ok(())
    } else {
        Err(Located::new(
            at,
            format!(
                "case `{}` does not have the type of the `switch-on` value",
                crate::expr::to_source(key)
            ),
        ))
    }
}
