//! `_parent` and `_root` in an owned tree: a value has no pointer to the values that hold it,
//! so what a type reaches through them becomes an implicit parameter of that type, which every
//! type that holds it passes down, computed in its own scope.
//!
//! `_parent.len` in type `entry` becomes the parameter `_parent_len` of `entry`; every field of
//! type `entry` passes its owner's `len`. `_root.header` becomes `_root_header`, passed from
//! the root down through every type in between (each gets the parameter too).
//! `_parent._parent.x` becomes `_parent__parent_x`, passed as the owner's own `_parent.x`. The
//! parameters' names start with `_`, which no schema name does, so they clash with nothing.
//!
//! Readers and writers both get these parameters from the value that holds them, so a writer
//! computes them from the (possibly edited) tree it writes, never from stale copies.

use crate::error::{Located, YamlPath};
use crate::expr::Expr;
use crate::model::*;
use crate::names::IS_BE;
use crate::typeck::context::Context;
use crate::typeck::resolve::resolve;
use crate::typeck::typed::{Mode, Ty};

/// The context path an expression of `ty` needs for `path`: a `_root` path is cut to its
/// first name unless `ty` is read inside that root field ([`RootPlace`]); in the root field's
/// own type it is none, the type having the names itself.
fn needed_path<'p>(schema: &Schema, ty: usize, path: &'p [&'p str]) -> Option<&'p [&'p str]> {
    match (path, &schema.types[ty].root_place) {
        (["_root", _], _) | (["_parent", ..], _) => Some(path),
        (["_root", f, ..], Some(RootPlace::Is(own))) if f == own => None,
        (["_root", f, ..], Some(RootPlace::Inside(within))) if f == within => Some(path),
        // A stream is passed as one (`_root.names._io`), not as the value holding it.
        (["_root", .., "_io"], _) => Some(path),
        (["_root", ..], _) => Some(&path[..2]),
        _ => Some(path),
    }
}

/// Finds the [`RootPlace`] of every type: the types of root fields held by that field and
/// nothing else, then the types all of whose holders are inside the same field (recursive
/// types included).
pub fn find_root_places(schema: &mut Schema) {
    // A root held by another value (recursion) is not the only `_root`.
    if !schema.holders(0).is_empty() {
        return;
    }
    let mut places: Vec<Option<RootPlace>> = vec![None; schema.types.len()];
    for ty in 1..schema.types.len() {
        let [(0, field)] = holding_fields(schema, ty)[..] else {
            continue;
        };
        let field = &schema.types[0].fields[field];
        if field.parent.is_some() {
            continue;
        }
        places[ty] = Some(RootPlace::Is(field.id.clone()));
        // The types reachable from it, less those held from outside, until none is.
        let mut inside: Vec<bool> = (0..schema.types.len())
            .map(|t| t != ty && t != 0 && schema.reaches(ty, t))
            .collect();
        inside[ty] = true;
        while let Some(outside) = (0..schema.types.len()).find(|&t| {
            t != ty
                && inside[t]
                && holding_fields(schema, t).iter().any(|&(owner, field)| {
                    !inside[owner] || schema.types[owner].fields[field].parent.is_some()
                })
        }) {
            inside[outside] = false;
        }
        for t in (0..schema.types.len()).filter(|&t| t != ty && inside[t]) {
            places[t] = Some(RootPlace::Inside(field.id.clone()));
        }
    }
    for (def, place) in schema.types.iter_mut().zip(places) {
        def.root_place = place;
    }
}

/// The expression that computes `path` in the scope of `owner`, for its field `field` holding
/// the value: one `_parent` less, or `_root.x` unchanged (just `x` in the root itself). With
/// `parent: e`, the value's `_parent` is `e`; with `parent: false` it has none, and `None`
/// says so.
fn path_in_owner(schema: &Schema, path: &[&str], owner: usize, field: &Field) -> Option<Expr> {
    let attrs = Expr::attr_chain;
    let name = |n: &str| Expr::Name(n.to_owned());
    Some(match (path, &field.parent) {
        (["_parent", ..], Some(Expr::Bool(false))) => return None,
        (["_parent", rest @ ..], Some(parent)) => attrs(parent.clone(), rest),
        (["_parent", first, rest @ ..], None) => attrs(name(first), rest),
        // Unless the root type holds values of itself: theirs is the file's root.
        (["_root", first], _) if schema.is_file_root(owner) && !is_held_root(schema, owner) => {
            name(first)
        }
        // The root field's own type has the names the rest of the path takes.
        (["_root", first, next, rest @ ..], _)
            if schema.types[owner].root_place == Some(RootPlace::Is((*first).to_owned())) =>
        {
            attrs(name(next), rest)
        }
        ([first, rest @ ..], _) => attrs(name(first), rest),
        ([], _) => unreachable!("a context path is never empty"),
    })
}

/// True when `ty` is the root type and values of it are held by others (recursion): `_root`
/// in such a value is not the value itself.
fn is_held_root(schema: &Schema, ty: usize) -> bool {
    ty == 0 && !schema.holders(0).is_empty()
}

/// The fields that hold a value of `ty`, as (type, field index), in the types of its file.
fn holding_fields(schema: &Schema, ty: usize) -> Vec<(usize, usize)> {
    schema
        .holders(ty)
        .into_iter()
        .flat_map(|owner| {
            let fields = &schema.types[owner].fields;
            (0..fields.len())
                .filter(move |&i| fields[i].ty.user_types().contains(&ty))
                .map(move |i| (owner, i))
        })
        .collect()
}

/// Adds the implicit parameters every type needs for its `_parent` and `_root` references, and
/// the arguments that pass them wherever the type is used.
pub fn add_context_params(schema: &mut Schema) -> Result<(), Located> {
    let reached = super::reached_roots::reached_root_paths(schema);
    let all = schema
        .types
        .iter()
        .zip(&reached)
        .map(|(def, reached)| def.expressions().into_iter().chain(reached).collect())
        .collect();
    let needs = needed_paths(schema, all);
    let live = needed_paths(schema, live_expressions(schema));
    let mut pending: Vec<(usize, Vec<String>)> = needs
        .iter()
        .enumerate()
        .flat_map(|(ty, paths)| paths.iter().map(move |p| (ty, p.clone())))
        .collect();
    // A parameter's type is the type of its argument in a type that holds the value; that
    // argument may use the holder's own implicit parameters, so types are found in rounds.
    while !pending.is_empty() {
        let before = pending.len();
        let mut errors = Vec::new();
        pending.retain(|(ty, path)| {
            let path: Vec<&str> = path.iter().map(String::as_str).collect();
            let dead = !live[*ty].iter().any(|p| *p == path);
            match param_type(schema, *ty, &path) {
                // Only instances computed from the finished value need it, and a holder does
                // not have it yet where it reads the value (`_root.dir` inside `dir`), or not
                // yet in this round: tried again, and those instances go without if no
                // round gives it.
                Ok(_) if dead && !arguments_known(schema, *ty, &path) => true,
                Ok(param_ty) => {
                    if let Some(param_ty) = param_ty {
                        add_param(schema, *ty, &path, param_ty);
                    }
                    false
                }
                Err(e) => {
                    errors.push((*ty, path.iter().map(|s| s.to_string()).collect(), e));
                    true
                }
            }
        });
        if pending.len() == before {
            // Paths only instances computed from the finished value need: they go without.
            return match errors
                .into_iter()
                .find(|(ty, path, _)| live[*ty].contains(path))
            {
                Some((_, _, e)) => Err(e),
                None => break,
            };
        }
    }
    check_foreign_holders(schema)?;
    mark_lists_read_again(schema)
}

/// Marks [`Field::read_again`] the lists passed down to their own elements while they are
/// read (`_root.dir.files` inside a `file` of it) when an element uses the list in an instance:
/// Kaitai computes instances lazily, once the list is complete, but an element's reader only
/// has the elements before it, and `files[idx + 1]` would not be there. A list that cannot be
/// read twice (a switch's, one per element of another list) is refused.
fn mark_lists_read_again(schema: &mut Schema) -> Result<(), Located> {
    let mut marked = Vec::new();
    for (owner, def) in schema.types.iter().enumerate() {
        for (index, field) in def.fields.iter().enumerate() {
            if field.repeat == Repeat::None {
                continue;
            }
            let list = Expr::Name(field.id.clone());
            let passed = schema.params_given(field, |arg| *arg == list);
            let Some((used, ..)) = passed
                .into_iter()
                .find(|(used, param, _)| used_lazily(schema, *used, &param.id, &mut Vec::new()))
            else {
                continue;
            };
            if !field.refers_to_itself() {
                return Err(Located::new(
                    &field.at.key("type"),
                    format!(
                        "an instance of type `{}` uses `{}`, the list still being read: Kaitai computes instances once the list is complete, and skelcodec reads such a list twice, but not a list of a switch or one per element of another list",
                        schema.types[used].id, field.id,
                    ),
                ));
            }
            marked.push((owner, index));
        }
    }
    for (owner, index) in marked {
        schema.types[owner].fields[index].read_again = true;
    }
    Ok(())
}

/// True when `e`, in type `ty`, uses its parameter `param`: by name, or through the context
/// path it is named after as the type needs it (`_root.a` for `_root.a.b`).
pub(super) fn uses_param(schema: &Schema, ty: usize, e: &Expr, param: &str) -> bool {
    context_paths_in(schema, ty, e)
        .iter()
        .filter_map(|path| needed_path(schema, ty, path))
        .any(|path| context_param_id(path) == param)
        || e.mentions(param)
}

/// True when the parameter `param` of `ty` is used by one of its instances (read by position
/// or computed), or passed to a type that does so.
pub(super) fn used_lazily(
    schema: &Schema,
    ty: usize,
    param: &str,
    seen: &mut Vec<(usize, String)>,
) -> bool {
    if seen.contains(&(ty, param.to_owned())) {
        return false;
    }
    seen.push((ty, param.to_owned()));
    let def = &schema.types[ty];
    let uses = |e: &Expr| uses_param(schema, ty, e, param);
    let mut lazy: Vec<&Expr> = def
        .fields
        .iter()
        .filter(|f| f.position.is_some())
        .flat_map(Field::expressions)
        .collect();
    for instance in &def.instances {
        if let InstanceKind::Value { value, cond, .. } = &instance.kind {
            lazy.extend([value].into_iter().chain(cond));
        }
    }
    if lazy.into_iter().any(uses) {
        return true;
    }
    def.fields.iter().any(|field| {
        schema
            .params_given(field, uses)
            .into_iter()
            .any(|(used, p, _)| used_lazily(schema, used, &p.id, seen))
    })
}

/// A type that takes values from its parent cannot be held by a type of another file (see
/// [`Schema::holders`]).
fn check_foreign_holders(schema: &Schema) -> Result<(), Located> {
    for def in &schema.types {
        for field in &def.fields {
            for ty in field.ty.user_types() {
                let used = &schema.types[ty];
                let Some(param) = used.params.iter().find(|p| p.id.starts_with('_')) else {
                    continue;
                };
                if used.at.file() != def.at.file() {
                    return Err(Located::new(
                        &field.at.key("type"),
                        format!(
                            "type `{}` takes `{}` from the type that holds it in its own file; a type imported from another file cannot give it",
                            used.id, param.id
                        ),
                    ));
                }
            }
        }
    }
    Ok(())
}

/// For each type, the context paths it needs as parameters: those its own expressions use,
/// and those the types it holds need from it.
fn needed_paths(schema: &Schema, exprs: Vec<Vec<&Expr>>) -> Vec<Vec<Vec<String>>> {
    let mut needs: Vec<Vec<Vec<String>>> = vec![Vec::new(); schema.types.len()];
    let mut work: Vec<(usize, Vec<String>)> = Vec::new();
    for (ty, exprs) in exprs.into_iter().enumerate() {
        for e in exprs {
            for path in context_paths_in(schema, ty, e) {
                if let Some(path) = needed_path(schema, ty, &path)
                    && !(schema.is_file_root(ty) && path[0] == "_root")
                {
                    work.push((ty, owned(path)));
                }
            }
        }
    }
    while let Some((ty, path)) = work.pop() {
        if needs[ty].contains(&path) {
            continue;
        }
        let refs: Vec<&str> = path.iter().map(String::as_str).collect();
        for (owner, field) in holding_fields(schema, ty) {
            let Some(arg) = path_in_owner(schema, &refs, owner, &schema.types[owner].fields[field])
            else {
                continue;
            };
            if let Some(up) = arg.context_path()
                && let Some(up) = needed_path(schema, owner, &up)
                && !(schema.is_file_root(owner) && up[0] == "_root")
            {
                work.push((owner, owned(up)));
            }
        }
        needs[ty].push(path);
    }
    needs
}

/// For each type, the expressions readers and writers evaluate: [`read_and_written`] and the
/// values of its [`live_instances`].
fn live_expressions(schema: &Schema) -> Vec<Vec<&Expr>> {
    let live = live_instances(schema);
    schema
        .types
        .iter()
        .enumerate()
        .map(|(ty, def)| {
            let mut exprs = read_and_written(def);
            for instance in &def.instances {
                if let InstanceKind::Value { value, cond, .. } = &instance.kind
                    && live.contains(&(ty, instance.id.as_str()))
                {
                    exprs.extend([value].into_iter().chain(cond));
                }
            }
            exprs
        })
        .collect()
}

fn owned(path: &[&str]) -> Vec<String> {
    path.iter().map(|s| (*s).to_owned()).collect()
}

/// The context paths `e` uses in `ty`, each the longest there is (`_root.a.b`, not also
/// `_root.a`); a size every value has and a constant of the root are none.
fn context_paths_in<'e>(schema: &Schema, ty: usize, e: &'e Expr) -> Vec<Vec<&'e str>> {
    if schema.static_path_size(ty, e).is_some() || schema.root_constant(ty, e).is_some() {
        return Vec::new();
    }
    match e.context_path() {
        Some(path) => vec![path],
        None => e
            .children()
            .into_iter()
            .flat_map(|c| context_paths_in(schema, ty, c))
            .collect(),
    }
}

