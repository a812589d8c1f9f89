//! The expressions of the read path resolved once per schema into typed trees (the
//! checker's resolver, `typeck::resolve`, in the scope each one runs in), and evaluated on
//! the interpreter's values: names are found by index instead of looked up by string at each
//! evaluation. A tree gives what [`Scope::eval`] gives for the expression it was resolved
//! from, values and errors alike; an expression without one (it does not resolve, or it uses
//! a node evaluated here not yet) is evaluated as written, and so is one that meets, while it
//! is evaluated, a case the tree leaves to that evaluation.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};

use skelcodec_codegen::expr::{BinOp, Expr, UnaryOp};
use skelcodec_codegen::model::{Field, FieldType, InstanceKind, Repeat, Schema, Size};
use skelcodec_codegen::names::IS_BE;
use skelcodec_codegen::typeck::context::Context;
use skelcodec_codegen::typeck::resolve::resolve;
use skelcodec_codegen::typeck::typed::{
    Mode, Node, Numeric, Position, Property, StreamProperty, Ty, Typed,
};
use skelcodec_runtime as rt;
use skelcodec_runtime::__private::messages;

use crate::eval::{
    Evaluated, Scope, arithmetic, as_bool, compare, format_part, instance, int_arithmetic, item_at,
    look_ahead, member, needs_stream, number, stored_len, to_val, unary,
};
use crate::value::{Link, Val, Value};

/// The resolved trees of a schema's read path, by the address of the expression each was
/// resolved from (expressions do not move while their schema lives).
#[derive(Debug, Default)]
pub(crate) struct Trees {
    trees: HashMap<usize, Typed, BuildHasherDefault<AddressHasher>>,
    /// The sites whose expression has no tree, each with why: evaluated as written.
    pub unresolved: Vec<String>,
    /// How many evaluations of a site went through its tree, and how many were evaluated as
    /// written (no tree, or the tree left the case to that), in builds with debug assertions.
    counts: [AtomicU64; 2],
}

/// Hashes an address: its bits, spread.
#[derive(Default)]
pub(crate) struct AddressHasher(u64);

impl Hasher for AddressHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.write_u64(u64::from(*byte));
        }
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }

    fn write_u64(&mut self, n: u64) {
        let h = (self.0 ^ n).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = h ^ (h >> 29);
    }
}

impl Trees {
    /// The trees of every expression of `schema`'s read path that resolves to nodes evaluated
    /// here.
    pub fn of(schema: &Schema) -> Trees {
        let mut trees = Trees::default();
        for (ty, def) in schema.types.iter().enumerate() {
            if let Some(choice) = &def.endian_choice {
                let cx = Context::new(schema, ty, Mode::Read, 0);
                trees.add(&cx, &choice.on, || format!("{}: endian switch-on", def.id));
            }
            for (index, field) in def.fields.iter().enumerate() {
                trees.add_field(schema, ty, index, field);
            }
        }
        trees
    }

