//! Compiles schema expressions to Rust, checking their types on the way: names are resolved,
//! every node is typed, and an expression a writer cannot evaluate (it needs the input stream)
//! is told apart ([`ExprError::NeedsStream`]). Only the checker calls it; the generator takes
//! its results from the typed IR (`ir`).
//!
//! Integers compute in `i64` as in Kaitai Struct, with wrapping arithmetic so that hostile
//! values never panic; lengths and counts are range-checked where they are used.
//!
//! An expression is resolved into a typed tree (`typeck::resolve`) in the scope's
//! [`Context`], and what a site needs of it (`resolve::uses`) decided and checked there;
//! `render` turns the tree into Rust; this module holds the scope, `nested` the
//! scopes rendering opens, `place` how each place is held in Rust, `switch` switch values,
//! `text` the Rust of properties of values.

mod nested;
mod place;
mod process;
mod render;
mod switch;
mod text;
mod valid;

pub use self::place::content_view;
use self::place::read_through;

use std::rc::Rc;

use proc_macro2::{Literal, TokenStream};
use quote::{ToTokens as _, quote};

use crate::expr::{BinOp, Expr};
use crate::model::switch_variants;
use crate::model::*;
use crate::repr::sizes::{element_len, present_len};
use crate::sanitization::switch_enum_ident;
use crate::sanitization::{enum_ident, field_ident, local_ident, own_reader_ident, variant_ident};

use crate::typeck::context::Context;
pub use crate::typeck::resolve::uses::Pass;
use crate::typeck::resolve::{Reach as _, uses};
use crate::typeck::typed::Site;
pub(crate) use crate::typeck::typed::describe;
pub use crate::typeck::typed::{ExprError, Mode, Ty};
use crate::typeck::value_types::one_value;
pub use crate::typeck::value_types::{element_ty, field_ty};

type Compiled = Result<(TokenStream, Ty), ExprError>;

/// A compiled place before it is turned into a value: knows its field for `_sizeof`.
#[derive(Clone)]
pub struct Place<'s> {
    /// The stored value; an `Option` of a reference to it when `optional`.
    tokens: TokenStream,
    ty: Ty,
    field: Option<&'s Field>,
    optional: bool,
    /// One element of `field`'s list rather than the whole field.
    element: bool,
    /// `tokens` is a reference to the value (a closure's argument) rather than the value.
    by_ref: bool,
    /// For a decoded value (`process`, text in another encoding): the `rt::Decoded` holding it
    /// with its stored bytes, which its `_sizeof` counts (an `Option` of a reference to it
    /// when the value may be absent).
    decoded: Option<TokenStream>,
}

impl<'s> Place<'s> {
    /// A value computed by the expression itself, stored nowhere.
    fn computed(tokens: TokenStream, ty: Ty) -> Self {
        // A structure that may be absent (an instance choosing between conditional fields) is
        // an `Option` of a reference, as a conditional field's place is.
        let (ty, optional) = match ty {
            Ty::Opt(inner) if matches!(*inner, Ty::User(_)) => (*inner, true),
            ty => (ty, false),
        };
        Place {
            tokens,
            ty,
            field: None,
            optional,
            element: false,
            by_ref: false,
            decoded: None,
        }
    }

    /// A field's stored value (an `Option` of a reference to it when `optional`).
    fn stored(tokens: TokenStream, field: &'s Field, optional: bool) -> Self {
        Place {
            tokens,
            ty: field_ty(field),
            field: Some(field),
            optional,
            element: false,
            by_ref: false,
            decoded: None,
        }
    }

    /// The field this place is the whole list of (a repeated field or a fixed-size array).
    fn list_field(&self) -> Option<&'s Field> {
        let field = self.field?;
        let list = field.repeat != Repeat::None || matches!(field.ty, FieldType::Array { .. });
        list.then_some(field)
    }

    /// The type of the one value this place holds: the field's type when the place is the
    /// whole of a single field or one element of a list; `None` for lists and computed values.
    fn value_type(&self) -> Option<&'s FieldType> {
        let field = self.field?;
        match (&field.ty, self.element) {
            // An element of a fixed-size array (`[f32; 16]`).
            (FieldType::Array { elem, .. }, true) => Some(elem),
            (ty, true) => Some(ty),
            (_, false) => one_value(field),
        }
    }
}

