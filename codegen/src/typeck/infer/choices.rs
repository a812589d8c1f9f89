//! Selectors and flags inferred from plain Kaitai schemas: a field whose one use is to choose
//! what a later field holds follows what that field holds. A switch's selector whose cases
//! each call for a type of their own (`section_type` of `body: switch-on: section_type`) is
//! derived from the case the value holds, as if it said
//! `-derived: '(body is local_file) ? 0x0403 : … : section_type'` (a value of a case no key
//! calls for keeps the stored selector; keys may be values of an enum, and the selector a value
//! instance naming the field, RIFF's `chunk_id: chunk.id`, a held value's field derived in its
//! holder); a `b1` flag whose one use is a later field's `if`
//! (`if: has_name`, `if: not is_short`, or `if: flags.has_name` of a held header) follows
//! that field's presence. Like sizes, nothing is inferred for a field used twice.

use super::members::{held_fields, member_mentions, plain_holder};
use super::{Context, folded, is_candidate, mentions, resolve_int, while_present};
use crate::expr::{Expr, UnaryOp};
use crate::model::switch_variants;
use crate::model::*;
use crate::typeck::typed::Mode;

/// What a selector is to the switch it chooses for, and a flag to the field it gates.
const SELECTOR: &str = "selector";
const FLAG: &str = "presence flag";

