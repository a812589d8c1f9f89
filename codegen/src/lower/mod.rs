//! Turns a deserialized `.ksy` document into the checked [`Schema`] model: resolves type and
//! enum names, parses expressions, and applies the skelcodec extensions.

mod declare;

use serde_yaml::Value;

use self::declare::{Declared, declare};
use crate::error::{Located, YamlPath};
use crate::expr::{self, Expr};
use crate::keys::{KeyPlace, check_leftover_keys, doc_with_refs};
use crate::ksy::{self, AttrSpec, KsyFile};
use crate::model::*;

/// Lowers a schema and the schemas it imports (`files[0]` is the schema compiled).
/// Expressions are parsed here but type-checked by [`crate::validate`], which needs the whole
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
    };
    // Parameters first: a field may use any type, declared before or after it, and its
    // argument count is checked against that type's parameters.
    let contexts: Vec<Context> = parts
        .iter()
        .enumerate()
        .map(|(owner, parts)| Context {
            big_endian: parts.big_endian,
            has_encoding: parts.has_encoding,
            owner,
        })
        .collect();
    for (index, (parts, ctx)) in parts.iter().zip(&contexts).enumerate() {
        let at = schema.types[index].at.clone();
        let params = parts
            .params
            .iter()
            .enumerate()
            .map(|(i, p)| ctx.lower_param(p, &at.key("params").index(i)))
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
            match positioned_field(ctx, &schema, id, spec, &at)? {
                Some(field) => fields.push(field),
                None => lowered_instances.push(lower_instance(ctx, &schema, id, spec, &at)?),
            }
        }
        let instances = lowered_instances;
        check_unique_names(&schema.types[index].params, &fields, &instances, &at)?;
        let def = &mut schema.types[index];
        def.fields = fields;
        def.instances = instances;
    }
    if let Some(spec) = &file.layout {
        schema.layout = Some(crate::layout::lower_layout(
            &schema,
            spec,
            &root.key("-layout"),
        )?);
    }
    Ok(schema)
}

