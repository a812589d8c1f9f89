//! Which value instances readers and writers use.

use std::collections::BTreeSet;

use super::*;
use crate::expr::Expr;

/// The expressions of a type that readers and writers evaluate whatever the value instances:
/// its fields', its endianness switch's and its look-aheads' positions.
pub fn read_and_written(def: &TypeDef) -> Vec<&Expr> {
    let mut exprs: Vec<&Expr> = def.fields.iter().flat_map(Field::expressions).collect();
    exprs.extend(def.endian_choice.as_ref().map(|c| &c.on));
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

/// The names readers and writers use, and the live value instances.
fn reach(schema: &Schema) -> (BTreeSet<&str>, BTreeSet<(usize, &str)>) {
    let mut pending: Vec<&Expr> = schema.types.iter().flat_map(read_and_written).collect();
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