/// Sets the derivations of the selectors and flags of every type (fields of the type, and
/// those of a value it holds, see [`TypeDef::derived_members`]).
pub(super) fn infer_choices(schema: &mut Schema) {
    let mut own = Vec::new();
    let mut members = Vec::new();
    for ty in 0..schema.types.len() {
        let scope = Context::new(schema, ty, Mode::Inspect, schema.types[ty].fields.len());
        let compiles = |derived: &Expr| resolve_int(&scope, derived).is_ok();
        for index in 0..schema.types[ty].fields.len() {
            if let Some((derived, inferred)) = flag(schema, ty, index).filter(|(d, _)| compiles(d))
            {
                own.push((ty, index, derived, inferred));
            }
            members.extend(
                (held_flags(schema, ty, index).into_iter())
                    .filter(|m| compiles(&m.derived))
                    .map(|m| (ty, m)),
            );
            match selector(schema, ty, index) {
                Some((Target::Own(field), derived, inferred)) if compiles(&derived) => {
                    own.push((ty, field, derived, inferred));
                }
                Some((Target::Member { step, field }, derived, inferred)) if compiles(&derived) => {
                    let member = DerivedMember {
                        step,
                        field,
                        derived,
                        origin: MemberOrigin::Inferred(inferred),
                    };
                    members.push((ty, member));
                }
                _ => {}
            }
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

/// The field a selector names: one of its type, directly or through a value instance
/// (`chunk_id: value: chunk.id`), or one of a value the type holds (`chunk.id`).
enum Target {
    Own(usize),
    Member { step: usize, field: usize },
}

/// The selector of the switch field `index` of `ty`, when its keys (integers, or values of an
/// enum) each call for a case type of their own and its one use is that switch: the field it
/// is and its derivation from the case held.
fn selector(schema: &Schema, ty: usize, index: usize) -> Option<(Target, Expr, Inferred)> {
    let def = &schema.types[ty];
    let user = &def.fields[index];
    let FieldType::Switch(switch) = &user.ty else {
        return None;
    };
    if user.repeat != Repeat::None {
        return None;
    }
    let (target, stored) = selected_field(schema, ty, &switch.on)?;
    let chosen = switch_variants(schema, switch);
    let times_chosen = |variant| chosen.arms.iter().filter(|a| a.variant == variant).count();
    let mut derived = stored;
    for arm in chosen.arms.iter().rev() {
        // The default case keeps the stored selector: it stands for every other value.
        let Some(key) = arm.key else { continue };
        let key = integer_key(schema, ty, key)?;
        if times_chosen(arm.variant) != 1 {
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
    Some((target, derived, inferred))
}

/// The field `on` (a switch's selector in `ty`) names, when that is its one use, and the
/// selector's stored value as an integer.
fn selected_field(schema: &Schema, ty: usize, on: &Expr) -> Option<(Target, Expr)> {
    let def = &schema.types[ty];
    let Expr::Name(name) = on else { return None };
    if !used_once_here(schema, ty, name) {
        return None;
    }
    let aliased = def.instances.iter().find_map(|i| match &i.kind {
        InstanceKind::Value {
            value, cond: None, ..
        } if i.id == *name => Some(value),
        _ => None,
    });
    let stored = match aliased {
        Some(value) => value,
        None => on,
    };
    match stored {
        Expr::Name(name) => {
            let index = def.fields.iter().position(|f| f.id == *name)?;
            let field = &def.fields[index];
            // Through an alias, the field's one use is the alias.
            let once = aliased.is_none() || used_once_here(schema, ty, name);
            (is_candidate(field) && field.cond.is_none() && once)
                .then(|| (Target::Own(index), stored.clone()))
        }
        Expr::Attr(base, name) => {
            let Expr::Name(holder) = base.as_ref() else {
                return None;
            };
            let step = def.fields.iter().position(|f| f.id == *holder)?;
            let child = plain_holder(schema, ty, step)?;
            let field = schema.types[child]
                .fields
                .iter()
                .position(|f| f.id == *name)?;
            let once = used_once_as_member(schema, (ty, step), child, name);
            let plain = is_candidate(&schema.types[child].fields[field]);
            (once && plain && schema.types[child].fields[field].cond.is_none())
                .then(|| (Target::Member { step, field }, stored.clone()))
        }
        _ => None,
    }
}

/// A case key as the integer it stands for: an integer, or a value of an enum.
fn integer_key(schema: &Schema, ty: usize, key: &Expr) -> Option<Expr> {
    match folded(schema, ty, key) {
        key @ Expr::Int(_) => Some(key),
        Expr::EnumLit { enum_name, variant } => {
            let (_, variant) = schema.resolve_enum_value(ty, &enum_name, &variant).ok()?;
            Some(Expr::Int(variant.value.into()))
        }
        _ => None,
    }
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
    let Some((child, fields)) = held_fields(schema, ty, step) else {
        return Vec::new();
    };
    fields
        .filter(|(_, field, _)| {
            is_flag(field) && used_once_as_member(schema, (ty, step), child, &field.id)
        })
        .filter_map(|(index, _, target)| {
            let (derived, user) = def.fields[step + 1..]
                .iter()
                .find_map(|user| Some((presence(user.cond.as_ref()?, &target, user)?, user)))?;
            Some(DerivedMember {
                step,
                field: index,
                derived,
                origin: MemberOrigin::Inferred(Inferred {
                    user: user.id.clone(),
                    role: FLAG,
                }),
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

/// True when the member `name` of the value field `step` of `ty` holds is reached once, by
/// `ty`'s expressions (`holder.name`), and otherwise only as a member of other holders' own
/// values (`chunk.id` of another type); `child`'s own expressions never name it.
fn used_once_as_member(
    schema: &Schema,
    (ty, step): (usize, usize),
    child: usize,
    name: &str,
) -> bool {
    let own: usize = (schema.types[child].expressions().into_iter())
        .map(|e| mentions(e, name))
        .sum();
    let holder = schema.types[ty].fields[step].id.as_str();
    let mut here = 0;
    for (owner, def) in schema.types.iter().enumerate() {
        for e in def.expressions() {
            for base in member_bases(e, name) {
                match base {
                    Expr::Name(h) if owner == ty && h == holder => here += 1,
                    // A value of the type's own, or its stream: not this holder's.
                    Expr::Name(h) if h == "_io" || def.fields.iter().any(|f| f.id == *h) => {}
                    // `_parent.x`, a parameter, an instance, an element: it may be this one.
                    _ => return false,
                }
            }
        }
    }
    own == 0 && here == 1
}

/// The values whose member `name` `e` reaches (`base` of each `base.name`).
fn member_bases<'e>(e: &'e Expr, name: &str) -> Vec<&'e Expr> {
    let mut found = Vec::new();
    if let Expr::Attr(base, attr) = e
        && attr == name
    {
        found.push(base.as_ref());
    }
    for child in e.children() {
        found.extend(member_bases(child, name));
    }
    found
}

/// How often the expressions of the schema reach a member called `name`.
fn member_uses(schema: &Schema, name: &str) -> usize {
    (schema.types.iter())
        .flat_map(TypeDef::expressions)
        .map(|e| member_mentions(e, name))
        .sum()
}
