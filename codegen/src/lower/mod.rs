//! Turns a deserialized `.ksy` document into the checked [`Schema`] model: resolves type and
//! enum names, parses expressions, and applies the skelcodec extensions.

mod bits;
mod context;
mod declare;
mod field;
mod instances;
mod kept_params;
mod reached_roots;
mod read_later;
mod streams;
mod types;

use serde_yaml::Value;

use self::declare::{Declared, declare};
use self::instances::{lower_instance, positioned_field, stream_position_value};
use crate::error::{Located, YamlPath};
use crate::expr::{self, Expr};
use crate::keys::{KeyPlace, check_leftover_keys, doc_with_refs};
use crate::ksy::{self, AttrSpec, KsyFile};
use crate::model::*;

/// Lowers a schema and the schemas it imports (`files[0]` is the schema compiled).
/// Expressions are parsed here but type-checked by [`crate::typeck`], which needs the whole
/// model.
pub fn lower(files: &[&KsyFile]) -> Result<Schema, Located> {
    let root = YamlPath::root();
    let Some(file) = files.first() else {
        return Err(Located::new(&root, "no schema to compile"));
    };
    let Declared {
        types,
        parts,
        enums,
    } = declare(files)?;
    let mut schema = Schema {
        id: file.meta.id.clone(),
        title: file.meta.title.clone(),
        magic: lower_magic(&file.meta.magic, &root.key("meta").key("-magic"))?,
        extensions: lower_extensions(file.meta.file_extension.as_ref()),
        types,
        enums,
        layout: None,
        imported: Vec::new(),
        warnings: Vec::new(),
        rooted: Vec::new(),
    };
    // Parameters first: a field may use any type, declared before or after it, and its
    // argument count is checked against that type's parameters.
    let contexts: Vec<Context> = parts
        .iter()
        .enumerate()
        .map(|(owner, parts)| Context {
            byte_order: parts.defaults.byte_order,
            bit_big_endian: parts.defaults.bit_big_endian,
            encoding: parts.defaults.encoding.clone(),
            owner,
        })
        .collect();
    for (index, (parts, ctx)) in parts.iter().zip(&contexts).enumerate() {
        let at = schema.types[index].at.clone();
        let params = parts
            .params
            .iter()
            .enumerate()
            .map(|(i, p)| ctx.lower_param(&schema, p, &at.key("params").index(i)))
            .collect::<Result<_, _>>()?;
        schema.types[index].params = params;
    }
    for (index, (parts, ctx)) in parts.iter().zip(&contexts).enumerate() {
        let at = schema.types[index].at.clone();
        let mut fields = parts
            .seq
            .iter()
            .enumerate()
            .map(|(i, attr)| {
                let at = at.key("seq").index(i);
                match &attr.id {
                    Some(id) => {
                        check_identifier(id, &at.key("id"))?;
                        ctx.lower_field(&schema, attr, &at)
                    }
                    // Kaitai's name for an attribute without `id`, which no schema can use.
                    None => ctx.lower_field(&schema, &attr.named(format!("_unnamed{i}")), &at),
                }
            })
            .collect::<Result<Vec<_>, _>>()?;
        let mut lowered_instances = Vec::new();
        for (id, spec) in parts.instances {
            let at = at.key("instances").key(id);
            let field = match positioned_field(ctx, &schema, id, spec, &at)? {
                Some(field) => Some(field),
                None => stream_position_value(id, spec, &at)?,
            };
            match field {
                Some(field) => fields.push(field),
                None => lowered_instances.push(lower_instance(ctx, &schema, id, spec, &at)?),
            }
        }
        let instances = lowered_instances;
        check_unique_names(&schema.types[index].params, &fields, &instances, &at)?;
        checksums_of_later_values(&mut fields);
        let def = &mut schema.types[index];
        def.fields = fields;
        def.instances = instances;
    }
    context::find_root_places(&mut schema);
    // Once before the context parameters, whose types may be streams of values
    // (`_root.header.names._io`), and once after, for the streams reached through them.
    streams::keep_streams(&mut schema);
    context::add_context_params(&mut schema)?;
    let chosen: Vec<bool> = parts
        .iter()
        .map(|p| p.defaults.byte_order == Some(ByteOrder::Chosen))
        .collect();
    context::add_byte_order_params(&mut schema, &chosen)?;
    kept_params::keep_params(&mut schema);
    streams::keep_streams(&mut schema);
    streams::mark_params_writers_lack(&mut schema);
    streams::keep_stream_positions_as_read(&mut schema);
    instances::place_positionless_holders(&mut schema);
    let roots: Vec<bool> = (0..schema.types.len())
        .map(|ty| schema.is_file_root(ty))
        .collect();
    for (def, in_root) in schema.types.iter_mut().zip(roots) {
        read_instances_before_use(def, in_root);
    }
    read_later::read_later(&mut schema);
    bits::insert_bit_padding(&mut schema);
    keep_trailing_bytes(&mut schema);
    keep_unread_bytes(&mut schema);
    if let Some(spec) = &file.layout {
        schema.layout = Some(crate::layout::lower_layout(
            &schema,
            spec,
            &root.key("-layout"),
        )?);
    }
    instances::hold_parse_instances(&mut schema);
    Ok(schema)
}

