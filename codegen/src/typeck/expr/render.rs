//! Renders a [`Typed`] tree as Rust: every decision is the tree's, what remains is how each
//! value is held in Rust (`i64`, slices, `Option`s of references, `Cow`s of text).

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use super::place::{Absent, kept_param, when_present_as};
use super::*;
use crate::sanitization::is_be_ident;
use crate::typeck::resolve::Reach as _;
use crate::typeck::typed::{Comparison, Function, Node, Numeric, Position, StreamProperty, Typed};

impl<'s> Scope<'s> {
    /// The place of `t`: what the back end reached, or a value computed by the tree.
    pub(super) fn as_place(&self, t: Typed) -> Place<'s> {
        self.place_of(t).unwrap_or_else(|t| {
            let ty = t.ty.clone();
            Place::computed(self.render(*t), ty)
        })
    }

    /// The place `t` reaches, or `t` when it computes a value.
    fn place_of(&self, t: Typed) -> Result<Place<'s>, Box<Typed>> {
        let Typed { ty, can_fail, node } = t;
        Ok(match node {
            Node::Item { list, at } => {
                let list = self.as_place(*list);
                self.item_place(list, |tokens| self.position(at, tokens))
            }
            Node::Present { .. } if let Some(present) = &self.present => (**present).clone(),
            Node::WhenPresent { value, then } => {
                let inner_scope = self.present_scope(&value);
                let base = self.as_place(*value);
                let step_fails = then.can_fail;
                let inner = inner_scope.as_place(*then);
                self.when_present_place(&base, &inner_scope, inner, step_fails)
            }
            Node::Field {
                of: None,
                ty,
                index,
            } => {
                debug_assert_eq!(ty, self.cx.ty, "a field of the type in scope");
                self.own_field(index)
            }
            Node::Field {
                of: Some(of),
                ty,
                index,
            } => {
                let of = self.as_place(*of);
                self.field_of(of, ty, index)
            }
            Node::Case {
                value,
                field: (owner, index),
                variant,
            } => {
                let field = &self.cx.schema.types[owner].fields[index];
                let value = self.as_place(*value);
                self.case_place(value, owner, field, variant)
            }
            Node::AtHome(value) => self.home.as_deref().unwrap_or(self).as_place(*value),
            Node::Index if let Some(index) = &self.index => {
                Place::computed(quote!((#index as i64)), Ty::Int)
            }
            Node::Element if let (Some(tokens), Some(elem)) = (&self.element, &self.cx.element) => {
                Place::computed(tokens.clone(), elem.clone())
            }
            node => return Err(Box::new(Typed { ty, can_fail, node })),
        })
    }

    /// `_io` of the structure in scope (see `Node::Stream`): the reader's stream, bound at
    /// its start (see `emit::read::read_body`), none in a writer, or the one a finished value
    /// keeps.
    fn own_stream(&self) -> TokenStream {
        match (self.cx.mode, &self.owner) {
            (Mode::Read, None) => {
                let own = local_ident("_io");
                quote!((&#own))
            }
            (Mode::Write, None) => quote!(rt::Stream::none()),
            (_, Some(owner)) => quote!((&#owner._io)),
            (Mode::Inspect, None) => quote!((&self._io)),
        }
    }

    /// The Rust `usize` of position `at` in the list `list`.
    pub(super) fn position(&self, at: Position, list: &TokenStream) -> TokenStream {
        match at {
            Position::At(at) => {
                let at = self.render(*at);
                quote!(usize::try_from(#at).unwrap_or(usize::MAX))
            }
            Position::First => quote!(0usize),
            Position::Last => quote!(#list.len().wrapping_sub(1)),
        }
    }

    /// The reader of the structure in scope: its own one while it reads from another stream
    /// (see `in_other_stream`).
    fn own_reader(&self) -> TokenStream {
        match self.in_other_stream && self.owner.is_none() {
            true => own_reader_ident().into_token_stream(),
            false => quote!(r),
        }
    }

    /// The scope inside one element of a list whose elements have type `elem`, added up by
    /// `sum`, and the Rust name of the element.
    pub(super) fn sum_element(&self, elem: Ty) -> (Self, TokenStream) {
        let item = format_ident!("item{}", self.cx.depth);
        let cx = self.cx.element_scope(elem.clone());
        let inner = self.with_element(quote!(#item), elem).with_context(cx);
        (inner, quote!(#item))
    }
}

impl<'s> Scope<'s> {
    /// The Rust of `t`.
    pub(super) fn render(&self, t: Typed) -> TokenStream {
        let t = match self.place_of(t) {
            Ok(place) => return self.value(place).0,
            Err(t) => *t,
        };
        let Typed { ty, can_fail, node } = t;
        match node {
            // Only where the resolver found `_` or `_index` defined, which the scope then binds.
            Node::AtHome(_)
            | Node::Field { .. }
            | Node::Case { .. }
            | Node::Item { .. }
            | Node::Present { .. }
            | Node::WhenPresent { .. }
            | Node::Index
            | Node::Element => {
                unreachable!("a place is rendered as its value above")
            }
            Node::Param { of, ty, index } => {
                let param = &self.cx.schema.types[ty].params[index];
                let owner = match of {
                    Some(of) => Some(self.render(*of)),
                    None => self.owner.clone(),
                };
                match (owner, self.cx.mode) {
                    (Some(owner), _) => kept_param(param, owner),
                    (None, Mode::Inspect) => kept_param(param, quote!(self)),
                    // Passed as `i64`, slices and references: already values.
                    (None, Mode::Read | Mode::Write) => local_ident(&param.id).into_token_stream(),
                }
            }
            Node::Instance {
                of,
                ty,
                index,
                value,
            } => {
                let instance = &self.cx.schema.types[ty].instances[index];
                debug_assert!(!instance.is_look_ahead(), "a value instance");
                // Rendered where it was resolved: inside its structure.
                self.instance_scope(of.as_deref(), ty).render(*value)
            }
            Node::Argument { of, value, .. } => {
                // Rendered where it was resolved: where the argument was given.
                let scope = match of {
                    Some(given) => self.arguments_scope(&given),
                    None => match self.owner_arguments() {
                        Some(scope) => scope,
                        None => unreachable!("the resolver found the owner's arguments"),
                    },
                };
                scope.render(*value)
            }
            Node::Convert { value, to } => {
                let value = self.render(*value);
                match to {
                    Numeric::Int => quote!((#value as i64)),
                    Numeric::F4 => quote!(((#value as f32) as f64)),
                    Numeric::F8 => quote!((#value as f64)),
                }
            }
            Node::Downcast { value, ty } => {
                let name = crate::sanitization::struct_ident(&self.cx.schema.types[ty]);
                let value = self.render(*value);
                quote!(#value.downcast_ref::<#name>())
            }
            Node::LookAhead {
                of,
                ty,
                index,
                read,
            } => {
                let instance = &self.cx.schema.types[ty].instances[index];
                let Some(read) = read else {
                    // Kept in the value by its reader.
                    let holder = match of {
                        Some(of) => self.as_place(*of).tokens,
                        None => self.owner.clone().unwrap_or_else(|| quote!(self)),
                    };
                    return self.kept_look_ahead(holder, instance).0;
                };
                let inner = self.instance_scope(None, ty);
                let (cond, raw) = inner.look_ahead_tokens(instance, read);
                let (value, _) = self.look_ahead_value(instance, raw);
                match cond {
                    // Kaitai does not even seek when the condition fails.
                    Some(cond) => {
                        quote!(if #cond { ::core::option::Option::Some(#value) } else { ::core::option::Option::None })
                    }
                    None => value,
                }
            }
            Node::Holds {
                value,
                field,
                variant,
            } => {
                let (owner, index) = field;
                let field = &self.cx.schema.types[owner].fields[index];
                let place = self.as_place(*value);
                self.holds_variant(place, owner, field, variant)
            }
            Node::IsPresent(value) => {
                let value = self.as_place(*value).tokens;
                quote!(#value.is_some())
            }
            Node::IntsAsBytes(ints) => {
                let ints = self.render(*ints);
                quote!(rt::bytes::from_ints(&#ints))
            }
            Node::AsEnum { enum_index, value } => {
                let name = enum_ident(&self.cx.schema.enums[enum_index]);
                let value = self.render(*value);
                quote!(#name::from_raw(#value))
            }
            Node::OnlyIf { cond, value } => {
                let structure = matches!(value.ty, Ty::User(_));
                let (cond, value) = (self.render(*cond), self.render(*value));
                let none = quote!(::core::option::Option::None);
                let (value, absent) = match &ty {
                    // A structure is absent when the condition fails.
                    _ if structure => (quote!(::core::option::Option::Some(&#value)), none),
                    Ty::Opt(_) => (value, none),
                    Ty::Int => (value, quote!(0i64)),
                    Ty::Float => (value, quote!(0.0f64)),
                    Ty::Bool => (value, quote!(false)),
                    Ty::Enum(idx) => {
                        let name = enum_ident(&self.cx.schema.enums[*idx]);
                        (value, quote!(#name::from_raw(0)))
                    }
                    _ => (value, none),
                };
                quote!(if #cond { #value } else { #absent })
            }
            Node::Stream { of: None } => self.own_stream(),
            Node::Stream { of: Some(of) } => {
                let of = self.as_place(*of).tokens;
                quote!((&#of._io))
            }
            Node::StreamProperty { of, property } => {
                // A writer knows where it is in the stream it writes.
                let own = self.owner.is_none() && of.is_none();
                if own && self.cx.mode == Mode::Write && property == StreamProperty::Pos {
                    return quote!((w.stream_pos() as i64));
                }
                let stream = match of {
                    Some(of) => self.render(*of),
                    None => self.own_reader(),
                };
                match property {
                    StreamProperty::Pos => quote!((#stream.pos() as i64)),
                    StreamProperty::Size => quote!((#stream.size() as i64)),
                    StreamProperty::Eof => quote!(#stream.is_eof()),
                }
            }
            Node::BigEndian => is_be_ident().into_token_stream(),
            Node::SizeOf { of: Some(of) } => {
                let of = self.as_place(*of);
                self.size_of(of)
            }
            Node::SizeOf { of: None } => {
                let value = self.owner.clone().unwrap_or_else(|| quote!(self));
                // The bytes a file has after the root's value are not part of it.
                let len = match self.cx.schema.trailing_field(self.cx.ty) {
                    Some(field) => {
                        let trailing = field_ident(&field.id);
                        quote!((#value.encoded_len() - #value.#trailing.0.len()))
                    }
                    None => quote!(#value.encoded_len()),
                };
                quote!((#len as i64))
            }
            Node::Int(n) => int_tokens(n),
            Node::Float(f) => quote!(#f),
            Node::Bool(b) => quote!(#b),
            Node::Text(s) => {
                let lit = Literal::byte_string(s.as_bytes());
                quote!(#lit.as_slice())
            }
            Node::EnumValue {
                enum_index,
                variant,
            } => {
                let def = &self.cx.schema.enums[enum_index];
                let e = enum_ident(def);
                let v = variant_ident(&def.variants[variant]);
                quote!(#e::#v)
            }
            Node::Not(inner) => {
                let inner = self.render(*inner);
                quote!(!#inner)
            }
            Node::Negate(inner) => {
                let inner = self.render(*inner);
                match ty {
                    Ty::Float => quote!((-#inner)),
                    _ => quote!(#inner.wrapping_neg()),
                }
            }
            Node::BitNot(inner) => {
                let inner = self.render(*inner);
                quote!((!#inner))
            }
            Node::Logic { and, a, b } => {
                let (a, b) = (self.render(*a), self.render(*b));
                match and {
                    true => quote!((#a && #b)),
                    false => quote!((#a || #b)),
                }
            }
            Node::ToFloat(inner) => {
                let inner = self.render(*inner);
                quote!((#inner as f64))
            }
            Node::Arithmetic(op, a, b) => {
                let (a, b) = (self.render(*a), self.render(*b));
                arithmetic(op, &ty, a, b)
            }
            Node::Concat(a, b) => {
                let (a, b) = (self.render(*a), self.render(*b));
                quote!(rt::bytes::concat(&#a, &#b))
            }
            Node::Compare { op, how, a, b } => {
                let (ta, tb) = (a.ty.clone(), b.ty.clone());
                let (a, b) = (self.render(*a), self.render(*b));
                compare(op, &how, (a, &ta), (b, &tb), can_fail)
            }
            Node::Choose { cond, a, b } => {
                let (ta, tb) = (a.ty.clone(), b.ty.clone());
                let cond = self.render(*cond);
                let (a, b) = (self.render(*a), self.render(*b));
                choose(cond, (a, &ta), (b, &tb))
            }
            Node::AbsentAsZero(inner) => {
                let inner = self.render(*inner);
                quote!((#inner).unwrap_or(0i64))
            }
            Node::List(items) => self.list_literal(&ty, items),
            Node::Call(function, bytes) => {
                let bytes = self.render(*bytes);
                let bytes = quote!(rt::bytes::view(&#bytes));
                match function {
                    Function::Crc32 => quote!(i64::from(rt::checksum::crc32(#bytes))),
                    Function::Adler32 => quote!(i64::from(rt::checksum::adler32(#bytes))),
                    Function::Inflated => quote!(rt::process::inflated(#bytes)?),
                }
            }
            Node::Sum { list, body } => {
                let elem = match &list.ty {
                    Ty::Array(elem) => (**elem).clone(),
                    other => other.clone(),
                };
                // The body is rendered where it was resolved: inside one element.
                let (inner, element) = self.sum_element(elem);
                let (list, body) = (self.render(*list), inner.render(*body));
                quote!(#list.iter().fold(0i64, |sum, #element| sum.wrapping_add(#body)))
            }
            Node::Format(parts) => {
                let mut text = quote!(::std::vec::Vec::<u8>::new());
                for part in parts {
                    let number = part.ty == Ty::Int;
                    let value = self.render(part);
                    let value = match number {
                        true => quote!(rt::bytes::decimal(#value)),
                        false => value,
                    };
                    text = quote!(rt::bytes::concat(&#text, &#value));
                }
                text
            }
            Node::ParseInt { text, radix } => {
                let (text, radix) = (self.render(*text), self.render(*radix));
                let number = quote!(rt::bytes::parse_int(rt::bytes::view(&#text), #radix));
                // Code reached through another value runs where the expression is compiled.
                let home = self.home.as_deref().unwrap_or(self);
                match home.cx.mode {
                    Mode::Read => quote!(#number.map_err(|e| e.at(r.pos()))?),
                    Mode::Write => quote!(#number.map_err(|e| e.at(w.pos()))?),
                    Mode::Inspect => quote!(#number?),
                }
            }
            Node::Substring { text, from, to } => {
                let text = self.render(*text);
                let (from, to) = (self.render(*from), self.render(*to));
                quote!(rt::bytes::substring(rt::bytes::view(&#text), #from, #to))
            }
            Node::ToText { bytes, decode } => {
                let ints = bytes.ty != Ty::Bytes;
                let bytes = self.render(*bytes);
                let bytes = match ints {
                    true => quote!(rt::bytes::from_ints(&#bytes)),
                    false => bytes,
                };
                match decode {
                    None => bytes,
                    Some(encoding) => {
                        let variant = format_ident!("{}", encoding.variant_name());
                        quote!(rt::encoding::Encoding::#variant.decode(rt::bytes::view(&#bytes)).into_owned().into_bytes())
                    }
                }
            }
            Node::Property(property, value) => {
                let of = value.ty.clone();
                super::text::property_tokens(property, &of, self.render(*value))
            }
        }
    }

    /// A list literal: integers (`[1i64, 2i64]`), strings (`[b"a".as_slice(), …]`), byte
    /// arrays, or references to structures of any types.
    fn list_literal(&self, ty: &Ty, items: Vec<Typed>) -> TokenStream {
        let elem = match ty {
            Ty::ListLit(elem) => &**elem,
            _ => &Ty::Int,
        };
        // An empty list is one of integers, spelled with its type: `[]` alone has none in Rust.
        if items.is_empty() {
            return quote!([0i64; 0]);
        }
        let items = items.into_iter().map(|item| {
            let have = item.ty.clone();
            let tokens = self.render(item);
            match (elem, have) {
                (Ty::Bytes, _) => quote!(rt::bytes::from_ints(&#tokens)),
                (Ty::AnyStruct, Ty::User(have)) => {
                    let name = crate::sanitization::struct_ident(&self.cx.schema.types[have]);
                    quote!({
                        let value: &#name = &#tokens;
                        value as &dyn ::core::any::Any
                    })
                }
                _ => tokens,
            }
        });
        quote!([#(#items),*])
    }
}

/// An `i64` literal: suffixed, so that methods such as `wrapping_add` resolve on literals
/// too; a negative one in parentheses, as `-5i64.abs()` would negate the call, and `i64::MIN`
/// by name, as its digits alone overflow before the minus applies.
pub(super) fn int_tokens(n: i64) -> TokenStream {
    let lit = Literal::i64_suffixed(n);
    match n {
        i64::MIN => quote!(i64::MIN),
        n if n < 0 => quote!((#lit)),
        _ => quote!(#lit),
    }
}

/// `a op b` on two numbers of type `ty`: wrapping, as integers compute in `i64` without
/// panicking on hostile values.
fn arithmetic(op: BinOp, ty: &Ty, a: TokenStream, b: TokenStream) -> TokenStream {
    if *ty == Ty::Float {
        return match op {
            BinOp::Add => quote!((#a + #b)),
            BinOp::Sub => quote!((#a - #b)),
            BinOp::Mul => quote!((#a * #b)),
            _ => quote!((#a / #b)),
        };
    }
    match op {
        BinOp::Add => quote!(#a.wrapping_add(#b)),
        BinOp::Sub => quote!(#a.wrapping_sub(#b)),
        BinOp::Mul => quote!(#a.wrapping_mul(#b)),
        BinOp::Div => quote!(rt::arith::div(#a, #b)),
        BinOp::Mod => quote!(rt::arith::modulo(#a, #b)),
        BinOp::Shl => quote!(#a.wrapping_shl(#b as u32)),
        BinOp::Shr => quote!(#a.wrapping_shr(#b as u32)),
        BinOp::BitAnd => quote!((#a & #b)),
        BinOp::BitOr => quote!((#a | #b)),
        _ => quote!((#a ^ #b)),
    }
}

/// `a op b`, compared as `how` says; `can_fail`: either can fail (see `Scope::can_fail`).
fn compare(
    op: BinOp,
    how: &Comparison,
    (a, ta): (TokenStream, &Ty),
    (b, tb): (TokenStream, &Ty),
    can_fail: bool,
) -> TokenStream {
    let (a, b) = match how {
        Comparison::Scalars => match (ta, tb) {
            (Ty::Int, Ty::Float) => (quote!((#a as f64)), b),
            (Ty::Float, Ty::Int) => (a, quote!((#b as f64))),
            _ => (a, b),
        },
        // Views and computed strings compare as slices; a literal already is one.
        Comparison::Bytes => (bytes_view(a, ta), bytes_view(b, tb)),
        Comparison::BytesWithIntLiteral => {
            let literal = quote!(rt::bytes::from_ints(&#b));
            (bytes_view(a, ta), bytes_view(literal, &Ty::Bytes))
        }
        Comparison::IntsMatch | Comparison::TextsMatch => {
            let equal = match (how, ta) {
                (Comparison::TextsMatch, _) => quote!(
                    (#a.len() == #b.len() && #a.iter().zip(#b.iter()).all(|(x, y)| x.text_bytes() == *y))
                ),
                (_, Ty::Bytes) => {
                    quote!(rt::arith::ints_match(#a.iter().map(|x| i64::from(*x)), &#b))
                }
                _ => quote!(rt::arith::ints_match(#a.iter().map(|x| *x as i64), &#b)),
            };
            return match op {
                BinOp::Eq => equal,
                _ => quote!((!#equal)),
            };
        }
        Comparison::MayBeAbsent { both, present } => {
            let inner = |t: &Ty| match t {
                Ty::Opt(inner) => (**inner).clone(),
                other => other.clone(),
            };
            let (inner_a, inner_b) = (inner(ta), inner(tb));
            let absent = op == BinOp::Ne;
            let absent = || Absent::Value(quote!(#absent));
            let (present_a, present_b) = (quote!(present), quote!(other));
            let holds = match both {
                false => compare(op, present, (present_a, &inner_a), (b, tb), can_fail),
                true => {
                    let holds = compare(
                        op,
                        present,
                        (present_a, &inner_a),
                        (present_b.clone(), &inner_b),
                        can_fail,
                    );
                    when_present_as(&b, &present_b, &holds, absent(), can_fail)
                }
            };
            return when_present_as(&a, &quote!(present), &holds, absent(), can_fail);
        }
    };
    match op {
        BinOp::Eq => quote!((#a == #b)),
        BinOp::Ne => quote!((#a != #b)),
        BinOp::Lt => quote!((#a < #b)),
        BinOp::Le => quote!((#a <= #b)),
        BinOp::Gt => quote!((#a > #b)),
        _ => quote!((#a >= #b)),
    }
}

/// A string or byte array as a byte slice; a literal already is one.
fn bytes_view(t: TokenStream, ty: &Ty) -> TokenStream {
    match ty {
        Ty::StrLit => t,
        _ => quote!(rt::bytes::view(&#t)),
    }
}

/// `if cond { a } else { b }`, both branches held alike.
fn choose(
    cond: TokenStream,
    (a, ta): (TokenStream, &Ty),
    (b, tb): (TokenStream, &Ty),
) -> TokenStream {
    let (a, b) = match (ta, tb) {
        // A view of a field and a computed string: either may be borrowed.
        _ if ta.is_text() && tb.is_text() || *ta == Ty::Bytes && *tb == Ty::Bytes => {
            let either = |v| quote!(::std::borrow::Cow::<[u8]>::from(#v));
            (either(a), either(b))
        }
        // A structure and one that may be absent: either may be absent.
        (Ty::Opt(_), Ty::User(_)) => (a, quote!(::core::option::Option::Some(&#b))),
        (Ty::User(_), Ty::Opt(_)) => (quote!(::core::option::Option::Some(&#a)), b),
        // Fixed-size arrays of two lengths are both slices.
        (Ty::Array(_) | Ty::ListLit(_), _) => (quote!(&(#a)[..]), quote!(&(#b)[..])),
        _ => (a, b),
    };
    quote!(if #cond { #a } else { #b })
}
