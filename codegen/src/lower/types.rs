//! Type names: built-in types with their byte order, user types with their arguments,
//! switches, enums and parameter types.

use serde_yaml::Value;

use super::*;

/// A built-in type name, decoded.
pub(super) enum Builtin {
    Scalar(Scalar),
    /// `bN`, `bNbe`, `bNle`: width and bit order.
    Bits(u8, bool),
    Str {
        zero_terminated: bool,
    },
    Quat,
    Vec3,
    Vlq,
}

impl Context {
    pub(super) fn lower_param(
        &self,
        schema: &Schema,
        p: &ksy::ParamSpec,
        at: &YamlPath,
    ) -> Result<Param, Located> {
        check_identifier(&p.id, &at.key("id"))?;
        check_leftover_keys(&p.other, KeyPlace::Param, at)?;
        let ty = self.param_type(schema, p, &at.key("type"))?;
        if p.enum_name.is_some() && !matches!(ty, ParamType::Enum(_)) {
            return Err(Located::new(
                &at.key("enum"),
                "`enum` applies to integer parameters only",
            ));
        }
        let default = parse_optional_expr(p.default.as_ref(), &at.key("-default"))?;
        Ok(Param {
            id: p.id.clone(),
            doc: doc_with_refs(p.doc.as_deref(), p.doc_ref.as_ref()),
            ty,
            default,
            kept: false,
            writers_lack: false,
        })
    }

    fn param_type(
        &self,
        schema: &Schema,
        p: &ksy::ParamSpec,
        at: &YamlPath,
    ) -> Result<ParamType, Located> {
        let (name, list) = match p.ty.strip_suffix("[]") {
            Some(element) => (element, true),
            None => (p.ty.as_str(), false),
        };
        Ok(match (self.builtin(name), list, &p.enum_name) {
            (Some(Builtin::Scalar(Scalar::Int(_))), true, _) => ParamType::IntList,
            (Some(Builtin::Scalar(Scalar::Int(_))), false, Some(e)) => {
                ParamType::Enum(self.resolve_enum(schema, e, &at.parent().key("enum"))?)
            }
            (Some(Builtin::Scalar(Scalar::Int(i))), false, None) => ParamType::Int(i),
            (_, false, _) if name == "bool" || name == "b1" => ParamType::Bool,
            (_, false, _) if name == "str" => ParamType::Str,
            (_, false, _) if name == "bytes" => ParamType::Bytes,
            (_, false, _) if name == "io" => ParamType::Io,
            (_, false, _) if name == "struct" => ParamType::AnyStruct,
            (_, true, _) if name == "struct" => ParamType::AnyStructList,
            (_, true, _) if name == "str" => ParamType::StrList,
            (_, true, _) if name == "io" => ParamType::IoList,
            (_, _, _) if matches!(name, "struct" | "io" | "any") => {
                return Err(Located::new(
                    at,
                    format!("parameter type `{}` (Kaitai) is not implemented yet", p.ty),
                ));
            }
            (None, list, _) => match schema.resolve_type(self.owner, name) {
                Some(ty) if list => ParamType::UserList(ty),
                Some(ty) => ParamType::User(ty),
                None => return Err(Located::new(at, unsupported_param(&p.ty))),
            },
            _ => return Err(Located::new(at, unsupported_param(&p.ty))),
        })
    }

