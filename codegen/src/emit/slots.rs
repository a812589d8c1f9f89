//! `normalize()` writes each value read from a slot (see [`Schema::slot_path`]) back into the
//! slot's bytes, in place of those it was read from, before the sizes that measure the slot
//! are recomputed: the interpreter does the same (`dynamic/src/sync.rs`).

use crate::sanitization::case_ident;
use proc_macro2::TokenStream;
use quote::quote;

use crate::model::switch_variants;
use crate::model::*;
use crate::sanitization::{field_ident, struct_ident, switch_enum_ident};
use crate::typeck::ir::{EndWrite, SlotWrite};

/// Statements writing field `index` of `owner`, read from a slot, back into it.
pub fn write_back(schema: &Schema, owner: usize, index: usize, slot: &SlotWrite) -> TokenStream {
    let written = written(schema, owner, index, slot);
    let unread = field_ident(UNREAD);
    let mut target = quote!(::core::option::Option::Some(&mut *self));
    for (step, optional) in &slot.path {
        let step = field_ident(step);
        target = match optional {
            true => quote!(#target.and_then(|holder| holder.#step.as_mut())),
            false => quote!(#target.map(|holder| &mut holder.#step)),
        };
    }
    quote! {{
        #written
        if let (Some((Ok(bytes), Some(replaced))), Some(slot)) = (written, #target) {
            *changed |=
                rt::fields::write_into_slot(slot.#unread.0.as_mut_vec(), pos, replaced, &bytes);
        }
    }}
}

/// Statements recording, for `check()`, a slot whose bytes differ from those field `index` of
/// `owner`, read from it, is written as now: `normalize()` would write it back.
pub fn check_back(schema: &Schema, owner: usize, index: usize, slot: &SlotWrite) -> TokenStream {
    let written = written(schema, owner, index, slot);
    let steps: Vec<&str> = slot.path.iter().map(|(step, _)| step.as_str()).collect();
    let leave = steps.iter().map(|_| quote!(c.leave();));
    quote! {{
        #written
        if let (Some((Ok(bytes), Some(replaced))), Some(old)) = (written, old)
            && let Some(found) = rt::fields::slot_mismatch(old, pos, replaced, &bytes)
        {
            #(c.enter_field(#steps);)*
            c.bytes_differ(#UNREAD, found);
            #(#leave)*
        }
    }}
}

/// Statements binding `pos` (where field `index` of `owner` was read in its slot), `old` (the
/// slot's bytes) and `written`: the value's bytes as written now, and which bytes of the slot
/// it was read from.
fn written(schema: &Schema, owner: usize, index: usize, slot: &SlotWrite) -> TokenStream {
    let field = &schema.types[owner].fields[index];
    let present = present(field);
    let write =
        super::write::write_present(schema, owner, field, &slot.written.values, &quote!(value));
    let replaced = replaced(schema, owner, field);
    let pos = &slot.pos;
    let unread = field_ident(UNREAD);
    let mut old = quote!(::core::option::Option::Some(&*self));
    for (step, optional) in &slot.path {
        let step = field_ident(step);
        old = match optional {
            true => quote!(#old.and_then(|holder| holder.#step.as_ref())),
            false => quote!(#old.map(|holder| &holder.#step)),
        };
    }
    quote! {
        let pos = #pos;
        #[allow(unused_variables)]
        let old = #old.map(|slot| slot.#unread.0.as_slice());
        let written = #present.map(|value| {
            let mut writer = rt::Writer::new();
            let bytes = (|| -> rt::Result<()> {
                let w = &mut writer;
                #write
                Ok(())
            })();
            (bytes.and_then(|()| writer.into_bytes()), #replaced)
        });
    }
}

/// An `Option<&T>` expression: the value of `field` of `self`, when it has one.
fn present(field: &Field) -> TokenStream {
    let ident = field_ident(&field.id);
    if field.parse_instance {
        quote!(self.#ident.get())
    } else if field.may_be_absent() {
        quote!(self.#ident.as_ref())
    } else {
        quote!(::core::option::Option::Some(&self.#ident))
    }
}

/// Statements writing field `index` of the root, read from the end of the file, back into the
/// unclaimed bytes that hold it (see [`Schema::from_file_end`]).
pub fn write_back_at_end(schema: &Schema, index: usize, end: &EndWrite) -> TokenStream {
    let own_bytes = own_bytes_at_end(schema, index, end);
    quote! {{
        #own_bytes
        if let (Some(at), Some(bytes)) = (at, bytes.transpose()?.flatten()) {
            rt::fields::write_into_gaps(&mut self.unclaimed, at, &bytes);
        }
    }}
}

/// Statements recording, for `check()`, unclaimed bytes that differ from those field `index`
/// of the root, read from the end of the file, is written as now.
pub fn check_back_at_end(schema: &Schema, index: usize, end: &EndWrite) -> TokenStream {
    let own_bytes = own_bytes_at_end(schema, index, end);
    quote! {{
        #own_bytes
        if let (Some(at), Some(Ok(Some(bytes)))) = (at, bytes)
            && let Some((index, len)) = rt::fields::gaps_mismatch(&self.unclaimed, at, &bytes)
        {
            c.enter_field("unclaimed");
            c.enter_index(index);
            c.bytes_differ("bytes", (len, len));
            c.leave();
            c.leave();
        }
    }}
}

/// Statements binding `at` (where field `index` of the root starts, counted from the end of
/// the file as written now) and `bytes`: what it is written as, when it is present (and
/// places nothing by position), or why it cannot be written.
fn own_bytes_at_end(schema: &Schema, index: usize, end: &EndWrite) -> TokenStream {
    let field = &schema.types[0].fields[index];
    let (present, name, from_end) = (present(field), &field.id, end.from_end);
    let write = super::write::write_present(schema, 0, field, &end.written.values, &quote!(value));
    quote! {
        let at = rt::codec::written_len(self).and_then(|len| len.checked_sub(#from_end));
        let bytes = #present.map(|value| {
            rt::fields::own_bytes(|w| {
                #write
                Ok(())
            })
            .in_field(#name)
        });
    }
}

/// An `Option<rt::fields::Replaced>` expression: which bytes of its slot (`old`) `value` was
/// read from (by the case a switch holds).
fn replaced(schema: &Schema, owner: usize, field: &Field) -> TokenStream {
    let of = |ty: &FieldType| match schema.slot_span(field, ty) {
        Some(SlotSpan::ToEnd) => quote!(Some(rt::fields::Replaced::ToEnd)),
        Some(SlotSpan::Terminated(byte)) => quote!(Some(rt::fields::Replaced::Terminated(#byte))),
        Some(SlotSpan::Size(size)) => quote!(Some(rt::fields::Replaced::Size(#size))),
        Some(SlotSpan::AsRead(ty)) => {
            let name = struct_ident(&schema.types[ty]);
            quote! {
                old.and_then(|old| {
                    rt::fields::Replaced::as_read(old, pos, |r| #name::read_from(r).map(drop))
                })
            }
        }
        None => quote!(None),
    };
    match &field.ty {
        FieldType::Switch(switch) if field.repeat == Repeat::None => {
            let enum_name = switch_enum_ident(schema, owner, field);
            let arms = switch_variants(schema, switch)
                .variants
                .into_iter()
                .map(|v| {
                    let (variant, replaced) = (case_ident(&v.name), of(v.ty));
                    quote!(#enum_name::#variant(..) => #replaced,)
                });
            quote!(match value { #(#arms)* #[allow(unreachable_patterns)] _ => None })
        }
        ty => of(ty),
    }
}
