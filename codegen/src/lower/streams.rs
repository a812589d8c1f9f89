//! Streams kept with values: an instance that reads from another value's stream
//! (`io: header._io`, `io: _parent.blocks[0]._io`) needs that value to keep where it was read
//! from, since an owned tree has no streams once reading is done.

use crate::expr::Expr;
use crate::model::*;
use crate::typeck::context::Context;
use crate::typeck::resolve::{branches, resolve, resolve_int, uses};
use crate::typeck::typed::{ExprError, Mode, Ty};

/// Marks every type whose values some expression takes the stream of (`x._io`).
pub fn keep_streams(schema: &mut Schema) {
    let mut keeping = vec![false; schema.types.len()];
    for (ty, def) in schema.types.iter().enumerate() {
        let scope = Context::new(schema, ty, Mode::Read, def.fields.len());
        let mut pending = def.expressions();
        while let Some(e) = pending.pop() {
            pending.extend(e.children());
            let Expr::Attr(base, attr) = e else {
                continue;
            };
            if attr != "_io" {
                continue;
            }
            // `(c ? a : b)._io` takes the stream of either.
            let bases = match branches(schema, ty, false, base) {
                Some((_, a, b)) => vec![a, b],
                None => vec![(**base).clone()],
            };
            for base in bases {
                // `_root.header.names` before the context parameters exist: `header.names`
                // in the root.
                // `_parent.strings` and `_root.header.names` before the context parameters
                // exist: `strings` in each holder, `header.names` in the root.
                let mut resolved = vec![resolve(&scope, &base)];
                if let Some(path) = base.strip_root() {
                    let root = schema.file_root(ty);
                    let fields = schema.types[root].fields.len();
                    resolved.push(resolve(
                        &Context::new(schema, root, Mode::Read, fields),
                        &path,
                    ));
                }
                if let Some(path) = base.strip_parent() {
                    resolved.extend(schema.holders(ty).into_iter().map(|holder| {
                        let fields = schema.types[holder].fields.len();
                        resolve(&Context::new(schema, holder, Mode::Read, fields), &path)
                    }));
                }
                for base in resolved.into_iter().flatten() {
                    if let Some(kept) = user_type(&base.ty) {
                        keeping[kept] = true;
                    }
                }
            }
        }
    }
    for (def, keeps) in schema.types.iter_mut().zip(keeping) {
        def.keeps_stream |= keeps;
    }
}

/// Marks the parameters writers lack ([`Param::writers_lack`]): those some written field
/// passes an argument only the input stream gives (`_io.size`, or a parameter writers lack in
/// turn), until no more is found. A writer passes a placeholder for them; the checks that use
/// them need the input stream, so the codec reads its output back. A parameter without a
/// placeholder (a value, a list, a stream) is left to be refused where its argument is.
pub fn mark_params_writers_lack(schema: &mut Schema) {
    loop {
        let mut lacking = Vec::new();
        for (owner, def) in schema.types.iter().enumerate() {
            let write = Context::new(schema, owner, Mode::Write, def.fields.len()).with_index();
            for field in def.fields.iter().filter(|f| !f.is_read_only()) {
                // As `typeck::build` compiles them: where the value starts, unless it is read
                // from bytes of its own.
                let scope = match field.substream.is_none() && field.decode.is_none() {
                    true => write.with_writer_pos(),
                    false => write.clone(),
                };
                field.ty.for_each_user(&mut |ty, args| {
                    let params = &schema.types[ty].params;
                    for (index, (arg, param)) in args.iter().zip(params).enumerate() {
                        if !param.writers_lack
                            && param.ty.has_placeholder()
                            && matches!(
                                uses::argument(&scope, param, arg),
                                Err(ExprError::NeedsStream)
                            )
                        {
                            lacking.push((ty, index));
                        }
                    }
                });
            }
        }
        if lacking.is_empty() {
            return;
        }
        for (ty, index) in lacking {
            schema.types[ty].params[index].writers_lack = true;
        }
    }
}

/// Marks the fields read at a position that needs the input stream (`pos: _io.size - 128`):
/// a writer, which has the value and no stream, could not place them, so they are kept as
/// read.
pub fn keep_stream_positions_as_read(schema: &mut Schema) {
    let mut kept = Vec::new();
    for (ty, def) in schema.types.iter().enumerate() {
        let write = Context::new(schema, ty, Mode::Write, def.fields.len());
        for (index, field) in def.fields.iter().enumerate() {
            if let Some(pos) = &field.position
                && let Err(ExprError::NeedsStream) = resolve_int(&write, pos)
            {
                kept.push((ty, index));
            }
        }
    }
    for (ty, index) in kept {
        schema.types[ty].fields[index].kept_as_read = true;
    }
}

/// The user type of a value that may be absent.
fn user_type(ty: &Ty) -> Option<usize> {
    match ty {
        Ty::User(ty) => Some(*ty),
        Ty::Opt(inner) => user_type(inner),
        _ => None,
    }
}
