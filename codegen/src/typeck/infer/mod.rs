//! Derivations inferred from plain Kaitai schemas. An integer field whose one use is the
//! `size` of a later field (directly or through an invertible expression: `len - 4`,
//! `n * 16`) or its `repeat-expr` count is derived from that field, as if it said
//! `-derived: body._sizeof + 4` or `-derived: items.size`: `check()` reports a disagreement
//! and `normalize()` recomputes it, so that an edit that grows a value needs no size fixed by
//! hand. A field of a held value whose one use is such a size or count in its holder
//! (`data: size: header.len`) is derived there (see [`members`]). Nothing is inferred for a
//! field used twice, nor through an expression that cannot be inverted; `-derived: false`
//! turns inference off and a declared `-derived` always wins. A list of integers whose one use
//! is the size of each element of a later list as long follows those elements one by one.
//! Selectors and flags are inferred alike (see [`choices`]). An inferred derivation must compile
//! where `check()` runs, or it is dropped: inference never makes a schema fail.

mod choices;
mod members;
mod relocations;

use super::context::Context;
use super::resolve::resolve_int;
use super::typed::Mode;
use crate::expr::{BinOp, Expr, UnaryOp};
use crate::model::*;

/// Sets [`Field::derived`] (and [`Field::derived_inferred`]) of every field whose derivation
/// can be inferred.
pub(crate) fn infer_derived(schema: &mut Schema) {
    let reached = reached_names(schema);
    for ty in 0..schema.types.len() {
        // Offsets and sizes of a root laid out by `-layout` are the layout's.
        if ty == 0 && schema.layout.is_some() {
            continue;
        }
        let scope = Context::new(schema, ty, Mode::Inspect, schema.types[ty].fields.len());
        let found: Vec<(usize, Expr, Inferred, Vec<usize>)> = (0..schema.types[ty].fields.len())
            .filter_map(|index| {
                let (derived, inferred, padding) = inference(schema, ty, index, &reached)
                    .or_else(|| element_sizes(schema, ty, index, &reached))?;
                let field = &schema.types[ty].fields[index];
                resolve_int(&scope.for_derived(field), &derived).ok()?;
                let def = &schema.types[ty];
                let sizes = padding.iter().filter_map(|&p| def.fields[p].padding_size());
                sizes
                    .map(|size| resolve_int(&scope, size))
                    .collect::<Result<Vec<_>, _>>()
                    .ok()?;
                Some((index, derived, inferred, padding))
            })
            .collect();
        for (index, derived, inferred, padding) in found {
            let fields = &mut schema.types[ty].fields;
            fields[index].derived = Some(derived);
            fields[index].derived_inferred = Some(inferred);
            for p in padding {
                fields[p].padding = true;
            }
        }
    }
    choices::infer_choices(schema);
    members::infer_members(schema);
    relocations::infer_relocations(schema, &reached);
}

/// True for a field a derivation may be inferred for: a plain integer in sequence, neither
/// declared derived (or not) nor a checksum, nor kept as read.
fn is_candidate(field: &Field) -> bool {
    field.derived.is_none()
        && !field.derived_elsewhere
        && field.checksum.is_none()
        && !field.never_derived
        && !field.untrusted
        && matches!(field.ty, FieldType::Number(Scalar::Int(_)) | FieldType::Vlq)
        && field.repeat == Repeat::None
        && field.position.is_none()
        && !field.from_instance
        && !field.kept_as_read
}

