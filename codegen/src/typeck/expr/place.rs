//! Names, fields, elements and properties: what an expression reaches, and its value.

use proc_macro2::TokenStream;
use quote::{ToTokens as _, quote};

use super::switch::integer_switch;
use super::*;
use crate::repr::option_tokens;
use crate::sanitization::{look_ahead_cell_ident, struct_ident};
use crate::typeck::typed::LookAheadRead;
use crate::typeck::value_types::{place_value_ty, stored_value_ty};

impl<'s> Scope<'s> {
    /// The element of `list`, which is present and has elements of a type `item_ty` takes.
    pub(super) fn item_place(
        &self,
        list: Place<'s>,
        at: impl FnOnce(&TokenStream) -> TokenStream,
    ) -> Place<'s> {
        // The element's own type, for the view of a terminated string and for `_sizeof`.
        let field = list.list_field();
        let (tokens, ty) = self.value(list);
        let at = at(&tokens);
        let elem = match ty {
            Ty::Bytes => {
                let byte = quote!(#tokens.get(#at).map_or(0i64, |b| i64::from(*b)));
                return Place::computed(byte, Ty::Int);
            }
            Ty::ListLit(elem) if *elem == Ty::Float => {
                let element = quote!(#tokens.get(#at).map_or(0.0f64, |x| *x as f64));
                return Place::computed(element, Ty::Float);
            }
            Ty::ListLit(elem) | Ty::Array(elem) => *elem,
            other => other,
        };
        // Each case of a decoded switch keeps its own stored bytes (see `emit::types`).
        let decoded = field.is_some_and(|f| f.decode.is_some() && !f.switches_per_element());
        let element = match decoded {
            true => quote!(#tokens.get(#at).map(|decoded| &decoded.value)),
            false => quote!(#tokens.get(#at)),
        };
        match (&elem, field) {
            (Ty::Int, _) => Place::computed(quote!(#element.map_or(0i64, |x| *x as i64)), Ty::Int),
            (Ty::Bool, _) => Place::computed(quote!(#element.is_some_and(|x| *x)), Ty::Bool),
            (_, Some(field)) => Place {
                tokens: element,
                ty: elem,
                field: Some(field),
                optional: true,
                element: true,
                by_ref: false,
                decoded: None,
            },
            // Lists passed as parameters: the elements of a list of a user type borrow a
            // structure; `struct[]` and `io[]` are slices of references.
            (Ty::User(_) | Ty::AnyStruct | Ty::Io, None) => {
                let tokens = match &elem {
                    Ty::User(ty) => {
                        let name = struct_ident(&self.cx.schema.types[*ty]);
                        quote!(#element.map(::core::borrow::Borrow::<#name>::borrow))
                    }
                    _ => quote!(#element.copied()),
                };
                Place {
                    tokens,
                    ty: elem,
                    field: None,
                    optional: true,
                    element: false,
                    by_ref: false,
                    decoded: None,
                }
            }
            (Ty::Bytes, None) => Place::computed(
                quote!(#element.map_or(&[][..], |bytes| bytes.as_slice())),
                Ty::Bytes,
            ),
            (Ty::Str, None) => Place::computed(
                quote!(#element.map(|x| x.text_bytes()).unwrap_or_default()),
                Ty::StrLit,
            ),
            // String literals, the last `item_ty` takes.
            _ => Place::computed(quote!(#element.copied().unwrap_or_default()), Ty::StrLit),
        }
    }

    /// Field `index` of the structure in scope (see `Node::Field`), which the resolver found
    /// usable here.
    pub(super) fn own_field(&self, index: usize) -> Place<'s> {
        let field = &self.def().fields[index];
        let prior = self
            .prior
            .as_ref()
            .filter(|_| self.cx.prior == Some(field.id.as_str()));
        if let (None, Some(prior)) = (&self.owner, prior) {
            // Arguments that differ from one element to the next are kept in the elements
            // (see `Param::kept`); the others are the same for every element, computed
            // here without `_index`, which is this element's.
            return stored_field(field, prior.clone());
        }
        if let Some(contents) = contents_place(field) {
            return contents;
        }
        let ident = field_ident(&field.id);
        let tokens = match (&self.owner, self.cx.mode) {
            (Some(owner), _) => quote!(#owner.#ident),
            (None, Mode::Read) => local_ident(&field.id).into_token_stream(),
            (None, Mode::Write | Mode::Inspect) => quote!(self.#ident),
        };
        stored_field(field, tokens)
    }

    /// Look-ahead `instance` as its reader reads it: its `if` (when it has one) and its raw
    /// integer, read the first time the reader needs it (Kaitai evaluates an instance once,
    /// when first needed, even at `_io.pos + n`).
    pub fn look_ahead_read(
        &self,
        instance: &Instance,
    ) -> Result<(Option<TokenStream>, TokenStream), ExprError> {
        let read = crate::typeck::resolve::look_ahead_read(&self.cx, instance)?;
        Ok(self.look_ahead_tokens(instance, read))
    }

    /// The Rust of look-ahead `instance` read as `read` says, in this scope (inside its
    /// structure): its `if`, and its raw integer.
    pub(super) fn look_ahead_tokens(
        &self,
        instance: &Instance,
        read: LookAheadRead,
    ) -> (Option<TokenStream>, TokenStream) {
        let InstanceKind::Peek { ty, .. } = &instance.kind else {
            return (None, TokenStream::new());
        };
        let pos = self.render(*read.pos);
        let size = usize::from(ty.bytes);
        let value = crate::repr::scalar::decode(Scalar::Int(*ty), quote!(b));
        let cell = look_ahead_cell_ident(&instance.id);
        let raw = quote!(rt::look_ahead::once(&#cell, || rt::fields::peek::<#size>(r, #pos).map_or(-1, |b| #value as i64)));
        let cond = read.cond.map(|cond| self.render(*cond));
        (cond, raw)
    }

    /// The value of look-ahead `instance` whose raw integer is `raw`: an enum's when it has one.
    pub(super) fn look_ahead_value(
        &self,
        instance: &Instance,
        raw: TokenStream,
    ) -> (TokenStream, Ty) {
        match &instance.kind {
            InstanceKind::Peek {
                enum_idx: Some(idx),
                ..
            } => {
                let name = enum_ident(&self.cx.schema.enums[*idx]);
                (quote!(#name::from_raw(#raw)), Ty::Enum(*idx))
            }
            _ => (raw, Ty::Int),
        }
    }

    /// Look-ahead `instance` as kept in `holder` (see `emit::read::read_body`): absent when its
    /// `if` did not hold.
    pub(super) fn kept_look_ahead(
        &self,
        holder: TokenStream,
        instance: &Instance,
    ) -> (TokenStream, Ty) {
        let ident = field_ident(&instance.id);
        match &instance.kind {
            InstanceKind::Peek { cond: Some(_), .. } => {
                let (value, ty) = self.look_ahead_value(instance, quote!(v.get()));
                (
                    quote!(#holder.#ident.map(|v| #value)),
                    Ty::Opt(Box::new(ty)),
                )
            }
            _ => self.look_ahead_value(instance, quote!(#holder.#ident.get())),
        }
    }

    /// `_sizeof` of `base` (see `Node::SizeOf`), a stored value or a structure: the bytes it
    /// is written as, 0 where it is absent.
    pub(super) fn size_of(&self, base: Place<'s>) -> TokenStream {
        // A decoded value that may be absent takes the bytes its holder keeps, or none.
        if let (true, Some(field), Some(holder)) = (base.optional, base.field, &base.decoded) {
            let len = present_len(self.cx.schema, field, &quote!(present));
            return quote!(#holder.map_or(0i64, |present| (#len) as i64));
        }
        if base.optional {
            let inner_scope = self.present_scope_of(&base);
            let size = inner_scope.size_of(present_of(&base));
            let inner = Place::computed(size, Ty::Int);
            return self
                .when_present_place(&base, &inner_scope, inner, false)
                .tokens;
        }
        let tokens = &base.tokens;
        // A field read already has the size it is written with.
        let len = match (base.field, base.value_type().filter(|_| base.element)) {
            // A structure that is no field's (`_` of `sum`): the bytes it writes.
            (None, _) => return quote!((#tokens.encoded_len() as i64)),
            (Some(_), Some(element)) => element_len(self.cx.schema, element, tokens),
            // A decoded value takes the bytes its holder keeps.
            (Some(field), None) => present_len(
                self.cx.schema,
                field,
                base.decoded.as_ref().unwrap_or(tokens),
            ),
        };
        quote!(((#len) as i64))
    }

    /// Field `index` of `base`, a structure of type `ty` (see `Node::Field`), which the
    /// resolver found usable here.
    pub(super) fn field_of(&self, base: Place<'s>, ty: usize, index: usize) -> Place<'s> {
        let field = &self.cx.schema.types[ty].fields[index];
        if let Some(contents) = contents_place(field) {
            // Through another value, the bytes are computed, never borrowed from it.
            return Place {
                field: None,
                ..contents
            };
        }
        let (tokens, ident) = (&base.tokens, field_ident(&field.id));
        stored_field(field, quote!(#tokens.#ident))
    }

    /// The place of `inner`, a step computed in `inner_scope` from the value of `base` where
    /// it is present, that may be absent with it (see `resolve::places::absent_step_ty`).
    pub(super) fn when_present_place(
        &self,
        base: &Place<'s>,
        inner_scope: &Scope<'s>,
        inner: Place<'s>,
        step_fails: bool,
    ) -> Place<'s> {
        let outer = &base.tokens;
        let tokens = &inner.tokens;
        if inner.optional {
            return Place {
                tokens: when_present(outer, tokens, Absent::Flattened, step_fails),
                ..inner
            };
        }
        if inner.field.is_some() {
            // A reference already (the value itself, cast), or a field reached through it.
            let tokens = match inner.by_ref {
                true => tokens.clone(),
                false => quote!(&#tokens),
            };
            return Place {
                tokens: when_present(outer, &tokens, Absent::None, step_fails),
                optional: true,
                ..inner
            };
        }
        let (value, ty) = inner_scope.value(inner);
        let fails = step_fails;
        let or = |absent| when_present(outer, &value, Absent::Value(absent), fails);
        let (tokens, ty) = match ty {
            Ty::Int => (or(quote!(0i64)), ty),
            Ty::Float => (or(quote!(0.0f64)), ty),
            Ty::Bool => (or(quote!(false)), ty),
            Ty::Io => (or(quote!(rt::Stream::none())), ty),
            Ty::Opt(_) => (when_present(outer, &value, Absent::Flattened, fails), ty),
            other => (
                when_present(outer, &value, Absent::None, fails),
                Ty::Opt(Box::new(other)),
            ),
        };
        Place::computed(tokens, ty)
    }

    /// Turns a place into a value: numbers become `i64`/`f64`, strings and byte arrays a
    /// `&[u8]` of their content, and a value that may be absent an `Option` of its value
    /// (except numbers, which read as 0 when absent); typed by [`place_value_ty`].
    pub(super) fn value(&self, place: Place<'s>) -> (TokenStream, Ty) {
        let ty = place_value_ty(
            self.cx.schema,
            place.ty.clone(),
            place.value_type(),
            place.optional,
        );
        (self.value_tokens(place, &ty), ty)
    }

    /// The Rust of the value of `place`, of type `ty`.
    fn value_tokens(&self, place: Place<'s>, ty: &Ty) -> TokenStream {
        if place.optional {
            return self.optional_value(place, ty);
        }
        let Some(one) = place.value_type() else {
            return place.tokens;
        };
        let tokens = match place.by_ref && read_through(one) {
            true => {
                let reference = place.tokens;
                quote!((*#reference))
            }
            false => place.tokens,
        };
        self.stored_value(one, tokens)
    }

    /// The Rust of one stored value of type `ty`, of the type [`stored_value_ty`] says where
    /// it is not the place's own: numbers as `i64`/`f64`, strings and byte arrays as their
    /// content, a switch of integers as an integer.
    pub(super) fn stored_value(&self, ty: &FieldType, tokens: TokenStream) -> TokenStream {
        let seen_as = stored_value_ty(self.cx.schema, ty);
        match ty {
            FieldType::Switch(switch) => {
                integer_switch(self.cx.schema, switch, &tokens).unwrap_or(tokens)
            }
            _ if seen_as == Some(Ty::Int) => quote!((#tokens as i64)),
            FieldType::Number(Scalar::Float(_)) => quote!((#tokens as f64)),
            FieldType::Number(Scalar::Fixed { .. }) => quote!(#tokens.get_f64()),
            FieldType::Str { .. } | FieldType::Bytes { .. } => content_view(ty, tokens),
            _ => tokens,
        }
    }

    /// The Rust of the value of `place`, which may be absent, of type `ty`: an `Option`, or
    /// for a number what an absent one reads as.
    fn optional_value(&self, place: Place<'s>, ty: &Ty) -> TokenStream {
        let outer = place.tokens.clone();
        let present = Place {
            tokens: quote!(present),
            optional: false,
            by_ref: true,
            ..place
        };
        let (value, _) = self.value(present);
        let absent = match ty {
            Ty::Int => quote!(0i64),
            Ty::Float => quote!(0.0f64),
            Ty::Enum(idx) => {
                let name = enum_ident(&self.cx.schema.enums[*idx]);
                quote!(#name::from_raw(0))
            }
            // Taking the value of a present place computes nothing, so it cannot fail.
            _ => return when_present(&outer, &value, Absent::None, false),
        };
        when_present(&outer, &value, Absent::Value(absent), false)
    }
}

/// The place of a stored field reached through `tokens`; a conditional field or a parse
/// instance is an `Option` of a reference to its value.
pub(super) fn stored_field<'s>(field: &'s Field, tokens: TokenStream) -> Place<'s> {
    // Each case of a decoded switch keeps its own stored bytes (see `emit::types`).
    let decoded = field.decode.is_some()
        && field.repeat == Repeat::None
        && !matches!(field.ty, FieldType::Switch(_));
    // A parse instance is held as an `rt::Instance`, present when read.
    let present = match field.parse_instance {
        true => quote!(#tokens.get()),
        false => quote!(#tokens.as_ref()),
    };
    match (field.may_be_absent(), decoded) {
        (true, true) => Place {
            decoded: Some(present.clone()),
            ..Place::stored(quote!(#present.map(|decoded| &decoded.value)), field, true)
        },
        (true, false) => Place::stored(present, field, true),
        (false, true) => Place {
            decoded: Some(tokens.clone()),
            ..Place::stored(quote!(#tokens.value), field, false)
        },
        (false, false) => Place::stored(tokens, field, false),
    }
}

/// A kept parameter (see [`Param::kept`]) of the value `owner`: a number, boolean or enum
/// value stored in it.
pub(super) fn kept_param(param: &Param, owner: TokenStream) -> TokenStream {
    let ident = field_ident(&param.id);
    quote!(#owner.#ident)
}

/// What an expression sees of one string or byte-array value: a `&[u8]` of its content (see
/// [`Content`]), cut out of the bytes the field keeps.
pub fn content_view(ty: &FieldType, value: TokenStream) -> TokenStream {
    let (bytes, content) = match ty {
        FieldType::Str { content, .. } => (quote!(#value.as_bytes()), content),
        FieldType::Bytes { content, .. } => (quote!(#value.0.as_slice()), content),
        _ => return value,
    };
    match *content {
        Content {
            pad_right: None,
            terminator: None,
            ..
        } => bytes,
        // Strings whose terminator is wider than a byte are decoded (`Decode`), never viewed.
        Content {
            pad_right,
            terminator,
            include,
            ..
        } => {
            let (pad, term) = (option_tokens(pad_right), option_tokens(terminator));
            quote!(rt::bytes::content(#bytes, #pad, #term, #include))
        }
    }
}

/// Whether a value of `ty` reached through a reference is read through it (a number is
/// copied, a string or byte array viewed); other values stay references, so that they can be
/// held by an `Option` without being moved.
pub(super) fn read_through(ty: &FieldType) -> bool {
    matches!(
        ty,
        FieldType::Number(_)
            | FieldType::Remembered { .. }
            | FieldType::Vlq
            | FieldType::Enum { .. }
            | FieldType::Bits { .. }
            | FieldType::BitPadding
            | FieldType::Str { .. }
            | FieldType::Bytes { .. }
    )
}

/// The place of a `contents` field, which stores no bytes: read and checked, its value is the
/// contents the schema fixes (the resolver refuses one that is repeated or conditional).
/// `None` for other fields.
fn contents_place(field: &Field) -> Option<Place<'_>> {
    let FieldType::Contents(bytes) = &field.ty else {
        return None;
    };
    let bytes = proc_macro2::Literal::byte_string(bytes);
    Some(Place {
        field: Some(field),
        ..Place::computed(quote!(#bytes.as_slice()), Ty::Bytes)
    })
}

/// The value of `base`, which may be absent, where it is present: a reference bound as
/// `present` (see [`when_present`]).
pub(super) fn present_of<'s>(base: &Place<'s>) -> Place<'s> {
    Place {
        tokens: quote!(present),
        optional: false,
        by_ref: true,
        ..base.clone()
    }
}

/// What [`when_present`] gives when its value is absent.
pub(super) enum Absent {
    /// This value (`map_or`).
    Value(TokenStream),
    /// `None` (`map`).
    None,
    /// `None`, the present value being an `Option` itself (`and_then`).
    Flattened,
}

/// `outer` (an `Option`) with `value` computed from its `present` value, or what `absent`
/// says: a closure, or a `match` when `value` can fail, whose `?` no closure could hold.
pub(super) fn when_present(
    outer: &TokenStream,
    value: &TokenStream,
    absent: Absent,
    can_fail: bool,
) -> TokenStream {
    when_present_as(outer, &quote!(present), value, absent, can_fail)
}

/// [`when_present`], the present value bound to `name`.
pub(super) fn when_present_as(
    outer: &TokenStream,
    name: &TokenStream,
    value: &TokenStream,
    absent: Absent,
    can_fail: bool,
) -> TokenStream {
    if !can_fail {
        return match absent {
            Absent::Value(absent) => quote!(#outer.map_or(#absent, |#name| #value)),
            Absent::None => quote!(#outer.map(|#name| #value)),
            Absent::Flattened => quote!(#outer.and_then(|#name| #value)),
        };
    }
    let (present, absent) = match absent {
        Absent::Value(absent) => (value.clone(), absent),
        Absent::None => (
            quote!(::core::option::Option::Some(#value)),
            quote!(::core::option::Option::None),
        ),
        Absent::Flattened => (value.clone(), quote!(::core::option::Option::None)),
    };
    quote!((match #outer {
        ::core::option::Option::Some(#name) => #present,
        ::core::option::Option::None => #absent,
    }))
}