/// The type of the implicit parameter for `path` in `ty`: that of `_root.x` in the root, or of
/// its argument in a type holding `ty` (validation checks the arguments of the others against
/// it). `None` when no type passes it (the root; a type held by no other, for `_parent`):
/// validation then reports the expression.
fn param_type(schema: &Schema, ty: usize, path: &[&str]) -> Result<Option<ParamType>, Located> {
    let holders = schema.holders(ty);
    // A type nothing holds (read on its own by a program) still takes `_root` values, which
    // its caller passes: their types are known from the root. The root has no parent, unless
    // it is held by a value too (recursion): those values get it from their holders.
    let no_parent = ty == 0 && (holders.is_empty() || path[0] == "_root");
    if no_parent || holders.is_empty() && path[0] != "_root" {
        return Ok(None);
    }
    let described = path.join(".");
    // Types that hold each other (recursion) would wait for each other's parameters: what the
    // root has does not depend on them.
    if let ["_root", name] = path {
        let root_ty = schema.file_root(ty);
        let root = &schema.types[root_ty];
        let scope = Context::new(schema, root_ty, Mode::Read, root.fields.len());
        return match resolve(&scope, &Expr::Name((*name).to_owned())) {
            Ok(found) => param_of(found.ty, &root.at, &described).map(Some),
            Err(e) => Err(Located::new(
                &schema.types[ty].at,
                format!(
                    "`{described}` in type `{}`: {}",
                    schema.types[ty].id,
                    e.message()
                ),
            )),
        };
    }
    let mut first_error = None;
    for (owner, field) in holding_fields(schema, ty) {
        let field = &schema.types[owner].fields[field];
        let at = field.at.key("type");
        let scope = Context::new(schema, owner, Mode::Read, schema.types[owner].fields.len());
        // A value without a parent takes the parameter's default there.
        let Some(arg) = path_in_owner(schema, path, owner, field) else {
            continue;
        };
        match resolve(&scope, &arg) {
            Ok(found) => return param_of(found.ty, &at, &described).map(Some),
            Err(e) => {
                let used = &schema.types[ty].id;
                let message = format!("`{described}` in type `{used}`: {}", e.message());
                first_error.get_or_insert_with(|| Located::new(&at, message));
            }
        }
    }
    match first_error {
        Some(e) => Err(e),
        None => Err(Located::new(
            &schema.types[ty].at,
            format!(
                "`{described}`: every value of type `{}` is held with `parent: false`, so nothing gives it this value",
                schema.types[ty].id
            ),
        )),
    }
}