    /// The sites of field `index` of type `ty`, each in the scope the reader evaluates it in.
    fn add_field(&mut self, schema: &Schema, ty: usize, index: usize, field: &Field) {
        // The two reads of a field read later see different fields: evaluated as written.
        if field.read_later.is_some() {
            return;
        }
        let at = |site: &str| format!("{}.{}: {site}", schema.types[ty].id, field.id);
        let base = Context::new(schema, ty, Mode::Read, index);
        if let Some(cond) = &field.cond {
            self.add(&base, cond, || at("if"));
        }
        if let Some(pos) = &field.position {
            self.add(&base, pos, || at("pos"));
        }
        // Each element of a `-for-each` field sees its partner in the list it follows as `_`.
        let each = match &field.repeat {
            Repeat::ForEach(list) => match resolve(&base, list).map(|list| list.ty) {
                Ok(Ty::Array(elem) | Ty::ListLit(elem)) => base.with_element(*elem),
                _ => base.clone(),
            },
            _ => base.clone(),
        };
        let element = match field.repeat {
            Repeat::None => base.clone(),
            _ if field.refers_to_itself() => each.with_index().with_prior(&field.id),
            _ => each.with_index(),
        };
        match &field.repeat {
            Repeat::Expr(count) => self.add(&base, count, || at("repeat-expr")),
            Repeat::ForEach(list) => self.add(&base, list, || at("-for-each")),
            Repeat::Until(done) => {
                let until = base.with_element_of(&field.ty).with_index();
                self.add(&until, done, || at("repeat-until"));
            }
            _ => {}
        }
        if let Some(Size::Expr(size)) = &field.substream {
            self.add(&element, size, || at("size"));
        }
        if let Some(decode) = &field.decode
            && let Size::Expr(size) = &decode.size
        {
            self.add(&element, size, || at("size"));
        }
        // Arguments of a value read from bytes of its own are given after those bytes.
        let own_bytes = field.substream.is_some() || field.decode.is_some();
        if let FieldType::Switch(switch) = &field.ty {
            let whole = field.switches_whole_list();
            let selector = if whole { &base } else { &element };
            self.add(selector, &switch.on, || at("switch-on"));
        }
        self.add_type(&element, &field.ty, own_bytes, &at);
    }

    /// The sites of a value of type `ty`, read in `cx`.
    fn add_type(
        &mut self,
        cx: &Context<'_>,
        ty: &FieldType,
        own_bytes: bool,
        at: &impl Fn(&str) -> String,
    ) {
        match ty {
            FieldType::Str {
                size: Size::Expr(size),
                ..
            }
            | FieldType::Bytes {
                size: Size::Expr(size),
                ..
            } => self.add(cx, size, || at("size")),
            FieldType::Remembered { value, .. } => self.add(cx, value, || at("-remember")),
            FieldType::User { args, .. } if !own_bytes => {
                for arg in args {
                    self.add(cx, arg, || at("argument"));
                }
            }
            FieldType::Switch(switch) => {
                let cases = switch.cases.iter().map(|case| &case.ty);
                for case in cases.chain(switch.default.as_deref()) {
                    self.add_type(cx, case, own_bytes, at);
                }
            }
            FieldType::Array { elem, .. } => self.add_type(cx, elem, own_bytes, at),
            _ => {}
        }
    }

    /// Resolves `e` in `cx`, keeping its tree when it is evaluated here.
    fn add(&mut self, cx: &Context<'_>, e: &Expr, site: impl FnOnce() -> String) {
        match resolve(cx, e) {
            Ok(tree) => match unsupported(&tree) {
                None => {
                    self.trees.insert(address(e), tree);
                }
                Some(node) => self.unresolved.push(format!("{}: {node}", site())),
            },
            Err(error) => (self.unresolved).push(format!("{}: {}", site(), error.message())),
        }
    }

    /// The tree of the expression `e`, when it has one.
    pub fn get(&self, e: &Expr) -> Option<&Typed> {
        if self.trees.is_empty() {
            return None;
        }
        self.trees.get(&address(e))
    }

    /// Counts an evaluation of a site as written.
    pub fn note_fallback(&self) {
        self.count(1);
    }

    fn count(&self, which: usize) {
        if cfg!(debug_assertions) {
            self.counts[which].fetch_add(1, Ordering::Relaxed);
        }
    }

    /// How many evaluations of sites went through their trees, and how many were evaluated
    /// as written (counted in builds with debug assertions only).
    pub fn counts(&self) -> (u64, u64) {
        let [trees, written] = &self.counts;
        (
            trees.load(Ordering::Relaxed),
            written.load(Ordering::Relaxed),
        )
    }
}

fn address(e: &Expr) -> usize {
    std::ptr::from_ref(e) as usize
}

