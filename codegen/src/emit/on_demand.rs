//! Parse instances read on demand (`rt::Instance::on_demand`), as Kaitai reads every
//! instance: which are, and the bytes each is read from. `read.rs` emits their readers and
//! `write.rs` their writers by this predicate.

use proc_macro2::TokenStream;
use quote::quote;

use crate::model::*;
use crate::typeck::ir::{self, Reading};

/// Whether parse instance `field` of type `owner` is read on demand: each value it may hold
/// (one, or one per case of its switch) has bytes of its own of a size known before it is read
/// (`size`), so that a writer that only measures coverage claims them unread; is neither
/// decoded (`process`) nor boxed (of a type that reaches `owner`: reading it then never meets
/// a value being read around it, a cycle, which only a reader reading them all sees); and is
/// raw bytes or a value of a type whose arguments the reader can keep (numbers, flags, enum
/// values, streams).
pub(super) fn reads_on_demand(
    schema: &Schema,
    owner: usize,
    field: &Field,
    ir: &ir::ReadField,
) -> bool {
    let kept = |one: &ir::One<Reading>, ty: &FieldType| {
        let value = match window(one) {
            Some((_, ir::Value::User { ty, .. })) => {
                let def = &schema.types[*ty];
                !def.unread_from_holder && def.params.iter().all(|p| kept_argument(p.ty))
            }
            Some((_, ir::Value::Bytes { .. })) => true,
            _ => false,
        };
        value && one.decode.is_none() && !schema.boxes(owner, field, ty)
    };
    let single = |list: &ir::List<Reading>| matches!(list.repeat, ir::Repeat::One);
    field.parse_instance
        && ir.position.is_some()
        && match &ir.values {
            ir::Values::One(list) => single(list) && kept(&list.one, &field.ty),
            ir::Values::Switch(switch) => switch
                .cases
                .iter()
                .all(|case| single(&case.list) && kept(&case.list.one, &case.ty)),
            ir::Values::Elements(_) => false,
        }
}

/// The size of the bytes of `one` known before it is read, and what is read from them: a value
/// of a substream (`size` on a type), or raw bytes of a size.
pub(super) fn window(one: &ir::One<Reading>) -> Option<(TokenStream, &ir::Value<Reading>)> {
    const RAW: &ir::Value<Reading> = &ir::Value::Bytes {
        size: ir::Size::Eos,
        align: 1,
    };
    let size = |size: &ir::Size<Reading>| match size {
        ir::Size::Const(n) => {
            let n = *n as i64;
            Some(quote!(#n))
        }
        ir::Size::Computed { len, .. } => Some(len.clone()),
        _ => None,
    };
    match (&one.substream, &one.value) {
        (Some(substream), value @ ir::Value::User { .. }) => Some((size(substream)?, value)),
        (
            Some(substream),
            value @ ir::Value::Bytes {
                size: ir::Size::Eos,
                align: 1,
            },
        ) => Some((size(substream)?, value)),
        (
            None,
            ir::Value::Bytes {
                size: bytes,
                align: 1,
            },
        ) => Some((size(bytes)?, RAW)),
        _ => None,
    }
}

/// An argument a reader keeps to read later: a value, or a stream (cloned).
fn kept_argument(ty: ParamType) -> bool {
    matches!(
        ty,
        ParamType::Int(_) | ParamType::Bool | ParamType::Enum(_) | ParamType::Io
    )
}