/// True when every field holding a value of `ty` can compute the argument for `path` where it
/// reads the value.
fn arguments_known(schema: &Schema, ty: usize, path: &[&str]) -> bool {
    holding_fields(schema, ty)
        .into_iter()
        // A value of the type inside another passes its own `_root` value on.
        .filter(|&(owner, _)| !(owner == ty && path[0] == "_root"))
        .all(|(owner, index)| {
            match path_in_owner(schema, path, owner, &schema.types[owner].fields[index]) {
                Some(arg) => resolve(&Context::new(schema, owner, Mode::Read, index), &arg).is_ok(),
                None => true,
            }
        })
}

/// The parameter type that passes a value of type `ty`.
fn param_of(ty: Ty, at: &YamlPath, described: &str) -> Result<ParamType, Located> {
    Ok(match ty {
        Ty::Int => ParamType::Int(IntType {
            bytes: 8,
            signed: true,
            order: ByteOrder::Little,
        }),
        Ty::Bool => ParamType::Bool,
        Ty::Enum(idx) => ParamType::Enum(idx),
        Ty::Str | Ty::StrLit => ParamType::Str,
        Ty::Bytes => ParamType::Bytes,
        Ty::User(ty) => ParamType::User(ty),
        Ty::Opt(inner) => match *inner {
            Ty::User(ty) => ParamType::OptUser(ty),
            _ => return Err(unsupported(at, described)),
        },
        Ty::Io => ParamType::Io,
        Ty::AnyStruct => ParamType::AnyStruct,
        Ty::Array(elem) => match *elem {
            Ty::Int => ParamType::IntList,
            Ty::User(ty) => ParamType::UserList(ty),
            Ty::AnyStruct => ParamType::AnyStructList,
            Ty::StrLit => ParamType::StrList,
            Ty::Io => ParamType::IoList,
            _ => return Err(unsupported(at, described)),
        },
        _ => return Err(unsupported(at, described)),
    })
}