/// The first node of `t` not evaluated here, named; `None` when every node is.
fn unsupported(t: &Typed) -> Option<&'static str> {
    match &t.node {
        Node::Int(_)
        | Node::Float(_)
        | Node::Bool(_)
        | Node::Text(_)
        | Node::EnumValue { .. }
        | Node::Index
        | Node::Element
        | Node::Present { .. }
        | Node::BigEndian
        | Node::SizeOf { of: None }
        | Node::Stream { of: None }
        | Node::StreamProperty { of: None, .. } => None,
        Node::Not(x)
        | Node::Negate(x)
        | Node::BitNot(x)
        | Node::ToFloat(x)
        | Node::AbsentAsZero(x)
        | Node::Property(_, x)
        | Node::Convert { value: x, .. }
        | Node::Downcast { value: x, .. }
        | Node::AsEnum { value: x, .. }
        | Node::Case { value: x, .. } => unsupported(x),
        Node::Field { of, .. } | Node::Param { of, .. } | Node::Instance { of, .. } => {
            of.as_deref().and_then(unsupported)
        }
        Node::LookAhead { of, .. } | Node::Stream { of } | Node::StreamProperty { of, .. } => {
            of.as_deref().and_then(unsupported)
        }
        Node::Logic { a, b, .. }
        | Node::Arithmetic(_, a, b)
        | Node::Concat(a, b)
        | Node::Compare { a, b, .. }
        | Node::Sum { list: a, body: b }
        | Node::ParseInt { text: a, radix: b }
        | Node::WhenPresent { value: a, then: b } => unsupported(a).or_else(|| unsupported(b)),
        Node::Choose { cond, a, b } => all([cond, a, b].map(|x| &**x)),
        Node::Substring { text, from, to } => all([text, from, to].map(|x| &**x)),
        Node::List(items) | Node::Format(items) => all(items),
        Node::ToText {
            bytes,
            decode: Some(_),
        } => unsupported(bytes),
        Node::Item { list, at } => unsupported(list).or_else(|| match at {
            Position::At(at) => unsupported(at),
            Position::First | Position::Last => None,
        }),
        Node::IsPresent(value) => match &value.node {
            Node::Field { of: None, .. } => None,
            _ => Some("`present` of a value that is no field of its own"),
        },
        Node::SizeOf { of: Some(of) } => match &of.node {
            Node::Field { of, .. } => of.as_deref().and_then(unsupported),
            Node::Item {
                list,
                at: Position::At(at),
            } if matches!(list.node, Node::Field { of: None, .. }) => unsupported(at),
            _ => Some("`_sizeof` of a computed value"),
        },
        Node::ToText { decode: None, .. } => Some("`to_s` in UTF-8 or ASCII"),
        Node::Call(..) => Some("a function of `-derived`"),
        Node::IntsAsBytes(_) => Some("a list literal as bytes"),
        Node::OnlyIf { .. } => Some("a value instance's `if`"),
        Node::Argument { .. } => Some("an argument reached through another value"),
        Node::AtHome(_) => Some("a value of the scope the expression is written in"),
        Node::Holds { .. } => Some("`is`"),
    }
}

/// The first node of `items` not evaluated here.
fn all<'a>(items: impl IntoIterator<Item = &'a Typed>) -> Option<&'static str> {
    items.into_iter().find_map(unsupported)
}

/// Why a tree was not evaluated to the end.
enum Stop {
    /// The expression fails, with this message (the one [`Scope::eval`] gives).
    Error(String),
    /// The tree leaves this case to [`Scope::eval`]: the whole expression is evaluated as
    /// written.
    AsWritten,
}

impl From<String> for Stop {
    fn from(message: String) -> Self {
        Stop::Error(message)
    }
}

type Got = Result<Val, Stop>;

