//! What a value's selectors choose: the case of a switch and the byte order of a type with a
//! `meta/endian` switch. The reader reads what they choose; the writer checks that a value
//! holds what they choose, so both decide by one rule.

use std::rc::Rc;

use skelcodec_codegen::expr::BinOp;
use skelcodec_codegen::model::{EndianChoice, FieldType, Schema, Switch};
use skelcodec_codegen::repr::switch::switch_variants;

use crate::eval::{Scope, compare};
use crate::value::Val;

/// The choice of a selector: what it calls for, or the selector's value when no case has it.
pub(crate) enum Chosen<T> {
    /// The case (its name in documents and its type), or the byte order (big-endian or not).
    Found(T),
    /// No case has the selector's value, and there is no `_` case.
    Unmatched(Val),
}

/// The case of `switch` its selector calls for: the first case whose key equals the selector,
/// else the default.
pub(crate) fn case(
    schema: &Schema,
    scope: &Scope<'_>,
    switch: &Switch,
) -> Result<Chosen<(Rc<str>, FieldType)>, String> {
    let selector = scope.eval(&switch.on)?;
    let variants = switch_variants(schema, switch);
    for (arm, case) in variants.arms.iter().zip(&switch.cases) {
        let key = scope.eval(&case.key)?;
        if compare(BinOp::Eq, &selector, &key).unwrap_or(false) {
            let variant = &variants.variants[arm.variant];
            return Ok(Chosen::Found((
                Rc::from(variant.name.as_str()),
                case.ty.clone(),
            )));
        }
    }
    Ok(match (&switch.default, variants.arms.last()) {
        (Some(default), Some(arm)) => {
            let variant = &variants.variants[arm.variant];
            Chosen::Found((Rc::from(variant.name.as_str()), (**default).clone()))
        }
        _ => Chosen::Unmatched(selector),
    })
}

/// The type of the case of `switch` that documents name `name`.
pub(crate) fn case_named(schema: &Schema, switch: &Switch, name: &str) -> Option<FieldType> {
    let variants = switch_variants(schema, switch);
    let mut types = switch
        .cases
        .iter()
        .map(|case| &case.ty)
        .chain(switch.default.as_deref());
    variants
        .arms
        .iter()
        .zip(&mut types)
        .find(|(arm, _)| variants.variants[arm.variant].name == name)
        .map(|(_, ty)| ty.clone())
}

/// The byte order a type with a `meta/endian` switch chooses for a value: the first case
/// whose key equals the selector, else the `_` case.
pub(crate) fn byte_order(scope: &Scope<'_>, choice: &EndianChoice) -> Result<Chosen<bool>, String> {
    let selector = scope.eval(&choice.on)?;
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