fn unsupported(at: &YamlPath, described: &str) -> Located {
    Located::new(
        at,
        format!(
            "`{described}` is a value skelcodec cannot pass down yet (integers, booleans, enum values, strings, bytes, structures and lists of integers or structures can be)"
        ),
    )
}

/// Adds the parameter to `ty` and its argument to every field that holds a value of `ty`.
fn add_param(schema: &mut Schema, ty: usize, path: &[&str], param_ty: ParamType) {
    // Without a parent, a value gets what a missing value reads as: 0, false, nothing.
    let absent = match param_ty {
        ParamType::Bool => Expr::Bool(false),
        ParamType::Str | ParamType::Bytes => Expr::Str(String::new()),
        _ => Expr::Int(0),
    };
    // The root held by a value of its own type (recursion) takes `_parent` values from that
    // holder; read as the file, it has no parent, and takes what a missing value reads as.
    let default = (ty == 0 && param_ty.has_placeholder()).then(|| absent.clone());
    let param = Param {
        id: context_param_id(path),
        doc: Some(format!(
            "`{}`, passed down by the value holding this one.",
            path.join(".")
        )),
        ty: param_ty,
        default,
        kept: false,
        writers_lack: false,
    };
    add_implicit_param(schema, ty, param, |schema, owner, field| {
        path_in_owner(schema, path, owner, field).unwrap_or_else(|| absent.clone())
    });
}

