//! The scopes rendering opens: inside a structure, where a value is present, where arguments
//! were given. Each is the [`Context`] the resolver opened there, with the Rust of its
//! bindings.

use super::place::present_of;
use super::*;
use crate::typeck::resolve::{Reach as _, given};
use crate::typeck::typed::{Given, Typed};

impl<'s> Scope<'s> {
    /// The scope inside the structure `of` of type `ty`, or inside the structure in scope,
    /// where an instance is computed (see `Reach::instance_scope`).
    pub(super) fn instance_scope(&self, of: Option<&Typed>, ty: usize) -> Self {
        match of {
            Some(of) => self.inside_value(of, ty),
            None => self.clone().with_context(self.cx.instance_scope(None, ty)),
        }
    }

    /// The scope inside the structure `of`, a value of type `ty`: its fields are reached
    /// through it, its parameters are the arguments it was read with.
    pub(super) fn inside_value(&self, of: &Typed, ty: usize) -> Self {
        let mut inner = self.inside(&self.as_place(of.clone()), self.cx.inside_value(of, ty));
        inner.owner_given =
            given(&self.cx, of).map(|given| Rc::new((self.given_scope(&given), given.site)));
        inner
    }

    /// The scope inside the structure at `base`, whose context is `cx`.
    pub(super) fn inside(&self, base: &Place<'s>, cx: Context<'s>) -> Self {
        let mut inner = Scope::in_context(cx);
        inner.owner = Some(base.tokens.clone());
        inner.home = Some(Box::new(self.home.as_deref().unwrap_or(self).clone()));
        inner
    }

    /// The scope where arguments given as `given` are rendered (see
    /// `Reach::arguments_scope`).
    pub(super) fn arguments_scope(&self, given: &Given) -> Self {
        self.deeper(self.given_scope(given))
    }

    /// Where this scope's names are another value's, the scope where that value's arguments
    /// are rendered (see `Reach::owner_arguments`).
    pub(super) fn owner_arguments(&self) -> Option<Self> {
        let (scope, _) = self.owner_given.as_deref()?;
        Some(self.deeper(scope.clone()))
    }

    /// The scope where a step inside `value`, which may be absent, is rendered: the present
    /// value bound as `present` (see `Reach::present_scope`).
    pub(super) fn present_scope(&self, value: &Typed) -> Self {
        let present = present_of(&self.as_place(value.clone()));
        Scope {
            present: Some(Box::new(present)),
            ..self.clone()
        }
        .with_context(self.cx.present_scope(value))
    }

    /// The scope of a step inside `base`, which may be absent, where the Rust computes it
    /// without a tree: one level deeper, the value bound as `present`.
    pub(super) fn present_scope_of(&self, base: &Place<'s>) -> Self {
        Scope {
            present: Some(Box::new(present_of(base))),
            ..self.clone()
        }
        .with_context(self.cx.nested())
    }

    /// The scope arguments given as `given` were given in, before it is made deeper for the
    /// scope asking.
    fn given_scope(&self, given: &Given) -> Self {
        let scope = match &given.holder {
            Some(holder) => self.inside_value(holder, given.site.ty),
            None => self.clone(),
        };
        scope.with_context(self.cx.given_scope(given))
    }

    /// `scope`, one level deeper than either (see `Context::deeper`).
    fn deeper(&self, scope: Self) -> Self {
        let cx = self.cx.deeper(scope.cx.clone());
        scope.with_context(cx)
    }

    /// This scope's bindings in `cx`, a context of the same structure: what `cx` does not
    /// bind is not bound here either.
    pub(super) fn with_context(self, cx: Context<'s>) -> Self {
        Scope {
            index: self.index.filter(|_| cx.has_index),
            element: self.element.filter(|_| cx.element.is_some()),
            prior: self.prior.filter(|_| cx.prior.is_some()),
            cx,
            ..self
        }
    }
}
