//! Parse instances read on demand (`rt::Instance::on_demand`), as Kaitai reads every
//! instance: the bytes each is read from. Which are is [`crate::model::Schema::reads_on_demand`], by which
//! `read.rs` emits their readers and `write.rs` their writers.

use proc_macro2::TokenStream;
use quote::quote;

use crate::typeck::ir::{self, Reading};

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
