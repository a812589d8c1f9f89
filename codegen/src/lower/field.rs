//! Attributes of `seq` (and `pos` instances): their type, size, repetition, condition,
//! extensions and `valid` rule.

use serde_yaml::Value;

use super::*;

impl Context {
    pub(super) fn lower_field(
        &self,
        schema: &Schema,
        attr: &AttrSpec,
        at: &YamlPath,
    ) -> Result<Field, Located> {
        check_leftover_keys(&attr.other, KeyPlace::Attribute, at)?;
        if attr.in_sequence.is_some() {
            return Err(Located::new(
                &at.key("-in-sequence"),
                "`-in-sequence` belongs to an instance read by position (`pos`)",
            ));
        }
        // Callers check the identifier, or name the attribute themselves.
        let Some(id) = &attr.id else {
            return Err(Located::new(at, "every attribute of `seq` needs an `id`"));
        };
        if attr.value.is_some() || attr.pos.is_some() || attr.io.is_some() {
            return Err(Located::new(
                at,
                "`value`, `pos` and `io` belong under `instances`, not in `seq`",
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
                Some("expr") => Repeat::Expr(repeat_rule(attr.repeat_expr.as_ref(), "expr", at)?),
                Some("eos") => Repeat::Eos,
                Some("until") => {
                    Repeat::Until(repeat_rule(attr.repeat_until.as_ref(), "until", at)?)
                }
                Some(other) => {
                    return Err(Located::new(
                        &at.key("repeat"),
                        format!("`repeat` must be `expr`, `eos` or `until`, not `{other}`"),
                    ));
                }
            },
        };
        let cond = parse_optional_expr(attr.cond.as_ref(), &at.key("if"))?;
        // `-derived: false` turns inference off for the field.
        let never_derived = attr.derived == Some(Value::Bool(false));
        let checksum = attr.derived.as_ref().and_then(checksum);
        let derived = match never_derived || checksum.is_some() {
            true => None,
            false => parse_optional_expr(attr.derived.as_ref(), &at.key("-derived"))?,
        };
        let ty = self.lower_field_type(schema, attr, at)?;
        if attr.enum_name.is_some()
            && !matches!(
                ty,
                FieldType::Enum { .. }
                    | FieldType::Bits {
                        enum_idx: Some(_),
                        ..
                    }
            )
        {
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
        let holds_checksum = matches!(
            ty,
            FieldType::Number(Scalar::Int(IntType { bytes: 4, .. }))
                | FieldType::Bytes {
                    size: Size::Const(4),
                    ..
                }
        );
        if checksum.is_some() && (!holds_checksum || repeat != Repeat::None || cond.is_some()) {
            return Err(Located::new(
                &at.key("-derived"),
                "a checksum is held by a single field of 4 bytes: a `u4`, or `size: 4` (big-endian)",
            ));
        }
        if derived.is_some() && repeat != Repeat::None {
            return Err(Located::new(
                &at.key("-derived"),
                "a `-derived` field cannot be repeated",
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
        let decode = self.decode(attr, &ty, at)?;
        let ty = match ty {
            // A processed byte array, or a string decoded from its encoding, is all of its
            // decoded bytes.
            FieldType::Bytes { .. } if decode.is_some() => FieldType::rest_of_stream(),
            FieldType::Str { .. } if decode.is_some() => FieldType::Str {
                size: Size::Eos,
                align: 1,
                terminated: false,
                content: Content::default(),
            },
            ty => ty,
        };
        let substream = match &ty {
            FieldType::User { .. } | FieldType::Switch(_) if delimited && decode.is_none() => {
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
            derived_inferred: None,
            relocation: None,
            never_derived,
            checksum,
            derived_elsewhere: false,
            padding: false,
            substream,
            decode,
            valid: lower_valid(attr.valid.as_ref(), &at.key("valid"))?,
            position: None,
            stream: Stream::Own,
            kept_as_read: false,
            parse_instance: false,
            from_instance: false,
            read_again: false,
            read_later: None,
            parent: parse_optional_expr(attr.parent.as_ref(), &at.key("parent"))?,
            scan,
            fill_index,
            in_sequence: false,
            at: at.clone(),
        })
    }

    /// How the values of a field with `process`, or of a user type framed by `pad-right` or a
    /// terminator within its size, are decoded from their bytes.
    fn decode(
        &self,
        attr: &AttrSpec,
        ty: &FieldType,
        at: &YamlPath,
    ) -> Result<Option<Decode>, Located> {
        // A terminator or padding frames the value: its bytes are kept (`rt::Decoded`), so that a
        // missing terminator or what follows it is written back as read.
        let framed = attr.pad_right.is_some() || attr.terminator.is_some();
        let process = match &attr.process {
            Some(text) => Some(parse_process(text, &at.key("process"))?),
            None => None,
        };
        match ty {
            FieldType::Str { size, content, .. } => {
                let label = attr.encoding.as_ref().or(self.encoding.as_ref());
                match (label.and_then(|l| text_process(l)), &process) {
                    (_, Some(_)) => Err(Located::new(
                        &at.key("process"),
                        "`process` applies to byte arrays and user types",
                    )),
                    // Text that ends at its first NUL and keeps what follows (`rt::VarStr`)
                    // needs no frame; other padding and terminators do.
                    (None, None) if !content.frames_beyond_nul() => Ok(None),
                    (None, None) => Ok(Some(Decode {
                        size: size.clone(),
                        content: *content,
                        process: None,
                    })),
                    (Some((process, unit)), None) => Ok(Some(Decode {
                        size: size.clone(),
                        content: Content { unit, ..*content },
                        process: Some(process),
                    })),
                }
            }
            FieldType::Bytes { size, content, .. } if process.is_some() || framed => {
                Ok(Some(Decode {
                    size: size.clone(),
                    content: *content,
                    process,
                }))
            }
            FieldType::User { .. } | FieldType::Switch(_) if process.is_some() || framed => {
                let size = self.size(attr, at, "a processed or padded user type")?;
                Ok(Some(Decode {
                    content: super::types::content(attr, &size, false, at)?,
                    size,
                    process,
                }))
            }
            _ if process.is_some() => Err(Located::new(
                &at.key("process"),
                "`process` applies to byte arrays and user types",
            )),
            _ => Ok(None),
        }
    }

    pub(super) fn size(&self, attr: &AttrSpec, at: &YamlPath, what: &str) -> Result<Size, Located> {
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
}

/// Kaitai `valid`: a value (`eq`), or a map of `eq`, `min`, `max`, `any-of`, `in-enum` and
/// `expr`, each a rule on the value `_`.
pub(super) fn lower_valid(valid: Option<&Value>, at: &YamlPath) -> Result<Vec<Valid>, Located> {
    use crate::expr::BinOp;
    let Some(valid) = valid else {
        return Ok(Vec::new());
    };
    let this = || Box::new(Expr::Name("_".to_owned()));
    let compare = |op, value: &Value, key: &str| -> Result<(Expr, String), Located> {
        let rhs = parse_expr(value, &at.key(key))?;
        let text = crate::expr::to_source(&rhs);
        Ok((Expr::Binary(op, this(), Box::new(rhs)), text))
    };
    let rule = |kind, (rule, expected): (Expr, String)| Valid {
        kind,
        rule,
        expected,
    };
    let Value::Mapping(map) = valid else {
        let (e, t) = compare(BinOp::Eq, valid, "valid")?;
        return Ok(vec![rule(ValidKind::Eq, (e, format!("equal to {t}")))]);
    };
    let mut rules = Vec::new();
    for (key, value) in map {
        let key = key.as_str().unwrap_or_default();
        rules.push(match key {
            "eq" => {
                let (e, t) = compare(BinOp::Eq, value, key)?;
                rule(ValidKind::Eq, (e, format!("equal to {t}")))
            }
            "min" => {
                let (e, t) = compare(BinOp::Ge, value, key)?;
                rule(ValidKind::Min, (e, format!("at least {t}")))
            }
            "max" => {
                let (e, t) = compare(BinOp::Le, value, key)?;
                rule(ValidKind::Max, (e, format!("at most {t}")))
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
                rule(
                    ValidKind::AnyOf,
                    (any, format!("one of {}", texts.join(", "))),
                )
            }
            "in-enum" => match value {
                Value::Bool(true) => rule(
                    ValidKind::InEnum,
                    (Expr::Bool(true), "its enum names".into()),
                ),
                _ => {
                    return Err(Located::new(
                        &at.key(key),
                        "`in-enum` takes only `true`; without validation, leave `valid` out",
                    ));
                }
            },
            "expr" => {
                let expr = parse_expr(value, &at.key(key))?;
                let text = crate::expr::to_source(&expr);
                rule(ValidKind::Expr, (expr, format!("for which {text} holds")))
            }
            other => {
                return Err(Located::new(
                    &at.key(other),
                    format!(
                        "unknown `valid` key `{other}`: use eq, min, max, any-of, in-enum or expr"
                    ),
                ));
            }
        });
    }
    Ok(rules)
}

/// `process`: `xor(key)`, `rol(n)`, `ror(n)`, `zlib`, or a custom processor `a.b.name(args)`.
/// How text in the encoding `label` names is decoded, with its code unit's length: not at all
/// for UTF-8 and ASCII, which skelcodec keeps as their bytes. An encoding Kaitai does not know
/// fails where a value is read in it, as Kaitai's runtimes raise there (the checker warns).
/// `-derived: crc32(a, b)` (or `adler32`): the checksum of the bytes the fields it names are
/// written as, which the writer computes; `None` for an expression (which may compute a
/// checksum of bytes it gives: `crc32(_parent.body)`, `crc32(inflated(body))`).
fn checksum(derived: &Value) -> Option<Checksum> {
    let text = crate::ksy::expr_text(derived)?;
    let (name, rest) = text.trim().split_once('(')?;
    let algorithm = match name.trim() {
        "crc32" => ChecksumAlgorithm::Crc32,
        "adler32" => ChecksumAlgorithm::Adler32,
        _ => return None,
    };
    let over: Vec<String> = rest
        .strip_suffix(')')?
        .split(',')
        .map(|name| name.trim().to_owned())
        .collect();
    let names_fields = over.iter().all(|name| {
        name.starts_with(|c: char| c.is_ascii_lowercase())
            && name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
    });
    names_fields.then_some(Checksum { algorithm, over })
}

fn text_process(label: &str) -> Option<(Process, u8)> {
    match skelcodec_runtime::encoding::Encoding::for_label(label) {
        Some(encoding) if crate::keys::text_is_its_bytes(encoding) => None,
        Some(encoding) => Some((Process::Encoding(encoding), encoding.unit_len() as u8)),
        None => Some((Process::UnknownEncoding(label.to_owned()), 1)),
    }
}

fn parse_process(text: &str, at: &YamlPath) -> Result<Process, Located> {
    let (name, args) = super::types::split_type_args(text.trim(), at)?;
    let one_argument = |args: Vec<Expr>| -> Result<Expr, Located> {
        match <[Expr; 1]>::try_from(args) {
            Ok([arg]) => Ok(arg),
            Err(_) => Err(Located::new(at, format!("`{name}` takes one argument"))),
        }
    };
    Ok(match name {
        "zlib" if args.is_empty() => Process::Zlib,
        "zlib" => return Err(Located::new(at, "`zlib` takes no arguments")),
        "xor" => Process::Xor(one_argument(args)?),
        "rol" => Process::Rol(one_argument(args)?),
        "ror" => Process::Ror(one_argument(args)?),
        custom => {
            let mut modules: Vec<String> = custom.split('.').map(str::to_owned).collect();
            for (i, segment) in modules.iter().enumerate() {
                check_identifier(segment, at)?;
                // Rust's path roots: `self` or `crate` first, `super` after roots only.
                let after_roots = modules[..i].iter().all(|m| m == "self" || m == "super");
                let root = match segment.as_str() {
                    "self" | "crate" => i == 0,
                    "super" => after_roots,
                    _ => true,
                };
                if !root {
                    return Err(Located::new(
                        at,
                        format!(
                            "`{segment}` can only begin a processor's path (`self.`, `super.`, `crate.`)"
                        ),
                    ));
                }
            }
            let name = modules.pop().unwrap_or_default();
            // The processor is the user's Rust type `a::b::MyFx`: a prelude name would be
            // taken for the prelude's.
            if crate::names::is_reserved_type_name(&name) {
                return Err(Located::new(
                    at,
                    format!(
                        "a processor named `{name}` would be the Rust type `{}`, a name generated code uses: rename it",
                        crate::names::pascal(&name)
                    ),
                ));
            }
            Process::Custom {
                modules,
                name,
                args,
            }
        }
    })
}

/// Built-in values of a fixed size, which a literal count turns into an array.
pub(super) fn is_builtin_fixed(ty: &FieldType) -> bool {
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

/// The expression of `repeat: kind`, given under `repeat-<kind>`.
fn repeat_rule(value: Option<&Value>, kind: &str, at: &YamlPath) -> Result<Expr, Located> {
    let key = format!("repeat-{kind}");
    let value = value.ok_or_else(|| {
        Located::new(&at.key("repeat"), format!("`repeat: {kind}` needs `{key}`"))
    })?;
    parse_expr(value, &at.key(&key))
}