/// `-derived: crc32(body)` naming one field that is not read in sequence before it (a later
/// one, a value read by position) cannot be computed by the writer as it writes: it is the
/// checksum of that value's bytes, computed from the value, as `crc32(body)` in an expression
/// is (which the checker holds to bytes). A checksum held as 4 bytes stays the writer's, and
/// the checker refuses it.
fn checksums_of_later_values(fields: &mut [Field]) {
    for index in 0..fields.len() {
        let Some(Checksum { algorithm, over }) = &fields[index].checksum else {
            continue;
        };
        let [name] = over.as_slice() else {
            continue;
        };
        let earlier = fields[..index].iter().any(|f| {
            f.id == *name && f.position.is_none() && !f.from_instance && !f.parse_instance
        });
        let named = fields.iter().any(|f| f.id == *name);
        // A checksum held as 4 bytes (PNG's) is the writer's alone.
        let integer = matches!(fields[index].ty, FieldType::Number(Scalar::Int(_)));
        if earlier || !named || !integer {
            continue;
        }
        let call = Expr::Call(algorithm.name().to_owned(), vec![Expr::Name(name.clone())]);
        fields[index].checksum = None;
        fields[index].derived = Some(call);
    }
}

/// Values declared under `instances` are read (or evaluated) after the sequence, unless an
/// attribute or another such value uses one (`if: header.valid`), directly or through value
/// instances: it is then read just before its first user, as Kaitai's lazy instances are read
/// when first used. In the root type (`in_root`), `_root.name` is one of its own values.
fn read_instances_before_use(def: &mut TypeDef, in_root: bool) {
    let (positioned, mut ordered): (Vec<Field>, Vec<Field>) = std::mem::take(&mut def.fields)
        .into_iter()
        .partition(|f| f.from_instance);
    for field in positioned {
        let names = names_reaching(&def.instances, &field.id, in_root);
        let user = ordered.iter().position(|f| {
            f.expressions()
                .iter()
                .any(|e| names.iter().any(|n| e.mentions_own(n, in_root)))
        });
        match user {
            Some(at) => ordered.insert(at, field),
            None => ordered.push(field),
        }
    }
    def.fields = ordered;
}

/// `name` and the value instances among `instances` that use it, directly or through others.
pub(super) fn names_reaching<'a>(
    instances: &'a [Instance],
    name: &'a str,
    in_root: bool,
) -> Vec<&'a str> {
    let mut names = vec![name];
    loop {
        let more: Vec<&str> = instances
            .iter()
            .filter(|i| !names.contains(&i.id.as_str()))
            .filter(|i| match &i.kind {
                InstanceKind::Value { value, cond, .. } => [value]
                    .into_iter()
                    .chain(cond)
                    .any(|e| names.iter().any(|n| e.mentions_own(n, in_root))),
                InstanceKind::Peek { .. } => false,
            })
            .map(|i| i.id.as_str())
            .collect();
        if more.is_empty() {
            return names;
        }
        names.extend(more);
    }
}

/// A file may go on after the root's value (Kaitai reads such files): the root then keeps the
/// bytes after it in a last field, `_trailing`, which only the whole-file read fills, so that
/// they are written back. Not needed when the root keeps unclaimed bytes (it has values read by
/// position).
fn keep_trailing_bytes(schema: &mut Schema) {
    if schema.has_positioned_fields() {
        return;
    }
    let bytes = FieldType::rest_of_stream();
    let doc = "Bytes after the end of the value, kept to be written back.";
    let trailing = Field::added(TRAILING, doc, bytes, &schema.types[0].at);
    schema.types[0].fields.push(trailing);
}

/// Kaitai skips the bytes of a substream (`size` on a user type) that the type does not read;
/// they are kept, so that writing is exact, in a field `_unread` at the end of every type read
/// from a substream whose sequence does not already read to its end. A type also read without
/// one has them from the substream's reader ([`TypeDef::unread_from_holder`]). What the type
/// reads by position there is written over them, and must agree with them.
fn keep_unread_bytes(schema: &mut Schema) {
    let mut sized = vec![false; schema.types.len()];
    let mut in_place = vec![false; schema.types.len()];
    for def in &schema.types {
        for field in &def.fields {
            for ty in field.ty.user_types() {
                // A fixed-size type in a substream of its own size leaves nothing.
                let own_size = schema.fixed_size(ty).map(Size::Const);
                match &field.substream {
                    Some(size) if Some(size) != own_size.as_ref() => sized[ty] = true,
                    _ => in_place[ty] = true,
                }
            }
        }
    }
    for (ty, def) in schema.types.iter_mut().enumerate() {
        let mut in_sequence = def.fields.iter().filter(|f| f.position.is_none());
        let reads_to_end = in_sequence.next_back().is_some_and(|last| {
            last.repeat == Repeat::Eos
                || last.substream == Some(Size::Eos)
                || matches!(
                    last.ty,
                    FieldType::Bytes {
                        size: Size::Eos,
                        ..
                    } | FieldType::Str {
                        size: Size::Eos,
                        ..
                    }
                )
        });
        if ty == 0 || !sized[ty] || reads_to_end {
            continue;
        }
        def.unread_from_holder = in_place[ty];
        let bytes = FieldType::rest_of_stream();
        let doc = "Bytes of the substream this value does not read, kept to be written back.";
        let unread = Field::added(UNREAD, doc, bytes, &def.at);
        def.fields.push(unread);
    }
}