/// Evaluates `tree`, the tree of `e`, in `scope`.
pub(crate) fn eval(scope: &Scope<'_>, trees: &Trees, tree: &Typed, e: &Expr) -> Evaluated {
    let at = Eval {
        scope,
        present: None,
    };
    match at.value(tree) {
        Ok(value) => {
            trees.count(0);
            Ok(value)
        }
        Err(Stop::Error(message)) => {
            trees.count(0);
            Err(message)
        }
        Err(Stop::AsWritten) => {
            trees.count(1);
            scope.eval(e)
        }
    }
}

/// Where a tree is evaluated: the scope, and inside a step on a value that may be absent,
/// that value, present.
struct Eval<'a, 's> {
    scope: &'a Scope<'s>,
    present: Option<&'a Val>,
}

impl Eval<'_, '_> {
    fn schema(&self) -> &Schema {
        self.scope.schema
    }

    fn int(&self, t: &Typed) -> Result<i64, Stop> {
        Ok(self.value(t)?.into_int()?)
    }

    fn bool(&self, t: &Typed) -> Result<bool, Stop> {
        Ok(as_bool(self.value(t)?)?)
    }

    /// The structure `of` is, or the one in scope; `None` where `of` is absent.
    fn holder(&self, of: Option<&Typed>) -> Result<Option<Link>, Stop> {
        let Some(of) = of else {
            return Ok(Some(self.scope.this.clone()));
        };
        match self.value(of)? {
            Val::Struct(link) => Ok(Some(link)),
            Val::Null => Ok(None),
            _ => Err(Stop::AsWritten),
        }
    }

    /// The value of `t`: the nodes most expressions are made of here, the others in
    /// [`Eval::any`], whose frame is too large to enter for each of them.
    fn value(&self, t: &Typed) -> Got {
        Ok(match &t.node {
            Node::Int(n) => Val::Int(*n),
            Node::Field { of, index, .. } => {
                let Some(link) = self.holder(of.as_deref())? else {
                    return Ok(Val::Null);
                };
                field(self.schema(), &link, *index)?
            }
            Node::Param {
                of: None, index, ..
            } => (self.scope.this.node().param(*index)).unwrap_or(Val::Null),
            Node::Element => {
                (self.scope.item.clone()).ok_or_else(|| "`_` outside `repeat-until`".to_owned())?
            }
            Node::Index => (self.scope.index.map(Val::Int))
                .ok_or_else(|| "`_index` outside a repeated field".to_owned())?,
            Node::Arithmetic(op, a, b) => match (self.value(a)?, self.value(b)?) {
                (Val::Int(a), Val::Int(b)) => match int_arithmetic(*op, a, b) {
                    Some(n) => Val::Int(n),
                    None => arithmetic(*op, Val::Int(a), Val::Int(b))?,
                },
                (a, b) => arithmetic(*op, a, b)?,
            },
            Node::Compare { op, a, b, .. } => {
                let (a, b) = (self.value(a)?, self.value(b)?);
                Val::Bool(compare(*op, &a, &b)?)
            }
            _ => return self.any(t),
        })
    }

