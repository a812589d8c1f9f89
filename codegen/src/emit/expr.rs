//! Compiles schema expressions to Rust, checking their types on the way. The same compiler
//! validates schemas (errors carry plain messages) and emits code (it then cannot fail).
//!
//! Integers compute in `i64` as in Kaitai Struct, with wrapping arithmetic so that hostile
//! values never panic; lengths and counts are range-checked where they are used.

use proc_macro2::{Literal, TokenStream};
use quote::{ToTokens as _, format_ident, quote};

use super::names::{enum_ident, field_ident, local_ident, variant_ident};
use super::sizes::field_len;
use crate::expr::{BinOp, Expr, UnaryOp};
use crate::model::*;

/// Where an expression runs, which decides what names mean.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// In a reader: fields read so far are locals, `_io` is the reader `r`.
    Read,
    /// In a writer: fields are `self.…`, parameters are arguments.
    Write,
    /// In `check`, `normalize` and value instances: fields are `self.…`, no parameters.
    Inspect,
}

/// The type of a compiled expression.
#[derive(Debug, Clone, PartialEq)]
pub enum Ty {
    /// `i64`.
    Int,
    /// `f64`.
    Float,
    /// `bool`.
    Bool,
    /// A string value (compared through its text bytes).
    Str,
    /// A string literal.
    StrLit,
    /// Raw bytes.
    Bytes,
    /// An enum value.
    Enum(usize),
    /// A user-type value.
    User(usize),
    /// A list.
    Array(Box<Ty>),
    /// A list literal of integers or of strings (`[0x50, 0x4b]`, `["a", "b"]`).
    ListLit(Box<Ty>),
    /// A switch value (only its `_sizeof` is usable).
    Switch,
    /// A quaternion or vector.
    Composite,
    /// The reader stream.
    Io,
}

/// Why an expression does not compile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExprError {
    /// The expression needs the input stream, which only a reader has.
    NeedsStream,
    /// A real mistake in the schema.
    Invalid(String),
}

impl ExprError {
    /// The plain message.
    pub fn message(&self) -> String {
        match self {
            ExprError::NeedsStream => "`_io` is only available while reading".into(),
            ExprError::Invalid(m) => m.clone(),
        }
    }
}

type Compiled = Result<(TokenStream, Ty), ExprError>;

/// The result of compiling an expression that validation already compiled in the same context:
/// it cannot fail, and a failure is a bug in the generator, not a schema error.
pub fn expect_valid<T>(result: Result<T, ExprError>) -> T {
    result.unwrap_or_else(|e| panic!("validated expression failed to compile: {}", e.message()))
}

fn invalid<T>(message: impl Into<String>) -> Result<T, ExprError> {
    Err(ExprError::Invalid(message.into()))
}

/// A compiled place before it is turned into a value: knows its field for `_sizeof`.
struct Place<'s> {
    tokens: TokenStream,
    ty: Ty,
    field: Option<&'s Field>,
    optional: bool,
}

/// The names an expression can see.
#[derive(Clone)]
pub struct Scope<'s> {
    schema: &'s Schema,
    ty: usize,
    mode: Mode,
    /// In read mode, how many fields are read already.
    visible_fields: usize,
    /// The `_` of `repeat-until` or `sum`: its Rust name and type.
    element: Option<(TokenStream, Ty)>,
    /// Set when compiling an instance of another value (`structure.version`): that value's
    /// place, through which its fields are reached.
    owner: Option<TokenStream>,
    /// The expression decides how bytes are read (true for every scope a reader scope opens,
    /// even the inspect scopes of instances reached through fields): `-untrusted` values are
    /// then out of reach.
    reading: bool,
    depth: usize,
}

impl<'s> Scope<'s> {
    /// A scope inside type `ty`; in read mode only fields before `visible_fields` exist.
    pub fn new(schema: &'s Schema, ty: usize, mode: Mode, visible_fields: usize) -> Self {
        Self {
            schema,
            ty,
            mode,
            visible_fields,
            element: None,
            owner: None,
            reading: mode == Mode::Read,
            depth: 0,
        }
    }

    /// The same scope with `_` bound to `name` of type `elem`.
    pub fn with_element(&self, name: TokenStream, elem: Ty) -> Self {
        let mut scope = self.clone();
        scope.element = Some((name, elem));
        scope
    }

