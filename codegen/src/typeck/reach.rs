//! Declared derivations that reach outside their type: `_parent` (a ZIP local header's CRC-32
//! covers `_parent.body`, the entry's data after the header) and `_root` (the end record's
//! size of the central directory, `_root.sections.sum(…)`). A value has no pointer back to
//! what holds it, so such a derivation is computed where the values it uses are: by the one
//! type that holds the value, as a derived member of it ([`TypeDef::derived_members`]: the
//! expression in the holder's words, `crc32(body)` for `crc32(_parent.body)`, and the type's
//! own names through the holding field, `header.compression_method`), or by the root, once,
//! for every value of the type ([`Schema::rooted`]). Either way the field's own derivation is
//! gone ([`Field::derived_elsewhere`]), so that nothing infers another. Each derivation that
//! cannot be placed is an error at its `-derived`.

use crate::error::{Located, YamlPath};
use crate::expr::Expr;
use crate::model::*;

/// Moves every declared derivation that uses `_parent` or `_root` to where it is computed;
/// the errors of those that cannot be.
pub(crate) fn place(schema: &mut Schema) -> Vec<Located> {
    let mut errors = Vec::new();
    let mut members = Vec::new();
    let mut rooted = Vec::new();
    for ty in 0..schema.types.len() {
        for index in 0..schema.types[ty].fields.len() {
            let field = &schema.types[ty].fields[index];
            let Some(derived) = &field.derived else {
                continue;
            };
            let parent = derived.mentions("_parent");
            // In the root, `_root.x` is its own `x`.
            let root = derived.mentions("_root") && !schema.is_file_root(ty);
            if !parent && !root {
                continue;
            }
            let at = field.at.key("-derived");
            let placed = match (plain(field), parent) {
                (Err(why), _) => Err(why),
                (Ok(()), true) => in_holder(schema, ty, index, derived, &at)
                    .map(|(holder, member)| members.push((holder, member))),
                (Ok(()), false) => {
                    in_root(schema, ty, index, derived, &at).map(|placed| rooted.push(placed))
                }
            };
            if let Err(message) = placed {
                errors.push(Located::new(&at, message));
            }
            let field = &mut schema.types[ty].fields[index];
            field.derived = None;
            field.derived_elsewhere = true;
        }
    }
    for (holder, member) in members {
        schema.types[holder].derived_members.push(member);
    }
    schema.rooted = rooted;
    errors
}

/// A derivation computed elsewhere sets one value, always there, read in sequence.
fn plain(field: &Field) -> Result<(), String> {
    if field.untrusted {
        return Err(
            "`-untrusted` with a derivation that uses `_parent` or `_root` is not supported".into(),
        );
    }
    let plain = field.repeat == Repeat::None
        && field.cond.is_none()
        && field.position.is_none()
        && !field.from_instance;
    match plain {
        true => Ok(()),
        false => Err(
            "a derivation that uses `_parent` or `_root` sets a field read in sequence, once and always (not a list, a conditional field or an instance)"
                .into(),
        ),
    }
}

/// The derived member its one holder computes for field `index` of `ty`, declared as
/// `derived` (which uses `_parent`), with the holder's type.
fn in_holder(
    schema: &Schema,
    ty: usize,
    index: usize,
    derived: &Expr,
    at: &YamlPath,
) -> Result<(usize, DerivedMember), String> {
    let name = &schema.types[ty].id;
    let holders: Vec<(usize, usize)> = (schema.types.iter().enumerate())
        .flat_map(|(holder, def)| {
            let holding = def.fields.iter().enumerate();
            holding
                .filter(|(_, f)| f.ty.user_types().contains(&ty))
                .map(move |(step, _)| (holder, step))
        })
        .collect();
    let (holder, step) = match holders.as_slice() {
        [] => {
            return Err(format!(
                "`_parent` in a derivation of `{name}`: no type holds a value of it, so it has no parent"
            ));
        }
        [one] => *one,
        several => {
            let places: Vec<String> = (several.iter())
                .map(|&(h, s)| format!("`{}.{}`", schema.types[h].id, schema.types[h].fields[s].id))
                .collect();
            return Err(format!(
                "`_parent` in a derivation of `{name}` needs the one field that holds its values, which computes it; {} hold them",
                places.join(", ")
            ));
        }
    };
    let step_field = &schema.types[holder].fields[step];
    let held_plainly = matches!(step_field.ty, FieldType::User { ty: held, .. } if held == ty)
        && step_field.repeat == Repeat::None
        && step_field.cond.is_none()
        && step_field.position.is_none()
        && !step_field.from_instance
        && !step_field.parse_instance
        && step_field.parent.is_none();
    if !held_plainly {
        return Err(format!(
            "`_parent` in a derivation of `{name}` needs it held by a field of one value, always there, read in sequence, which computes it; `{}.{}` is not (a list, a switch, a condition, an instance, or `parent:`)",
            schema.types[holder].id, step_field.id
        ));
    }
    let rewritten = through_holder(derived, &step_field.id)?;
    if rewritten.mentions("_parent") {
        return Err(
            "`_parent._parent` in a derivation is not supported: its holder computes it, and has no holder of its own to ask"
                .into(),
        );
    }
    if rewritten.mentions("_root") && !schema.is_file_root(holder) {
        return Err("a derivation that uses both `_parent` and `_root` is not supported".into());
    }
    let member = DerivedMember {
        step,
        field: index,
        derived: rewritten,
        origin: MemberOrigin::Declared(at.clone()),
    };
    Ok((holder, member))
}