    /// The value of `t`, whatever its node.
    #[inline(never)]
    fn any(&self, t: &Typed) -> Got {
        let schema = self.schema();
        Ok(match &t.node {
            Node::Int(n) => Val::Int(*n),
            Node::Float(f) => Val::Float(*f),
            Node::Bool(b) => Val::Bool(*b),
            Node::Text(s) => Val::Str(s.as_bytes().to_vec()),
            Node::EnumValue {
                enum_index,
                variant,
            } => Val::Enum(
                *enum_index,
                schema.enums[*enum_index].variants[*variant].value,
            ),
            Node::Not(x) => unary(UnaryOp::Not, self.value(x)?)?,
            Node::Negate(x) => unary(UnaryOp::Neg, self.value(x)?)?,
            Node::BitNot(x) => unary(UnaryOp::BitNot, self.value(x)?)?,
            Node::Logic { and, a, b } => {
                let a = self.bool(a)?;
                // The second only as far as `&&` and `||` evaluate it.
                Val::Bool(match and {
                    true => a && self.bool(b)?,
                    false => a || self.bool(b)?,
                })
            }
            Node::Arithmetic(op, a, b) => arithmetic(*op, self.value(a)?, self.value(b)?)?,
            Node::ToFloat(x) => match self.value(x)? {
                Val::Int(n) => Val::Float(n as f64),
                other => other,
            },
            Node::Concat(a, b) => arithmetic(BinOp::Add, self.value(a)?, self.value(b)?)?,
            Node::Compare { op, a, b, .. } => {
                let (a, b) = (self.value(a)?, self.value(b)?);
                Val::Bool(compare(*op, &a, &b)?)
            }
            Node::Choose { cond, a, b } => match self.value(cond)? {
                Val::Bool(true) => self.value(a)?,
                Val::Bool(false) => self.value(b)?,
                other => return Err(format!("`?:` needs a condition, found {other}").into()),
            },
            // A conditional number reads as 0 where it is absent.
            Node::AbsentAsZero(x) => match self.value(x)? {
                Val::Null => Val::Int(0),
                value => value,
            },
            Node::List(items) => Val::List(
                (items.iter())
                    .map(|item| self.value(item))
                    .collect::<Result<_, _>>()?,
            ),
            Node::Sum { list, body } => self.sum(list, body)?,
            Node::Format(parts) => {
                let mut out = Vec::new();
                for part in parts {
                    format_part(&mut out, self.value(part)?)?;
                }
                Val::Str(out)
            }
            Node::ParseInt { text, radix } => match self.value(text)? {
                Val::Str(s) => number(&s, self.int(radix)?)?,
                _ => return Err(Stop::AsWritten),
            },
            Node::Substring { text, from, to } => match self.value(text)? {
                Val::Str(s) => Val::Str(rt::bytes::substring(&s, self.int(from)?, self.int(to)?)),
                _ => return Err(Stop::AsWritten),
            },
            Node::ToText {
                bytes,
                decode: Some(encoding),
            } => {
                let bytes = match self.value(bytes)? {
                    Val::Bytes(bytes) => bytes,
                    Val::List(items) => {
                        let ints = items.into_iter().map(Val::into_int);
                        rt::bytes::from_ints(&ints.collect::<Result<Vec<_>, _>>()?)
                    }
                    _ => return Err(Stop::AsWritten),
                };
                Val::Str(encoding.decode(&bytes).into_owned().into_bytes())
            }
            Node::Property(property, value) => self.property(*property, value)?,
            Node::Index => (self.scope.index.map(Val::Int))
                .ok_or_else(|| "`_index` outside a repeated field".to_owned())?,
            Node::Element => {
                (self.scope.item.clone()).ok_or_else(|| "`_` outside `repeat-until`".to_owned())?
            }
            Node::Present { .. } => self.present.cloned().ok_or(Stop::AsWritten)?,
            Node::WhenPresent { value, then } => match self.value(value)? {
                // What an absent value holds is absent too.
                Val::Null => Val::Null,
                value => Eval {
                    scope: self.scope,
                    present: Some(&value),
                }
                .value(then)?,
            },
            Node::Field { of, index, .. } => {
                let Some(link) = self.holder(of.as_deref())? else {
                    return Ok(Val::Null);
                };
                field(schema, &link, *index)?
            }
            Node::Param { of, index, .. } => match self.holder(of.as_deref())? {
                Some(link) => link.node().param(*index).unwrap_or(Val::Null),
                None => Val::Null,
            },
            Node::Item { list, at } => self.item(list, at)?,
            Node::Instance { of, index, .. } => {
                let Some(link) = self.holder(of.as_deref())? else {
                    return Ok(Val::Null);
                };
                let node = link.node();
                match node.instance(*index) {
                    Some(known) => known,
                    None => {
                        let value = instance(schema, &link, *index, self.scope.file)?;
                        node.keep_instance(*index, value.clone());
                        value
                    }
                }
            }
            Node::LookAhead { of, index, .. } => {
                let Some(link) = self.holder(of.as_deref())? else {
                    return Ok(Val::Null);
                };
                let def = &schema.types[link.ty()];
                let Some(InstanceKind::Peek {
                    pos,
                    ty,
                    cond,
                    enum_idx,
                }) = def.instances.get(*index).map(|i| &i.kind)
                else {
                    return Err(Stop::AsWritten);
                };
                let peek = (pos, *ty, cond.as_ref(), *enum_idx);
                look_ahead(schema, &link, *index, self.scope.file, peek)?
            }
            Node::Convert { value, to } => match (to, self.value(value)?) {
                (Numeric::Int, Val::Float(f)) => Val::Int(f as i64),
                (Numeric::F4, Val::Int(n)) => Val::Float(f64::from(n as f32)),
                (Numeric::F4, Val::Float(f)) => Val::Float(f64::from(f as f32)),
                (Numeric::F8, Val::Int(n)) => Val::Float(n as f64),
                (_, value) => value,
            },
            // A structure or a switch's value taken as one of its types, as written.
            Node::Downcast { value, .. } | Node::Case { value, .. } => self.value(value)?,
            Node::AsEnum { enum_index, value } => match self.value(value)? {
                Val::Int(n) => Val::Enum(*enum_index, n),
                value => value,
            },
            Node::IsPresent(value) => {
                let Node::Field {
                    of: None, index, ..
                } = &value.node
                else {
                    return Err(Stop::AsWritten);
                };
                let fields = self.scope.this.node().fields.borrow();
                let stored = fields.get(*index).and_then(Option::as_ref);
                Val::Bool(!matches!(stored.unwrap_or(&Value::Absent), Value::Absent))
            }
            Node::Stream { of } => match self.holder(of.as_deref())? {
                Some(link) => member(schema, &link, "_io", self.scope.file)?,
                None => Val::Null,
            },
            Node::StreamProperty { of: None, property } => {
                self.scope.file.ok_or_else(needs_stream)?;
                let node = self.scope.this.node();
                let (pos, eof) = node.pos.get();
                match property {
                    StreamProperty::Pos => Val::Int(pos as i64),
                    StreamProperty::Size => Val::Int(node.io.len as i64),
                    StreamProperty::Eof => Val::Bool(eof),
                }
            }
            Node::StreamProperty {
                of: Some(of),
                property,
            } => match (self.value(of)?, property) {
                (Val::Io(_, pos, _), StreamProperty::Pos) => Val::Int(pos as i64),
                (Val::Io(io, ..), StreamProperty::Size) => Val::Int(io.len as i64),
                (Val::Io(.., eof), StreamProperty::Eof) => Val::Bool(eof),
                (Val::Null, _) => Val::Null,
                _ => return Err(Stop::AsWritten),
            },
            Node::BigEndian => member(schema, &self.scope.this, IS_BE, self.scope.file)?,
            Node::SizeOf { of: None } => {
                member(schema, &self.scope.this, "_sizeof", self.scope.file)?
            }
            Node::SizeOf { of: Some(of) } => self.size_of(of)?,
            Node::Call(..)
            | Node::ToText { decode: None, .. }
            | Node::IntsAsBytes(_)
            | Node::OnlyIf { .. }
            | Node::Argument { .. }
            | Node::AtHome(_)
            | Node::Holds { .. } => return Err(Stop::AsWritten),
        })
    }