/// The derivation of field `index` of type `ty`, when it has exactly one use that can be
/// inverted, and the padding that follows it (raw bytes sized by it alone, `len % 2`).
fn inference(
    schema: &Schema,
    ty: usize,
    index: usize,
    reached: &[String],
) -> Option<(Expr, Inferred, Vec<usize>)> {
    let def = &schema.types[ty];
    let field = &def.fields[index];
    if !is_candidate(field) || reached.contains(&field.id) {
        return None;
    }
    let name = field.id.as_str();
    let uses = measuring_uses(def, name);
    // Raw bytes sized by the field alone, but not as its measure (`len % 2`), are padding
    // that follows it.
    let padding: Vec<usize> = (index + 1..def.fields.len())
        .filter(|&p| {
            def.fields[p].padding_size().is_some_and(|size| {
                mentions(size, name) == 1
                    && names_only(size, name)
                    && invert(size, &Expr::Name(name.into()), Expr::Int(0)).is_none()
            })
        })
        .collect();
    if uses != 1 + padding.len() && !shared_count(def, index) {
        return None;
    }
    // The one use: the size or count of a later field (or one read by position; one read
    // on its own measures nothing where it failed, see `TypeDef::held_user`).
    let (user, role, derived) = (index + 1..def.fields.len())
        .filter(|&p| !padding.contains(&p))
        .find_map(|p| {
            let user = &def.fields[p];
            let (expr, role, measure) = measured_use(user)?;
            let expr = folded(schema, ty, expr);
            Some((
                user,
                role,
                invert(&expr, &Expr::Name(name.into()), measure)?,
            ))
        })?;
    // Where the user may be absent, the field follows it only when it is present: under the
    // same condition, or keeping its stored value otherwise.
    let derived = match (&field.cond, &user.cond) {
        (_, None) => derived,
        (Some(own), Some(theirs)) if own == theirs => derived,
        (Some(_), Some(_)) => return None,
        (None, Some(cond)) => while_present(cond, derived, Expr::Name(field.id.clone())),
    };
    let inferred = Inferred {
        user: user.id.clone(),
        role,
    };
    Some((derived, inferred, padding))
}

/// The derivation of field `index` of type `ty` when it is a list of integers whose one use
/// is the size of each element of a later list as long (Ogg's lacing values:
/// `segments: size: len_segments[_index]`): each element is derived from the element it sizes,
/// `len_segments[_index] = segments[_index]._sizeof`.
fn element_sizes(
    schema: &Schema,
    ty: usize,
    index: usize,
    reached: &[String],
) -> Option<(Expr, Inferred, Vec<usize>)> {
    let def = &schema.types[ty];
    let field = &def.fields[index];
    if !matches!(field.repeat, Repeat::Expr(_)) || field.cond.is_some() {
        return None;
    }
    let single = Field {
        repeat: Repeat::None,
        ..field.clone()
    };
    if !is_candidate(&single) || !matches!(field.ty, FieldType::Number(_)) {
        return None;
    }
    let name = field.id.as_str();
    if measuring_uses(def, name) != 1 || reached.contains(&field.id) {
        return None;
    }
    let element = |list: &str| {
        let index = Box::new(Expr::Name("_index".into()));
        Expr::Index(Box::new(Expr::Name(list.into())), index)
    };
    let (user, derived) = def.fields[index + 1..].iter().find_map(|user| {
        // As many elements: the same count.
        if user.repeat != field.repeat || user.cond.is_some() {
            return None;
        }
        let size = folded(schema, ty, size_of_each(user)?);
        let measure = Expr::Attr(Box::new(element(&user.id)), "_sizeof".into());
        Some((user, invert(&size, &element(name), measure)?))
    })?;
    let inferred = Inferred {
        user: user.id.clone(),
        role: "element sizes",
    };
    Some((derived, inferred, Vec::new()))
}

/// True when every use of field `index` of `def` is the same `repeat-expr` count of several
/// later lists (Ogg's `num_segments` of its lacing values and of its segments): it follows
/// the first, and the writer refuses the others where their lengths differ.
fn shared_count(def: &TypeDef, index: usize) -> bool {
    let name = def.fields[index].id.as_str();
    let counts: Vec<&Expr> = (def.fields[index + 1..].iter())
        .filter_map(|f| match &f.repeat {
            Repeat::Expr(count) if mentions(count, name) > 0 => Some(count),
            _ => None,
        })
        .collect();
    let uses: usize = counts.iter().map(|c| mentions(c, name)).sum();
    counts.len() > 1 && counts.iter().all(|c| *c == counts[0]) && uses == measuring_uses(def, name)
}

/// `derived` where `cond` (a user's condition) holds, `stored` (the field itself) otherwise.
fn while_present(cond: &Expr, derived: Expr, stored: Expr) -> Expr {
    Expr::Ternary(Box::new(cond.clone()), Box::new(derived), Box::new(stored))
}

