//! Which value instances readers and writers use.

use std::collections::BTreeSet;

use super::*;
use crate::expr::Expr;

/// The expressions of a type that readers and writers evaluate whatever the value instances:
/// its fields', its endianness switch's and its look-aheads' positions.
pub fn read_and_written(def: &TypeDef) -> Vec<&Expr> {
    let mut exprs: Vec<&Expr> = def.fields.iter().flat_map(Field::expressions).collect();
    exprs.extend(type_expressions(def));
    exprs
}

/// The expressions of a type beside its fields': its endianness switch's and its
/// look-aheads' positions.
fn type_expressions(def: &TypeDef) -> Vec<&Expr> {
    let mut exprs: Vec<&Expr> = def.endian_choice.iter().map(|c| &c.on).collect();
    for instance in &def.instances {
        if let InstanceKind::Peek { pos, cond, .. } = &instance.kind {
            exprs.extend([pos].into_iter().chain(cond));
        }
    }
    exprs
}

/// The value instances readers and writers use, as `(type, id)`: those the expressions of
/// `read_and_written` name, directly or through other instances (by name, in any type:
/// `body.total` uses `total` of whatever `body` is). The others are only ever computed from
/// the finished value, as Kaitai computes them lazily.
pub fn live_instances(schema: &Schema) -> BTreeSet<(usize, &str)> {
    reach(schema).1
}

/// The names (of fields, instances, parameters) that the expressions readers and writers
/// evaluate use, directly or through live value instances, in any type.
pub fn names_read_and_written(schema: &Schema) -> BTreeSet<&str> {
    reach(schema).0
}

/// [`names_read_and_written`] leaving out the stream (`io:`) of the fields `held(type, index)`
/// names: parse instances read on their own, whose failure is their own, so that a value
/// only such a stream is taken from may be read on its own too (ext2's `body` of a block,
/// which only `as_dir`, an instance, reads from). Their other expressions (positions, sizes,
/// arguments) still count: what they use is typed as always there.
pub fn names_used_beside(schema: &Schema, held: impl Fn(usize, usize) -> bool) -> BTreeSet<&str> {
    let mut pending = Vec::new();
    for (ty, def) in schema.types.iter().enumerate() {
        for (index, field) in def.fields.iter().enumerate() {
            let stream = match (&field.stream, held(ty, index)) {
                (Stream::Of(stream), true) => Some(stream),
                _ => None,
            };
            let others = field.expressions().into_iter();
            pending.extend(others.filter(|e| stream.is_none_or(|s| !std::ptr::eq(*e, s))));
        }
        pending.extend(type_expressions(def));
    }
    reach_from(schema, pending).0
}

/// The names readers and writers use, and the live value instances.
fn reach(schema: &Schema) -> (BTreeSet<&str>, BTreeSet<(usize, &str)>) {
    reach_from(
        schema,
        schema.types.iter().flat_map(read_and_written).collect(),
    )
}

/// The names `pending` uses, directly or through value instances, and those instances.
fn reach_from<'s>(
    schema: &'s Schema,
    mut pending: Vec<&'s Expr>,
) -> (BTreeSet<&'s str>, BTreeSet<(usize, &'s str)>) {
    let mut used: BTreeSet<&str> = BTreeSet::new();
    let mut live = BTreeSet::new();
    while !pending.is_empty() {
        for e in pending.drain(..) {
            visit(e, &mut |sub| {
                if let Expr::Name(n) | Expr::Attr(_, n) = sub {
                    used.insert(n.as_str());
                }
            });
        }
        for (ty, def) in schema.types.iter().enumerate() {
            for instance in &def.instances {
                if let InstanceKind::Value { value, cond, .. } = &instance.kind
                    && used.contains(instance.id.as_str())
                    && live.insert((ty, instance.id.as_str()))
                {
                    pending.extend([value].into_iter().chain(cond));
                }
            }
        }
    }
    (used, live)
}

/// Calls `f` on `e` and every expression inside it.
fn visit<'e>(e: &'e Expr, f: &mut impl FnMut(&'e Expr)) {
    f(e);
    for child in e.children() {
        visit(child, f);
    }
}
