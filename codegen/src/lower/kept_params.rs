//! Parameters kept in the values of their type. Kaitai lets any expression reach a value's
//! parameters (`groups.last.multiplier`, an instance of an earlier element), but skelcodec
//! passes arguments to readers and writers only: where a value is reached, its arguments are
//! known only if the place it is reached through says how it was read. Two places cannot: a
//! list that gives each element arguments of its own (`group(_index, groups[_index - 1].x)`),
//! and a value passed as a parameter. Their number, boolean and enum parameters that its
//! instances use become fields of the value, stored as read; the writer refuses a value whose
//! stored argument is not the one it is written with.

use super::context::used_lazily;
use crate::model::*;

/// Marks kept the number, boolean and enum parameters that instances use (see
/// [`used_lazily`]) of the types whose values are passed as parameters, and those whose
/// argument differs from one element of a list to the next (it uses `_index` or the elements
/// read before).
pub fn keep_params(schema: &mut Schema) {
    let mut kept = Vec::new();
    for def in &schema.types {
        for param in &def.params {
            if let ParamType::User(ty) | ParamType::OptUser(ty) | ParamType::UserList(ty) = param.ty
            {
                kept.extend((0..schema.types[ty].params.len()).map(|index| (ty, index)));
            }
        }
        for field in def.fields.iter().filter(|f| f.repeat != Repeat::None) {
            let mut ty = field.ty.clone();
            ty.for_each_user_mut(&mut |used, args| {
                for (index, arg) in args.iter().enumerate() {
                    if arg.mentions("_index") || arg.mentions(&field.id) {
                        kept.push((used, index));
                    }
                }
            });
        }
    }
    kept.retain(|&(ty, index)| {
        schema.types[ty].params.get(index).is_some_and(|param| {
            is_scalar(param) && used_lazily(schema, ty, &param.id, &mut Vec::new())
        })
    });
    // Read as a property of the value itself (`given.has_alpha`), which an expression may
    // reach through a place that does not say how it was read (an instance choosing between
    // two fields). A name that is also a field's or an instance's may mean that one.
    for (ty, def) in schema.types.iter().enumerate() {
        let file = def.at.file();
        let types = || {
            schema
                .types
                .iter()
                .filter(move |other| other.at.file() == file)
        };
        for (index, param) in def.params.iter().enumerate() {
            let named_otherwise = types().any(|other| {
                other.fields.iter().any(|f| f.id == param.id)
                    || other.instances.iter().any(|i| i.id == param.id)
            });
            let read = || {
                types()
                    .flat_map(TypeDef::expressions)
                    .any(|e| e.reads_property(&param.id))
            };
            if is_scalar(param) && !named_otherwise && read() {
                kept.push((ty, index));
            }
        }
    }
    for (ty, index) in kept {
        schema.types[ty].params[index].kept = true;
    }
}

/// A number, boolean or enum parameter: one a value can keep as a field.
fn is_scalar(param: &Param) -> bool {
    matches!(
        param.ty,
        ParamType::Int(_) | ParamType::Bool | ParamType::Enum(_)
    )
}