/// Adds `param` to `ty`, and to every field that holds a value of `ty` the argument
/// `arg(owner, field)`, computed in the scope of the field's type.
fn add_implicit_param(
    schema: &mut Schema,
    ty: usize,
    param: Param,
    arg: impl Fn(&Schema, usize, &Field) -> Expr,
) {
    schema.types[ty].params.push(param);
    let args: Vec<(usize, usize, Expr)> = holding_fields(schema, ty)
        .into_iter()
        .map(|(owner, index)| {
            let arg = arg(schema, owner, &schema.types[owner].fields[index]);
            (owner, index, arg)
        })
        .collect();
    for (owner, index, arg) in args {
        schema.types[owner].fields[index]
            .ty
            .for_each_user_mut(&mut |used, args| {
                if used == ty {
                    args.push(arg.clone());
                }
            });
    }
}

/// Gives every type whose byte order is chosen by a type around it (`meta/endian` with
/// `switch-on`) the parameter `_is_be`, passed down from the value that holds it: the
/// choosing type computes it, the types in between pass theirs on. `chosen[ty]`: the type's
/// numbers take the chosen order. A type no holder can give it to is refused.
pub fn add_byte_order_params(schema: &mut Schema, chosen: &[bool]) -> Result<(), Located> {
    let mut work: Vec<usize> = (0..schema.types.len())
        .filter(|&ty| chosen[ty] && schema.types[ty].endian_choice.is_none())
        .collect();
    let has_order = |schema: &Schema, ty: usize| {
        let def = &schema.types[ty];
        def.endian_choice.is_some() || def.params.iter().any(|p| p.id == IS_BE)
    };
    while let Some(ty) = work.pop() {
        if has_order(schema, ty) {
            continue;
        }
        for owner in schema.holders(ty) {
            if has_order(schema, owner) || work.contains(&owner) {
                continue;
            }
            if owner == 0 {
                let def = &schema.types[ty];
                return Err(Located::new(
                    &def.at,
                    format!(
                        "type `{}` takes its byte order from the `meta/endian` switch of a type around it, but the root holds it and has none to give",
                        def.id
                    ),
                ));
            }
            work.push(owner);
        }
        let param = Param {
            id: IS_BE.to_owned(),
            doc: Some("The byte order chosen by a type around this one (`meta/endian`).".into()),
            ty: ParamType::Bool,
            default: None,
            kept: false,
            writers_lack: false,
        };
        add_implicit_param(schema, ty, param, |_, _, _| Expr::Name(IS_BE.to_owned()));
    }
    Ok(())
}
