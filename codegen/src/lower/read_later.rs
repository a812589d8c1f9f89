//! Values whose instances use values read after them. Kaitai evaluates instances lazily, so
//! ELF's section headers may name their strings (read after them, at a position one of them
//! gives) and a PE symbol its section (read after the header that holds the symbols). An
//! owned tree is read in order: such a value is read in place with those arguments empty, its
//! instances failing on their own, and once more, from where it started, after the last value
//! they use ([`Field::read_later`]). The instance a value's instances use is moved after the
//! values its own position needs, when only those instances use it.

use super::context::{used_lazily, uses_param};
use super::names_reaching;
use crate::expr::Expr;
use crate::model::*;

/// Moves instances after what their positions need, then marks the fields read later.
pub fn read_later(schema: &mut Schema) {
    for ty in 0..schema.types.len() {
        let in_root = schema.is_file_root(ty);
        move_instances_after_their_inputs(schema, ty, in_root);
        mark_fields_read_later(schema, ty, in_root);
    }
}

/// The arguments of `field`'s types that only instances use and that pass a value from its
/// holder's context (`_root.header.names._io`), as (type, parameter, argument).
fn lazy_context_args(schema: &Schema, field: &Field) -> Vec<(usize, String, Expr)> {
    schema
        .params_given(field, |_| true)
        .into_iter()
        .filter(|(used, param, _)| {
            param.id.starts_with('_')
                && used_lazily(schema, *used, &param.id, &mut Vec::new())
                && !used_eagerly(schema, *used, &param.id, &mut Vec::new())
        })
        .map(|(used, param, arg)| (used, param.id.clone(), arg.clone()))
        .collect()
}

/// True when reading a value of `ty` in sequence uses its parameter `param`, directly, through
/// value instances or through the types it passes it to: that reading cannot wait.
fn used_eagerly(schema: &Schema, ty: usize, param: &str, seen: &mut Vec<(usize, String)>) -> bool {
    if seen.contains(&(ty, param.to_owned())) {
        return false;
    }
    seen.push((ty, param.to_owned()));
    let def = &schema.types[ty];
    // The value instances that use it, directly or through others.
    let mut names: Vec<&str> = Vec::new();
    for instance in &def.instances {
        if let InstanceKind::Value { value, cond, .. } = &instance.kind
            && [value]
                .into_iter()
                .chain(cond)
                .any(|e| uses_param(schema, ty, e, param))
        {
            names.extend(names_reaching(&def.instances, &instance.id, false));
        }
    }
    let mentioned =
        |e: &Expr| uses_param(schema, ty, e, param) || names.iter().any(|n| e.mentions(n));
    def.fields
        .iter()
        .filter(|f| f.position.is_none())
        .any(|field| {
            let mut exprs = field.checked_expressions();
            if let Repeat::ForEach(list) = &field.repeat {
                exprs.push(list);
            }
            exprs.into_iter().any(mentioned)
                || schema
                    .params_given(field, mentioned)
                    .into_iter()
                    .any(|(used, p, _)| used_eagerly(schema, used, &p.id, seen))
        })
}

/// The expressions of `field` that decide how it is read, lazily used context arguments
/// left out.
fn eager_expressions(schema: &Schema, field: &Field) -> Vec<Expr> {
    let lazy = lazy_context_args(schema, field);
    let mut eager = field.clone();
    eager.ty.for_each_user_mut(&mut |used, args| {
        let params = &schema.types[used].params;
        for (param, arg) in params.iter().zip(args.iter_mut()) {
            if lazy.iter().any(|(t, p, _)| *t == used && *p == param.id) {
                *arg = Expr::Bool(false);
            }
        }
    });
    eager.expressions().into_iter().cloned().collect()
}

/// The indexes of the fields of `def` that `e` uses, directly or through value instances.
fn fields_used(def: &TypeDef, e: &Expr, in_root: bool) -> Vec<usize> {
    (0..def.fields.len())
        .filter(|&j| {
            names_reaching(&def.instances, &def.fields[j].id, in_root)
                .iter()
                .any(|n| e.mentions_own(n, in_root))
        })
        .collect()
}

/// Moves each instance whose own expressions (its position, size) use a field after it to
/// just after the last of them, when the fields in between use it only in lazily used
/// context arguments.
fn move_instances_after_their_inputs(schema: &mut Schema, ty: usize, in_root: bool) {
    // Each move puts one instance after its inputs; a field moves at most once per round.
    for _ in 0..schema.types[ty].fields.len() {
        let def = &schema.types[ty];
        let movable = (0..def.fields.len()).find_map(|g| {
            let instance = &def.fields[g];
            if !instance.from_instance {
                return None;
            }
            let last = eager_expressions(schema, instance)
                .iter()
                .flat_map(|e| fields_used(def, e, in_root))
                .max()
                .filter(|&d| d > g)?;
            let names = names_reaching(&def.instances, &instance.id, in_root);
            let only_lazy = def.fields[g + 1..=last].iter().all(|f| {
                !eager_expressions(schema, f)
                    .iter()
                    .any(|e| names.iter().any(|n| e.mentions_own(n, in_root)))
            });
            only_lazy.then_some((g, last))
        });
        let Some((from, last)) = movable else {
            return;
        };
        let fields = &mut schema.types[ty].fields;
        let moved = fields.remove(from);
        fields.insert(last, moved);
    }
}

/// Marks [`Field::read_later`] the fields whose lazily used context arguments use fields
/// after them, when every such parameter has an empty value (not a single structure).
fn mark_fields_read_later(schema: &mut Schema, ty: usize, in_root: bool) {
    let mut marked = Vec::new();
    let def = &schema.types[ty];
    'fields: for (i, field) in def.fields.iter().enumerate() {
        let mut last = None;
        let mut empty_first = Vec::new();
        for (used, param, arg) in lazy_context_args(schema, field) {
            let Some(d) = fields_used(def, &arg, in_root).into_iter().max() else {
                continue;
            };
            if d <= i {
                continue;
            }
            let has_empty = schema.types[used]
                .params
                .iter()
                .find(|p| p.id == param)
                .is_some_and(|p| !matches!(p.ty, ParamType::User(_) | ParamType::AnyStruct));
            if !has_empty {
                continue 'fields;
            }
            last = last.max(Some(d));
            empty_first.push((used, param));
        }
        if let Some(d) = last {
            let after = def.fields[d].id.clone();
            marked.push((i, ReadLater { after, empty_first }));
        }
    }
    for (i, later) in marked {
        schema.types[ty].fields[i].read_later = Some(later);
    }
}
