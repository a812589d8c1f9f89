//! Selectors and flags inferred from plain Kaitai schemas: a field whose one use is to choose
//! what a later field holds follows what that field holds. A switch's selector whose cases
//! each call for a type of their own (`section_type` of `body: switch-on: section_type`) is
//! derived from the case the value holds, as if it said
//! `-derived: '(body is local_file) ? 0x0403 : … : section_type'` (a value of a case no key
//! calls for keeps the stored selector); a `b1` flag whose one use is a later field's `if`
//! (`if: has_name`, `if: not is_short`, or `if: flags.has_name` of a held header) follows
//! that field's presence. Like sizes, nothing is inferred for a field used twice.

use super::members::member_mentions;
use super::{Scope, folded, is_candidate, mentions, while_present};
use crate::expr::{Expr, UnaryOp};
use crate::model::*;
use crate::repr::switch::switch_variants;
use crate::typeck::expr::Mode;

/// What a selector is to the switch it chooses for, and a flag to the field it gates.
const SELECTOR: &str = "selector";
const FLAG: &str = "presence flag";

/// Sets the derivations of the selectors and flags of every type (fields of the type, and
/// flags of a value it holds, see [`TypeDef::derived_members`]).
pub(super) fn infer_choices(schema: &mut Schema) {
    let mut own = Vec::new();
    let mut members = Vec::new();
    for ty in 0..schema.types.len() {
        let scope = Scope::new(schema, ty, Mode::Inspect, schema.types[ty].fields.len());
        for index in 0..schema.types[ty].fields.len() {
            let choice = selector(schema, ty, index).or_else(|| flag(schema, ty, index));
            if let Some((derived, inferred)) = choice.filter(|(d, _)| scope.int(d).is_ok()) {
                own.push((ty, index, derived, inferred));
            }
            members.extend(
                held_flags(schema, ty, index)
                    .into_iter()
                    .filter(|m| scope.int(&m.derived).is_ok())
                    .map(|m| (ty, m)),
            );
        }
    }
    for (ty, index, derived, inferred) in own {
        let field = &mut schema.types[ty].fields[index];
        field.derived = Some(derived);
        field.derived_inferred = Some(inferred);
    }
    for (ty, member) in members {
        schema.types[ty].derived_members.push(member);
    }
}

/// The derivation of field `index` of `ty` as the selector of a later switch: one key per
/// case type, each an integer.
fn selector(schema: &Schema, ty: usize, index: usize) -> Option<(Expr, Inferred)> {
    let def = &schema.types[ty];
    let field = &def.fields[index];
    if !is_candidate(field) || !used_once_here(schema, ty, &field.id) {
        return None;
    }
    let (user, switch) = def.fields[index + 1..]
        .iter()
        .find_map(|user| match &user.ty {
            FieldType::Switch(switch) if switch.on == Expr::Name(field.id.clone()) => {
                Some((user, switch))
            }
            _ => None,
        })?;
    if user.repeat != Repeat::None || !(field.cond.is_none() || field.cond == user.cond) {
        return None;
    }
    let chosen = switch_variants(schema, switch);
    let times_chosen = |variant| chosen.arms.iter().filter(|a| a.variant == variant).count();
    let mut derived = Expr::Name(field.id.clone());
    for arm in chosen.arms.iter().rev() {
        // The default case keeps the stored selector: it stands for every other value.
        let Some(key) = arm.key else { continue };
        let key = folded(schema, ty, key);
        if !matches!(key, Expr::Int(_)) || times_chosen(arm.variant) != 1 {
            return None;
        }
        let case = chosen.variants[arm.variant].name.clone();
        let holds = Expr::Holds(Box::new(Expr::Name(user.id.clone())), case);
        derived = Expr::Ternary(Box::new(holds), Box::new(key), Box::new(derived));
    }
    let inferred = Inferred {
        user: user.id.clone(),
        role: SELECTOR,
    };
    Some((derived, inferred))
}

