//! What a value's selectors choose: the case of a switch and the byte order of a type with a
//! `meta/endian` switch. The reader reads what they choose; the writer checks that a value
//! holds what they choose, so both decide by one rule.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use skelcodec_codegen::expr::{BinOp, Expr};
use skelcodec_codegen::model::switch_variants;
use skelcodec_codegen::model::{EndianChoice, FieldType, Schema, Switch};

use crate::eval::{Scope, compare};
use crate::value::Val;

/// The choice of a selector: what it calls for, or the selector's value when no case has it.
pub(crate) enum Chosen<T> {
    /// The case (its name in documents and its type), or the byte order (big-endian or not).
    Found(T),
    /// No case has the selector's value, and there is no `_` case.
    Unmatched(Val),
}

/// What reads and writes resolve once per switch of a schema: its arms' names in documents
/// (its cases, then its default) and the keys that are literals. Kept for one schema only
/// (see `plan::Shared`), whose switches do not move while it lives.
#[derive(Default)]
pub(crate) struct CaseNames {
    /// By the switch's address, stable while the schema lives.
    arms: RefCell<HashMap<*const Switch, Rc<Arms>>>,
}

/// A switch's arms, resolved.
struct Arms {
    /// Each arm's name in documents.
    names: Vec<Rc<str>>,
    /// Each case's key when it is a literal (most are: `1`, `"KR00"`, `kind::text`), once
    /// evaluated in a scope.
    literals: Vec<Option<Val>>,
    /// Whether the literals were evaluated (asked with a scope).
    evaluated: bool,
}

impl CaseNames {
    /// The arms of `switch`, a switch of `schema`; literal keys are evaluated in `scope`.
    fn of(&self, schema: &Schema, scope: Option<&Scope<'_>>, switch: &Switch) -> Rc<Arms> {
        let mut arms = self.arms.borrow_mut();
        let key = std::ptr::from_ref(switch);
        if let Some(known) = arms.get(&key)
            && (known.evaluated || scope.is_none())
        {
            return known.clone();
        }
        let variants = switch_variants(schema, switch);
        let literal = |key: &Expr| match (key, scope) {
            (Expr::Int(_) | Expr::Str(_) | Expr::Bool(_) | Expr::EnumLit { .. }, Some(scope)) => {
                scope.eval(key).ok()
            }
            _ => None,
        };
        let resolved = Rc::new(Arms {
            names: (variants.arms.iter())
                .map(|arm| Rc::from(variants.variants[arm.variant].name.as_str()))
                .collect(),
            literals: switch.cases.iter().map(|case| literal(&case.key)).collect(),
            evaluated: scope.is_some(),
        });
        arms.insert(key, resolved.clone());
        resolved
    }
}

/// The case of `switch` its selector calls for: the first case whose key equals the selector,
/// else the default; with its name in documents.
pub(crate) fn case<'s>(
    schema: &Schema,
    names: &CaseNames,
    scope: &Scope<'_>,
    switch: &'s Switch,
) -> Result<Chosen<(Rc<str>, &'s FieldType)>, String> {
    let selector = scope.eval_site(&switch.on)?;
    let arms = names.of(schema, Some(scope), switch);
    for ((name, case), literal) in arms.names.iter().zip(&switch.cases).zip(&arms.literals) {
        let key = match literal {
            Some(key) => key,
            None => &scope.eval(&case.key)?,
        };
        if compare(BinOp::Eq, &selector, key).unwrap_or(false) {
            return Ok(Chosen::Found((name.clone(), &case.ty)));
        }
    }
    Ok(
        match (&switch.default, arms.names.get(switch.cases.len())) {
            (Some(default), Some(name)) => Chosen::Found((name.clone(), &**default)),
            _ => Chosen::Unmatched(selector),
        },
    )
}

/// The type of the case of `switch` that documents name `name`.
pub(crate) fn case_named<'s>(
    schema: &Schema,
    names: &CaseNames,
    switch: &'s Switch,
    name: &str,
) -> Option<&'s FieldType> {
    let types = switch
        .cases
        .iter()
        .map(|case| &case.ty)
        .chain(switch.default.as_deref());
    names
        .of(schema, None, switch)
        .names
        .iter()
        .zip(types)
        .find(|(arm, _)| ***arm == *name)
        .map(|(_, ty)| ty)
}

/// The byte order a type with a `meta/endian` switch chooses for a value: the first case
/// whose key equals the selector, else the `_` case.
pub(crate) fn byte_order(scope: &Scope<'_>, choice: &EndianChoice) -> Result<Chosen<bool>, String> {
    let selector = scope.eval_site(&choice.on)?;
    for case in &choice.cases {
        let key = scope.eval(&case.key)?;
        if compare(BinOp::Eq, &selector, &key).unwrap_or(false) {
            return Ok(Chosen::Found(case.big));
        }
    }
    Ok(match choice.default {
        Some(big) => Chosen::Found(big),
        None => Chosen::Unmatched(selector),
    })
}

/// A selector of no case, in an error reading or writing: as the generated code shows its
/// Rust value (`Debug`).
pub(crate) fn shown_selector(selector: &Val) -> String {
    match selector {
        Val::Int(n) => format!("{n:?}"),
        Val::Str(b) | Val::Bytes(b) => format!("{b:?}"),
        other => format!("{other:?}"),
    }
}
