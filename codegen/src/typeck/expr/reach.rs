//! The Rust scope as the resolver sees it: the facts of where an expression runs, and the
//! scopes it opens (inside a structure, where a value is present, where arguments were
//! given).

use super::*;
use crate::typeck::resolve::{Reach, given};
use crate::typeck::typed::{Given, Typed};

impl<'s> Reach for Scope<'s> {
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
        self.element.as_ref().map(|(_, ty)| ty.clone())
    }

    fn has_index(&self) -> bool {
        self.index.is_some()
    }

    fn prior_field(&self) -> Option<&str> {
        self.prior.as_ref().map(|(id, _)| *id)
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
        self.home.as_deref().cloned()
    }

    fn instance_scope(&self, of: Option<&Typed>, ty: usize) -> Self {
        match of {
            Some(of) => self.inside_value(of, ty),
            None => {
                let mut inner = self.off_writer_pos();
                inner.depth += 1;
                inner
            }
        }
    }

    fn present_scope(&self, value: &Typed) -> Self {
        Scope {
            present_value: Some(Rc::new(value.clone())),
            ..self.present_scope_of(&self.as_place(value.clone()))
        }
    }

    fn present_value(&self) -> Option<Typed> {
        self.present_value.as_deref().cloned()
    }

    fn arguments_scope(&self, given: &Given) -> Self {
        self.deeper(self.given_scope(given))
    }

    fn owner_arguments(&self) -> Option<(Self, &[Expr])> {
        let (scope, site) = self.owner_given.as_deref()?;
        Some((self.deeper(scope.clone()), site.arguments(self.schema)))
    }

    fn too_deep(&self) -> bool {
        self.depth > 32
    }

    fn note_failure(&self) {
        self.can_fail.set(true);
    }

    fn element_scope(&self, elem: Ty) -> Self {
        self.sum_element(elem).0
    }
}

impl<'s> Scope<'s> {
    /// The scope inside the structure `of` (a value of type `ty`), whose parameters are the
    /// arguments it was read with where it was read by a field.
    pub(super) fn inside_value(&self, of: &Typed, ty: usize) -> Scope<'s> {
        let mut inner = self.inside(&self.as_place(of.clone()), ty);
        inner.owner_given =
            given(self, of).map(|given| Rc::new((self.given_scope(&given), given.site)));
        inner
    }

    /// The scope arguments given as `given` were resolved in (see `Reach::arguments_scope`),
    /// before it is made deeper for the scope asking.
    fn given_scope(&self, given: &Given) -> Scope<'s> {
        let site = given.site;
        let field = &self.schema.types[site.ty].fields[site.field];
        let own_prior =
            self.owner.is_none() && self.prior.as_ref().is_some_and(|(id, _)| *id == field.id);
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
    fn deeper(&self, mut scope: Scope<'s>) -> Scope<'s> {
        scope.depth = scope.depth.max(self.depth) + 1;
        scope
    }
}