    /// `list.sum(body)`: of a list field, each element taken from the field as stored, one
    /// after the other, without making the list's value.
    fn sum(&self, list: &Typed, body: &Typed) -> Got {
        let mut scope = self.scope.clone();
        let mut sum = 0i64;
        let mut add = |item: Val| -> Result<(), Stop> {
            scope.item = Some(item);
            let inner = Eval {
                scope: &scope,
                present: self.present,
            };
            sum = sum.wrapping_add(inner.int(body)?);
            Ok(())
        };
        if let Node::Field { of, index, .. } = &list.node
            && let Some(link) = self.holder(of.as_deref())?
        {
            let def = &self.schema().types[link.ty()];
            let elem = match &def.fields[*index].ty {
                FieldType::Array { elem, .. } => elem,
                ty => ty,
            };
            let fields = link.node().fields.borrow();
            match fields.get(*index).and_then(Option::as_ref) {
                Some(Value::List(items)) => {
                    for item in items {
                        add(to_val(elem, item, &link))?;
                    }
                    return Ok(Val::Int(sum));
                }
                Some(Value::Packed(packed)) => {
                    for i in 0..packed.len() {
                        add(to_val(elem, &packed.element(i), &link))?;
                    }
                    return Ok(Val::Int(sum));
                }
                _ => {}
            }
        }
        match self.value(list)? {
            Val::List(items) => {
                for item in items {
                    add(item)?;
                }
                Ok(Val::Int(sum))
            }
            other => Err(format!("no method `sum` of {other}").into()),
        }
    }