/// True when `e` names nothing but `name` (and literals): `len % 2`, `(4 - len % 4) % 4`.
fn names_only(e: &Expr, name: &str) -> bool {
    match e {
        Expr::Name(n) => n == name,
        Expr::Attr(..) | Expr::Method(..) | Expr::Index(..) | Expr::Cast(..) => false,
        _ => e.children().into_iter().all(|c| names_only(c, name)),
    }
}

/// What a field's size or count expression is, which of the two it is, and what measures
/// it on the finished value: `user._sizeof` for a size, `user.size` for a count.
fn measured_use(user: &Field) -> Option<(&Expr, &'static str, Expr)> {
    let name = Expr::Name(user.id.clone());
    let sizeof = || Expr::Attr(Box::new(name.clone()), "_sizeof".into());
    if let Repeat::Expr(count) = &user.repeat {
        return Some((count, "count", Expr::Attr(Box::new(name), "size".into())));
    }
    if user.repeat != Repeat::None {
        return None;
    }
    Some((size_of_each(user)?, "size", sizeof()))
}

/// The size of each value of `user` (of the one value when it is not repeated), when it is an
/// expression.
fn size_of_each(user: &Field) -> Option<&Expr> {
    let size = match (&user.substream, &user.decode, &user.ty) {
        (Some(Size::Expr(size)), _, _) => size,
        (
            _,
            Some(Decode {
                size: Size::Expr(size),
                ..
            }),
            _,
        ) => size,
        (
            None,
            None,
            FieldType::Bytes {
                size: Size::Expr(size),
                align: 0 | 1,
                ..
            }
            | FieldType::Str {
                size: Size::Expr(size),
                align: 0 | 1,
                ..
            },
        ) => size,
        _ => return None,
    };
    Some(size)
}

/// `target` (a field's name, or a member `header.len`) as a function of `measure`, where
/// `expr` (which mentions `target` once) equals `measure`: `target` itself, or `target` with
/// constants added, subtracted or multiplied.
fn invert(expr: &Expr, target: &Expr, measure: Expr) -> Option<Expr> {
    let op = |op, a: Expr, b: &Expr| Expr::Binary(op, Box::new(a), Box::new(b.clone()));
    match expr {
        e if e == target => Some(measure),
        Expr::Binary(BinOp::Add, a, k) | Expr::Binary(BinOp::Add, k, a) if is_constant(k) => {
            invert(a, target, op(BinOp::Sub, measure, k))
        }
        Expr::Binary(BinOp::Sub, a, k) if is_constant(k) => {
            invert(a, target, op(BinOp::Add, measure, k))
        }
        Expr::Binary(BinOp::Sub, k, a) if is_constant(k) => invert(
            a,
            target,
            Expr::Binary(BinOp::Sub, k.clone(), Box::new(measure)),
        ),
        // `n * 16`: a measure that is no multiple of 16 leaves the writer's check to refuse.
        Expr::Binary(BinOp::Mul, a, k) | Expr::Binary(BinOp::Mul, k, a) if matches!(k.as_ref(), Expr::Int(n) if *n > 0) => {
            invert(a, target, op(BinOp::Div, measure, k))
        }
        _ => None,
    }
}

/// `e` with the sizes every value of a field has (`magic._sizeof`) and the root's constants
/// (`_root.len_sector`) as literals, in type `ty`: constants to invert through
/// (`ofs_data - magic._sizeof - ofs_data._sizeof`, `size_grain * _root.len_sector`).
fn folded(schema: &Schema, ty: usize, e: &Expr) -> Expr {
    if let Some(size) = schema.static_path_size(ty, e) {
        return Expr::Int(size as i128);
    }
    match schema.root_constant(ty, e) {
        Some(value) if is_constant(value) => value.clone(),
        _ => e.map_children(&mut |c| folded(schema, ty, c)),
    }
}

