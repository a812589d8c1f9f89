//! Compiles schema expressions to Rust, checking their types on the way. The same compiler
//! validates schemas (errors carry plain messages) and emits code (it then cannot fail).
//!
//! Integers compute in `i64` as in Kaitai Struct, with wrapping arithmetic so that hostile
//! values never panic; lengths and counts are range-checked where they are used.

use proc_macro2::{Literal, TokenStream};
use quote::{ToTokens as _, format_ident, quote};

use super::names::{enum_ident, field_ident, local_ident, variant_ident};
use super::sizes::{element_len, present_len};
use super::types::{switch_enum_ident, switch_variants};
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
    /// A value that may be absent (a conditional field that is not a number, an element past
    /// the end of its list): `Option` of the inner value. It equals nothing when absent.
    Opt(Box<Ty>),
}

impl Ty {
    /// Whether a value instance may have this type, and so get a method of its own.
    pub fn is_instance_value(&self) -> bool {
        matches!(
            self,
            Ty::Int | Ty::Float | Ty::Bool | Ty::Enum(_) | Ty::Str | Ty::StrLit | Ty::Bytes
        )
    }
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

/// A writer's check compiled in a scope validation already checked: `None` when it needs the
/// input stream, which a writer does not have (such codecs read their output back instead,
/// see `Schema::reads_decide_from_data`); any other failure is a bug in the generator.
pub fn unless_stream<T>(result: Result<T, ExprError>) -> Option<T> {
    match result {
        Err(ExprError::NeedsStream) => None,
        other => Some(expect_valid(other)),
    }
}

fn invalid<T>(message: impl Into<String>) -> Result<T, ExprError> {
    Err(ExprError::Invalid(message.into()))
}

/// A compiled place before it is turned into a value: knows its field for `_sizeof`.
struct Place<'s> {
    /// The stored value; an `Option` of a reference to it when `optional`.
    tokens: TokenStream,
    ty: Ty,
    field: Option<&'s Field>,
    optional: bool,
    /// One element of `field`'s list rather than the whole field.
    element: bool,
    /// `tokens` is a reference to the value (a closure's argument) rather than the value.
    by_ref: bool,
}

impl<'s> Place<'s> {
    /// A value computed by the expression itself, stored nowhere.
    fn computed(tokens: TokenStream, ty: Ty) -> Self {
        Place {
            tokens,
            ty,
            field: None,
            optional: false,
            element: false,
            by_ref: false,
        }
    }

    /// A field's stored value (an `Option` of a reference to it when `optional`).
    fn stored(tokens: TokenStream, schema: &Schema, field: &'s Field, optional: bool) -> Self {
        Place {
            tokens,
            ty: field_ty(schema, field),
            field: Some(field),
            optional,
            element: false,
            by_ref: false,
        }
    }

