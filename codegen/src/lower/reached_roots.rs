//! `_root` values that a type needs for instances of other values it reaches: Java's
//! `_root.constant_pool[i].name_as_str` in an attribute needs the constant pool, which the
//! constant's own instance takes from `_root`. `_root` is the same for every value of a file,
//! so the type reaching the instance takes it too, and passes it (see
//! `typeck::resolve::arguments`' `shared_root`).

use crate::expr::Expr;
use crate::model::*;
use crate::typeck::context::Context;
use crate::typeck::resolve::resolve;
use crate::typeck::typed::{Mode, Ty};

/// For each type, the `_root.x` expressions the instances it reaches in other values use.
pub fn reached_root_paths(schema: &Schema) -> Vec<Vec<Expr>> {
    let mut reached: Vec<Vec<Expr>> = vec![Vec::new(); schema.types.len()];
    // Each round adds what one more step of instances reaches; every round adds some path.
    loop {
        let mut added = false;
        for ty in 0..schema.types.len() {
            let mut pending = schema.types[ty].expressions();
            let mut found = Vec::new();
            while let Some(e) = pending.pop() {
                pending.extend(e.children());
                let Expr::Attr(base, attr) = e else {
                    continue;
                };
                let Some(other) = value_type(schema, ty, base) else {
                    continue;
                };
                if schema.file_root(other) != schema.file_root(ty) {
                    continue;
                }
                let def = &schema.types[other];
                let mut used: Vec<&Expr> = Vec::new();
                for instance in def.instances.iter().filter(|i| i.id == *attr) {
                    if let InstanceKind::Value { value, cond, .. } = &instance.kind {
                        used.extend([value].into_iter().chain(cond));
                    }
                }
                for field in def
                    .fields
                    .iter()
                    .filter(|f| f.id == *attr && f.from_instance)
                {
                    used.extend(field.expressions());
                }
                found.extend(used.into_iter().flat_map(root_names).map(root_path));
                found.extend(reached[other].iter().cloned());
            }
            for path in found {
                if !reached[ty].contains(&path) {
                    reached[ty].push(path);
                    added = true;
                }
            }
        }
        if !added {
            return reached;
        }
    }
}

/// `_root.name`.
fn root_path(name: String) -> Expr {
    Expr::Attr(Box::new(Expr::Name("_root".into())), name)
}

/// The names `e` reaches in `_root` (`x` of `_root.x.y`).
fn root_names(e: &Expr) -> Vec<String> {
    match e {
        Expr::Attr(base, attr) if matches!(base.as_ref(), Expr::Name(n) if n == "_root") => {
            vec![attr.clone()]
        }
        _ => e.children().into_iter().flat_map(root_names).collect(),
    }
}

/// The user type of the value `e` denotes in type `ty`, an element's for an index into a
/// list, before context parameters exist (`_root.x` is found in the root).
fn value_type(schema: &Schema, ty: usize, e: &Expr) -> Option<usize> {
    if let Expr::Index(list, _) = e {
        return match list_type(schema, ty, list)? {
            Ty::Array(elem) => user(&elem),
            _ => None,
        };
    }
    user(&list_type(schema, ty, e)?)
}

/// The type of `e` in `ty`, or of `_root.x…` in the file's root.
fn list_type(schema: &Schema, ty: usize, e: &Expr) -> Option<Ty> {
    let fields = schema.types[ty].fields.len();
    if let Ok(found) = resolve(&Context::new(schema, ty, Mode::Read, fields), e) {
        return Some(found.ty);
    }
    let path = e.strip_root()?;
    let root = schema.file_root(ty);
    let fields = schema.types[root].fields.len();
    let found = resolve(&Context::new(schema, root, Mode::Read, fields), &path).ok()?;
    Some(found.ty)
}

/// The user type of a value that may be absent or not.
fn user(ty: &Ty) -> Option<usize> {
    match ty {
        Ty::User(t) => Some(*t),
        Ty::Opt(inner) => user(inner),
        _ => None,
    }
}
