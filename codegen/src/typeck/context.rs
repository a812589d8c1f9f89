//! Where an expression is resolved, without any back end: the facts the resolver asks of a
//! scope (its type, mode, bindings, whether its names are another value's) and the scopes it
//! opens (inside a structure, where a value is present, where arguments were given). A back
//! end renders a tree in a scope of its own that holds one of these.

use std::cell::Cell;
use std::rc::Rc;

use super::resolve::{Reach, given};
use super::typed::{Given, Mode, Site, Ty, Typed};
use crate::expr::Expr;
use crate::model::{Field, Repeat, Schema};

/// The scope an expression is resolved in.
#[derive(Clone)]
pub struct Context<'s> {
    pub(super) schema: &'s Schema,
    /// The type whose names the expression sees.
    pub(super) ty: usize,
    pub(super) mode: Mode,
    /// In read mode, how many fields are read already.
    pub(super) visible_fields: usize,
    /// The type of `_`, where it is bound (`repeat-until`, `sum`, a `-for-each` field).
    pub(super) element: Option<Ty>,
    /// `_index` is bound (the attributes of one element of a repeated field).
    pub(super) has_index: bool,
    /// Inside one element of a repeated field being read or written: the field's name, which
    /// means the elements before this one there.
    pub(super) prior: Option<&'s str>,
    /// The expression decides how bytes are read (true for every scope a reader scope opens):
    /// `-untrusted` values are then out of reach.
    pub(super) reading: bool,
    /// How deeply instances, present values and arguments nest here (see `Reach::too_deep`).
    pub(super) depth: usize,
    /// A writer evaluates the expression where the reader does (see `Reach::at_writer_pos`).
    pub(super) at_writer_pos: bool,
    /// The arguments of a value read from bytes of its own (see `Reach::before_own_bytes`).
    pub(super) outer_stream: bool,
    /// A failure of the expression is reported (see `Reach::reports_failure`).
    pub(super) reports_failure: bool,
    /// Set once an expression resolved here, or in a scope made from it, can fail.
    pub(super) can_fail: Rc<Cell<bool>>,
    /// A `-derived` expression (see `Reach::deriving`).
    pub(super) deriving: bool,
    /// The value in scope is the file's root itself (see `Reach::at_file_root`).
    pub(super) file_root: bool,
    /// The scope's names are another value's: where that value was reached.
    pub(super) owner: Option<Rc<Owner<'s>>>,
    /// Inside a step on a value that may be absent: that value.
    pub(super) present: Option<Rc<Typed>>,
}

/// Where the names of a scope are another value's: the scope the whole expression is written
/// in, and where that value's arguments were given, when it was read by a field.
pub(super) struct Owner<'s> {
    pub(super) home: Context<'s>,
    pub(super) given: Option<(Context<'s>, Site)>,
}

impl<'s> Context<'s> {
    /// A scope inside type `ty`; in read mode only fields before `visible_fields` exist.
    pub fn new(schema: &'s Schema, ty: usize, mode: Mode, visible_fields: usize) -> Self {
        Context {
            schema,
            ty,
            mode,
            visible_fields,
            element: None,
            has_index: false,
            prior: None,
            reading: mode == Mode::Read,
            depth: 0,
            at_writer_pos: false,
            outer_stream: false,
            reports_failure: mode != Mode::Inspect,
            can_fail: Rc::default(),
            deriving: false,
            file_root: false,
            owner: None,
            present: None,
        }
    }

    /// The same scope inside one element of the repeated field `field`, whose name means the
    /// elements read before this one there (see `Field::refers_to_itself`).
    pub fn with_prior(&self, field: &'s str) -> Self {
        Context {
            prior: Some(field),
            ..self.clone()
        }
    }

    /// The same scope with `_` bound to an element of type `elem`.
    pub fn with_element(&self, elem: Ty) -> Self {
        Context {
            element: Some(elem),
            ..self.clone()
        }
    }

    /// The same scope with `_` bound to one element of a field of type `ty`, seen as a
    /// field's value is (the `_` of `repeat-until`).
    pub fn with_element_of(&self, ty: &crate::model::FieldType) -> Self {
        self.with_element(super::value_types::element_value_ty(self.schema, ty))
    }

    /// The scope inside the structure `of`, a value of type `ty`, reached from this one: its
    /// names are that value's, its parameters the arguments it was read with.
    pub(super) fn inside_value(&self, of: &Typed, ty: usize) -> Self {
        let given = given(self, of).map(|given| (self.given_scope(&given), given.site));
        self.inside(ty, given)
    }