/// Strings keep their bytes and show them as UTF-8 (of which ASCII is a part); any other
/// encoding would show the wrong text, so it is refused until it is decoded.
fn check_encoding(encoding: &str, at: &YamlPath) -> Result<(), Located> {
    if crate::keys::is_supported_encoding(encoding) {
        Ok(())
    } else {
        Err(Located::new(
            at,
            crate::keys::encoding_not_implemented(encoding),
        ))
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
    let mut seen: Vec<&str> = params.iter().map(|p| p.id.as_str()).collect();
    let declared = fields
        .iter()
        .map(|f| (&f.id, &f.at))
        .chain(instances.iter().map(|i| (&i.id, &i.at)));
    for (id, place) in declared {
        if seen.contains(&id.as_str()) {
            return Err(Located::new(
                place,
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

/// Parses the expression held by a YAML value.
pub fn parse_expr(value: &Value, at: &YamlPath) -> Result<Expr, Located> {
    let text = ksy::expr_text(value)
        .ok_or_else(|| Located::new(at, "expected an expression (a number, boolean or string)"))?;
    expr::parse(&text).map_err(|e| Located::new(at, format!("bad expression `{text}`: {e}")))
}

/// A `pos` instance that reads a value (anything but an integer look-ahead) becomes a field
/// read at that position after the sequence, and kept in the value.
fn positioned_field(
    ctx: &Context,
    schema: &Schema,
    id: &str,
    spec: &AttrSpec,
    at: &YamlPath,
) -> Result<Option<Field>, Located> {
    let Some(pos) = &spec.pos else {
        return Ok(None);
    };
    let is_lookahead = spec.size.is_none()
        && spec.repeat.is_none()
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
    let mut field = ctx.lower_field(schema, &attr, at)?;
    field.position = Some(parse_expr(pos, &at.key("pos"))?);
    Ok(Some(field))
}

/// A value instance takes `value`, `doc`, `doc-ref`, `enum` and `if`; a key that reads bytes
/// is a mistake.
fn check_value_instance_keys(spec: &AttrSpec, at: &YamlPath) -> Result<(), Located> {
    let reading_keys = [
        ("type", spec.ty.is_some()),
        ("size", spec.size.is_some()),
        ("size-eos", spec.size_eos.is_some()),
        ("repeat", spec.repeat.is_some()),
        ("contents", spec.contents.is_some()),
        ("terminator", spec.terminator.is_some()),
        ("encoding", spec.encoding.is_some()),
    ];
    match reading_keys.iter().find(|(_, given)| *given) {
        Some((key, _)) => Err(Located::new(
            &at.key(key),
            format!(
                "`{key}` does not belong in a value instance, which takes value, doc, doc-ref, enum and if"
            ),
        )),
        None => Ok(()),
    }
}

fn lower_instance(
    ctx: &Context,
    schema: &Schema,
    id: &str,
    spec: &AttrSpec,
    at: &YamlPath,
) -> Result<Instance, Located> {
    check_identifier(id, at)?;
    check_leftover_keys(&spec.other, KeyPlace::Attribute, at)?;
    let kind = match (&spec.value, &spec.pos) {
        (Some(value), None) => {
            check_value_instance_keys(spec, at)?;
            let enum_idx = match &spec.enum_name {
                Some(name) => Some(ctx.resolve_enum(schema, name, &at.key("enum"))?),
                None => None,
            };
            InstanceKind::Value {
                value: parse_expr(value, &at.key("value"))?,
                cond: spec
                    .cond
                    .as_ref()
                    .map(|c| parse_expr(c, &at.key("if")))
                    .transpose()?,
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
            if let Some(key) = [
                ("if", spec.cond.is_some()),
                ("enum", spec.enum_name.is_some()),
            ]
            .iter()
            .find_map(|(key, given)| given.then_some(key))
            {
                return Err(Located::new(
                    &at.key(key),
                    format!("`{key}` on a look-ahead instance (Kaitai) is not implemented yet"),
                ));
            }
            InstanceKind::Peek {
                pos: parse_expr(pos, &at.key("pos"))?,
                ty,
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

struct Context {
    /// The file's default endianness (`None`: multi-byte numbers need `le` or `be`).
    big_endian: Option<bool>,
    /// True when the file sets a default string encoding.
    has_encoding: bool,
    /// The type whose attributes are lowered: names of types and enums resolve from there.
    owner: usize,
}

/// A built-in type name, decoded.
enum Builtin {
    Scalar(Scalar),
    Str { zero_terminated: bool },
    Quat,
    Vec3,
    Vlq,
}

impl Context {
    fn lower_param(&self, p: &ksy::ParamSpec, at: &YamlPath) -> Result<Param, Located> {
        check_identifier(&p.id, &at.key("id"))?;
        check_leftover_keys(&p.other, KeyPlace::Param, at)?;
        let ty = match self.builtin(&p.ty) {
            Some(Builtin::Scalar(Scalar::Int(i))) => ParamType::Int(i),
            _ if p.ty == "bool" => ParamType::Bool,
            _ => {
                return Err(Located::new(
                    &at.key("type"),
                    format!(
                        "parameter type `{}` is not supported: use an integer type or `bool`",
                        p.ty
                    ),
                ));
            }
        };
        let default = p
            .default
            .as_ref()
            .map(|d| parse_expr(d, &at.key("-default")))
            .transpose()?;
        Ok(Param {
            id: p.id.clone(),
            doc: doc_with_refs(p.doc.as_deref(), p.doc_ref.as_ref()),
            ty,
            default,
        })
    }

    fn builtin(&self, name: &str) -> Option<Builtin> {
        let (base, big_endian) = match name.strip_suffix("le") {
            Some(b) if name.len() > 2 => (b, false),
            _ => match name.strip_suffix("be") {
                Some(b) if name.len() > 2 => (b, true),
                _ => (name, self.big_endian.unwrap_or(false)),
            },
        };
        let int = |bytes: u8, signed| {
            Some(Builtin::Scalar(Scalar::Int(IntType {
                bytes,
                signed,
                big_endian,
            })))
        };
        match base {
            "u1" => int(1, false),
            "u2" => int(2, false),
            "u4" => int(4, false),
            "u8" => int(8, false),
            "s1" => int(1, true),
            "s2" => int(2, true),
            "s4" => int(4, true),
            "s8" => int(8, true),
            "f4" => Some(Builtin::Scalar(Scalar::Float(FloatType {
                bytes: 4,
                big_endian,
            }))),
            "f8" => Some(Builtin::Scalar(Scalar::Float(FloatType {
                bytes: 8,
                big_endian,
            }))),
            _ => match name {
                "str" => Some(Builtin::Str {
                    zero_terminated: false,
                }),
                "strz" => Some(Builtin::Str {
                    zero_terminated: true,
                }),
                "quat" => Some(Builtin::Quat),
                "vlq_base128_le" => Some(Builtin::Vlq),
                "vec3" => Some(Builtin::Vec3),
                _ => None,
            },
        }
    }

    /// The scalar a field holds, with `-scale` applied.
    /// A number of more than one byte needs a byte order: from its name (`u4le`) or the
    /// file's `meta/endian`.
    fn check_endian(&self, name: &str, base: Scalar, at: &YamlPath) -> Result<(), Located> {
        let explicit = name.ends_with("le") || name.ends_with("be");
        if base.size() > 1 && !explicit && self.big_endian.is_none() {
            return Err(Located::new(
                at,
                format!(
                    "`{name}` needs a byte order: set `meta/endian`, or write `{name}le` or `{name}be`"
                ),
            ));
        }
        Ok(())
    }

    /// The enum `name` means in the type being lowered.
    fn resolve_enum(&self, schema: &Schema, name: &str, at: &YamlPath) -> Result<usize, Located> {
        schema
            .resolve_enum(self.owner, name)
            .ok_or_else(|| Located::new(at, format!("unknown enum `{name}`")))
    }

    fn scalar(&self, base: Scalar, attr: &AttrSpec, at: &YamlPath) -> Result<Scalar, Located> {
        match (base, attr.scale) {
            (s, None) => Ok(s),
            (Scalar::Int(raw), Some(div)) if div > 0 => Ok(Scalar::Fixed { raw, div }),
            (Scalar::Int(_), Some(_)) => Err(Located::new(
                &at.key("-scale"),
                "`-scale` must be at least 1",
            )),
            _ => Err(Located::new(
                &at.key("-scale"),
                "`-scale` applies to integer types only (the raw value of a fixed-point number)",
            )),
        }
    }

    fn lower_field(
        &self,
        schema: &Schema,
        attr: &AttrSpec,
        at: &YamlPath,
    ) -> Result<Field, Located> {
        check_leftover_keys(&attr.other, KeyPlace::Attribute, at)?;
        // Callers check the identifier, or name the attribute themselves.
        let Some(id) = &attr.id else {
            return Err(Located::new(at, "every attribute of `seq` needs an `id`"));
        };
        if let Some(encoding) = &attr.encoding {
            check_encoding(encoding, &at.key("encoding"))?;
        }
        if attr.value.is_some() || attr.pos.is_some() {
            return Err(Located::new(
                at,
                "`value` and `pos` belong under `instances`, not in `seq`",
            ));
        }
        // `repeat-expr` and `repeat-until` belong to their own kind of `repeat` only.
        for (key, given, kind) in [
            ("repeat-expr", attr.repeat_expr.is_some(), "expr"),
            ("repeat-until", attr.repeat_until.is_some(), "until"),
        ] {
            if given && attr.repeat.as_deref() != Some(kind) {
                return Err(Located::new(
                    &at.key(key),
                    format!("`{key}` needs `repeat: {kind}`"),
                ));
            }
        }
        let repeat = match (attr.repeat.as_deref(), &attr.for_each) {
            (Some(_), Some(_)) => {
                return Err(Located::new(
                    &at.key("-for-each"),
                    "`-for-each` replaces `repeat`; use one of them",
                ));
            }
            (None, Some(list)) => Repeat::ForEach(parse_expr(list, &at.key("-for-each"))?),
            (repeat, None) => match repeat {
                None => Repeat::None,
                Some("expr") => Repeat::Expr(parse_expr(
                    attr.repeat_expr.as_ref().ok_or_else(|| {
                        Located::new(&at.key("repeat"), "`repeat: expr` needs `repeat-expr`")
                    })?,
                    &at.key("repeat-expr"),
                )?),
                Some("eos") => Repeat::Eos,
                Some("until") => Repeat::Until(parse_expr(
                    attr.repeat_until.as_ref().ok_or_else(|| {
                        Located::new(&at.key("repeat"), "`repeat: until` needs `repeat-until`")
                    })?,
                    &at.key("repeat-until"),
                )?),
                Some(other) => {
                    return Err(Located::new(
                        &at.key("repeat"),
                        format!("`repeat` must be `expr`, `eos` or `until`, not `{other}`"),
                    ));
                }
            },
        };
        let cond = attr
            .cond
            .as_ref()
            .map(|c| parse_expr(c, &at.key("if")))
            .transpose()?;
        let derived = attr
            .derived
            .as_ref()
            .map(|d| parse_expr(d, &at.key("-derived")))
            .transpose()?;
        let ty = self.lower_field_type(schema, attr, at)?;
        if attr.enum_name.is_some() && !matches!(ty, FieldType::Enum { .. }) {
            return Err(Located::new(
                &at.key("enum"),
                "`enum` applies to integer attributes only",
            ));
        }
        if derived.is_some() && !matches!(ty, FieldType::Number(Scalar::Int(_)) | FieldType::Vlq) {
            return Err(Located::new(
                &at.key("-derived"),
                "`-derived` applies to integer fields (sizes, counts, offsets)",
            ));
        }
        if derived.is_some() && (repeat != Repeat::None || cond.is_some()) {
            return Err(Located::new(
                &at.key("-derived"),
                "a `-derived` field cannot be repeated or conditional",
            ));
        }
        let untrusted = attr.untrusted == Some(true);
        if untrusted && derived.is_none() {
            return Err(Located::new(
                &at.key("-untrusted"),
                "`-untrusted` needs `-derived`: how the value follows from the content, so that `check()` can report it",
            ));
        }
        let delimited =
            attr.size.is_some() || attr.size_eos == Some(true) || attr.terminator.is_some();
        let substream = match &ty {
            FieldType::User { .. } | FieldType::Switch(_) if delimited => {
                Some(self.size(attr, at, "a substream")?)
            }
            _ => None,
        };
        let scan = attr
            .scan
            .as_ref()
            .map(|m| contents_bytes(m, &at.key("-scan")))
            .transpose()?;
        if scan.as_ref().is_some_and(Vec::is_empty) {
            return Err(Located::new(
                &at.key("-scan"),
                "`-scan` needs at least one marker byte",
            ));
        }
        let fill_index = match attr.fill.as_deref() {
            None => false,
            Some("index") => true,
            Some(other) => {
                return Err(Located::new(
                    &at.key("-fill"),
                    format!("`-fill` must be `index`, not `{other}`"),
                ));
            }
        };
        // A literal count of fixed-size built-in elements is an array: `[f32; 16]`, not a Vec.
        let (ty, repeat) = match (ty, repeat) {
            // Serde derives arrays of up to 32 elements.
            (ty, Repeat::Expr(Expr::Int(n))) if is_builtin_fixed(&ty) && (0..=32).contains(&n) => (
                FieldType::Array {
                    elem: Box::new(ty),
                    len: n as usize,
                },
                Repeat::None,
            ),
            other => other,
        };
        Ok(Field {
            id: id.clone(),
            doc: doc_with_refs(attr.doc.as_deref(), attr.doc_ref.as_ref()),
            ty,
            cond,
            repeat,
            derived,
            untrusted,
            substream,
            valid: lower_valid(attr.valid.as_ref(), &at.key("valid"))?,
            position: None,
            scan,
            fill_index,
            at: at.clone(),
        })
    }

    fn size(&self, attr: &AttrSpec, at: &YamlPath, what: &str) -> Result<Size, Located> {
        if let Some(size) = &attr.size {
            if let Some(n) = size.as_u64() {
                return Ok(Size::Const(n as usize));
            }
            return Ok(Size::Expr(parse_expr(size, &at.key("size"))?));
        }
        if attr.size_eos == Some(true) {
            return Ok(Size::Eos);
        }
        if let Some(byte) = attr.terminator {
            return Ok(Size::Terminator {
                byte,
                include: attr.include.unwrap_or(false),
                consume: attr.consume.unwrap_or(true),
                eos_error: attr.eos_error.unwrap_or(true),
            });
        }
        Err(Located::new(
            at,
            format!("{what} needs `size`, `size-eos: true` or `terminator`"),
        ))
    }

    fn lower_field_type(
        &self,
        schema: &Schema,
        attr: &AttrSpec,
        at: &YamlPath,
    ) -> Result<FieldType, Located> {
        let align = attr.align.unwrap_or(1);
        if let Some(value) = &attr.remember {
            let int = attr
                .ty
                .as_ref()
                .and_then(Value::as_str)
                .and_then(|t| self.builtin(t));
            let Some(Builtin::Scalar(Scalar::Int(ty))) = int else {
                return Err(Located::new(
                    &at.key("type"),
                    "a `-remember` value needs an integer `type`",
                ));
            };
            if let Some((min, max)) = attr.solve
                && min > max
            {
                return Err(Located::new(
                    &at.key("-solve"),
                    "`-solve` takes [min, max] with min <= max",
                ));
            }
            return Ok(FieldType::Remembered {
                value: parse_expr(value, &at.key("-remember"))?,
                ty,
                solve: attr.solve,
            });
        }
        if let Some(contents) = &attr.contents {
            return Ok(FieldType::Contents(contents_bytes(
                contents,
                &at.key("contents"),
            )?));
        }
        let Some(ty) = &attr.ty else {
            return Ok(FieldType::Bytes {
                size: self.size(attr, at, "an attribute without `type` (raw bytes)")?,
                align,
            });
        };
        if let Value::Mapping(map) = ty {
            return self.lower_switch(schema, map, attr, &at.key("type"));
        }
        let Some(name) = ty.as_str() else {
            return Err(Located::new(
                &at.key("type"),
                "`type` must be a name or a `switch-on` map",
            ));
        };
        self.lower_type_name(schema, name, attr, at)
    }

    fn lower_type_name(
        &self,
        schema: &Schema,
        name: &str,
        attr: &AttrSpec,
        at: &YamlPath,
    ) -> Result<FieldType, Located> {
        let type_at = at.key("type");
        match self.builtin(name) {
            Some(Builtin::Scalar(base)) => {
                self.check_endian(name, base, &type_at)?;
                let scalar = self.scalar(base, attr, at)?;
                if let Some(enum_name) = &attr.enum_name {
                    let Scalar::Int(raw) = scalar else {
                        return Err(Located::new(
                            &at.key("enum"),
                            "`enum` applies to integer types only",
                        ));
                    };
                    let enum_idx = self.resolve_enum(schema, enum_name, &at.key("enum"))?;
                    return Ok(FieldType::Enum { enum_idx, raw });
                }
                Ok(FieldType::Number(scalar))
            }
            Some(Builtin::Str { zero_terminated }) => {
                if attr.encoding.is_none() && !self.has_encoding {
                    return Err(Located::new(
                        &type_at,
                        "a string needs an `encoding`: set `meta/encoding`, or `encoding` on the attribute (ASCII, UTF-8)",
                    ));
                }
                let size = if zero_terminated && attr.size.is_none() && attr.size_eos != Some(true)
                {
                    // Kaitai: `strz` with no size runs to its NUL.
                    Size::Terminator {
                        byte: attr.terminator.unwrap_or(0),
                        include: attr.include.unwrap_or(false),
                        consume: attr.consume.unwrap_or(true),
                        eos_error: attr.eos_error.unwrap_or(true),
                    }
                } else {
                    self.size(attr, at, "a string")?
                };
                let terminated = zero_terminated || matches!(size, Size::Terminator { .. });
                Ok(FieldType::Str {
                    size,
                    align: attr.align.unwrap_or(1),
                    terminated,
                })
            }
            Some(Builtin::Vlq) => Ok(FieldType::Vlq),
            Some(Builtin::Quat | Builtin::Vec3) => {
                let component_name = attr.component.as_deref().unwrap_or("f4");
                let Some(Builtin::Scalar(base)) = self.builtin(component_name) else {
                    return Err(Located::new(
                        &at.key("-component"),
                        format!(
                            "`-component` must be a number type such as `f4` or `s2`, not `{component_name}`"
                        ),
                    ));
                };
                let component = self.scalar(base, attr, at)?;
                Ok(if name == "quat" {
                    FieldType::Quat(component)
                } else {
                    FieldType::Vec3(component)
                })
            }
            None => {
                let (type_name, args) = split_type_args(name, &type_at)?;
                let ty = schema.resolve_type(self.owner, type_name).ok_or_else(|| {
                    Located::new(
                        &type_at,
                        format!(
                            "unknown type `{type_name}`: not a built-in type (u1…u8, s1…s8, f4, f8, str, strz, quat, vec3) nor declared under `types`"
                        ),
                    )
                })?;
                let expected = schema.types[ty].params.len();
                if args.len() != expected {
                    return Err(Located::new(
                        &type_at,
                        format!(
                            "type `{type_name}` takes {expected} argument(s), {} given",
                            args.len()
                        ),
                    ));
                }
                Ok(FieldType::User { ty, args })
            }
        }
    }

    fn lower_switch(
        &self,
        schema: &Schema,
        map: &serde_yaml::Mapping,
        attr: &AttrSpec,
        at: &YamlPath,
    ) -> Result<FieldType, Located> {
        let on = map
            .get("switch-on")
            .ok_or_else(|| Located::new(at, "a `type` map needs `switch-on` and `cases`"))?;
        let on = parse_expr(on, &at.key("switch-on"))?;
        let Some(Value::Mapping(cases_map)) = map.get("cases") else {
            return Err(Located::new(
                at,
                "a `type` map needs `switch-on` and `cases`",
            ));
        };
        if let Some(key) = map
            .keys()
            .filter_map(Value::as_str)
            .find(|k| !matches!(*k, "switch-on" | "cases"))
        {
            return Err(Located::new(
                &at.key(key),
                format!("unknown key `{key}` in a switch"),
            ));
        }
        let mut cases = Vec::new();
        let mut default = None;
        for (key, value) in cases_map {
            let key_text = ksy::expr_text(key).unwrap_or_default();
            let case_at = at.key("cases").key(&key_text);
            let Some(type_name) = value.as_str() else {
                return Err(Located::new(&case_at, "a case must name a type"));
            };
            let case_attr = AttrSpec {
                enum_name: attr.enum_name.clone(),
                scale: attr.scale,
                component: attr.component.clone(),
                ..AttrSpec::default()
            };
            let ty = self
                .lower_type_name(
                    schema,
                    type_name,
                    &case_attr,
                    &case_at.parent().parent().parent(),
                )
                .map_err(|e| Located::new(&case_at, e.message))?;
            if key_text == "_" {
                default = Some(Box::new(ty));
            } else {
                cases.push(SwitchCase {
                    key: parse_expr(key, &case_at)?,
                    ty,
                });
            }
        }
        // Kaitai: a sized switch with no matching case keeps the bytes raw.
        if default.is_none() && attr.size.is_some() {
            default = Some(Box::new(FieldType::Bytes {
                size: Size::Eos,
                align: 1,
            }));
        }
        Ok(FieldType::Switch(Switch { on, cases, default }))
    }
}

/// Kaitai `valid`: a value, or a map of `eq`, `min`, `max` and `any-of`, turned into one
/// condition on the field and a description of what was expected.
fn lower_valid(valid: Option<&Value>, at: &YamlPath) -> Result<Option<(Expr, String)>, Located> {
    use crate::expr::BinOp;
    let Some(valid) = valid else {
        return Ok(None);
    };
    // The rule is checked for each value: the field's, or each element of a list.
    let this = || Box::new(Expr::Name("_".to_owned()));
    let compare = |op, value: &Value, key: &str| -> Result<(Expr, String), Located> {
        let rhs = parse_expr(value, &at.key(key))?;
        let text = crate::expr::to_source(&rhs);
        Ok((Expr::Binary(op, this(), Box::new(rhs)), text))
    };
    let mut parts: Vec<(Expr, String)> = Vec::new();
    match valid {
        Value::Mapping(map) => {
            for (key, value) in map {
                let key = key.as_str().unwrap_or_default();
                match key {
                    "eq" => {
                        let (e, t) = compare(BinOp::Eq, value, key)?;
                        parts.push((e, format!("equal to {t}")));
                    }
                    "min" => {
                        let (e, t) = compare(BinOp::Ge, value, key)?;
                        parts.push((e, format!("at least {t}")));
                    }
                    "max" => {
                        let (e, t) = compare(BinOp::Le, value, key)?;
                        parts.push((e, format!("at most {t}")));
                    }
                    "any-of" => {
                        let Value::Sequence(items) = value else {
                            return Err(Located::new(&at.key(key), "`any-of` takes a list"));
                        };
                        let mut alternatives = Vec::new();
                        let mut texts = Vec::new();
                        for item in items {
                            let (e, t) = compare(BinOp::Eq, item, key)?;
                            alternatives.push(e);
                            texts.push(t);
                        }
                        let Some(any) = alternatives
                            .into_iter()
                            .reduce(|a, b| Expr::Binary(BinOp::Or, Box::new(a), Box::new(b)))
                        else {
                            return Err(Located::new(
                                &at.key(key),
                                "`any-of` needs at least one value",
                            ));
                        };
                        parts.push((any, format!("one of {}", texts.join(", "))));
                    }
                    "expr" => {
                        let rule = parse_expr(value, &at.key(key))?;
                        let text = crate::expr::to_source(&rule);
                        parts.push((rule, format!("for which {text} holds")));
                    }
                    other => {
                        return Err(Located::new(
                            &at.key(other),
                            format!(
                                "unknown `valid` key `{other}`: use eq, min, max, any-of or expr"
                            ),
                        ));
                    }
                }
            }
        }
        value => {
            let (e, t) = compare(BinOp::Eq, value, "valid")?;
            parts.push((e, format!("equal to {t}")));
        }
    }
    let text = parts
        .iter()
        .map(|(_, t)| t.as_str())
        .collect::<Vec<_>>()
        .join(" and ");
    let cond = parts
        .into_iter()
        .map(|(e, _)| e)
        .reduce(|a, b| Expr::Binary(BinOp::And, Box::new(a), Box::new(b)));
    Ok(cond.map(|c| (c, text)))
}

/// Built-in values of a fixed size, which a literal count turns into an array.
fn is_builtin_fixed(ty: &FieldType) -> bool {
    matches!(
        ty,
        FieldType::Number(_)
            | FieldType::Quat(_)
            | FieldType::Vec3(_)
            | FieldType::Str {
                size: Size::Const(_),
                align: 0 | 1,
                ..
            }
    )
}

/// Splits `name(a, b)` into the name and argument expressions.
fn split_type_args<'a>(name: &'a str, at: &YamlPath) -> Result<(&'a str, Vec<Expr>), Located> {
    let Some((base, rest)) = name.split_once('(') else {
        return Ok((name, Vec::new()));
    };
    let Some(inner) = rest.strip_suffix(')') else {
        return Err(Located::new(at, format!("`{name}`: missing `)`")));
    };
    let mut args = Vec::new();
    let mut depth = 0;
    let mut start = 0;
    for (i, c) in inner.char_indices() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            ',' if depth == 0 => {
                args.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if !inner.trim().is_empty() {
        args.push(&inner[start..]);
    }
    let args = args
        .into_iter()
        .map(|a| {
            expr::parse(a.trim()).map_err(|e| {
                Located::new(at, format!("bad argument `{}` to `{base}`: {e}", a.trim()))
            })
        })
        .collect::<Result<_, _>>()?;
    Ok((base.trim(), args))
}