    /// A property of a value, as [`Scope::eval`] computes the attribute.
    fn property(&self, property: Property, value: &Typed) -> Got {
        // The size of a list field, counted as stored, without making the list's value.
        if property == Property::Length
            && let Node::Field { of, index, .. } = &value.node
            && let Some(link) = self.holder(of.as_deref())?
        {
            let fields = link.node().fields.borrow();
            match fields.get(*index).and_then(Option::as_ref) {
                Some(Value::List(items)) => return Ok(Val::Int(items.len() as i64)),
                Some(Value::Packed(packed)) => return Ok(Val::Int(packed.len() as i64)),
                _ => {}
            }
        }
        Ok(match (property, self.value(value)?) {
            (_, Val::Null) => Val::Null,
            (Property::Length, Val::List(items)) => Val::Int(items.len() as i64),
            (Property::Length, Val::Bytes(b)) => Val::Int(b.len() as i64),
            (Property::Length, Val::Str(s)) => {
                Val::Int(String::from_utf8_lossy(&s).chars().count() as i64)
            }
            (Property::Decimal, Val::Int(n)) => Val::Str(rt::bytes::decimal(n)),
            (Property::ToInt, Val::Float(f)) => Val::Int(f as i64),
            (Property::ToInt, Val::Enum(_, n)) => Val::Int(n),
            (Property::ToInt, Val::Bool(b)) => Val::Int(i64::from(b)),
            (Property::ToInt, Val::Str(s)) => number(&s, 10)?,
            (Property::Reverse, Val::Str(s)) => Val::Str(rt::bytes::reverse_text(&s)),
            (Property::Min | Property::Max, Val::Bytes(b)) => {
                let best = match property {
                    Property::Min => b.iter().min(),
                    _ => b.iter().max(),
                };
                best.map_or(Val::Null, |x| Val::Int((*x).into()))
            }
            (Property::Min | Property::Max, Val::List(items)) => {
                let (better, name) = match property {
                    Property::Min => (BinOp::Lt, "min"),
                    _ => (BinOp::Gt, "max"),
                };
                let mut best: Option<Val> = None;
                for item in items {
                    best = Some(match best {
                        Some(best) if !compare(better, &item, &best)? => best,
                        _ => item,
                    });
                }
                best.ok_or_else(|| format!("`{name}` of an empty list"))?
            }
            _ => return Err(Stop::AsWritten),
        })
    }