fn check_identifier(id: &str, at: &YamlPath) -> Result<(), Located> {
    let mut chars = id.chars();
    let valid = chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    if valid {
        Ok(())
    } else {
        Err(Located::new(
            at,
            format!("`{id}` is not a valid name: use lower_snake_case starting with a letter"),
        ))
    }
}

/// Fields, instances and parameters of a type share one namespace, as in Kaitai.
fn check_unique_names(
    params: &[Param],
    fields: &[Field],
    instances: &[Instance],
    at: &YamlPath,
) -> Result<(), Located> {
    let mut seen: Vec<&str> = Vec::new();
    let param_at = |i: usize| at.key("params").index(i).key("id");
    let declared = params
        .iter()
        .enumerate()
        .map(|(i, p)| (&p.id, param_at(i)))
        .chain(fields.iter().map(|f| (&f.id, f.at.clone())))
        .chain(instances.iter().map(|i| (&i.id, i.at.clone())));
    for (id, place) in declared {
        if seen.contains(&id.as_str()) {
            return Err(Located::new(
                &place,
                format!(
                    "`{id}` is declared twice in {at} (its fields, instances and parameters share one namespace)"
                ),
            ));
        }
        seen.push(id);
    }
    Ok(())
}

fn lower_magic(values: &[Value], at: &YamlPath) -> Result<Vec<Vec<u8>>, Located> {
    values
        .iter()
        .enumerate()
        .map(|(i, v)| contents_bytes(v, &at.index(i)))
        .collect()
}

fn lower_extensions(value: Option<&Value>) -> Vec<String> {
    match value {
        Some(Value::String(s)) => vec![s.clone()],
        Some(Value::Sequence(items)) => items
            .iter()
            .filter_map(|v| v.as_str().map(str::to_owned))
            .collect(),
        _ => Vec::new(),
    }
}

/// Kaitai `contents`: a string, or a list of byte values and strings.
fn contents_bytes(value: &Value, at: &YamlPath) -> Result<Vec<u8>, Located> {
    let bad = || {
        Located::new(
            at,
            "contents must be a string or a list of bytes and strings",
        )
    };
    match value {
        Value::String(s) => Ok(s.as_bytes().to_vec()),
        Value::Sequence(items) => {
            let mut out = Vec::new();
            for item in items {
                match item {
                    Value::String(s) => out.extend_from_slice(s.as_bytes()),
                    Value::Number(n) => {
                        let byte = n.as_u64().and_then(|b| u8::try_from(b).ok());
                        out.push(byte.ok_or_else(bad)?);
                    }
                    _ => return Err(bad()),
                }
            }
            Ok(out)
        }
        _ => Err(bad()),
    }
}

/// Parses the expression of an optional key (`if`, `parent`, `-derived`) at `at`.
pub fn parse_optional_expr(value: Option<&Value>, at: &YamlPath) -> Result<Option<Expr>, Located> {
    value.map(|v| parse_expr(v, at)).transpose()
}

/// Parses the expression held by a YAML value.
pub fn parse_expr(value: &Value, at: &YamlPath) -> Result<Expr, Located> {
    let text = ksy::expr_text(value)
        .ok_or_else(|| Located::new(at, "expected an expression (a number, boolean or string)"))?;
    expr::parse(&text).map_err(|e| {
        // A table of a hundred lines is named by its start; the error says where it failed.
        let shown: String = match text.trim().char_indices().nth(60) {
            Some((end, _)) => format!("{} …", &text.trim()[..end]),
            None => text.trim().to_owned(),
        };
        let shown = shown.replace('\n', " ");
        Located::new(at, format!("bad expression `{shown}`: {e}"))
    })
}

/// What lowering the attributes of one type needs to know: the defaults in force there and
/// the scope names resolve from. Each concern adds its methods in its own module (`field`,
/// `types`).
struct Context {
    /// The default byte order (`None`: multi-byte numbers need `le` or `be`).
    byte_order: Option<ByteOrder>,
    /// The bit order of bit fields.
    bit_big_endian: bool,
    /// The default string encoding in force.
    encoding: Option<String>,
    /// The type whose attributes are lowered: names of types and enums resolve from there.
    owner: usize,
}