/// The derivation of field `index` of `ty` as the flag of a later field's presence.
fn flag(schema: &Schema, ty: usize, index: usize) -> Option<(Expr, Inferred)> {
    let def = &schema.types[ty];
    let field = &def.fields[index];
    if !is_flag(field) || !used_once_here(schema, ty, &field.id) {
        return None;
    }
    let name = Expr::Name(field.id.clone());
    def.fields[index + 1..]
        .iter()
        .find_map(|user| Some((presence(user.cond.as_ref()?, &name, user)?, user)))
        .map(|(derived, user)| {
            let inferred = Inferred {
                user: user.id.clone(),
                role: FLAG,
            };
            (derived, inferred)
        })
}

/// The derivations of the flags of the value field `step` of `ty` holds whose one use is the
/// `if` of a later field of `ty` (`if: flags.has_name`).
fn held_flags(schema: &Schema, ty: usize, step: usize) -> Vec<DerivedMember> {
    let def = &schema.types[ty];
    let holder = &def.fields[step];
    let FieldType::User { ty: child, .. } = holder.ty else {
        return Vec::new();
    };
    if child == ty || holder.cond.is_some() || holder.repeat != Repeat::None {
        return Vec::new();
    }
    let child_def = &schema.types[child];
    (child_def.fields.iter().enumerate())
        .filter(|(_, field)| is_flag(field) && used_once_as_member(schema, child, &field.id))
        .filter_map(|(index, field)| {
            let target = Expr::Attr(Box::new(Expr::Name(holder.id.clone())), field.id.clone());
            let (derived, user) = def.fields[step + 1..]
                .iter()
                .find_map(|user| Some((presence(user.cond.as_ref()?, &target, user)?, user)))?;
            Some(DerivedMember {
                step,
                field: index,
                derived,
                inferred: Inferred {
                    user: user.id.clone(),
                    role: FLAG,
                },
            })
        })
        .collect()
}

/// `cond` (a field's `if`) as the presence of `user` when it is `flag` or `not flag`: the
/// flag's derivation, 1 where `user` is present and 0 where absent (or the reverse).
fn presence(cond: &Expr, flag: &Expr, user: &Field) -> Option<Expr> {
    let (on, off) = match cond {
        c if c == flag => (1, 0),
        Expr::Unary(UnaryOp::Not, c) if c.as_ref() == flag => (0, 1),
        _ => return None,
    };
    if user.repeat != Repeat::None || user.position.is_some() || user.from_instance {
        return None;
    }
    let present = Expr::Present(Box::new(Expr::Name(user.id.clone())));
    let derived = while_present(&present, Expr::Int(on), Expr::Int(off));
    Some(derived)
}

/// A `b1` field that may follow a value's presence.
fn is_flag(field: &Field) -> bool {
    matches!(
        field.ty,
        FieldType::Bits {
            width: 1,
            enum_idx: None,
            ..
        }
    ) && field.derived.is_none()
        && field.checksum.is_none()
        && !field.never_derived
        && !field.untrusted
        && field.cond.is_none()
        && field.repeat == Repeat::None
        && field.position.is_none()
        && !field.from_instance
        && !field.kept_as_read
}

/// True when the expressions of type `ty` name `name` once and no expression of the schema
/// reaches a member of that name (`_parent.name`, `header.name`).
fn used_once_here(schema: &Schema, ty: usize, name: &str) -> bool {
    let here: usize = (schema.types[ty].expressions().into_iter())
        .map(|e| mentions(e, name))
        .sum();
    here == 1 && member_uses(schema, name) == 0
}

/// True when the expressions of the schema reach `name` once, as a member, and those of
/// `child` (whose field it is) never by itself.
fn used_once_as_member(schema: &Schema, child: usize, name: &str) -> bool {
    let own: usize = (schema.types[child].expressions().into_iter())
        .map(|e| mentions(e, name))
        .sum();
    own == 0 && member_uses(schema, name) == 1
}

/// How often the expressions of the schema reach a member called `name`.
fn member_uses(schema: &Schema, name: &str) -> usize {
    (schema.types.iter())
        .flat_map(TypeDef::expressions)
        .map(|e| member_mentions(e, name))
        .sum()
}