    fn def(&self) -> &'s TypeDef {
        &self.schema.types[self.ty]
    }

    /// Compiles an expression that must produce an `i64`.
    pub fn int(&self, e: &Expr) -> Result<TokenStream, ExprError> {
        match self.compile(e)? {
            (t, Ty::Int) => Ok(t),
            (_, other) => invalid(format!("expected an integer, found {}", describe(&other))),
        }
    }

    /// Compiles an expression that must produce a `bool`.
    pub fn bool(&self, e: &Expr) -> Result<TokenStream, ExprError> {
        match self.compile(e)? {
            (t, Ty::Bool) => Ok(t),
            (_, other) => invalid(format!("expected a boolean, found {}", describe(&other))),
        }
    }

    /// The arguments passed to user type `ty`, compiled for its parameters' types.
    pub fn arguments(&self, ty: usize, args: &[Expr]) -> Vec<TokenStream> {
        let def = &self.schema.types[ty];
        args.iter()
            .zip(&def.params)
            .map(|(arg, param)| match param.ty {
                ParamType::Int(_) => expect_valid(self.int(arg)),
                ParamType::Bool => expect_valid(self.bool(arg)),
            })
            .collect()
    }

    /// Compiles any expression to a value.
    pub fn compile(&self, e: &Expr) -> Compiled {
        if self.depth > 32 {
            return invalid("expression nests too deeply (an instance that refers to itself?)");
        }
        match e {
            Expr::Int(n) => Ok((int_literal(*n)?, Ty::Int)),
            Expr::Float(f) => Ok((quote!(#f), Ty::Float)),
            Expr::Bool(b) => Ok((quote!(#b), Ty::Bool)),
            Expr::Str(s) => {
                let lit = Literal::byte_string(s.as_bytes());
                Ok((quote!(#lit.as_slice()), Ty::StrLit))
            }
            Expr::EnumLit { enum_name, variant } => self.enum_literal(enum_name, variant),
            Expr::Unary(op, inner) => self.unary(*op, inner),
            Expr::Binary(op, a, b) => self.binary(*op, a, b),
            Expr::Ternary(c, a, b) => {
                let c = self.bool(c)?;
                let (a, ta) = self.compile(a)?;
                let (b, tb) = self.compile(b)?;
                if ta != tb {
                    return invalid(format!(
                        "the branches of `?:` differ: {} and {}",
                        describe(&ta),
                        describe(&tb)
                    ));
                }
                Ok((quote!(if #c { #a } else { #b }), ta))
            }
            Expr::Method(recv, name, args) => self.method(recv, name, args),
            Expr::Index(base, index) => self.index(base, index),
            Expr::List(items) => list_literal(self, items),
            Expr::Name(_) | Expr::Attr(..) => {
                let place = self.place(e)?;
                self.value(place)
            }
        }
    }

    /// `list[i].field` of a list of structures: absent when `i` is out of range, so it reads
    /// like a conditional field (a number as 0, a list or string as empty).
    fn element_field(&self, list: &Expr, index: &Expr, attr: &str) -> Result<Place<'s>, ExprError> {
        let (list, ty) = self.compile(list)?;
        let Ty::Array(elem) = ty else {
            return invalid(format!("indexing {} is not supported yet", describe(&ty)));
        };
        let Ty::User(user) = *elem else {
            return invalid(format!(
                "`.{attr}` of an element needs a list of structures, found a list of {}",
                describe(&elem)
            ));
        };
        let def = &self.schema.types[user];
        let Some(field) = def.fields.iter().find(|f| f.id == attr) else {
            return invalid(format!(
                "type `{}` has no field `{attr}` (instances of list elements are not supported yet)",
                def.id
            ));
        };
        self.trusted(field)?;
        let i = self.int(index)?;
        let ident = field_ident(attr);
        let at = quote!(usize::try_from(#i).unwrap_or(usize::MAX));
        let copied = field.repeat == Repeat::None
            && matches!(field.ty, FieldType::Number(_) | FieldType::Enum { .. });
        let element = if field.cond.is_some() {
            quote!(#list.get(#at).and_then(|e| e.#ident.as_ref()))
        } else {
            quote!(#list.get(#at).map(|e| &e.#ident))
        };
        let tokens = if copied {
            quote!(#element.copied())
        } else {
            element
        };
        Ok(Place {
            tokens,
            ty: field_ty(self.schema, field),
            field: Some(field),
            optional: true,
        })
    }

    /// `a[i]` of a list of integers or of bytes; out of range reads as 0, since expressions
    /// cannot fail.
    fn index(&self, base: &Expr, index: &Expr) -> Compiled {
        let (list, ty) = self.compile(base)?;
        let i = self.int(index)?;
        let at = quote!(usize::try_from(#i).unwrap_or(usize::MAX));
        match ty {
            Ty::Array(elem) if *elem == Ty::Int => {
                Ok((quote!(#list.get(#at).map_or(0i64, |x| *x as i64)), Ty::Int))
            }
            Ty::Bytes => Ok((
                quote!(#list.0.get(#at).map_or(0i64, |b| i64::from(*b))),
                Ty::Int,
            )),
            other => invalid(format!(
                "indexing {} is not supported yet (lists of integers and bytes are)",
                describe(&other)
            )),
        }
    }

    /// The value of a value instance in this scope: its expression, as its `enum` when it has
    /// one, and when its `if` does not hold the value an absent number has (0, false, the
    /// enum's value 0).
    pub fn instance_value(&self, instance: &Instance) -> Compiled {
        let InstanceKind::Value {
            value,
            cond,
            enum_idx,
        } = &instance.kind
        else {
            return invalid(format!("`{}` is a look-ahead, not a value", instance.id));
        };
        let (mut tokens, mut ty) = self.compile(value)?;
        if let Some(idx) = enum_idx {
            if ty != Ty::Int {
                return invalid(format!(
                    "`enum` needs an integer value, found {}",
                    describe(&ty)
                ));
            }
            let name = enum_ident(&self.schema.enums[*idx]);
            (tokens, ty) = (quote!(#name::from_raw(#tokens)), Ty::Enum(*idx));
        }
        let Some(cond) = cond else {
            return Ok((tokens, ty));
        };
        let cond = self.bool(cond)?;
        let absent = match &ty {
            Ty::Int => quote!(0i64),
            Ty::Float => quote!(0.0f64),
            Ty::Bool => quote!(false),
            Ty::Enum(idx) => {
                let name = enum_ident(&self.schema.enums[*idx]);
                quote!(#name::from_raw(0))
            }
            other => {
                return invalid(format!(
                    "an instance with `if` must be a number, boolean or enum value, not {}",
                    describe(other)
                ));
            }
        };
        Ok((quote!(if #cond { #tokens } else { #absent }), ty))
    }

    fn enum_literal(&self, enum_name: &str, variant: &str) -> Compiled {
        let Some(idx) = self.schema.resolve_enum(self.ty, enum_name) else {
            return invalid(format!("unknown enum `{enum_name}`"));
        };
        let def = &self.schema.enums[idx];
        if !def.variants.iter().any(|v| v.id == variant) {
            return invalid(format!("enum `{enum_name}` has no value `{variant}`"));
        }
        let e = enum_ident(def);
        let v = variant_ident(variant);
        Ok((quote!(#e::#v), Ty::Enum(idx)))
    }

    fn unary(&self, op: UnaryOp, inner: &Expr) -> Compiled {
        match op {
            UnaryOp::Not => {
                let b = self.bool(inner)?;
                Ok((quote!(!#b), Ty::Bool))
            }
            UnaryOp::Neg => match self.compile(inner)? {
                (t, Ty::Int) => Ok((quote!(#t.wrapping_neg()), Ty::Int)),
                (t, Ty::Float) => Ok((quote!((-#t)), Ty::Float)),
                (_, other) => invalid(format!("cannot negate {}", describe(&other))),
            },
            UnaryOp::BitNot => {
                let t = self.int(inner)?;
                Ok((quote!((!#t)), Ty::Int))
            }
        }
    }

    fn binary(&self, op: BinOp, a: &Expr, b: &Expr) -> Compiled {
        if matches!(op, BinOp::And | BinOp::Or) {
            let (a, b) = (self.bool(a)?, self.bool(b)?);
            return Ok(match op {
                BinOp::And => (quote!((#a && #b)), Ty::Bool),
                _ => (quote!((#a || #b)), Ty::Bool),
            });
        }
        let (ta_tokens, ta) = self.compile(a)?;
        let (tb_tokens, tb) = self.compile(b)?;
        if op.is_comparison() {
            return comparison(op, (ta_tokens, ta), (tb_tokens, tb));
        }
        let (a, b, ty) = match (&ta, &tb) {
            (Ty::Int, Ty::Int) => (ta_tokens, tb_tokens, Ty::Int),
            (Ty::Float, Ty::Float) => (ta_tokens, tb_tokens, Ty::Float),
            (Ty::Int, Ty::Float) => (quote!((#ta_tokens as f64)), tb_tokens, Ty::Float),
            (Ty::Float, Ty::Int) => (ta_tokens, quote!((#tb_tokens as f64)), Ty::Float),
            _ => {
                return invalid(format!(
                    "`{}` needs numbers, found {} and {}",
                    op.symbol(),
                    describe(&ta),
                    describe(&tb)
                ));
            }
        };
        if ty == Ty::Float {
            return match op {
                BinOp::Add => Ok((quote!((#a + #b)), ty)),
                BinOp::Sub => Ok((quote!((#a - #b)), ty)),
                BinOp::Mul => Ok((quote!((#a * #b)), ty)),
                BinOp::Div => Ok((quote!((#a / #b)), ty)),
                _ => invalid(format!("`{}` needs integers", op.symbol())),
            };
        }
        let tokens = match op {
            BinOp::Add => quote!(#a.wrapping_add(#b)),
            BinOp::Sub => quote!(#a.wrapping_sub(#b)),
            BinOp::Mul => quote!(#a.wrapping_mul(#b)),
            BinOp::Div => quote!(rt::arith::div(#a, #b)),
            BinOp::Mod => quote!(rt::arith::modulo(#a, #b)),
            BinOp::Shl => quote!(#a.wrapping_shl(#b as u32)),
            BinOp::Shr => quote!(#a.wrapping_shr(#b as u32)),
            BinOp::BitAnd => quote!((#a & #b)),
            BinOp::BitOr => quote!((#a | #b)),
            BinOp::BitXor => quote!((#a ^ #b)),
            _ => unreachable!("logical and comparison operators are handled above"),
        };
        Ok((tokens, Ty::Int))
    }

    fn method(&self, recv: &Expr, name: &str, args: &[Expr]) -> Compiled {
        match name {
            "sum" => {
                let [arg] = args else {
                    return invalid(
                        "`sum` takes one argument: the value to add up for each element `_`",
                    );
                };
                let (list, ty) = self.compile(recv)?;
                let Ty::Array(elem) = ty else {
                    return invalid(format!("`sum` needs a list, found {}", describe(&ty)));
                };
                let item = format_ident!("item{}", self.depth);
                let mut inner = self.with_element(quote!(#item), *elem);
                inner.depth = self.depth + 1;
                let body = inner.int(arg)?;
                Ok((
                    quote!(#list.iter().fold(0i64, |sum, #item| sum.wrapping_add(#body))),
                    Ty::Int,
                ))
            }
            other => invalid(format!(
                "unknown method `{other}` (skelcodec supports `sum(expr)` on lists)"
            )),
        }
    }

    /// Resolves a name or attribute chain to a place.
    fn place(&self, e: &Expr) -> Result<Place<'s>, ExprError> {
        match e {
            Expr::Name(name) => self.name(name),
            Expr::Attr(base, attr) => {
                if let Expr::Name(n) = base.as_ref()
                    && n == "_io"
                {
                    return self.io_property(attr);
                }
                if attr == "_sizeof"
                    && matches!(base.as_ref(), Expr::Name(n) if n == "_root" || n == "_parent")
                {
                    return invalid(
                        "`_root` and `_parent` are not supported: pass values down as `params`",
                    );
                }
                if let Expr::Index(list, index) = base.as_ref() {
                    return self.element_field(list, index, attr);
                }
                let base = self.place(base)?;
                self.attribute(base, attr)
            }
            _ => {
                let (tokens, ty) = self.compile(e)?;
                Ok(Place {
                    tokens,
                    ty,
                    field: None,
                    optional: false,
                })
            }
        }
    }

    fn io_property(&self, attr: &str) -> Result<Place<'s>, ExprError> {
        if self.mode != Mode::Read {
            return Err(ExprError::NeedsStream);
        }
        let (tokens, ty) = match attr {
            "pos" => (quote!((r.pos() as i64)), Ty::Int),
            "size" => (quote!((r.size() as i64)), Ty::Int),
            "eof" => (quote!(r.is_eof()), Ty::Bool),
            other => {
                return invalid(format!(
                    "`_io.{other}` is unknown: use `pos`, `size` or `eof`"
                ));
            }
        };
        Ok(Place {
            tokens,
            ty,
            field: None,
            optional: false,
        })
    }

    fn name(&self, name: &str) -> Result<Place<'s>, ExprError> {
        match name {
            "_" => {
                let Some((tokens, ty)) = &self.element else {
                    return invalid(
                        "`_` is only defined in `repeat-until`, in the arguments of a `-for-each` field and inside `sum(...)`",
                    );
                };
                // Integers of every width compute as `i64`, like any other integer value.
                let tokens = match ty {
                    Ty::Int => quote!((*#tokens as i64)),
                    _ if is_scalar(ty) => quote!((*#tokens)),
                    _ => tokens.clone(),
                };
                return Ok(Place {
                    tokens,
                    ty: ty.clone(),
                    field: None,
                    optional: false,
                });
            }
            "_io" => {
                return match self.mode {
                    Mode::Read => Ok(Place {
                        tokens: quote!(r),
                        ty: Ty::Io,
                        field: None,
                        optional: false,
                    }),
                    _ => Err(ExprError::NeedsStream),
                };
            }
            "_root" | "_parent" => {
                return invalid(format!(
                    "`{name}` is not supported: declare `params` on the type and pass the values from its parent"
                ));
            }
            "_index" => return invalid("`_index` is not supported yet"),
            "_sizeof" => {
                let value = self.owner.clone().unwrap_or_else(|| quote!(self));
                return if self.mode == Mode::Read {
                    invalid("`_sizeof` is not known while reading; use it in `-derived`")
                } else {
                    Ok(Place {
                        tokens: quote!((#value.encoded_len() as i64)),
                        ty: Ty::Int,
                        field: None,
                        optional: false,
                    })
                };
            }
            _ => {}
        }
        let def = self.def();
        if let Some(index) = def.fields.iter().position(|f| f.id == name) {
            let field = &def.fields[index];
            if self.mode == Mode::Read && index >= self.visible_fields {
                return invalid(format!(
                    "`{name}` is not read yet at this point: an expression can only use fields that come before it"
                ));
            }
            if matches!(field.ty, FieldType::Contents(_)) {
                return invalid(format!("`{name}` has fixed `contents` and holds no value"));
            }
            self.trusted(field)?;
            let ident = field_ident(name);
            let tokens = match (&self.owner, self.mode) {
                (Some(owner), _) => quote!(#owner.#ident),
                (None, Mode::Read) => local_ident(name).into_token_stream(),
                (None, Mode::Write | Mode::Inspect) => quote!(self.#ident),
            };
            return Ok(Place {
                tokens,
                ty: field_ty(self.schema, field),
                field: Some(field),
                optional: field.cond.is_some(),
            });
        }
        if let Some(param) = def.params.iter().find(|p| p.id == name) {
            if self.mode == Mode::Inspect {
                return invalid(format!(
                    "parameter `{name}` is only known while reading and writing, not in `-derived` or instances"
                ));
            }
            let ident = local_ident(name);
            let ty = match param.ty {
                ParamType::Int(_) => Ty::Int,
                ParamType::Bool => Ty::Bool,
            };
            let tokens = match param.ty {
                ParamType::Int(_) => quote!((#ident as i64)),
                ParamType::Bool => quote!(#ident),
            };
            return Ok(Place {
                tokens,
                ty,
                field: None,
                optional: false,
            });
        }
        if let Some(instance) = def.instances.iter().find(|i| i.id == name) {
            // Instances are inlined so that readers, which have no `self` yet, can use them.
            let mut inner = self.clone();
            inner.depth += 1;
            let (tokens, ty) = match &instance.kind {
                InstanceKind::Value { .. } => inner.instance_value(instance)?,
                InstanceKind::Peek { pos, ty } => {
                    if self.mode != Mode::Read {
                        return Err(ExprError::NeedsStream);
                    }
                    let pos = inner.int(pos)?;
                    let size = usize::from(ty.bytes);
                    let value = super::scalar::decode(Scalar::Int(*ty), quote!(b));
                    (
                        quote!(rt::fields::peek::<#size>(r, #pos).map_or(-1, |b| #value as i64)),
                        Ty::Int,
                    )
                }
            };
            return Ok(Place {
                tokens,
                ty,
                field: None,
                optional: false,
            });
        }
        invalid(format!(
            "unknown name `{name}` in type `{}`: not a field, parameter or instance",
            def.id
        ))
    }

    fn attribute(&self, mut base: Place<'s>, attr: &str) -> Result<Place<'s>, ExprError> {
        if base.optional && attr == "_sizeof" {
            // `field_len` already counts an absent value as 0 bytes.
            base.optional = false;
        }
        if base.optional {
            // The length of an absent list or string is 0.
            let counted = matches!(
                (attr, &base.ty),
                ("size", Ty::Array(_)) | ("length", Ty::Str | Ty::Bytes)
            );
            let Some(field) = base.field.filter(|_| counted) else {
                return invalid(
                    "this field is conditional (`if`); only its value (when it is a number) and its length can be used in expressions",
                );
            };
            let inner = Place {
                tokens: quote!(value),
                ty: base.ty.clone(),
                field: Some(field),
                optional: false,
            };
            let inner_scope = Scope {
                depth: self.depth + 1,
                ..self.clone()
            };
            let (len, _) = inner_scope.value(inner_scope.attribute(inner, attr)?)?;
            let tokens = &base.tokens;
            return Ok(Place {
                tokens: quote!(#tokens.as_ref().map_or(0, |value| #len)),
                ty: Ty::Int,
                field: None,
                optional: false,
            });
        }
        let tokens = &base.tokens;
        let simple = |tokens, ty| {
            Ok(Place {
                tokens,
                ty,
                field: None,
                optional: false,
            })
        };
        match (attr, &base.ty) {
            ("_sizeof", _) => {
                if self.mode == Mode::Read {
                    return invalid("`_sizeof` is not known while reading; use it in `-derived`");
                }
                let Some(field) = base.field else {
                    return invalid("`_sizeof` applies to a field");
                };
                let len = field_len(self.schema, field, tokens);
                simple(quote!((#len as i64)), Ty::Int)
            }
            ("size", Ty::Array(_)) => simple(quote!((#tokens.len() as i64)), Ty::Int),
            ("size", Ty::Switch) if base.field.is_some_and(|f| f.repeat != Repeat::None) => {
                simple(quote!((#tokens.len() as i64)), Ty::Int)
            }
            ("length", Ty::Str) => simple(quote!((#tokens.text_bytes().len() as i64)), Ty::Int),
            ("length" | "size", Ty::Bytes) => simple(quote!((#tokens.0.len() as i64)), Ty::Int),
            ("to_i", Ty::Enum(_)) => simple(quote!(#tokens.raw()), Ty::Int),
            ("to_i", Ty::Bool) => simple(quote!(i64::from(#tokens)), Ty::Int),
            (_, Ty::User(ty)) => {
                let def = &self.schema.types[*ty];
                if let Some(instance) = def.instances.iter().find(|i| i.id == attr) {
                    if matches!(instance.kind, InstanceKind::Peek { .. }) {
                        return invalid(format!(
                            "`{attr}` is a look-ahead; only its own type can use it"
                        ));
                    }
                    let mut inner = Scope::new(self.schema, *ty, Mode::Inspect, def.fields.len());
                    inner.owner = Some(tokens.clone());
                    inner.reading = self.reading;
                    inner.depth = self.depth + 1;
                    let (tokens, ty) = inner.instance_value(instance)?;
                    return simple(tokens, ty);
                }
                let Some(field) = def.fields.iter().find(|f| f.id == attr) else {
                    return invalid(format!(
                        "type `{}` has no field or instance `{attr}`",
                        def.id
                    ));
                };
                self.trusted(field)?;
                let ident = field_ident(attr);
                Ok(Place {
                    tokens: quote!(#tokens.#ident),
                    ty: field_ty(self.schema, field),
                    field: Some(field),
                    optional: field.cond.is_some(),
                })
            }
            (_, ty) => invalid(format!("{} has no property `{attr}`", describe(ty))),
        }
    }

    /// Refuses an `-untrusted` field where the expression decides how bytes are read.
    fn trusted(&self, field: &Field) -> Result<(), ExprError> {
        if self.reading && field.untrusted {
            return invalid(format!(
                "`{}` is `-untrusted`: it is reported by `check()`, never used to read; read by layout instead",
                field.id
            ));
        }
        Ok(())
    }

    /// Turns a place into a value: scalars become `i64`/`f64`.
    fn value(&self, place: Place<'s>) -> Compiled {
        if place.optional {
            return optional_scalar(self.schema, place);
        }
        let tokens = place.tokens;
        let Some(field) = place.field.filter(|f| f.repeat == Repeat::None) else {
            return Ok((tokens, place.ty));
        };
        Ok(match &field.ty {
            FieldType::Number(Scalar::Int(_)) | FieldType::Remembered { .. } | FieldType::Vlq => {
                (quote!((#tokens as i64)), Ty::Int)
            }
            FieldType::Number(Scalar::Float(_)) => (quote!((#tokens as f64)), Ty::Float),
            FieldType::Number(Scalar::Fixed { .. }) => (quote!(#tokens.get_f64()), Ty::Float),
            _ => (tokens, place.ty),
        })
    }
}

/// A conditional number in an expression: an absent one reads as 0, so that version gates can
/// build on fields that older versions lack (`version >= 6 and revision >= 2`).
fn optional_scalar(schema: &Schema, place: Place<'_>) -> Compiled {
    let tokens = place.tokens;
    let field = place.field.filter(|f| f.repeat == Repeat::None);
    match field.map(|f| &f.ty) {
        Some(FieldType::Number(Scalar::Int(_)) | FieldType::Remembered { .. }) => {
            Ok((quote!(#tokens.map_or(0, |value| value as i64)), Ty::Int))
        }
        Some(FieldType::Number(Scalar::Float(_))) => {
            Ok((quote!(#tokens.map_or(0.0, |value| value as f64)), Ty::Float))
        }
        Some(FieldType::Number(Scalar::Fixed { .. })) => Ok((
            quote!(#tokens.map_or(0.0, |value| value.get_f64())),
            Ty::Float,
        )),
        Some(FieldType::Enum { enum_idx, .. }) => {
            let name = enum_ident(&schema.enums[*enum_idx]);
            Ok((
                quote!(#tokens.unwrap_or_else(|| #name::from_raw(0))),
                Ty::Enum(*enum_idx),
            ))
        }
        _ => invalid(
            "this field is conditional (`if`); only its value (when it is a number) and its length can be used in expressions",
        ),
    }
}

fn comparison(op: BinOp, (a, ta): (TokenStream, Ty), (b, tb): (TokenStream, Ty)) -> Compiled {
    let (a, b) = match (&ta, &tb) {
        (Ty::Int, Ty::Int) | (Ty::Float, Ty::Float) | (Ty::Bool, Ty::Bool) => (a, b),
        (Ty::Int, Ty::Float) => (quote!((#a as f64)), b),
        (Ty::Float, Ty::Int) => (a, quote!((#b as f64))),
        (Ty::Enum(x), Ty::Enum(y)) if x == y => (a, b),
        (Ty::Enum(_), Ty::Int) => (quote!(#a.raw()), b),
        (Ty::Int, Ty::Enum(_)) => (a, quote!(#b.raw())),
        (Ty::Str | Ty::StrLit, Ty::Str | Ty::StrLit) => (str_bytes(a, &ta), str_bytes(b, &tb)),
        (Ty::Bytes | Ty::Array(_) | Ty::ListLit(_), _) => {
            return list_comparison(op, (a, ta), (b, tb));
        }
        _ => {
            return invalid(format!(
                "cannot compare {} with {}",
                describe(&ta),
                describe(&tb)
            ));
        }
    };
    let ordered = matches!(ta, Ty::Int | Ty::Float) || matches!(tb, Ty::Int | Ty::Float);
    let tokens = match op {
        BinOp::Eq => quote!((#a == #b)),
        BinOp::Ne => quote!((#a != #b)),
        _ if !ordered => return invalid("only numbers can be ordered with < <= > >="),
        BinOp::Lt => quote!((#a < #b)),
        BinOp::Le => quote!((#a <= #b)),
        BinOp::Gt => quote!((#a > #b)),
        _ => quote!((#a >= #b)),
    };
    Ok((tokens, Ty::Bool))
}

/// A list literal: integers (`[1i64, 2i64]`) or strings (`[b"a".as_slice(), …]`).
fn list_literal(scope: &Scope, items: &[Expr]) -> Compiled {
    let compiled = items
        .iter()
        .map(|item| scope.compile(item))
        .collect::<Result<Vec<_>, _>>()?;
    let elem = match compiled.first().map(|(_, ty)| ty) {
        None | Some(Ty::Int) => Ty::Int,
        Some(Ty::StrLit) => Ty::StrLit,
        Some(other) => {
            return invalid(format!(
                "a list literal holds integers or strings, not {}",
                describe(other)
            ));
        }
    };
    if compiled.iter().any(|(_, ty)| *ty != elem) {
        return invalid("the elements of a list literal must all have the same type");
    }
    let tokens = compiled.iter().map(|(t, _)| t);
    Ok((quote!([#(#tokens),*]), Ty::ListLit(Box::new(elem))))
}

/// `==` and `!=` between a list value and a list literal, or between two byte arrays.
fn list_comparison(op: BinOp, (a, ta): (TokenStream, Ty), (b, tb): (TokenStream, Ty)) -> Compiled {
    let equal = match (&ta, &tb) {
        (Ty::ListLit(_), _) if !matches!(tb, Ty::ListLit(_)) => {
            return list_comparison(op, (b, tb), (a, ta));
        }
        (Ty::Bytes, Ty::Bytes) => quote!((#a.0 == #b.0)),
        (Ty::Bytes, Ty::ListLit(elem)) if **elem == Ty::Int => {
            quote!(rt::arith::ints_match(#a.0.iter().map(|x| i64::from(*x)), &#b))
        }
        (Ty::Array(x), Ty::ListLit(y)) if **x == Ty::Int && **y == Ty::Int => {
            quote!(rt::arith::ints_match(#a.iter().map(|x| *x as i64), &#b))
        }
        (Ty::Array(x), Ty::ListLit(y)) if **x == Ty::Str && **y == Ty::StrLit => quote!(
            (#a.len() == #b.len() && #a.iter().zip(#b.iter()).all(|(x, y)| x.text_bytes() == *y))
        ),
        _ => {
            return invalid(format!(
                "cannot compare {} with {}",
                describe(&ta),
                describe(&tb)
            ));
        }
    };
    match op {
        BinOp::Eq => Ok((equal, Ty::Bool)),
        BinOp::Ne => Ok((quote!((!#equal)), Ty::Bool)),
        _ => invalid("lists and byte arrays compare with == and != only"),
    }
}

fn str_bytes(tokens: TokenStream, ty: &Ty) -> TokenStream {
    match ty {
        Ty::Str => quote!(#tokens.text_bytes()),
        _ => tokens,
    }
}

fn int_literal(n: i128) -> Result<TokenStream, ExprError> {
    // Integers compute in `i64`, where a `u8` above `i64::MAX` wraps; a literal that large
    // takes the same bits, as in Kaitai's Java target, so that equality holds.
    let n = match (i64::try_from(n), u64::try_from(n)) {
        (Ok(n), _) => n,
        (Err(_), Ok(unsigned)) => unsigned as i64,
        _ => return invalid(format!("{n} does not fit in 64 bits")),
    };
    // Suffixed, so that methods such as `wrapping_add` resolve on literals too.
    let lit = Literal::i64_suffixed(n);
    Ok(quote!(#lit))
}

fn is_scalar(ty: &Ty) -> bool {
    matches!(ty, Ty::Int | Ty::Float | Ty::Bool | Ty::Enum(_))
}

/// The expression type of a field's value.
pub fn field_ty(schema: &Schema, field: &Field) -> Ty {
    let one = element_ty(schema, &field.ty);
    match (&field.repeat, &field.ty) {
        (Repeat::None, _) | (_, FieldType::Switch(_)) => one,
        _ => Ty::Array(Box::new(one)),
    }
}

/// The expression type of one element of a field type.
pub fn element_ty(schema: &Schema, ty: &FieldType) -> Ty {
    let _ = schema;
    match ty {
        FieldType::Number(Scalar::Int(_)) | FieldType::Remembered { .. } | FieldType::Vlq => {
            Ty::Int
        }
        FieldType::Number(_) => Ty::Float,
        FieldType::Enum { enum_idx, .. } => Ty::Enum(*enum_idx),
        FieldType::Quat(_) | FieldType::Vec3(_) => Ty::Composite,
        FieldType::Str { .. } => Ty::Str,
        FieldType::Bytes { .. } | FieldType::Contents(_) => Ty::Bytes,
        FieldType::User { ty, .. } => Ty::User(*ty),
        FieldType::Switch(_) => Ty::Switch,
        FieldType::Array { elem, .. } => Ty::Array(Box::new(element_ty(schema, elem))),
    }
}

fn describe(ty: &Ty) -> String {
    match ty {
        Ty::Int => "an integer".into(),
        Ty::Float => "a float".into(),
        Ty::Bool => "a boolean".into(),
        Ty::Str | Ty::StrLit => "a string".into(),
        Ty::Bytes => "bytes".into(),
        Ty::Enum(_) => "an enum value".into(),
        Ty::User(_) => "a structure".into(),
        Ty::Array(_) => "a list".into(),
        Ty::ListLit(_) => "a list literal".into(),
        Ty::Switch => "a switch value".into(),
        Ty::Composite => "a quaternion or vector".into(),
        Ty::Io => "the stream `_io`".into(),
    }
}
