//! Derivations of a held value's fields (`header.len_image`) from its holder's content: the
//! most common layout of the gallery's formats, a header that gives the size of what follows
//! it (`data: size: header.len_image`). The field's one use in the whole schema is that size
//! or count, so it is derived in the holder (see [`TypeDef::derived_members`]), as
//! `header.len_image = data._sizeof`.

use super::{
    Context, folded, invert, is_candidate, measured_use, measuring_expressions, measuring_uses,
    resolve_int, while_present,
};
use crate::expr::Expr;
use crate::model::*;
use crate::typeck::typed::Mode;

/// Sets [`TypeDef::derived_members`] of every type whose later field is measured by a field
/// of a value it holds, where that is the field's one use.
pub(super) fn infer_members(schema: &mut Schema) {
    let mut found = Vec::new();
    for ty in 0..schema.types.len() {
        // Offsets and sizes of a root laid out by `-layout` are the layout's.
        if ty == 0 && schema.layout.is_some() {
            continue;
        }
        let scope = Context::new(schema, ty, Mode::Inspect, schema.types[ty].fields.len());
        for step in 0..schema.types[ty].fields.len() {
            for member in members_of(schema, ty, step) {
                if resolve_int(&scope, &member.derived).is_ok() {
                    found.push((ty, member));
                }
            }
        }
    }
    for (ty, member) in found {
        schema.types[ty].derived_members.push(member);
    }
}

/// The derivations of the fields of the value field `step` of `ty` holds.
fn members_of(schema: &Schema, ty: usize, step: usize) -> Vec<DerivedMember> {
    let def = &schema.types[ty];
    let Some((child, fields)) = held_fields(schema, ty, step) else {
        return Vec::new();
    };
    fields
        .filter(|(_, field, _)| is_candidate(field) && field.cond.is_none())
        .filter(|(_, field, _)| uses(schema, child, &field.id) == 1)
        .filter_map(|(index, _, target)| {
            let (user, role, derived) = def.fields.iter().enumerate().find_map(|(u, user)| {
                let (expr, role, measure) = measured_use(user).filter(|_| u != step)?;
                let expr = folded(schema, ty, expr);
                Some((user, role, invert(&expr, &target, measure)?))
            })?;
            let derived = match &user.cond {
                None => derived,
                Some(cond) => while_present(cond, derived, target),
            };
            Some(DerivedMember {
                step,
                field: index,
                derived,
                origin: MemberOrigin::Inferred(Inferred {
                    user: user.id.clone(),
                    role,
                }),
            })
        })
        .collect()
}

/// The type of the value field `step` of type `ty` holds, when it holds one value of another
/// user type in sequence, stored as read: a holder whose fields may be derived from its content.
pub(super) fn plain_holder(schema: &Schema, ty: usize, step: usize) -> Option<usize> {
    let holder = &schema.types[ty].fields[step];
    let FieldType::User { ty: child, .. } = holder.ty else {
        return None;
    };
    let plain = holder.cond.is_none()
        && holder.repeat == Repeat::None
        && holder.position.is_none()
        && !holder.from_instance
        && !holder.kept_as_read
        && holder.decode.is_none();
    (plain && child != ty).then_some(child)
}

/// The type of the value field `step` of `ty` holds (see [`plain_holder`]) and its fields,
/// each with its index and its name as a member of the holder (`header.len`).
pub(super) fn held_fields(
    schema: &Schema,
    ty: usize,
    step: usize,
) -> Option<(usize, impl Iterator<Item = (usize, &Field, Expr)>)> {
    let child = plain_holder(schema, ty, step)?;
    let holder = &schema.types[ty].fields[step].id;
    let fields = schema.types[child].fields.iter().enumerate();
    let member = |field: &Field| Expr::Attr(Box::new(Expr::Name(holder.clone())), field.id.clone());
    Some((
        child,
        fields.map(move |(index, field)| (index, field, member(field))),
    ))
}

/// How often the measuring expressions of every type name `name` as a member of a value, and
/// those of `child` (whose field it is) name it: the member use must be the only one.
fn uses(schema: &Schema, child: usize, name: &str) -> usize {
    let as_member: usize = (schema.types.iter())
        .flat_map(measuring_expressions)
        .map(|e| member_mentions(e, name))
        .sum();
    as_member + measuring_uses(&schema.types[child], name)
}

/// How often `e` reaches a member called `name` (`x.name`, `_parent.name`).
pub(super) fn member_mentions(e: &Expr, name: &str) -> usize {
    let own = usize::from(matches!(e, Expr::Attr(_, attr) if attr == name));
    own + (e.children().into_iter())
        .map(|c| member_mentions(c, name))
        .sum::<usize>()
}