/// The names an expression can see, and how each is held in Rust: a [`Context`], the
/// resolver's view of it, with the Rust of its bindings.
#[derive(Clone)]
pub struct Scope<'s> {
    cx: Context<'s>,
    /// The Rust of `_`, where it is bound (its type is the context's).
    element: Option<TokenStream>,
    /// `_index` in the attributes of one element of a repeated field: the Rust `usize` that
    /// counts the elements.
    index: Option<TokenStream>,
    /// Set when compiling an instance of another value (`structure.version`): that value's
    /// place, through which its fields are reached.
    owner: Option<TokenStream>,
    /// Set with `owner`, where that value was read by a field: the scope its arguments were
    /// given in and the field (see `Given`), for its parameters.
    owner_given: Option<Rc<(Scope<'s>, Site)>>,
    /// Inside one element of a repeated field being read or written: the Rust slice of the
    /// elements before it, which the field's name means there (`groups[_index - 1]`;
    /// Kaitai's list as read so far).
    prior: Option<TokenStream>,
    /// Set with `owner`: the scope the expression is compiled in, whose own `_root`
    /// parameters are those of every value of its file reached through `owner`.
    home: Option<Box<Scope<'s>>>,
    /// Reading a field read later (see [`Field::read_later`]): how its arguments compile.
    later: Option<(&'s ReadLater, Pass)>,
    /// Reading a value by position in another stream (`io:`): its expressions' `_io` is still
    /// the type's own stream, which the reader keeps as [`own_reader_ident`] meanwhile.
    in_other_stream: bool,
    /// Inside a step on a value that may be absent: the value, present (`Node::Present`).
    present: Option<Box<Place<'s>>>,
}

impl<'s> Scope<'s> {
    /// A scope inside type `ty`; in read mode only fields before `visible_fields` exist.
    pub fn new(schema: &'s Schema, ty: usize, mode: Mode, visible_fields: usize) -> Self {
        Self::in_context(Context::new(schema, ty, mode, visible_fields))
    }

    /// A scope of `cx` without bindings.
    fn in_context(cx: Context<'s>) -> Self {
        Self {
            cx,
            element: None,
            index: None,
            owner: None,
            owner_given: None,
            prior: None,
            home: None,
            later: None,
            in_other_stream: false,
            present: None,
        }
    }

    /// The same scope, of the root type, for the file's root value itself (a program's or a
    /// test's expressions over what `read` returned): `_root.x` is its own `x` even where the
    /// root type holds values of itself, whose `_root` is the file's root, not their own.
    pub fn at_file_root(&self) -> Self {
        let mut scope = self.clone();
        scope.cx.file_root = self.cx.ty == 0 && self.owner.is_none();
        scope
    }

    /// The same scope for a `-derived` expression, where `crc32(bytes)`, `adler32(bytes)` and
    /// `inflated(bytes)` are known. What it compiles can fail (see [`Scope::can_fail`]):
    /// `inflated(…)` of bytes that are no whole raw deflate stream, whose `?` returns an
    /// `rt::Error`; the code is then the body of a closure returning `rt::Result<i64>`.
    pub fn deriving(&self) -> Self {
        let mut scope = self.clone();
        scope.cx.deriving = true;
        scope.cx.can_fail = Rc::default();
        scope
    }

    /// The same scope for an instance method, which returns its failures in a `Result`; what
    /// it compiles can fail on its own account (see [`Scope::can_fail`]).
    pub fn reporting_failure(&self) -> Self {
        let mut scope = self.clone();
        scope.cx.reports_failure = true;
        scope.cx.can_fail = Rc::default();
        scope
    }

    /// True once an expression compiled in this scope, or in one made from it, can fail.
    pub fn can_fail(&self) -> bool {
        self.cx.can_fail.get()
    }

    /// The same scope for the arguments of a value read from bytes of its own (see
    /// `outer_stream`).
    pub fn in_outer_stream(&self) -> Self {
        let mut scope = self.clone();
        scope.cx.outer_stream = true;
        scope
    }

    /// The same scope for what a reader reads from another stream (see `in_other_stream`).
    pub fn in_other_stream(&self) -> Self {
        let mut scope = self.clone();
        scope.in_other_stream = true;
        scope
    }

    /// The same scope for an expression a writer evaluates where the reader does, so that
    /// `_io.pos` is the writer's own position (`Writer::stream_pos` of the runtime).
    pub fn at_writer_pos(&self) -> Self {
        self.clone().with_context(self.cx.with_writer_pos())
    }

    /// The same scope inside one element of `field`, which sees the elements before it as
    /// `prior` (see [`Field::refers_to_itself`]).
    pub fn with_prior(&self, field: &'s Field, prior: TokenStream) -> Self {
        let mut scope = self.clone().with_context(self.cx.with_prior(&field.id));
        scope.prior = Some(prior);
        scope
    }

    /// The same scope inside one element of a repeated field, whose index is `index` (a
    /// `usize`): `_index` is defined there.
    pub fn with_index(&self, index: TokenStream) -> Self {
        let mut scope = self.clone().with_context(self.cx.with_index());
        scope.index = Some(index);
        scope
    }

    /// The scope of `field`'s derivation: one element of the list (`_index` is the Rust
    /// `index`) when the field is repeated.
    pub fn for_derived(&self, field: &Field) -> Self {
        let mut scope = self.clone().with_context(self.cx.for_derived(field));
        if scope.cx.has_index {
            scope.index = Some(quote!(index));
        }
        scope
    }

    /// The same scope outside the elements of a list, where `_index` is not defined: what is
    /// the same for every element (the arguments an earlier element was read with, when they
    /// do not differ from one element to the next).
    pub fn without_index(&self) -> Self {
        self.clone().with_context(self.cx.without_index())
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
        let mut scope = self.clone().with_context(self.cx.with_element(elem));
        scope.element = Some(value);
        scope
    }

    /// The same scope with `_` bound to `name`, a reference to one element of a field of type
    /// `ty`: seen as a field's value is (a terminated string without its terminator).
    pub fn with_element_of(&self, name: TokenStream, ty: &FieldType) -> Self {
        let mut scope = self.clone().with_context(self.cx.with_element_of(ty));
        if let FieldType::Contents(bytes) = ty {
            // Every element is the bytes the schema fixes; the value holds none.
            let bytes = proc_macro2::Literal::byte_string(bytes);
            scope.element = Some(quote!(#bytes.as_slice()));
            return scope;
        }
        let reference = match read_through(ty) {
            true => quote!((*#name)),
            false => name,
        };
        scope.element = Some(self.stored_value(ty, reference));
        scope
    }

    fn def(&self) -> &'s TypeDef {
        &self.cx.schema.types[self.cx.ty]
    }

    /// Compiles an expression that must produce an `i64`.
    pub fn int(&self, e: &Expr) -> Result<TokenStream, ExprError> {
        let value = crate::typeck::resolve::resolve_int(&self.cx, e)?;
        Ok(self.render(value))
    }

    /// Compiles an expression that must produce a stream (`io:`): a `&rt::Stream`.
    pub fn stream(&self, e: &Expr) -> Result<TokenStream, ExprError> {
        let stream = uses::stream(&self.cx, e)?;
        Ok(self.render(stream))
    }

    /// Compiles an expression that must produce a `bool`.
    pub fn bool(&self, e: &Expr) -> Result<TokenStream, ExprError> {
        let value = crate::typeck::resolve::resolve_bool(&self.cx, e)?;
        Ok(self.render(value))
    }

    /// A `bool` expression: whether the value `e` names is absent (a conditional field that
    /// was not read, an element past the end of its list), numbers included, which elsewhere
    /// read as 0. `None` when the value is always there.
    pub fn absent(&self, e: &Expr) -> Result<Option<TokenStream>, ExprError> {
        let (value, may_be_absent, switch) = match uses::absence(&self.cx, e)? {
            uses::Absence::Never => return Ok(None),
            uses::Absence::Always => return Ok(Some(quote!(true))),
            uses::Absence::ConditionFails(condition) => {
                let holds = self.condition_tokens(condition);
                return Ok(Some(quote!((!#holds))));
            }
            uses::Absence::Value {
                value,
                may_be_absent,
                switch,
            } => (value, may_be_absent, switch),
        };
        let place = self.as_place(value);
        // A switch value that matched nothing is absent.
        let nothing =
            switch.and_then(
                |(ty, index)| match &self.cx.schema.types[ty].fields[index].ty {
                    FieldType::Switch(switch) => {
                        switch::matched_nothing(self.cx.schema, switch, &quote!(present))
                    }
                    _ => None,
                },
            );
        let tokens = &place.tokens;
        Ok(Some(match (may_be_absent, nothing) {
            (true, None) => quote!(#tokens.is_none()),
            (true, Some(nothing)) => quote!(#tokens.is_none_or(|present| #nothing)),
            (false, Some(nothing)) => quote!({ let present = &#tokens; #nothing }),
            (false, None) => {
                let (tokens, _) = self.value(place);
                quote!(#tokens.is_none())
            }
        }))
    }

    /// The Rust of an instance's condition (see `uses::InstanceCondition`).
    fn condition_tokens(&self, condition: uses::InstanceCondition) -> TokenStream {
        let (base, ty, may_be_absent, cond) = match condition {
            uses::InstanceCondition::Own(cond) => return self.render(cond),
            uses::InstanceCondition::Of {
                base,
                ty,
                may_be_absent,
                cond,
            } => (base, ty, may_be_absent, cond),
        };
        let base = self.as_place(base);
        let step_fails = cond.can_fail;
        // Rendered where it was resolved: inside the structure, without its arguments.
        let holds = |scope: &Scope<'s>, present: Place<'s>| {
            let tokens = scope
                .inside(&present, scope.cx.structure_scope(ty))
                .render(cond);
            Place::computed(tokens, Ty::Bool)
        };
        if !may_be_absent {
            return holds(self, base).tokens;
        }
        let inner_scope = self.present_scope_of(&base);
        let inner = holds(&inner_scope, place::present_of(&base));
        self.when_present_place(&base, &inner_scope, inner, step_fails)
            .tokens
    }

    /// Compiles the value a switch matches on: a string is matched as a byte slice, and one
    /// that may be absent (`list.last.magic`) as the empty string when it is.
    pub fn selector(&self, on: &Expr) -> Compiled {
        let selector = uses::selector(&self.cx, on)?;
        let ty = selector.ty();
        let tokens = match selector {
            uses::Selector::Value(value) => self.render(value),
            uses::Selector::Bytes(value) => {
                let tokens = self.render(value);
                quote!(rt::bytes::view(&#tokens))
            }
            uses::Selector::TextOrEmpty(value) => {
                let tokens = self.render(value);
                quote!(#tokens.as_ref().map_or(&[][..], |present| rt::bytes::view(present)))
            }
        };
        Ok((tokens, ty))
    }

    /// The same scope reading the arguments of a field read later in pass `pass`.
    pub fn reading_later(&self, later: &'s ReadLater, pass: Pass) -> Self {
        let mut scope = self.clone();
        scope.later = Some((later, pass));
        scope
    }

    /// The argument `arg` passed to parameter `param` of user type `ty` by the field being
    /// read (see [`Scope::argument`]), as the pass of a field read later needs it.
    pub fn argument_to(
        &self,
        ty: usize,
        param: &Param,
        arg: &Expr,
    ) -> Result<TokenStream, ExprError> {
        match uses::later_argument(self.later, ty, param) {
            uses::LaterArgument::Empty => self.empty_argument(param),
            uses::LaterArgument::Again(visible) => {
                let mut scope = self.clone();
                scope.cx.visible_fields = visible;
                scope.later = None;
                scope.argument(param, arg)
            }
            uses::LaterArgument::Given => self.argument(param, arg),
        }
    }

    /// The empty value of a parameter, passed the first time a field read later is read.
    fn empty_argument(&self, param: &Param) -> Result<TokenStream, ExprError> {
        let elem = crate::repr::param_value_type(self.cx.schema, param);
        Ok(match uses::empty_value(param)? {
            uses::EmptyValue::Zero => quote!(0i64),
            uses::EmptyValue::False => quote!(false),
            uses::EmptyValue::EnumZero => quote!(#elem::from_raw(0)),
            uses::EmptyValue::Absent => quote!(::core::option::Option::None),
            uses::EmptyValue::NoStream => quote!(&rt::Stream::default()),
            // Lists of references and lists of values.
            uses::EmptyValue::Empty => match param.ty {
                ParamType::AnyStructList | ParamType::StrList | ParamType::IoList => {
                    quote!(&[] as &[&#elem])
                }
                _ => quote!(&[] as &[#elem]),
            },
        })
    }

    /// Compiles the list a `-for-each` field follows: the list, and the type of its elements.
    pub fn list(&self, e: &Expr) -> Result<(TokenStream, Ty), ExprError> {
        let (list, elem) = uses::list(&self.cx, e)?;
        Ok((self.render(list), elem))
    }

    /// The match pattern of a switch's case key (an integer, string, boolean, enum or
    /// byte-array literal).
    pub fn case_pattern(&self, key: &Expr) -> Result<TokenStream, ExprError> {
        Ok(match uses::case_key(&self.cx, key)? {
            uses::CaseKey::Bytes(bytes) => Literal::byte_string(&bytes).into_token_stream(),
            uses::CaseKey::Value(value) => self.render(value),
        })
    }

    /// Compiles `arg` as the value of a parameter of type `param`: integers as `i64`, texts
    /// and bytes as slices, values of user types and lists by reference.
    pub fn argument(&self, param: &Param, arg: &Expr) -> Result<TokenStream, ExprError> {
        let (value, passing) = uses::argument(&self.cx, param, arg)?;
        let tokens = self.render(value);
        Ok(match passing {
            // Streams are references already.
            uses::Passing::Value => tokens,
            uses::Passing::Bytes => quote!(rt::bytes::view(&#tokens)),
            uses::Passing::Reference => quote!(&#tokens),
            uses::Passing::PresentArgument => {
                let name = &param.id;
                // The resolver refuses it outside readers and writers.
                let stream = match self.cx.mode {
                    Mode::Read => quote!(r),
                    Mode::Write | Mode::Inspect => quote!(w),
                };
                quote!(rt::fields::present_argument(#tokens, #name, #stream.pos())?)
            }
            // Through a reference to the structure itself, not to a `Box` holding it.
            uses::Passing::Optional { ty } => {
                let name = crate::sanitization::struct_ident(&self.cx.schema.types[ty]);
                quote!((#tokens).map(::core::borrow::Borrow::<#name>::borrow))
            }
            uses::Passing::SomeReference => quote!(::core::option::Option::Some(&#tokens)),
            uses::Passing::AnyStruct { ty } => {
                // Through a reference to the structure itself, not to a `Box` holding it.
                let name = crate::sanitization::struct_ident(&self.cx.schema.types[ty]);
                quote!({
                    let value: &#name = &#tokens;
                    value as &dyn ::core::any::Any
                })
            }
            uses::Passing::Ints => {
                quote!(&#tokens.iter().map(|x| *x as i64).collect::<::std::vec::Vec<i64>>())
            }
            uses::Passing::Texts => quote!(
                &#tokens.iter().map(|x| x.text_bytes()).collect::<::std::vec::Vec<&[u8]>>()
            ),
        })
    }

    /// Compiles any expression to a value.
    pub fn compile(&self, e: &Expr) -> Compiled {
        let typed = crate::typeck::resolve::resolve(&self.cx, e)?;
        let ty = typed.ty.clone();
        Ok((self.render(typed), ty))
    }

    /// The value of a value instance in this scope, the scope inside its structure (see
    /// `resolve::instance_value`).
    pub fn instance_value(&self, instance: &Instance) -> Compiled {
        let value = crate::typeck::resolve::instance_value(&self.cx, instance)?;
        let ty = value.ty.clone();
        Ok((self.render(value), ty))
    }
}

fn is_scalar(ty: &Ty) -> bool {
    matches!(ty, Ty::Int | Ty::Float | Ty::Bool | Ty::Enum(_))
}
