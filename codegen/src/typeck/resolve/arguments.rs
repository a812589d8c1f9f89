//! The arguments of values reached through other values: a parameter a value does not keep
//! (see `Param::kept`) is the argument it was read with, resolved where it was given.

use super::{Reach, resolve, typed};
use crate::expr::Expr;
use crate::model::switch_variants;
use crate::model::{FieldType, Schema};
use crate::typeck::typed::*;

/// Parameter `index` of type `ty`, which its values do not keep, of the value `of`, or of the
/// structure in scope (`None`), whose names are another value's: the argument it was read
/// with, or for a `_root` parameter, which is the same for every value of a file, the one of
/// the scope the expression is written in.
pub(super) fn argument<R: Reach>(
    scope: &R,
    of: Option<&Typed>,
    ty: usize,
    index: usize,
) -> Result<Typed, ExprError> {
    let schema = scope.schema();
    let (given, args_scope, args) = match of {
        None => match scope.owner_arguments() {
            Some((args_scope, args)) => (None, args_scope, args.to_vec()),
            None => return shared_root(scope, ty, index),
        },
        Some(of) => match given(scope, of) {
            Some(given) => {
                let args = given.site.arguments(schema).to_vec();
                let args_scope = scope.arguments_scope(&given);
                (Some(given), args_scope, args)
            }
            None => return shared_root(scope, ty, index),
        },
    };
    let Some(arg) = args.get(index) else {
        return invalid("a parameter without an argument");
    };
    let value = resolve(&args_scope, arg)?;
    let can_fail = value.can_fail || of.is_some_and(|of| of.can_fail);
    let ty = value.ty.clone();
    let node = Node::Argument {
        of: given,
        value: Box::new(value),
    };
    Ok(typed(ty, can_fail, node))
}

/// Where the arguments of `of` were given: the field it was read as, when it is a structure
/// read by a field (an element of one, a case of a switch field, either where present), its
/// holder in the terms of `scope`.
pub fn given<R: Reach>(scope: &R, of: &Typed) -> Option<Given> {
    match &of.node {
        Node::Field { of, ty, index } => {
            let field = &scope.schema().types[*ty].fields[*index];
            let structure = matches!(field.ty, FieldType::User { .. } | FieldType::Switch(_));
            structure.then(|| Given {
                holder: of.as_ref().map(|of| (**of).clone()).map(Box::new),
                site: Site {
                    ty: *ty,
                    field: *index,
                    case: None,
                },
            })
        }
        Node::Case { value, variant, .. } => {
            let mut given = given(scope, value)?;
            given.site.case = Some(*variant);
            let structure = matches!(
                given.site.case_type(scope.schema()),
                Some(FieldType::User { .. })
            );
            structure.then_some(given)
        }
        Node::Item { list, .. } => given(scope, list),
        // The present value was resolved outside, where `Node::Present` means another value:
        // a holder that names it is not in this scope's terms.
        Node::Present { .. } => {
            let value = scope.present_value()?;
            match names_present(&value) {
                true => None,
                false => given(scope, &value),
            }
        }
        // The holder of a step inside the value is in the terms of the scope where the value
        // is present: there, `Node::Present` is that value.
        Node::WhenPresent { value, then } => {
            let mut given = given(&scope.present_scope(value), then)?;
            if let Some(holder) = given.holder.take() {
                given.holder = Some(Box::new(with_present(*holder, value)?));
            }
            Some(given)
        }
        _ => None,
    }
}

/// Whether the place `t` names `Node::Present`, the present value of its scope.
fn names_present(t: &Typed) -> bool {
    match &t.node {
        Node::Present { .. } => true,
        Node::Field { of, .. } => of.as_deref().is_some_and(names_present),
        Node::Case { value, .. } => names_present(value),
        Node::Item { list, .. } => names_present(list),
        Node::WhenPresent { value, .. } => names_present(value),
        _ => false,
    }
}

/// The place `t`, in whose scope `Node::Present` is `value`, in the terms of the scope
/// outside (`None` where it names that value other than through a field, a case, an element
/// or another value that may be absent).
fn with_present(t: Typed, value: &Typed) -> Option<Typed> {
    let Typed { ty, can_fail, node } = t;
    let inner = |t: Box<Typed>| with_present(*t, value).map(Box::new);
    let node = match node {
        Node::Present { .. } => return Some(value.clone()),
        Node::Field { of, ty, index } => Node::Field {
            of: match of {
                Some(of) => Some(inner(of)?),
                None => None,
            },
            ty,
            index,
        },
        Node::Case {
            value: case,
            field,
            variant,
        } => Node::Case {
            value: inner(case)?,
            field,
            variant,
        },
        Node::Item { list, at } => Node::Item {
            list: inner(list)?,
            at,
        },
        Node::WhenPresent { value: of, then } => Node::WhenPresent {
            value: inner(of)?,
            then,
        },
        node => {
            let t = Typed { ty, can_fail, node };
            return (!names_present(&t)).then_some(t);
        }
    };
    Some(Typed { ty, can_fail, node })
}

/// Parameter `index` of type `ty`, where no argument is known: a `_root` parameter is the same
/// for every value of a file, so the scope the expression is written in gives it when it has
/// that parameter too (`_root.constant_pool[i].name` from any constant's instance).
fn shared_root<R: Reach>(scope: &R, ty: usize, index: usize) -> Result<Typed, ExprError> {
    let schema = scope.schema();
    let def = &schema.types[ty];
    let param = &def.params[index].id;
    let home = scope.home();
    let at = home.as_ref().unwrap_or(scope);
    let shares_root = param.starts_with("_root_")
        && schema.file_root(at.scope_type()) == schema.file_root(ty)
        && schema.types[at.scope_type()]
            .params
            .iter()
            .any(|p| p.id == *param);
    // Kaitai has the value's own `_root` and `_parent`; an owned value has no pointer back, so
    // this is a limit of skelcodec, not a mistake of the schema.
    if !shares_root {
        return unsupported(format!(
            "`{param}` is a parameter of type `{}`, known only where one of its values is read or written",
            def.id
        ));
    }
    let value = resolve(at, &Expr::Name(param.clone()))?;
    Ok(match home {
        Some(_) => typed(
            value.ty.clone(),
            value.can_fail,
            Node::AtHome(Box::new(value)),
        ),
        None => value,
    })
}

impl Site {
    /// The type of the value read here: the field's, or its case's.
    fn case_type<'s>(&self, schema: &'s Schema) -> Option<&'s FieldType> {
        let field = &schema.types[self.ty].fields[self.field];
        match (&field.ty, self.case) {
            (ty, None) => Some(ty),
            (FieldType::Switch(switch), Some(variant)) => {
                Some(switch_variants(schema, switch).variants.get(variant)?.ty)
            }
            _ => None,
        }
    }

    /// The argument expressions given here.
    pub fn arguments<'s>(&self, schema: &'s Schema) -> &'s [Expr] {
        match self.case_type(schema) {
            Some(FieldType::User { args, .. }) => args,
            _ => &[],
        }
    }
}