/// An expression of literals alone (`4`, `sizeof<header>`, `2 * 8`).
fn is_constant(e: &Expr) -> bool {
    match e {
        Expr::Int(_) | Expr::SizeOf { .. } => true,
        Expr::Unary(UnaryOp::Neg, a) => is_constant(a),
        Expr::Binary(BinOp::Add | BinOp::Sub | BinOp::Mul, a, b) => {
            is_constant(a) && is_constant(b)
        }
        _ => false,
    }
}

/// The expressions of a type that may size, count, place or pass on a value: all but those
/// that only test one (`if`, `repeat-until`, `valid`, a switch's selector, `to-string`),
/// which a derived value does not disturb: the writer checks them against it.
fn measuring_expressions(def: &TypeDef) -> Vec<&Expr> {
    let mut testing: Vec<&Expr> = def.to_string.iter().collect();
    for field in &def.fields {
        testing.extend(&field.cond);
        if let Repeat::Until(done) = &field.repeat {
            testing.push(done);
        }
        testing.extend(field.valid.iter().map(|v| &v.rule));
        let mut types = vec![&field.ty];
        while let Some(ty) = types.pop() {
            if let FieldType::Switch(switch) = ty {
                testing.push(&switch.on);
                types.extend(switch.cases.iter().map(|c| &c.ty));
                types.extend(switch.default.as_deref());
            }
        }
    }
    let derived = def.fields.iter().filter_map(|f| f.derived.as_ref());
    def.expressions()
        .into_iter()
        .filter(|e| !testing.iter().any(|t| std::ptr::eq(*t, *e)))
        .chain(derived)
        .collect()
}

/// How often the measuring expressions of `def` (see [`measuring_expressions`]) name `name`.
fn measuring_uses(def: &TypeDef, name: &str) -> usize {
    (measuring_expressions(def).into_iter())
        .map(|e| mentions(e, name))
        .sum()
}

/// How often `e` names `name` itself: its size (`name._sizeof`) is no use of its value.
fn mentions(e: &Expr, name: &str) -> usize {
    if matches!(e, Expr::Attr(_, attr) if attr == "_sizeof") {
        return 0;
    }
    let own = usize::from(matches!(e, Expr::Name(n) if n == name));
    own + e
        .children()
        .into_iter()
        .map(|c| mentions(c, name))
        .sum::<usize>()
}

/// The names some measuring expression (see [`measuring_expressions`]) reaches as a member
/// of another value (`_parent.len`, `header.len`, `_root.len`): a field with such a name could
/// size or count something in another type, so none is inferred. `x.size` of a list or byte array is no such use: only members of values
/// that may be structures count (those reached through `_parent`, `_root`, a value of a user
/// type, or anything the names of fields cannot tell).
fn reached_names(schema: &Schema) -> Vec<String> {
    let structures: Vec<&str> = schema
        .types
        .iter()
        .flat_map(|def| {
            let fields = def
                .fields
                .iter()
                .filter(|f| !f.ty.user_types().is_empty())
                .map(|f| f.id.as_str());
            let params = def
                .params
                .iter()
                .filter(|p| !matches!(p.ty, ParamType::Int(_) | ParamType::Bool))
                .map(|p| p.id.as_str());
            let instances = def.instances.iter().map(|i| i.id.as_str());
            fields.chain(params).chain(instances)
        })
        .collect();
    let mut reached = Vec::new();
    for def in &schema.types {
        for e in measuring_expressions(def) {
            members(e, &structures, &mut reached);
        }
    }
    reached
}

/// Adds to `out` the members `e` reaches of values that may be structures.
fn members(e: &Expr, structures: &[&str], out: &mut Vec<String>) {
    if let Expr::Attr(base, attr) = e
        && may_be_structure(base, structures)
    {
        out.push(attr.clone());
    }
    for child in e.children() {
        members(child, structures, out);
    }
}

fn may_be_structure(base: &Expr, structures: &[&str]) -> bool {
    match base {
        Expr::Name(n) | Expr::Attr(_, n) => {
            (n.starts_with('_') && n != "_io") || structures.contains(&n.as_str())
        }
        Expr::Index(list, _) => may_be_structure(list, structures),
        // A method's result, a cast, a choice: not told apart by names.
        Expr::Method(..) | Expr::Cast(..) | Expr::Ternary(..) => true,
        _ => false,
    }
}
