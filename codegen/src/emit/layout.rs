//! `-layout`: the offsets of the blocks read by position, compared with (`check`) or set to
//! (`normalize`) where the blocks go when laid out one after another. Both walk the value twice
//! in the same order: once to measure the blocks, once to visit their offsets.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use crate::model::*;
use crate::repr::sizes::field_len;
use crate::sanitization::field_ident;

/// Statements of the root's `check_into`: every offset that disagrees with the layout.
pub fn check_offsets(schema: &Schema) -> TokenStream {
    let Some(layout) = &schema.layout else {
        return quote!();
    };
    let visits = layout.blocks.iter().map(|block| {
        reach(schema, block, false, |owner, path| {
            let offset = &schema.types[block.owner].fields[block.offset_field];
            let (ident, name, unit) = (field_ident(&offset.id), &offset.id, block.unit as i128);
            let enter = path.iter().map(|(name, index)| match index {
                Some(index) => quote!(c.enter_field(#name); c.enter_index(#index);),
                None => quote!(c.enter_field(#name);),
            });
            let depth = path.iter().map(|(_, i)| 1 + usize::from(i.is_some())).sum();
            let leave = std::iter::repeat_n(quote!(c.leave();), depth);
            quote! {
                let at = laid.next().unwrap_or_default();
                #(#enter)*
                c.compare(#name, i128::from(#owner.#ident), at / #unit);
                #(#leave)*
            }
        })
    });
    let lay_out = lay_out(schema, layout);
    quote! {
        #lay_out
        #(#visits)*
    }
}

/// Statements of the root's `normalize`, first: free-space lists describe the old layout.
pub fn clear_free_space(schema: &Schema) -> TokenStream {
    let Some(layout) = &schema.layout else {
        return quote!();
    };
    let clears = layout.clears.iter().map(|&index| {
        let field = &schema.types[0].fields[index];
        let ident = field_ident(&field.id);
        if field.cond.is_some() {
            quote!(self.#ident = None;)
        } else {
            quote!(self.#ident.clear();)
        }
    });
    quote!(#(#clears)*)
}

/// Statements of the root's `normalize`, last (sizes are final by then): every block moved to
/// its place in the new layout, and the old unclaimed bytes replaced by the alignment padding.
pub fn move_blocks(schema: &Schema) -> TokenStream {
    let Some(layout) = &schema.layout else {
        return quote!();
    };
    let moves = layout.blocks.iter().map(|block| {
        reach(schema, block, true, |owner, path| {
            let offset = &schema.types[block.owner].fields[block.offset_field];
            let (ident, name, unit) = (field_ident(&offset.id), &offset.id, block.unit);
            let wrap = path.iter().rev().map(|(name, index)| match index {
                Some(index) => quote!(.at_index(#index).in_field(#name)),
                None => quote!(.in_field(#name)),
            });
            quote! {
                let at = laid.next().unwrap_or_default();
                #owner.#ident = rt::layout::stored_offset(at, #unit).in_field(#name) #(#wrap)* ?;
            }
        })
    });
    let lay_out = lay_out(schema, layout);
    quote! {
        #lay_out
        #(#moves)*
        self.unclaimed = padding;
    }
}

/// Measures every block and lays them out: `laid` yields their new positions in walk order,
/// `padding` holds the zero bytes between them.
fn lay_out(schema: &Schema, layout: &Layout) -> TokenStream {
    let measures = layout.blocks.iter().map(|block| {
        reach(schema, block, false, |owner, _| {
            let field = &schema.types[block.owner].fields[block.field];
            let offset = field_ident(&schema.types[block.owner].fields[block.offset_field].id);
            let ident = field_ident(&field.id);
            let len = field_len(schema, field, &quote!(#owner.#ident));
            let unit = block.unit as i128;
            quote! {
                blocks.push(rt::layout::Block {
                    stored: i128::from(#owner.#offset) * #unit,
                    len: (#len) as u64,
                });
            }
        })
    });
    let (align, keep) = (layout.align, layout.keep_stored_order);
    let start = match layout.keep_stored_start {
        true => quote!(rt::layout::Start::Stored(self.encoded_len() as u64)),
        false => quote!(rt::layout::Start::Fields(self.encoded_len() as u64)),
    };
    quote! {
        let mut blocks: Vec<rt::layout::Block> = Vec::new();
        #(#measures)*
        let rt::layout::Laid { offsets, padding } =
            rt::layout::lay_out(&blocks, #start, #align, #keep);
        let _ = &padding;
        let mut laid = offsets.into_iter();
    }
}

/// The path to an offset: each field passed through, with the index variable of a list.
type OffsetPath = [(String, Option<Ident>)];

/// Nested loops reaching every present block of `block`; `visit` gets the variable holding
/// the block's owner and the path to it.
fn reach(
    schema: &Schema,
    block: &LayoutBlock,
    mutable: bool,
    visit: impl Fn(&Ident, &OffsetPath) -> TokenStream,
) -> TokenStream {
    let owners: Vec<Ident> = (0..=block.through.len())
        .map(|k| format_ident!("owner{}", k))
        .collect();
    let path: Vec<(String, Option<Ident>)> = block
        .through
        .iter()
        .enumerate()
        .map(|(k, step)| {
            let field = &schema.types[step.owner].fields[step.field];
            let index = (field.repeat != Repeat::None).then(|| format_ident!("index{}", k));
            (field.id.clone(), index)
        })
        .collect();
    let (borrow, iter) = if mutable {
        (quote!(&mut), quote!(iter_mut))
    } else {
        (quote!(&), quote!(iter))
    };
    let innermost = &owners[block.through.len()];
    let field = &schema.types[block.owner].fields[block.field];
    let mut body = visit(innermost, &path);
    if field.cond.is_some() {
        let ident = field_ident(&field.id);
        body = quote!(if #innermost.#ident.is_some() { #body });
    }
    for (k, step) in block.through.iter().enumerate().rev() {
        let field = &schema.types[step.owner].fields[step.field];
        let (outer, inner, ident) = (&owners[k], &owners[k + 1], field_ident(&field.id));
        let place = if field.cond.is_some() {
            quote!(list)
        } else {
            quote!(#outer.#ident)
        };
        body = match &path[k].1 {
            Some(index) => quote! {
                for (#index, #inner) in #place.#iter().enumerate() {
                    let _ = #index;
                    #body
                }
            },
            None if field.cond.is_some() => {
                quote!(if let Some(#inner) = #borrow #outer.#ident { #body })
            }
            None => quote!({ let #inner = #borrow #outer.#ident; #body }),
        };
        if field.cond.is_some() && path[k].1.is_some() {
            body = quote!(if let Some(list) = #borrow #outer.#ident { #body });
        }
    }
    let root = &owners[0];
    quote!({ let #root = #borrow *self; #body })
}
