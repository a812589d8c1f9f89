//! `instances`: value instances, look-aheads, and `pos` instances that become fields read at
//! a position.

use serde_yaml::Value;

use super::types::Builtin;
use super::*;

/// A `pos` instance that reads a value (anything but an integer look-ahead) becomes a field
/// read at that position after the sequence, and kept in the value.
pub(super) fn positioned_field(
    ctx: &Context,
    schema: &Schema,
    id: &str,
    spec: &AttrSpec,
    at: &YamlPath,
) -> Result<Option<Field>, Located> {
    let stream = match &spec.io {
        Some(io) => stream(io, &at.key("io"))?,
        None => Stream::Own,
    };
    let pos = match &spec.pos {
        Some(pos) => parse_expr(pos, &at.key("pos"))?,
        // A parse instance without `pos` reads where its type's sequence ended (a type of
        // instances only, `flags_obj: {type: flags(raw)}`), or at the start of another
        // stream; kept as read, since the writer has no position to place it at.
        None if spec.value.is_none() && (spec.ty.is_some() || spec.size.is_some()) => {
            match stream {
                Stream::Own => Expr::Attr(Box::new(Expr::Name("_io".into())), "pos".into()),
                _ => Expr::Int(0),
            }
        }
        None => return Ok(None),
    };
    // An integer with `valid` is kept and checked, as a field.
    let is_lookahead = stream == Stream::Own
        && spec.pos.is_some()
        && spec.size.is_none()
        && spec.repeat.is_none()
        && spec.valid.is_none()
        && matches!(
            spec.ty
                .as_ref()
                .and_then(Value::as_str)
                .and_then(|t| ctx.builtin(t)),
            Some(Builtin::Scalar(Scalar::Int(_)))
        );
    if is_lookahead {
        return Ok(None);
    }
    check_identifier(id, at)?;
    let mut attr = spec.named(id.to_owned());
    attr.pos = None;
    attr.io = None;
    attr.in_sequence = None;
    let mut field = ctx.lower_field(schema, &attr, at)?;
    field.in_sequence = spec.in_sequence == Some(true);
    field.kept_as_read = matches!(stream, Stream::Of(_)) || spec.pos.is_none();
    field.from_instance = true;
    field.position = Some(pos);
    field.stream = stream;
    Ok(Some(field))
}

/// Places the instances without `pos` read from the whole file (`io: _root._io`) whose type
/// reads no bytes of its own, only values by position (ds_store's `directories`, each a
/// `master_block_ref` of instances): where such a value starts decides nothing, so it is
/// read and written at the file's start rather than kept as read, and the blocks it places
/// are written where their offsets say, so that their edits are written, not set back.
pub(super) fn place_positionless_holders(schema: &mut Schema) {
    let holds_only_placed = |ty: usize| {
        let def = &schema.types[ty];
        !def.fields.is_empty() && def.fields.iter().all(|f| f.position.is_some())
    };
    let mut placed = Vec::new();
    for (ty, def) in schema.types.iter().enumerate() {
        for (index, field) in def.fields.iter().enumerate() {
            let holder = match &field.ty {
                FieldType::User { ty, .. } => holds_only_placed(*ty),
                _ => false,
            };
            if field.kept_as_read
                && field.stream == Stream::Root
                && field.substream.is_none()
                && field.decode.is_none()
                && holder
            {
                placed.push((ty, index));
            }
        }
    }
    for (ty, index) in placed {
        schema.types[ty].fields[index].kept_as_read = false;
    }
}