    /// The scope inside a structure of type `ty` reached from this one, whose arguments were
    /// given as `given` says.
    pub(super) fn inside(&self, ty: usize, given: Option<(Context<'s>, Site)>) -> Self {
        let def = &self.schema.types[ty];
        let mut inner = Context::new(self.schema, ty, Mode::Inspect, def.fields.len());
        inner.reading = self.reading;
        inner.reports_failure = self.reports_failure;
        inner.can_fail = self.can_fail.clone();
        inner.deriving = self.deriving;
        inner.depth = self.depth + 1;
        let home = self.home_scope().clone();
        inner.owner = Some(Rc::new(Owner { home, given }));
        inner
    }

    /// The scope the whole expression is written in: this one, or the home of the value
    /// whose names it has.
    pub(super) fn home_scope(&self) -> &Self {
        self.owner.as_ref().map_or(self, |owner| &owner.home)
    }

    /// The scope arguments given as `given` were resolved in (see `Reach::arguments_scope`),
    /// before it is made deeper for the scope asking.
    pub(super) fn given_scope(&self, given: &Given) -> Self {
        let site = given.site;
        let field = &self.schema.types[site.ty].fields[site.field];
        let own_prior = self.owner.is_none() && self.prior == Some(field.id.as_str());
        let scope = match &given.holder {
            Some(holder) => self.inside_value(holder, site.ty),
            // Arguments that differ from one element to the next are kept in the elements
            // (see `Param::kept`); the others are the same for every element, computed
            // without `_index`, which is this element's.
            None if own_prior => self.without_index(),
            None => self.clone(),
        };
        scope.off_writer_pos()
    }

    /// `scope`, where this scope asks for an argument: one level deeper than either, so that
    /// an argument that reaches itself again (an element's argument through the element
    /// before it) ends at the nesting limit instead of recursing forever.
    pub(super) fn deeper(&self, mut scope: Self) -> Self {
        scope.depth = scope.depth.max(self.depth) + 1;
        scope
    }

    /// The same scope inside one element of a repeated field: `_index` is bound.
    pub fn with_index(&self) -> Self {
        Context {
            has_index: true,
            ..self.clone()
        }
    }

    /// The same scope for an expression a writer evaluates where the reader does (see
    /// `Reach::at_writer_pos`).
    pub fn with_writer_pos(&self) -> Self {
        Context {
            at_writer_pos: true,
            ..self.clone()
        }
    }

    /// The scope of `field`'s derivation: one element of the list (`_index` is bound) when the
    /// field is repeated.
    pub fn for_derived(&self, field: &Field) -> Self {
        match field.repeat {
            Repeat::None => self.clone(),
            _ => self.with_index(),
        }
    }

    /// The same scope where `_index` is not bound.
    pub(super) fn without_index(&self) -> Self {
        Context {
            has_index: false,
            ..self.clone()
        }
    }

    /// The same scope where the writer's position is no longer where the reader was.
    pub(super) fn off_writer_pos(&self) -> Self {
        Context {
            at_writer_pos: false,
            ..self.clone()
        }
    }

    /// The same scope one level deeper.
    pub(super) fn nested(&self) -> Self {
        Context {
            depth: self.depth + 1,
            ..self.clone()
        }
    }
}

impl Reach for Context<'_> {
    fn schema(&self) -> &Schema {
        self.schema
    }

    fn scope_type(&self) -> usize {
        self.ty
    }

    fn deriving(&self) -> bool {
        self.deriving
    }

    fn reports_failure(&self) -> bool {
        self.reports_failure
    }

    fn mode(&self) -> Mode {
        self.mode
    }

    fn visible_fields(&self) -> usize {
        self.visible_fields
    }

    fn decides_reading(&self) -> bool {
        self.reading
    }

    fn through_another_value(&self) -> bool {
        self.owner.is_some()
    }

    fn element(&self) -> Option<Ty> {
        self.element.clone()
    }

    fn has_index(&self) -> bool {
        self.has_index
    }

    fn prior_field(&self) -> Option<&str> {
        self.prior
    }

    fn at_writer_pos(&self) -> bool {
        self.at_writer_pos
    }

    fn before_own_bytes(&self) -> bool {
        self.outer_stream
    }

    fn at_file_root(&self) -> bool {
        self.file_root
    }

    fn home(&self) -> Option<Self> {
        self.owner.as_ref().map(|owner| owner.home.clone())
    }

    fn instance_scope(&self, of: Option<&Typed>, ty: usize) -> Self {
        match of {
            Some(of) => self.inside_value(of, ty),
            None => self.off_writer_pos().nested(),
        }
    }

    fn too_deep(&self) -> bool {
        self.depth > 32
    }

    fn present_value(&self) -> Option<Typed> {
        self.present.as_deref().cloned()
    }

    fn arguments_scope(&self, given: &Given) -> Self {
        self.deeper(self.given_scope(given))
    }

    fn owner_arguments(&self) -> Option<(Self, &[Expr])> {
        let (scope, site) = self.owner.as_ref()?.given.as_ref()?;
        Some((self.deeper(scope.clone()), site.arguments(self.schema)))
    }

    fn present_scope(&self, value: &Typed) -> Self {
        Context {
            present: Some(Rc::new(value.clone())),
            ..self.nested()
        }
    }

    fn note_failure(&self) {
        self.can_fail.set(true);
    }

    fn element_scope(&self, elem: Ty) -> Self {
        Context {
            element: Some(elem),
            ..self.nested()
        }
    }

    fn structure_scope(&self, ty: usize) -> Self {
        self.inside(ty, None)
    }
}