    /// An element of a list; of a list field, taken from the field as stored.
    fn item(&self, list: &Typed, at: &Position) -> Got {
        if let Node::Field { of, index, .. } = &list.node
            && let Position::At(position) = at
            && let Some(link) = self.holder(of.as_deref())?
        {
            let def = &self.schema().types[link.ty()];
            let field_ty = &def.fields[*index].ty;
            let elem = match field_ty {
                FieldType::Array { elem, .. } => elem,
                ty => ty,
            };
            let fields = link.node().fields.borrow();
            let element = |i: i64| usize::try_from(i).ok();
            match fields.get(*index).and_then(Option::as_ref) {
                Some(Value::List(items)) => {
                    let i = self.int(position)?;
                    let found = element(i).and_then(|i| items.get(i));
                    return Ok(found.map_or(Val::Null, |item| to_val(elem, item, &link)));
                }
                Some(Value::Packed(packed)) => {
                    let i = self.int(position)?;
                    let found = element(i).filter(|i| *i < packed.len());
                    let item = found.map(|i| packed.element(i));
                    return Ok(item.map_or(Val::Null, |item| to_val(elem, &item, &link)));
                }
                _ => {}
            }
        }
        let list = self.value(list)?;
        Ok(match at {
            Position::At(position) => {
                let index = self.int(position)?;
                item_at(list, index)?
            }
            Position::First | Position::Last => {
                let first = matches!(at, Position::First);
                match list {
                    Val::List(items) if first => items.into_iter().next().unwrap_or(Val::Null),
                    Val::List(items) => items.into_iter().last().unwrap_or(Val::Null),
                    Val::Bytes(b) => {
                        let byte = if first { b.first() } else { b.last() };
                        byte.map_or(Val::Null, |x| Val::Int((*x).into()))
                    }
                    Val::Null => Val::Null,
                    _ => return Err(Stop::AsWritten),
                }
            }
        })
    }

    /// `_sizeof` of a field or of an element of a list field, as [`Scope::eval`] measures it.
    fn size_of(&self, of: &Typed) -> Got {
        match &of.node {
            Node::Field { of, index, .. } => {
                let Some(link) = self.holder(of.as_deref())? else {
                    return Ok(Val::Null);
                };
                let field = &self.schema().types[link.ty()].fields[*index];
                if let Some(size) = self.schema().static_field_size(field) {
                    return Ok(Val::Int(size as i64));
                }
                self.scope.file.ok_or_else(needs_stream)?;
                let fields = link.node().fields.borrow();
                let Some(value) = fields.get(*index).and_then(Option::as_ref) else {
                    return Err(messages::not_read_yet(&field.id).into());
                };
                if let Value::Decoded(decoded) = value
                    && let Some(len) = self.scope.measured_len(field, decoded)
                {
                    return Ok(Val::Int(len as i64));
                }
                Ok(Val::Int(stored_len(value) as i64))
            }
            Node::Item {
                list,
                at: Position::At(at),
            } => {
                let Node::Field {
                    of: None, index, ..
                } = &list.node
                else {
                    return Err(Stop::AsWritten);
                };
                let at = self.int(at)?;
                self.scope.file.ok_or_else(needs_stream)?;
                let fields = self.scope.this.node().fields.borrow();
                let at = usize::try_from(at).ok();
                let size = match (fields.get(*index).and_then(Option::as_ref), at) {
                    (Some(Value::List(items)), Some(at)) => items.get(at).map(stored_len),
                    (Some(Value::Packed(packed)), Some(at)) => {
                        (at < packed.len()).then_some(packed.layout.size)
                    }
                    _ => return Err(Stop::AsWritten),
                };
                Ok(size.map_or(Val::Null, |size| Val::Int(size as i64)))
            }
            _ => Err(Stop::AsWritten),
        }
    }
}

/// Field `index` of the structure `link`, as expressions see it.
fn field(schema: &Schema, link: &Link, index: usize) -> Evaluated {
    let def = &schema.types[link.ty()];
    let fields = link.node().fields.borrow();
    match fields.get(index).and_then(Option::as_ref) {
        Some(value) => Ok(to_val(&def.fields[index].ty, value, link)),
        None => Err(messages::not_read_yet(&def.fields[index].id)),
    }
}