/// Marks the parse instances that no reader or writer needs (no expression they evaluate names
/// them, in any type) as read on their own (see [`Field::parse_instance`]). A schema with a
/// `-layout` places every such value, so keeps them all plain; so do `valid` rules, which are
/// checked on the value in its holder, and fixed `contents`, which hold no value.
///
/// A parse instance that uses an argument empty in the first read of a value read later (see
/// [`Field::read_later`]: `io: _parent.storage_section._io` in rpm's index records) is held
/// too, used or not: that first read cannot read it, and only the second one counts.
pub(super) fn hold_parse_instances(schema: &mut Schema) {
    if schema.layout.is_some() {
        return;
    }
    let eligible = |field: &Field| {
        field.position.is_some()
            && field.valid.is_empty()
            && !matches!(field.ty, FieldType::Contents(_))
    };
    // Held until something not held uses it: what only the streams of held instances use is
    // held too, so that its failure is theirs (ext2's `body`, which only the instance
    // `as_dir` reads from).
    let mut held: Vec<Vec<bool>> = (schema.types.iter())
        .map(|def| def.fields.iter().map(eligible).collect())
        .collect();
    loop {
        let next = still_held(schema, &held);
        if next == held {
            break;
        }
        held = next;
    }
    for (def, held) in schema.types.iter_mut().zip(held) {
        for (field, held) in def.fields.iter_mut().zip(held) {
            field.parse_instance = held;
        }
    }
}

/// Of the fields `held` holds, those that nothing outside `held` uses (see
/// [`hold_parse_instances`]).
fn still_held(schema: &Schema, held: &[Vec<bool>]) -> Vec<Vec<bool>> {
    let used = crate::model::names_used_beside(schema, |ty, index| held[ty][index]);
    let empty_first: Vec<(usize, &str)> = (schema.types.iter())
        .flat_map(|def| &def.fields)
        .filter_map(|field| field.read_later.as_ref())
        .flat_map(|later| later.empty_first.iter().map(|(ty, p)| (*ty, p.as_str())))
        .collect();
    let mut next = Vec::with_capacity(held.len());
    for (ty, def) in schema.types.iter().enumerate() {
        let empty: Vec<&str> = (empty_first.iter())
            .filter(|(t, _)| *t == ty)
            .map(|(_, param)| *param)
            .collect();
        let needs_empty = |field: &Field| {
            (field.expressions().iter()).any(|e| empty.iter().any(|param| passes(e, param)))
        };
        let used_by_own = |field: &Field| {
            (def.fields.iter()).any(|f| f.expressions().iter().any(|e| e.mentions(&field.id)))
        };
        next.push(
            (def.fields.iter().zip(&held[ty]))
                .map(|(field, held)| {
                    let unused = !used.contains(field.id.as_str())
                        || (needs_empty(field) && !used_by_own(field));
                    *held && unused
                })
                .collect(),
        );
    }
    next
}

/// A value instance that is its stream's position (`parent_chunk_data_ofs: _io.pos`, as
/// RIFF's LIST chunk keeps it) is evaluated once, as Kaitai evaluates every instance once: it becomes
/// a value remembered where it is first used (or after the sequence), kept in the value and
/// never written. Inlined at each use, it would be another position at each.
pub(super) fn stream_position_value(
    id: &str,
    spec: &AttrSpec,
    at: &YamlPath,
) -> Result<Option<Field>, Located> {
    let Some(value) = &spec.value else {
        return Ok(None);
    };
    let value = parse_expr(value, &at.key("value"))?;
    if spec.pos.is_some() || spec.enum_name.is_some() || !value.is_stream_position() {
        return Ok(None);
    }
    check_value_instance_keys(spec, at)?;
    check_identifier(id, at)?;
    let ty = FieldType::Remembered {
        value,
        ty: IntType {
            bytes: 8,
            signed: true,
            order: ByteOrder::Little,
        },
        solve: None,
    };
    let doc = doc_with_refs(spec.doc.as_deref(), spec.doc_ref.as_ref());
    let fallback = format!(
        "`{id}`: the stream's position where it is first used (a value instance, evaluated once)."
    );
    let mut field = Field::added(id, doc.as_deref().unwrap_or(&fallback), ty, at);
    field.cond = parse_optional_expr(spec.cond.as_ref(), &at.key("if"))?;
    field.from_instance = true;
    Ok(Some(field))
}

/// The stream `io` names: the type's own, the whole file's, or another value's (checked by
/// `validate` to be a stream).
fn stream(io: &Value, at: &YamlPath) -> Result<Stream, Located> {
    let io = parse_expr(io, at)?;
    Ok(match &io {
        Expr::Name(n) if n == "_io" => Stream::Own,
        Expr::Attr(base, attr)
            if attr == "_io" && matches!(base.as_ref(), Expr::Name(n) if n == "_root") =>
        {
            Stream::Root
        }
        _ => Stream::Of(io),
    })
}