    pub(super) fn builtin(&self, name: &str) -> Option<Builtin> {
        let (base, order) = match name.strip_suffix("le") {
            Some(b) if name.len() > 2 => (b, ByteOrder::Little),
            _ => match name.strip_suffix("be") {
                Some(b) if name.len() > 2 => (b, ByteOrder::Big),
                _ => (name, self.byte_order.unwrap_or(ByteOrder::Little)),
            },
        };
        if let Some(width) = base.strip_prefix('b').and_then(|w| w.parse::<u8>().ok())
            && (1..=64).contains(&width)
            && !base[1..].starts_with('0')
        {
            let big_endian = match name.len() - base.len() {
                0 => self.bit_big_endian,
                _ => name.ends_with("be"),
            };
            return Some(Builtin::Bits(width, big_endian));
        }
        let int = |bytes: u8, signed| {
            Some(Builtin::Scalar(Scalar::Int(IntType {
                bytes,
                signed,
                // One byte has no order: no need to wait for a chosen one.
                order: if bytes == 1 { ByteOrder::Little } else { order },
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
                order,
            }))),
            "f8" => Some(Builtin::Scalar(Scalar::Float(FloatType {
                bytes: 8,
                order,
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
    pub(super) fn check_endian(
        &self,
        name: &str,
        base: Scalar,
        at: &YamlPath,
    ) -> Result<(), Located> {
        let explicit = name.ends_with("le") || name.ends_with("be");
        if base.size() > 1 && !explicit && self.byte_order.is_none() {
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
    pub(super) fn resolve_enum(
        &self,
        schema: &Schema,
        name: &str,
        at: &YamlPath,
    ) -> Result<usize, Located> {
        schema
            .resolve_enum(self.owner, name)
            .ok_or_else(|| Located::new(at, format!("unknown enum `{name}`")))
    }

    pub(super) fn scalar(
        &self,
        base: Scalar,
        attr: &AttrSpec,
        at: &YamlPath,
    ) -> Result<Scalar, Located> {
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

    pub(super) fn lower_field_type(
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
            if attr.valid.is_some() {
                return Err(Located::new(
                    &at.key("valid"),
                    "`contents` already fixes and checks these bytes: a `valid` rule on them would decide nothing",
                ));
            }
            return Ok(FieldType::Contents(contents_bytes(
                contents,
                &at.key("contents"),
            )?));
        }
        let Some(ty) = &attr.ty else {
            let size = self.size(attr, at, "an attribute without `type` (raw bytes)")?;
            return Ok(FieldType::Bytes {
                content: content(attr, &size, false, at)?,
                size,
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

    pub(super) fn lower_type_name(
        &self,
        schema: &Schema,
        name: &str,
        attr: &AttrSpec,
        at: &YamlPath,
    ) -> Result<FieldType, Located> {
        let type_at = at.key("type");
        // skelcodec's own built-in names (`vlq_base128_le`, `quat`, `vec3`) give way to a
        // schema's type of that name, as the gallery's imported `vlq_base128_le`.
        let builtin = self.builtin(name).filter(|b| {
            !matches!(b, Builtin::Vlq | Builtin::Quat | Builtin::Vec3)
                || schema.resolve_type(self.owner, name).is_none()
        });
        match builtin {
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
                if attr.encoding.is_none() && self.encoding.is_none() {
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
                    content: content(attr, &size, zero_terminated, at)?,
                    size,
                    align: attr.align.unwrap_or(1),
                    terminated,
                })
            }
            Some(Builtin::Vlq) => Ok(FieldType::Vlq),
            Some(Builtin::Bits(width, big_endian)) => {
                let enum_idx = attr
                    .enum_name
                    .as_ref()
                    .map(|e| self.resolve_enum(schema, e, &at.key("enum")))
                    .transpose()?;
                Ok(FieldType::Bits {
                    width,
                    big_endian,
                    enum_idx,
                })
            }
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

    pub(super) fn lower_switch(
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
            // Vendor keys (`-…`) are other tools' business, as everywhere in a schema.
            .find(|k| !matches!(*k, "switch-on" | "cases" | "-unmatched") && !k.starts_with('-'))
        {
            return Err(Located::new(
                &at.key(key),
                format!("unknown key `{key}` in a switch"),
            ));
        }
        let unmatched_is_error = match map.get("-unmatched") {
            None => false,
            Some(Value::String(s)) if s == "error" => true,
            Some(_) => {
                return Err(Located::new(
                    &at.key("-unmatched"),
                    "`-unmatched` takes one value, `error`: a selector that matches no case is a read error instead of Kaitai's `null`",
                ));
            }
        };
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
        if default.is_none() && !unmatched_is_error {
            default = unmatched(attr, &cases).map(Box::new);
        }
        Ok(FieldType::Switch(Switch { on, cases, default }))
    }
}

/// What a switch without `_` holds when its selector matches no case, as in Kaitai: a sized
/// switch keeps the bytes raw; an unsized one reads nothing, and its value is `null` (a
/// counted list of it, one `null` per element: Minecraft's NBT writes an empty list as a list
/// of `TAG_End`, which no case names). `None` (a read error) when the cases cover every value,
/// and for a list read to the end of its stream or to a condition on its element: a list of
/// nothing would never reach the one, and has no element to test for the other.
fn unmatched(attr: &AttrSpec, cases: &[SwitchCase]) -> Option<FieldType> {
    if attr.size.is_some() || attr.size_eos == Some(true) {
        return Some(FieldType::rest_of_stream());
    }
    let covers = |b| cases.iter().any(|c| c.key == Expr::Bool(b));
    let exhaustive = covers(true) && covers(false);
    let ends = !matches!(attr.repeat.as_deref(), Some("eos" | "until"));
    (ends && !exhaustive).then_some(FieldType::Nothing)
}

/// What of a string's or byte array's bytes is its value: `strz` and a `terminator` end it,
/// `pad-right` (only with a size: a terminated run has no padding) is stripped first.
pub(super) fn content(
    attr: &AttrSpec,
    size: &Size,
    strz: bool,
    at: &YamlPath,
) -> Result<Content, Located> {
    if attr.pad_right.is_some() && matches!(size, Size::Terminator { .. }) {
        return Err(Located::new(
            &at.key("pad-right"),
            "`pad-right` needs `size` or `size-eos`: it strips the padding of a sized value",
        ));
    }
    let terminator = match size {
        Size::Terminator { byte, .. } => Some(*byte),
        _ => attr.terminator.or(strz.then_some(0)),
    };
    Ok(Content {
        pad_right: attr.pad_right,
        terminator,
        include: attr.include.unwrap_or(false),
        unit: 1,
    })
}

/// Splits `name(a, b)` into the name and argument expressions.
pub(super) fn split_type_args<'a>(
    name: &'a str,
    at: &YamlPath,
) -> Result<(&'a str, Vec<Expr>), Located> {
    // A block scalar (`type: |`) spreads the arguments over lines and ends with a newline.
    let name = name.trim();
    let Some((base, rest)) = name.split_once('(') else {
        return Ok((name, Vec::new()));
    };
    let base = base.trim_end();
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

fn unsupported_param(ty: &str) -> String {
    format!(
        "parameter type `{ty}` is not supported: use an integer type, `bool`, `str`, `bytes`, `io`, `struct`, a user type, or a list of integers, strings, structures or of a user type"
    )
}