    /// The type of the one value this place holds: the field's type when the place is the
    /// whole of a single field or one element of a list; `None` for lists and computed values.
    fn value_type(&self) -> Option<&'s FieldType> {
        let field = self.field?;
        match (&field.ty, self.element) {
            // An element of a fixed-size array (`[f32; 16]`).
            (FieldType::Array { elem, .. }, true) => Some(elem),
            (ty, true) => Some(ty),
            (FieldType::Array { .. }, false) => None,
            (ty, false) => (field.repeat == Repeat::None).then_some(ty),
        }
    }
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
    /// `_index` in the attributes of one element of a repeated field: the Rust `usize` that
    /// counts the elements.
    index: Option<TokenStream>,
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
            index: None,
            owner: None,
            reading: mode == Mode::Read,
            depth: 0,
        }
    }

    /// The same scope inside one element of a repeated field, whose index is `index` (a
    /// `usize`): `_index` is defined there.
    pub fn with_index(&self, index: TokenStream) -> Self {
        let mut scope = self.clone();
        scope.index = Some(index);
        scope
    }

    /// The same scope outside the elements of a list: a switch picks one case for the whole
    /// list, so its selector cannot depend on `_index`.
    pub fn without_index(&self) -> Self {
        let mut scope = self.clone();
        scope.index = None;
        scope
    }

    /// The same scope with `_` bound to `name`, a reference to an element of type `elem`.
    pub fn with_element(&self, name: TokenStream, elem: Ty) -> Self {
        // Numbers of every width compute as `i64` and `f64`, like any other number.
        let value = match &elem {
            Ty::Int => quote!((*#name as i64)),
            Ty::Float => quote!((*#name as f64)),
            Ty::Str => quote!(#name.text_bytes()),
            Ty::Bytes => quote!(#name.0.as_slice()),
            ty if is_scalar(ty) => quote!((*#name)),
            _ => name,
        };
        let mut scope = self.clone();
        scope.element = Some((value, elem));
        scope
    }

    /// The same scope with `_` bound to `name`, a reference to one element of a field of type
    /// `ty`: seen as a field's value is (a terminated string without its terminator).
    pub fn with_element_of(&self, name: TokenStream, ty: &FieldType) -> Self {
        let elem = element_ty(self.schema, ty);
        let reference = match read_through(ty) {
            true => quote!((*#name)),
            false => name,
        };
        let (value, seen_as) = self.stored_value(ty, reference);
        let mut scope = self.clone();
        scope.element = Some((value, seen_as.unwrap_or(elem)));
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

    /// A `bool` expression: whether the value `e` names is absent (a conditional field that
    /// was not read, an element past the end of its list), numbers included, which elsewhere
    /// read as 0. `None` when the value is always there.
    pub fn absent(&self, e: &Expr) -> Result<Option<TokenStream>, ExprError> {
        let place = self.place(e)?;
        if place.optional {
            let tokens = place.tokens;
            return Ok(Some(quote!(#tokens.is_none())));
        }
        match self.value(place)? {
            (tokens, Ty::Opt(_)) => Ok(Some(quote!(#tokens.is_none()))),
            _ => Ok(None),
        }
    }

    /// Compiles the value a switch matches on: a string is matched as a byte slice.
    pub fn selector(&self, on: &Expr) -> Compiled {
        match self.compile(on)? {
            (tokens, ty @ (Ty::Str | Ty::StrLit)) => Ok((quote!(rt::bytes::view(&#tokens)), ty)),
            other => Ok(other),
        }
    }

    /// The arguments passed to user type `ty`, compiled for its parameters' types.
    pub fn arguments(&self, ty: usize, args: &[Expr]) -> Vec<TokenStream> {
        let def = &self.schema.types[ty];
        args.iter()
            .zip(&def.params)
            .map(|(arg, param)| expect_valid(self.argument(param.ty, arg)))
            .collect()
    }

    /// Compiles `arg` as the value of a parameter of type `param`: integers as `i64`, texts
    /// and bytes as slices, values of user types and lists by reference.
    pub fn argument(&self, param: ParamType, arg: &Expr) -> Result<TokenStream, ExprError> {
        let (tokens, ty) = self.compile(arg)?;
        let text = matches!(ty, Ty::Str | Ty::StrLit);
        match (param, &ty) {
            (ParamType::Int(_), Ty::Int) | (ParamType::Bool, Ty::Bool) => Ok(tokens),
            (ParamType::Enum(want), Ty::Enum(have)) if want == *have => Ok(tokens),
            (ParamType::Str, _) if text => Ok(quote!(rt::bytes::view(&#tokens))),
            (ParamType::Bytes, Ty::Bytes) => Ok(quote!(rt::bytes::view(&#tokens))),
            (ParamType::User(want), Ty::User(have)) if want == *have => Ok(quote!(&#tokens)),
            (ParamType::IntList, Ty::ListLit(elem)) if **elem == Ty::Int => Ok(quote!(&#tokens)),
            (ParamType::IntList, Ty::Array(elem)) if **elem == Ty::Int => Ok(quote!(
                &#tokens.iter().map(|x| *x as i64).collect::<::std::vec::Vec<i64>>()
            )),
            (ParamType::UserList(want), Ty::Array(elem)) if **elem == Ty::User(want) => {
                Ok(quote!(&#tokens))
            }
            _ => invalid(format!(
                "this argument is {}, which the parameter's type does not take",
                describe(&ty)
            )),
        }
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
                let text = |ty: &Ty| matches!(ty, Ty::Str | Ty::StrLit);
                if text(&ta) && text(&tb) || ta == Ty::Bytes && tb == Ty::Bytes {
                    // A view of a field and a computed string: either may be borrowed.
                    let either = |v| quote!(::std::borrow::Cow::<[u8]>::from(#v));
                    let (a, b) = (either(a), either(b));
                    let ty = if ta == Ty::Bytes { Ty::Bytes } else { Ty::Str };
                    return Ok((quote!(if #c { #a } else { #b }), ty));
                }
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
            Expr::List(items) => list_literal(self, items),
            Expr::SizeOf { ty, bits } => {
                let size = number_type(ty).map(NumberType::size).or_else(|| {
                    let user = self.schema.resolve_type(self.ty, ty)?;
                    self.schema.static_size(user)
                });
                let Some(size) = size else {
                    return invalid(format!(
                        "`sizeof<{ty}>`: `{ty}` is not a type whose values all have the same size"
                    ));
                };
                let size = if *bits { size * 8 } else { size };
                Ok((int_literal(size as i128)?, Ty::Int))
            }
            Expr::Name(_) | Expr::Attr(..) | Expr::Index(..) | Expr::Cast(..) => {
                let place = self.place(e)?;
                self.value(place)
            }
        }
    }

    /// `a[i]`: an element of a list, or a byte of a byte array. Out of range, a number reads as
    /// 0 (expressions cannot fail) and anything else is absent.
    fn index(&self, base: &Expr, index: &Expr) -> Result<Place<'s>, ExprError> {
        let list = self.place(base)?;
        let i = self.int(index)?;
        self.element(list, |_| quote!(usize::try_from(#i).unwrap_or(usize::MAX)))
    }

    /// The element of `list` at the position `at` computes from the list's value (`first`,
    /// `last`, `a[i]`).
    fn element(
        &self,
        list: Place<'s>,
        at: impl FnOnce(&TokenStream) -> TokenStream,
    ) -> Result<Place<'s>, ExprError> {
        // The element's own type, for the view of a terminated string and for `_sizeof`.
        let field = list
            .field
            .filter(|f| f.repeat != Repeat::None || matches!(f.ty, FieldType::Array { .. }));
        let (tokens, ty) = self.value(list)?;
        let at = at(&tokens);
        let elem = match ty {
            Ty::Bytes => {
                let byte = quote!(#tokens.get(#at).map_or(0i64, |b| i64::from(*b)));
                return Ok(Place::computed(byte, Ty::Int));
            }
            Ty::Array(elem) => *elem,
            other => {
                return invalid(format!(
                    "indexing {} is not supported (lists and byte arrays are)",
                    describe(&other)
                ));
            }
        };
        let element = quote!(#tokens.get(#at));
        match (&elem, field) {
            (Ty::Int, _) => Ok(Place::computed(
                quote!(#element.map_or(0i64, |x| *x as i64)),
                Ty::Int,
            )),
            (_, Some(field)) => Ok(Place {
                tokens: element,
                ty: elem,
                field: Some(field),
                optional: true,
                element: true,
                by_ref: false,
            }),
            // A list of structures passed as a parameter.
            (Ty::User(_), None) => Ok(Place {
                tokens: element,
                ty: elem,
                field: None,
                optional: true,
                element: false,
                by_ref: false,
            }),
            _ => invalid(format!(
                "indexing a list of {} is not supported yet",
                describe(&elem)
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
        if ty == Ty::ListLit(Box::new(Ty::Int)) {
            // A value instance `[0x41, 0x42]` is a byte array, as in Kaitai.
            (tokens, ty) = (quote!(rt::bytes::from_ints(&#tokens)), Ty::Bytes);
        }
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
        if op == BinOp::Add
            && matches!(ta, Ty::Str | Ty::StrLit)
            && matches!(tb, Ty::Str | Ty::StrLit)
        {
            return Ok((quote!(rt::bytes::concat(&#ta_tokens, &#tb_tokens)), Ty::Str));
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
            "to_i" | "substring" | "to_s" => self.text_method(recv, name, args),
            other => invalid(format!(
                "unknown method `{other}` (skelcodec supports `sum`, `to_i`, `substring` and `to_s`)"
            )),
        }
    }

    /// `text.to_i(radix)`, `text.substring(from, to)`, `bytes.to_s(encoding)`.
    fn text_method(&self, recv: &Expr, name: &str, args: &[Expr]) -> Compiled {
        let (value, ty) = self.compile(recv)?;
        let text = matches!(ty, Ty::Str | Ty::StrLit);
        match (name, args) {
            ("to_i", [radix]) if text => {
                let radix = self.int(radix)?;
                Ok((
                    quote!(rt::bytes::parse_int(rt::bytes::view(&#value), #radix)),
                    Ty::Int,
                ))
            }
            ("substring", [from, to]) if text => {
                let (from, to) = (self.int(from)?, self.int(to)?);
                Ok((
                    quote!(rt::bytes::substring(rt::bytes::view(&#value), #from, #to)),
                    Ty::Str,
                ))
            }
            ("to_s", [Expr::Str(encoding)]) if ty == Ty::Bytes => {
                if !crate::keys::is_supported_encoding(encoding) {
                    return invalid(crate::keys::encoding_not_implemented(encoding));
                }
                // Text keeps its bytes: the bytes are the text.
                Ok((value, Ty::Str))
            }
            _ => invalid(format!(
                "`{name}` takes {} of a string{}, found {} with {} argument(s)",
                match name {
                    "to_i" => "a radix",
                    "substring" => "the start and end",
                    _ => "an encoding name",
                },
                if name == "to_s" { " (on bytes)" } else { "" },
                describe(&ty),
                args.len()
            )),
        }
    }

    /// Resolves a name, attribute chain or index to a place.
    fn place(&self, e: &Expr) -> Result<Place<'s>, ExprError> {
        match e {
            Expr::Name(name) => self.name(name),
            Expr::Index(list, index) => self.index(list, index),
            Expr::Cast(base, target) => {
                let base = self.place(base)?;
                self.cast(base, target)
            }
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
                let base = self.place(base)?;
                self.attribute(base, attr)
            }
            _ => {
                let (tokens, ty) = self.compile(e)?;
                Ok(Place::computed(tokens, ty))
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
        Ok(Place::computed(tokens, ty))
    }

    fn name(&self, name: &str) -> Result<Place<'s>, ExprError> {
        match name {
            "_" => {
                let Some((tokens, ty)) = &self.element else {
                    return invalid(
                        "`_` is only defined in `repeat-until`, in the arguments of a `-for-each` field and inside `sum(...)`",
                    );
                };
                return Ok(Place::computed(tokens.clone(), ty.clone()));
            }
            "_io" => {
                return match self.mode {
                    Mode::Read => Ok(Place::computed(quote!(r), Ty::Io)),
                    _ => Err(ExprError::NeedsStream),
                };
            }
            "_root" | "_parent" => {
                return invalid(format!(
                    "`{name}` is not supported: declare `params` on the type and pass the values from its parent"
                ));
            }
            "_index" => {
                let Some(index) = &self.index else {
                    return invalid(
                        "`_index` is only defined in the attributes of a repeated field (its size, type arguments and `valid`)",
                    );
                };
                return Ok(Place::computed(quote!((#index as i64)), Ty::Int));
            }
            "_sizeof" => {
                let value = self.owner.clone().unwrap_or_else(|| quote!(self));
                return if self.mode == Mode::Read {
                    invalid("`_sizeof` is not known while reading; use it in `-derived`")
                } else {
                    Ok(Place::computed(
                        quote!((#value.encoded_len() as i64)),
                        Ty::Int,
                    ))
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
            return Ok(stored_field(self.schema, field, tokens));
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
                ParamType::Enum(idx) => Ty::Enum(idx),
                ParamType::Str => Ty::Str,
                ParamType::Bytes => Ty::Bytes,
                ParamType::User(ty) => Ty::User(ty),
                ParamType::IntList => Ty::Array(Box::new(Ty::Int)),
                ParamType::UserList(ty) => Ty::Array(Box::new(Ty::User(ty))),
            };
            // Passed as `i64`, slices and references: already values.
            return Ok(Place::computed(ident.into_token_stream(), ty));
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
            return Ok(Place::computed(tokens, ty));
        }
        invalid(format!(
            "unknown name `{name}` in type `{}`: not a field, parameter or instance",
            def.id
        ))
    }

    fn attribute(&self, base: Place<'s>, attr: &str) -> Result<Place<'s>, ExprError> {
        if base.optional {
            return self.optional_attribute(base, attr);
        }
        let base = match (attr, &base.ty) {
            // A switch of integers is an integer, with an integer's properties.
            ("to_s", Ty::Switch) => {
                let (value, ty) = self.value(base)?;
                Place::computed(value, ty)
            }
            ("_sizeof" | "size", Ty::Switch) => base,
            (_, Ty::Switch) => self.sole_case(base)?,
            _ => base,
        };
        if base.optional {
            return self.optional_attribute(base, attr);
        }
        match (attr, &base.ty) {
            ("first", Ty::Array(_) | Ty::Bytes) => return self.element(base, |_| quote!(0usize)),
            ("last", Ty::Array(_) | Ty::Bytes) => {
                return self.element(base, |list| quote!(#list.len().wrapping_sub(1)));
            }
            _ => {}
        }
        if let Some(property) = value_property(attr, &base.ty) {
            let (value, _) = self.value(base)?;
            let (tokens, ty) = property(value);
            return Ok(Place::computed(tokens, ty));
        }
        let tokens = &base.tokens;
        let simple = |tokens, ty| Ok(Place::computed(tokens, ty));
        match (attr, &base.ty) {
            ("_sizeof", _) => {
                if self.mode == Mode::Read {
                    return invalid("`_sizeof` is not known while reading; use it in `-derived`");
                }
                let Some(field) = base.field else {
                    return invalid("`_sizeof` applies to a field");
                };
                let len = match base.value_type().filter(|_| base.element) {
                    Some(element) => element_len(self.schema, element, tokens),
                    None => present_len(self.schema, field, tokens),
                };
                simple(quote!(((#len) as i64)), Ty::Int)
            }
            ("size", Ty::Array(_)) => simple(quote!((#tokens.len() as i64)), Ty::Int),
            ("size", Ty::Switch) if base.field.is_some_and(|f| f.repeat != Repeat::None) => {
                simple(quote!((#tokens.len() as i64)), Ty::Int)
            }
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
                Ok(stored_field(self.schema, field, quote!(#tokens.#ident)))
            }
            (_, ty) => invalid(format!("{} has no property `{attr}`", describe(ty))),
        }
    }

    /// A property of a value that may be absent. A stored field of it may be absent in turn;
    /// a computed number (a length, an instance) of an absent value is 0.
    fn optional_attribute(&self, base: Place<'s>, attr: &str) -> Result<Place<'s>, ExprError> {
        self.through_optional(base, |scope, present| scope.attribute(present, attr))
    }

    /// `step` applied to the value of `base` when it is present.
    fn through_optional(
        &self,
        base: Place<'s>,
        step: impl FnOnce(&Scope<'s>, Place<'s>) -> Result<Place<'s>, ExprError>,
    ) -> Result<Place<'s>, ExprError> {
        let present = Place {
            tokens: quote!(present),
            optional: false,
            by_ref: true,
            ..base
        };
        let inner_scope = Scope {
            depth: self.depth + 1,
            ..self.clone()
        };
        let inner = step(&inner_scope, present)?;
        let outer = &base.tokens;
        let tokens = &inner.tokens;
        if inner.optional {
            return Ok(Place {
                tokens: quote!(#outer.and_then(|present| #tokens)),
                ..inner
            });
        }
        if inner.field.is_some() {
            return Ok(Place {
                tokens: quote!(#outer.map(|present| &#tokens)),
                optional: true,
                ..inner
            });
        }
        let (value, ty) = inner_scope.value(inner)?;
        let (tokens, ty) = match ty {
            Ty::Int => (quote!(#outer.map_or(0i64, |present| #value)), ty),
            Ty::Float => (quote!(#outer.map_or(0.0f64, |present| #value)), ty),
            Ty::Bool => (quote!(#outer.map_or(false, |present| #value)), ty),
            Ty::Opt(_) => (quote!(#outer.and_then(|present| #value)), ty),
            other => (
                quote!(#outer.map(|present| #value)),
                Ty::Opt(Box::new(other)),
            ),
        };
        Ok(Place::computed(tokens, ty))
    }

    /// `value.as<target>`: a number converted, a switch value taken as the case that holds
    /// `target` (absent when it holds another), or a value already of that type.
    fn cast(&self, base: Place<'s>, target: &str) -> Result<Place<'s>, ExprError> {
        if base.optional {
            return self.through_optional(base, |scope, present| scope.cast(present, target));
        }
        if let Some(number) = number_type(target) {
            let (value, ty) = self.value(base)?;
            let tokens = match (&ty, number) {
                (Ty::Int, NumberType::Int(_)) => value,
                (Ty::Float, NumberType::Int(_)) => quote!((#value as i64)),
                (Ty::Int | Ty::Float, NumberType::F4) => quote!(((#value as f32) as f64)),
                (Ty::Int | Ty::Float, NumberType::F8) => quote!((#value as f64)),
                _ => return invalid(format!("cannot convert {} to `{target}`", describe(&ty))),
            };
            let ty = match number {
                NumberType::Int(_) => Ty::Int,
                NumberType::F4 | NumberType::F8 => Ty::Float,
            };
            return Ok(Place::computed(tokens, ty));
        }
        match (target, &base.ty) {
            ("bytes", Ty::Bytes | Ty::ListLit(_)) | ("str", Ty::Str | Ty::StrLit) => Ok(base),
            // A list of integers as a typed list (`[1, 2].as<u2[]>`).
            (list, Ty::ListLit(elem) | Ty::Array(elem))
                if **elem == Ty::Int
                    && list
                        .strip_suffix("[]")
                        .is_some_and(|e| matches!(number_type(e), Some(NumberType::Int(_)))) =>
            {
                Ok(base)
            }
            (_, Ty::Switch) => self.switch_case(base, target),
            (_, Ty::User(ty)) if self.schema.resolve_type(self.ty, target) == Some(*ty) => Ok(base),
            (_, ty) => invalid(format!("cannot take {} as `{target}`", describe(ty))),
        }
    }

    /// The case of a switch value that holds `target` (a user type, `bytes` or `str`), absent
    /// when the value holds another case.
    fn switch_case(&self, base: Place<'s>, target: &str) -> Result<Place<'s>, ExprError> {
        let user = self.schema.resolve_type(self.ty, target);
        let holds_target = |ty: &FieldType| match (ty, target) {
            (FieldType::Bytes { .. }, "bytes") | (FieldType::Str { .. }, "str") => true,
            (FieldType::User { ty, .. }, _) => Some(*ty) == user,
            _ => false,
        };
        match self.case_of(base, holds_target) {
            Some(place) => place,
            None => invalid(format!("no case of this switch is of type `{target}`")),
        }
    }

    /// The value of a switch whose only case is a user type (a switch with just `_`), as that
    /// type: Kaitai types such a switch by its one case.
    fn sole_case(&self, base: Place<'s>) -> Result<Place<'s>, ExprError> {
        let single = match base.field.map(|f| &f.ty) {
            Some(FieldType::Switch(switch)) => switch_variants(self.schema, switch).len() == 1,
            _ => false,
        };
        if !single || base.optional {
            return Ok(base);
        }
        match self.case_of(base, |ty| matches!(ty, FieldType::User { .. })) {
            Some(place) => place,
            None => invalid(
                "a switch value has no fields: take it as one of its cases with `.as<type>`",
            ),
        }
    }

    /// The case of a switch value whose type satisfies `pick`, absent when the value holds
    /// another case; `None` when no case does or `base` is not a switch field.
    fn case_of(
        &self,
        base: Place<'s>,
        pick: impl Fn(&FieldType) -> bool,
    ) -> Option<Result<Place<'s>, ExprError>> {
        let FieldType::Switch(switch) = &base.field?.ty else {
            return None;
        };
        let (owner, field) = switch_field(self.schema, switch)?;
        if field.repeat != Repeat::None {
            // One case holds the whole list.
            return None;
        }
        let variants = switch_variants(self.schema, switch);
        let variant = variants.iter().find(|v| pick(v.ty))?;
        let enum_name = switch_enum_ident(self.schema, owner, field);
        let ident = &variant.ident;
        let tokens = &base.tokens;
        let extract = |case: TokenStream| {
            quote!(match &#tokens {
                #enum_name::#ident(case) => ::core::option::Option::Some(#case),
                #[allow(unreachable_patterns)]
                _ => ::core::option::Option::None,
            })
        };
        Some(Ok(match variant.ty {
            FieldType::User { ty, .. } => Place {
                tokens: extract(quote!(case)),
                ty: Ty::User(*ty),
                field: None,
                optional: true,
                element: false,
                by_ref: false,
            },
            ty => Place::computed(
                extract(content_view(ty, quote!(case))),
                Ty::Opt(Box::new(element_ty(self.schema, ty))),
            ),
        }))
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

    /// Turns a place into a value: numbers become `i64`/`f64`, strings and byte arrays a
    /// `&[u8]` of their content, and a value that may be absent an `Option` of its value
    /// (except numbers, which read as 0 when absent).
    fn value(&self, place: Place<'s>) -> Compiled {
        if place.optional {
            return self.optional_value(place);
        }
        let Some(ty) = place.value_type() else {
            return Ok((place.tokens, place.ty));
        };
        let tokens = match place.by_ref && read_through(ty) {
            true => {
                let reference = place.tokens;
                quote!((*#reference))
            }
            false => place.tokens,
        };
        let (tokens, ty) = self.stored_value(ty, tokens);
        Ok((tokens, ty.unwrap_or(place.ty)))
    }

    /// The value of one stored value of type `ty`, and its type when it is not the place's
    /// own: numbers as `i64`/`f64`, strings and byte arrays as their content, a switch of
    /// integers as an integer.
    fn stored_value(&self, ty: &FieldType, tokens: TokenStream) -> (TokenStream, Option<Ty>) {
        match ty {
            FieldType::Number(Scalar::Int(_)) | FieldType::Remembered { .. } | FieldType::Vlq => {
                (quote!((#tokens as i64)), Some(Ty::Int))
            }
            FieldType::Number(Scalar::Float(_)) => (quote!((#tokens as f64)), Some(Ty::Float)),
            FieldType::Number(Scalar::Fixed { .. }) => (quote!(#tokens.get_f64()), Some(Ty::Float)),
            FieldType::Str { .. } | FieldType::Bytes { .. } => (content_view(ty, tokens), None),
            FieldType::Switch(switch) => match integer_switch(self.schema, switch, &tokens) {
                Some(number) => (number, Some(Ty::Int)),
                None => (tokens, None),
            },
            _ => (tokens, None),
        }
    }

    /// The value of a place that may be absent. An absent number reads as 0, so that version
    /// gates can build on fields that older versions lack (`version >= 6 and revision >= 2`);
    /// anything else is an `Option`.
    fn optional_value(&self, place: Place<'s>) -> Compiled {
        let outer = place.tokens.clone();
        let present = Place {
            tokens: quote!(present),
            optional: false,
            by_ref: true,
            ..place
        };
        let single = present.value_type().is_some();
        let (value, ty) = self.value(present)?;
        let absent = match &ty {
            Ty::Int if single => quote!(0i64),
            Ty::Float if single => quote!(0.0f64),
            Ty::Enum(idx) if single => {
                let name = enum_ident(&self.schema.enums[*idx]);
                quote!(#name::from_raw(0))
            }
            _ => return Ok((quote!(#outer.map(|present| #value)), Ty::Opt(Box::new(ty)))),
        };
        Ok((quote!(#outer.map_or(#absent, |present| #value)), ty))
    }
}

/// A property computed from the value of `ty` (`text.length`, `n.to_s`, `list.max`): how to
/// compute it and its type.
type Property = fn(TokenStream) -> (TokenStream, Ty);

fn value_property(attr: &str, ty: &Ty) -> Option<Property> {
    let text = matches!(ty, Ty::Str | Ty::StrLit);
    let ints = matches!(ty, Ty::Array(e) if **e == Ty::Int);
    let floats = matches!(ty, Ty::Array(e) if **e == Ty::Float);
    Some(match attr {
        // Views, computed strings and either of them (`Cow`) all have a length.
        "length" if text || *ty == Ty::Bytes => |v| (quote!((#v.len() as i64)), Ty::Int),
        "size" if *ty == Ty::Bytes => |v| (quote!((#v.len() as i64)), Ty::Int),
        "to_s" if *ty == Ty::Int => |v| (quote!(rt::bytes::decimal(#v)), Ty::Str),
        "to_i" if text => |v| {
            (
                quote!(rt::bytes::parse_int(rt::bytes::view(&#v), 10)),
                Ty::Int,
            )
        },
        "to_i" if *ty == Ty::Float => |v| (quote!((#v as i64)), Ty::Int),
        "to_i" if matches!(ty, Ty::Enum(_)) => |v| (quote!(#v.raw()), Ty::Int),
        "to_i" if *ty == Ty::Bool => |v| (quote!(i64::from(#v)), Ty::Int),
        "reverse" if text => |v| {
            (
                quote!(rt::bytes::reverse_text(rt::bytes::view(&#v))),
                Ty::Str,
            )
        },
        "min" if ints => |v| {
            (
                quote!(#v.iter().map(|x| *x as i64).min().unwrap_or(0)),
                Ty::Int,
            )
        },
        "max" if ints => |v| {
            (
                quote!(#v.iter().map(|x| *x as i64).max().unwrap_or(0)),
                Ty::Int,
            )
        },
        "min" if floats => |v| {
            let least = quote!(#v.iter().map(|x| *x as f64).reduce(f64::min).unwrap_or(0.0));
            (least, Ty::Float)
        },
        "max" if floats => |v| {
            let most = quote!(#v.iter().map(|x| *x as f64).reduce(f64::max).unwrap_or(0.0));
            (most, Ty::Float)
        },
        "min" if *ty == Ty::Bytes => |v| {
            (
                quote!(rt::bytes::view(&#v).iter().min().map_or(0i64, |b| i64::from(*b))),
                Ty::Int,
            )
        },
        "max" if *ty == Ty::Bytes => |v| {
            (
                quote!(rt::bytes::view(&#v).iter().max().map_or(0i64, |b| i64::from(*b))),
                Ty::Int,
            )
        },
        _ => return None,
    })
}

/// Whether a value of `ty` reached through a reference is read through it (a number is
/// copied, a string or byte array viewed); other values stay references, so that they can be
/// held by an `Option` without being moved.
fn read_through(ty: &FieldType) -> bool {
    matches!(
        ty,
        FieldType::Number(_)
            | FieldType::Remembered { .. }
            | FieldType::Vlq
            | FieldType::Enum { .. }
            | FieldType::Str { .. }
            | FieldType::Bytes { .. }
    )
}

/// The type a cast to a built-in number names.
#[derive(Clone, Copy)]
enum NumberType {
    /// An integer of this many bytes.
    Int(usize),
    F4,
    F8,
}

impl NumberType {
    /// Bytes on disk.
    fn size(self) -> usize {
        match self {
            NumberType::Int(bytes) => bytes,
            NumberType::F4 => 4,
            NumberType::F8 => 8,
        }
    }
}

fn number_type(name: &str) -> Option<NumberType> {
    let base = name
        .strip_suffix("be")
        .or_else(|| name.strip_suffix("le"))
        .unwrap_or(name);
    match base {
        "u1" | "s1" => Some(NumberType::Int(1)),
        "u2" | "s2" => Some(NumberType::Int(2)),
        "u4" | "s4" => Some(NumberType::Int(4)),
        "u8" | "s8" => Some(NumberType::Int(8)),
        "f4" => Some(NumberType::F4),
        "f8" => Some(NumberType::F8),
        _ => None,
    }
}

/// The field that holds `switch`, and the type that declares it.
fn switch_field<'s>(schema: &'s Schema, switch: &Switch) -> Option<(usize, &'s Field)> {
    schema.types.iter().enumerate().find_map(|(owner, def)| {
        let field = def
            .fields
            .iter()
            .find(|f| matches!(&f.ty, FieldType::Switch(s) if std::ptr::eq(s, switch)))?;
        Some((owner, field))
    })
}

/// A switch whose every case is an integer is an integer in expressions, as in Kaitai.
fn integer_switch(schema: &Schema, switch: &Switch, tokens: &TokenStream) -> Option<TokenStream> {
    let (owner, field) = switch_field(schema, switch)?;
    if field.repeat != Repeat::None {
        // One case holds the whole list.
        return None;
    }
    let variants = switch_variants(schema, switch);
    if !variants
        .iter()
        .all(|v| matches!(v.ty, FieldType::Number(Scalar::Int(_))))
    {
        return None;
    }
    let enum_name = switch_enum_ident(schema, owner, field);
    let arms = variants.iter().map(|v| {
        let ident = &v.ident;
        quote!(#enum_name::#ident(number) => *number as i64)
    });
    Some(quote!(match &#tokens { #(#arms,)* }))
}

/// The place of a stored field reached through `tokens`; a conditional field is an `Option`
/// of a reference to its value.
fn stored_field<'s>(schema: &Schema, field: &'s Field, tokens: TokenStream) -> Place<'s> {
    match field.cond {
        Some(_) => Place::stored(quote!(#tokens.as_ref()), schema, field, true),
        None => Place::stored(tokens, schema, field, false),
    }
}

/// What an expression sees of one string or byte-array value: a `&[u8]` of its text, which
/// ends at its terminator unless `include` keeps it, or of its bytes.
pub fn content_view(ty: &FieldType, value: TokenStream) -> TokenStream {
    match ty {
        FieldType::Str {
            size: Size::Terminator { byte, include, .. },
            ..
        } => quote!(rt::bytes::until_terminator(#value.as_bytes(), #byte, #include)),
        FieldType::Str { .. } => quote!(#value.text_bytes()),
        FieldType::Bytes {
            size: Size::Terminator { byte, include, .. },
            ..
        } => quote!(rt::bytes::until_terminator(&#value.0, #byte, #include)),
        FieldType::Bytes { .. } => quote!(#value.0.as_slice()),
        _ => value,
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
        (Ty::Str | Ty::StrLit, Ty::Str | Ty::StrLit) | (Ty::Bytes, Ty::Bytes) => {
            // Views and computed strings compare as slices; a literal already is one.
            let slice = |t, ty: &Ty| match ty {
                Ty::StrLit => t,
                _ => quote!(rt::bytes::view(&#t)),
            };
            (slice(a, &ta), slice(b, &tb))
        }
        (Ty::Opt(_), _) | (_, Ty::Opt(_)) => return optional_comparison(op, (a, ta), (b, tb)),
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
    // Strings and byte arrays are ordered byte by byte, as Kaitai orders them.
    let ordered = !matches!(ta, Ty::Bool | Ty::Enum(_)) && !matches!(tb, Ty::Bool | Ty::Enum(_));
    let tokens = match op {
        BinOp::Eq => quote!((#a == #b)),
        BinOp::Ne => quote!((#a != #b)),
        _ if !ordered => {
            return invalid("only numbers, strings and byte arrays can be ordered with < <= > >=");
        }
        BinOp::Lt => quote!((#a < #b)),
        BinOp::Le => quote!((#a <= #b)),
        BinOp::Gt => quote!((#a > #b)),
        _ => quote!((#a >= #b)),
    };
    Ok((tokens, Ty::Bool))
}

/// `==` and `!=` with a value that may be absent: an absent value equals nothing.
fn optional_comparison(
    op: BinOp,
    (a, ta): (TokenStream, Ty),
    (b, tb): (TokenStream, Ty),
) -> Compiled {
    let Ty::Opt(inner) = ta else {
        return optional_comparison(op.mirrored(), (b, tb), (a, ta));
    };
    let (holds, _) = comparison(op, (quote!(present), *inner), (b, tb))?;
    let absent = op == BinOp::Ne;
    Ok((quote!(#a.map_or(#absent, |present| #holds)), Ty::Bool))
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
            return list_comparison(op.mirrored(), (b, tb), (a, ta));
        }
        // Ordered against a byte-array literal: compared as bytes.
        (Ty::Bytes, Ty::ListLit(elem))
            if **elem == Ty::Int && !matches!(op, BinOp::Eq | BinOp::Ne) =>
        {
            let literal = quote!(rt::bytes::from_ints(&#b));
            return comparison(op, (a, ta), (literal, Ty::Bytes));
        }
        (Ty::Bytes, Ty::ListLit(elem)) if **elem == Ty::Int => {
            quote!(rt::arith::ints_match(#a.iter().map(|x| i64::from(*x)), &#b))
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
        // A repeated switch is one case holding the whole list.
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
        Ty::Opt(inner) => format!("{} that may be absent", describe(inner)),
    }
}