/// A value instance takes `value`, `doc`, `doc-ref`, `enum` and `if`; a key that reads bytes
/// is a mistake.
pub(super) fn check_value_instance_keys(spec: &AttrSpec, at: &YamlPath) -> Result<(), Located> {
    let reading_keys = [
        ("type", spec.ty.is_some()),
        ("size", spec.size.is_some()),
        ("size-eos", spec.size_eos.is_some()),
        ("repeat", spec.repeat.is_some()),
        ("contents", spec.contents.is_some()),
        ("terminator", spec.terminator.is_some()),
        ("encoding", spec.encoding.is_some()),
        ("io", spec.io.is_some()),
        ("-in-sequence", spec.in_sequence.is_some()),
    ];
    match first_given(&reading_keys) {
        Some(key) => Err(Located::new(
            &at.key(key),
            format!(
                "`{key}` does not belong in a value instance, which takes value, doc, doc-ref, enum and if"
            ),
        )),
        None => Ok(()),
    }
}

pub(super) fn lower_instance(
    ctx: &Context,
    schema: &Schema,
    id: &str,
    spec: &AttrSpec,
    at: &YamlPath,
) -> Result<Instance, Located> {
    check_identifier(id, at)?;
    check_leftover_keys(&spec.other, KeyPlace::Attribute, at)?;
    // Both kinds take `enum` and `if`.
    let enum_idx = match spec.enum_name.as_deref() {
        Some(name) => Some(ctx.resolve_enum(schema, name, &at.key("enum"))?),
        None => None,
    };
    let cond = parse_optional_expr(spec.cond.as_ref(), &at.key("if"))?;
    let kind = match (&spec.value, &spec.pos) {
        (Some(value), None) => {
            check_value_instance_keys(spec, at)?;
            InstanceKind::Value {
                value: parse_expr(value, &at.key("value"))?,
                cond,
                enum_idx,
            }
        }
        (None, Some(pos)) => {
            let name = spec.ty.as_ref().and_then(Value::as_str).unwrap_or_default();
            let Some(Builtin::Scalar(base @ Scalar::Int(ty))) = ctx.builtin(name) else {
                return Err(Located::new(
                    &at.key("type"),
                    "a `pos` instance must have an integer `type` (only look-ahead reads are supported)",
                ));
            };
            ctx.check_endian(name, base, &at.key("type"))?;
            // A look-ahead is read as it is: keys that would change it are not implemented.
            if let Some(key) = first_given(&[
                ("valid", spec.valid.is_some()),
                ("repeat", spec.repeat.is_some()),
                ("-scale", spec.scale.is_some()),
                ("-derived", spec.derived.is_some()),
                ("-remember", spec.remember.is_some()),
                ("-in-sequence", spec.in_sequence.is_some()),
            ]) {
                return Err(Located::new(
                    &at.key(key),
                    format!("`{key}` on a look-ahead instance (Kaitai) is not implemented yet"),
                ));
            }
            InstanceKind::Peek {
                pos: parse_expr(pos, &at.key("pos"))?,
                ty,
                cond,
                enum_idx,
            }
        }
        _ => {
            return Err(Located::new(
                at,
                "an instance needs either a `value` or a `pos` with an integer `type`",
            ));
        }
    };
    Ok(Instance {
        id: id.to_owned(),
        doc: doc_with_refs(spec.doc.as_deref(), spec.doc_ref.as_ref()),
        kind,
        at: at.clone(),
    })
}

/// The first of `keys` that the schema gives, in the order listed.
fn first_given<'k>(keys: &[(&'k str, bool)]) -> Option<&'k str> {
    keys.iter().find_map(|&(key, given)| given.then_some(key))
}

/// True when `e` uses implicit parameter `param`: by its name, or by the context path it is
/// made of (`_parent.storage_section._io` is `_parent_storage_section__io`).
fn passes(e: &Expr, param: &str) -> bool {
    let by_path = e
        .context_path()
        .map(|path| path.join("_"))
        .is_some_and(|joined| joined == param || joined.starts_with(&format!("{param}_")));
    by_path
        || matches!(e, Expr::Name(n) if n == param)
        || e.children().iter().any(|c| passes(c, param))
}