/// `e`, a derivation of a value held by the holder's field `step`, in the holder's words:
/// `_parent.x` is `x`, and the value's own names are reached through `step`.
fn through_holder(e: &Expr, step: &str) -> Result<Expr, String> {
    match e {
        Expr::Attr(base, attr) if matches!(base.as_ref(), Expr::Name(n) if n == "_parent") => {
            Ok(Expr::Name(attr.clone()))
        }
        Expr::Name(name) => match name.as_str() {
            "_parent" => Err(
                "`_parent` as a whole value is not supported: use one of its fields (`_parent.body`)"
                    .into(),
            ),
            "_root" | "_" => Ok(e.clone()),
            "_sizeof" => Ok(Expr::attr_chain(Expr::Name(step.to_owned()), &["_sizeof"])),
            other if other.starts_with('_') => Err(format!(
                "`{other}` in a derivation that uses `_parent` is not supported: its holder computes it"
            )),
            _ => Ok(Expr::attr_chain(Expr::Name(step.to_owned()), &[name])),
        },
        _ => each_child(e, |child| through_holder(child, step)),
    }
}

/// The derivation the root computes for field `index` of `ty`, declared as `derived` (which
/// uses `_root`).
fn in_root(
    schema: &Schema,
    ty: usize,
    index: usize,
    derived: &Expr,
    at: &YamlPath,
) -> Result<RootedDerived, String> {
    if schema.file_root(ty) != 0 {
        return Err(
            "`_root` in a derivation of a type of an imported schema is not supported: only the types of the schema compiled are computed by its root"
                .into(),
        );
    }
    if !schema.holders(0).is_empty() {
        return Err(format!(
            "`_root` in a derivation is not supported where the root type `{}` is held by another value too",
            schema.types[0].id
        ));
    }
    Ok(RootedDerived {
        ty,
        field: index,
        derived: through_root(derived, &schema.types[ty].id)?,
        at: at.clone(),
    })
}

/// `e`, a derivation of a value of type `name`, in the root's words: `_root.x` is `x`. It may
/// use nothing of the value itself, since the root computes it once for every such value.
fn through_root(e: &Expr, name: &str) -> Result<Expr, String> {
    match e {
        Expr::Attr(base, attr) if matches!(base.as_ref(), Expr::Name(n) if n == "_root") => {
            Ok(Expr::Name(attr.clone()))
        }
        Expr::Name(n) if n == "_" => Ok(e.clone()),
        Expr::Name(n) => Err(format!(
            "a derivation that uses `_root` is computed once, by the root, for every value of `{name}`: it cannot use `{n}`, which each value has its own of"
        )),
        _ => each_child(e, |child| through_root(child, name)),
    }
}

/// `e` with each expression directly inside it replaced by `f` of it; the first error.
fn each_child(e: &Expr, f: impl Fn(&Expr) -> Result<Expr, String>) -> Result<Expr, String> {
    let mut failed = None;
    let mapped = e.map_children(&mut |child| match f(child) {
        Ok(mapped) => mapped,
        Err(message) => {
            failed.get_or_insert(message);
            child.clone()
        }
    });
    failed.map_or(Ok(mapped), Err)
}
