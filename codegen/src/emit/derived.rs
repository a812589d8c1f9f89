//! `check` and `normalize`: derived fields (sizes, counts, offsets) compared with, or
//! recomputed from, the content. Only types that hold derived fields, directly or below,
//! get these methods.

use crate::sanitization::case_ident;
use proc_macro2::TokenStream;
use quote::quote;

use super::layout;
use crate::model::switch_variants;
use crate::model::*;
use crate::repr::sizes;
use crate::sanitization::field_ident;
use crate::sanitization::switch_enum_ident;
use crate::typeck::ir::{Derivation, TypeIr};
use std::collections::HashMap;

/// For each type: whether it or anything inside it has a field whose derivation the root
/// computes (see [`Schema::rooted`]), which `set_rooted` sets.
fn types_holding_rooted(schema: &Schema) -> Vec<bool> {
    let holds: Vec<bool> = (0..schema.types.len())
        .map(|ty| schema.rooted.iter().any(|r| r.ty == ty))
        .collect();
    schema.held_by_holders(holds)
}

/// What `check_into` and `normalize` of type `ty` do for the derivations the root computes
/// (see [`Schema::rooted`]; `rooted`: their values, compiled in the root): the root computes
/// them, into the checker for `check_into` and for `set_rooted` in `normalize`; a type with
/// such fields compares them; every type that holds one gets `set_rooted`. The statements of
/// `check_into`, of `normalize`, and the method.
fn rooted_items(
    schema: &Schema,
    ty: usize,
    rooted: &[Derivation],
) -> (TokenStream, TokenStream, TokenStream) {
    if schema.rooted.is_empty() {
        return (quote!(), quote!(), quote!());
    }
    let def = &schema.types[ty];
    let own = schema.rooted.iter().enumerate().filter(|(_, r)| r.ty == ty);
    let (mut compares, mut sets) = (Vec::new(), Vec::new());
    for (k, r) in own {
        let field = &def.fields[r.field];
        let ident = field_ident(&field.id);
        let (compare, set) = compare_and_set(quote!(self.#ident), (field, &[]), &quote!(derived));
        compares.push(quote! {
            if let ::core::option::Option::Some(derived) = c.rooted(#k) { #compare }
        });
        sets.push(quote! {
            if let ::core::option::Option::Some(&derived) = rooted.get(#k) { #set }
        });
    }
    let holds = types_holding_rooted(schema);
    let children = def
        .fields
        .iter()
        .map(|f| visit_children(schema, ty, f, &holds, Visit::SetRooted));
    let method = holds[ty].then(|| {
        quote! {
            /// Sets every field, here and below, whose derivation uses `_root` to the value the
            /// root computed for it (`rooted`, one per such field of the schema, in order);
            /// sets `changed` when that changes any.
            #[doc(hidden)]
            pub fn set_rooted(&mut self, rooted: &[i64], changed: &mut bool) -> rt::Result<()> {
                #(#sets)*
                #(#children)*
                Ok(())
            }
        }
    });
    if ty != 0 {
        return (quote!(#(#compares)*), quote!(), quote!(#method));
    }
    let names = schema
        .rooted
        .iter()
        .map(|r| &schema.types[r.ty].fields[r.field].id);
    let (checked, normalized): (Vec<_>, Vec<_>) = rooted
        .iter()
        .zip(names)
        .map(|(derivation, name)| {
            let value = &derivation.value;
            match derivation.can_fail {
                true => (quote!((#value).ok()), quote!(#value.in_field(#name)?)),
                false => (quote!(::core::option::Option::Some(#value)), value.clone()),
            }
        })
        .unzip();
    (
        quote! {
            c.set_rooted(::std::vec![#(#checked),*]);
            #(#compares)*
        },
        // A type no value of the root holds has nothing to set.
        match holds[0] {
            true => quote! {
                let rooted = [#(#normalized),*];
                self.set_rooted(&rooted, changed)?;
            },
            false => quote!(),
        },
        quote!(#method),
    )
}

/// Statements comparing (`check()`) or setting (`normalize()`) the kept arguments of the
/// values of `field` with those it passes them (`kept`, see [`TypeIr`]'s fields).
fn kept_args(
    schema: &Schema,
    field: &Field,
    kept: &[(usize, TokenStream)],
    visit: Visit,
) -> TokenStream {
    let FieldType::User { ty: child, .. } = &field.ty else {
        return quote!();
    };
    if kept.is_empty() {
        return quote!();
    }
    let ident = field_ident(&field.id);
    let name = &field.id;
    let params = kept.iter().map(|(i, _)| &schema.types[*child].params[*i]);
    let locals: Vec<_> = (0..kept.len())
        .map(|i| quote::format_ident!("kept_{i}"))
        .collect();
    let args = kept.iter().map(|(_, arg)| arg);
    let repeated = field.repeat != Repeat::None;
    let item = match repeated {
        true => quote!(self.#ident[index]),
        false => quote!(self.#ident),
    };
    let body = match visit {
        Visit::SetRooted => return quote!(),
        Visit::Normalize => {
            let fields = params.map(|p| field_ident(&p.id));
            quote! {
                #(let #locals = #args;)*
                #(rt::passes::set(&mut #item.#fields, #locals, changed);)*
            }
        }
        Visit::Check => {
            let compares = params.zip(&locals).map(|(p, local)| {
                let (field, id) = (field_ident(&p.id), &p.id);
                let as_int = |v: TokenStream| match p.ty {
                    ParamType::Enum(_) => quote!(i128::from(#v.raw())),
                    _ => quote!(i128::from(#v)),
                };
                let (stored, computed) = (as_int(quote!(#item.#field)), as_int(quote!(#local)));
                quote!(c.compare(#id, #stored, #computed);)
            });
            let enter_index = repeated.then(|| quote!(c.enter_index(index);));
            let leave_index = repeated.then(|| quote!(c.leave();));
            quote! {
                #(let #locals = #args;)*
                c.enter_field(#name);
                #enter_index
                #(#compares)*
                #leave_index
                c.leave();
            }
        }
    };
    match repeated {
        true => quote!(for index in 0..self.#ident.len() { #body }),
        false => quote!({ #body }),
    }
}

/// How a child value is visited: `check`, `normalize`, or `set_rooted` (the values the root
/// computed for its derivations that use `_root`, set in every value of their types).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Visit {
    Check,
    Normalize,
    SetRooted,
}

impl Visit {
    /// The method a visit of this kind calls on each child value that needs it.
    fn call(self) -> TokenStream {
        match self {
            Visit::Check => quote!(check_into(c)),
            Visit::Normalize => quote!(normalize_pass(changed)),
            Visit::SetRooted => quote!(set_rooted(rooted, changed)),
        }
    }
}

/// Statements visiting the user-typed values held by `field`.
fn visit_children(
    schema: &Schema,
    owner: usize,
    field: &Field,
    needs: &[bool],
    visit: Visit,
) -> TokenStream {
    if !field.ty.user_types().iter().any(|&c| needs[c]) {
        return quote!();
    }
    let ident = field_ident(&field.id);
    let name = &field.id;
    let (borrow, iter) = match visit {
        Visit::Check => (quote!(&), quote!(iter)),
        Visit::Normalize | Visit::SetRooted => (quote!(&mut), quote!(iter_mut)),
    };
    let call = visit.call();
    // `names`: the field, then the switch variant if any, as documents show them.
    let visit_one = |value: TokenStream, names: &[&str], indexed: bool| {
        let index = indexed.then(|| quote!(index));
        match visit {
            Visit::Check => {
                let leave =
                    std::iter::repeat_n(quote!(c.leave();), names.len() + usize::from(indexed));
                let enter_index = index.map(|i| quote!(c.enter_index(#i);));
                quote! {
                    #(c.enter_field(#names);)*
                    #enter_index
                    #value.check_into(c);
                    #(#leave)*
                }
            }
            Visit::Normalize | Visit::SetRooted => {
                let at_index = index.map(|i| quote!(.at_index(#i)));
                let names = names.iter().rev();
                quote!(#value.#call #at_index #(.in_field(#names))* ?;)
            }
        }
    };
    let per_value = |value: TokenStream, names: &[&str]| {
        if field.repeat == Repeat::None {
            visit_one(value, names, false)
        } else {
            let each = visit_one(quote!(item), names, true);
            quote!(for (index, item) in #value.#iter().enumerate() { #each })
        }
    };
    // The cases of a switch whose values have something to check or normalize.
    let visited_cases = |switch| {
        switch_variants(schema, switch)
            .variants
            .into_iter()
            .filter(|v| v.ty.user_types().iter().any(|&c| needs[c]))
    };
    let place = if field.may_be_absent() {
        quote!(value)
    } else {
        quote!((#borrow self.#ident))
    };
    let body = match &field.ty {
        // Each element holds its own case: its path is the field's, its index, then the case.
        FieldType::Switch(switch) if field.switches_per_element() => {
            let enum_name = switch_enum_ident(schema, owner, field);
            let arms = visited_cases(switch).map(|v| {
                let (variant, case) = (case_ident(&v.name), &v.name);
                let inner = match visit {
                    Visit::Check => quote! {
                        c.enter_field(#name);
                        c.enter_index(index);
                        c.enter_field(#case);
                        value.check_into(c);
                        c.leave();
                        c.leave();
                        c.leave();
                    },
                    Visit::Normalize | Visit::SetRooted => quote! {
                        value.#call.in_field(#case).at_index(index).in_field(#name)?;
                    },
                };
                quote!(#enum_name::#variant(value) => { #inner })
            });
            quote! {
                for (index, item) in #place.#iter().enumerate() {
                    match item { #(#arms)* _ => {} }
                }
            }
        }
        FieldType::Switch(switch) => {
            let enum_name = switch_enum_ident(schema, owner, field);
            let arms = visited_cases(switch).map(|v| {
                let inner = per_value(quote!(value), &[name, &v.name]);
                let variant = case_ident(&v.name);
                quote!(#enum_name::#variant(value) => { #inner })
            });
            quote!(match #place { #(#arms)* _ => {} })
        }
        _ => per_value(place, &[name]),
    };
    if field.parse_instance {
        let get = match visit {
            Visit::Check => quote!(get),
            Visit::Normalize | Visit::SetRooted => quote!(get_mut),
        };
        quote!(if let Some(value) = self.#ident.#get() { #body })
    } else if field.cond.is_some() {
        quote!(if let Some(value) = #borrow self.#ident { #body })
    } else {
        body
    }
}

/// A derivation's comparison and recomputation, done only where the value it measures, when
/// that is a value read on its own (field `held` of `def`), was read or is absent (not where
/// it failed).
fn where_measured(
    def: &TypeDef,
    held: Option<usize>,
    compare: TokenStream,
    recompute: TokenStream,
) -> (TokenStream, TokenStream) {
    match held {
        Some(user) => {
            let user = field_ident(&def.fields[user].id);
            (
                quote!(if self.#user.is_measured() { #compare }),
                quote!(if self.#user.is_measured() { #recompute }),
            )
        }
        None => (compare, recompute),
    }
}

/// Comparing (`check()`) and setting (`normalize()`) the derived integer (or flag) `field` at
/// `place` with `computed`; `outer`: the fields it is reached through, innermost first, for
/// errors.
fn compare_and_set(
    place: TokenStream,
    (field, outer): (&Field, &[&str]),
    computed: &TokenStream,
) -> (TokenStream, TokenStream) {
    let name = &field.id;
    let stored = match field.ty {
        // A flag is derived as 1 or 0.
        FieldType::Bits { width: 1, .. } => quote!(computed != 0),
        _ => quote!(rt::arith::narrow(computed, 0).in_field(#name) #(.in_field(#outer))* ?),
    };
    (
        quote!(c.compare(#name, i128::from(#place), i128::from(#computed));),
        quote! {
            let computed = #computed;
            rt::passes::set(&mut #place, #stored, changed);
        },
    )
}

/// Comparing (`check()`) the stored bytes of `field`, measured as written (see
/// [`Field::is_measured_as_written`]), with those its value is written as, and setting them
/// (`normalize()`), so that the value reads back as itself.
fn measured_as_written(field: &Field) -> (TokenStream, TokenStream) {
    let (ident, name) = (field_ident(&field.id), &field.id);
    let restored = sizes::measured_as_written(field, "restored", &quote!(value));
    let on_value = |borrow: TokenStream, body: TokenStream| match field.cond.is_some() {
        true => quote!(if let Some(value) = #borrow self.#ident { #body }),
        false => quote!({ let value = #borrow self.#ident; #body }),
    };
    // No stored bytes: the value is stored anew when written, nothing to disagree with.
    let compare = quote! {
        if !value.stored.0.is_empty() && let Some(new) = #restored {
            c.enter_field(#name);
            c.bytes_differ("stored", (value.stored.0.len(), new.len()));
            c.leave();
        }
    };
    let set = quote! {
        if !value.stored.0.is_empty() && let Some(new) = #restored {
            rt::passes::set(&mut value.stored, rt::RawBytes::new(new), changed);
        }
    };
    (on_value(quote!(&), compare), on_value(quote!(&mut), set))
}

/// Derivations that can have no value (see [`crate::typeck::ir::Derivation::can_fail`]).
mod fallible {
    use proc_macro2::TokenStream;
    use quote::quote;

    use crate::typeck::ir::Derivation;

    /// What the statements comparing and setting a field use as its derived value: the
    /// value, or `derived`, which [`bound`] binds.
    pub fn computed(derivation: &Derivation) -> TokenStream {
        match derivation.can_fail {
            true => quote!(derived),
            false => derivation.value.clone(),
        }
    }

    /// The statements comparing (`compare`) and setting (`recompute`) a field with its
    /// derivation, which, when it can have none, `check()` then skips and `normalize()`
    /// refuses, the error in the field's path (`in_path`: `.in_field(…)` calls).
    pub fn bound(
        derivation: &Derivation,
        in_path: TokenStream,
        compare: TokenStream,
        recompute: TokenStream,
    ) -> (TokenStream, TokenStream) {
        if !derivation.can_fail {
            return (compare, recompute);
        }
        let value = &derivation.value;
        (
            quote!(if let ::core::result::Result::Ok(derived) = #value { #compare }),
            quote!({ let derived = #value #in_path ?; #recompute }),
        )
    }
}

/// `check_into` and `normalize` of a type that holds derived fields.
pub fn derived_impl(
    schema: &Schema,
    ty: usize,
    ir: &TypeIr,
    plan: &NormalizePlan,
    rooted: &[Derivation],
) -> TokenStream {
    let def = &schema.types[ty];
    let needs: &[bool] = &plan.types.iter().map(Option::is_some).collect::<Vec<_>>();
    let (check_rooted, set_rooted, set_rooted_method) = rooted_items(schema, ty, rooted);
    let mut compares = Vec::new();
    // What each step of the plan that recomputes a field of this type does.
    let mut recomputes = HashMap::new();
    for (index, field, derivation) in (def.fields.iter().zip(&ir.fields).enumerate())
        .filter_map(|(index, (f, i))| Some((index, f, i.derived.as_ref()?)))
    {
        let ident = field_ident(&field.id);
        let name = &field.id;
        // What `check()` compares with and `normalize()` sets: the value, or for a derivation
        // that can have none, `derived`, bound where it has one (see `fallible`).
        let computed = &fallible::computed(derivation);
        // A list follows the content element by element; a conditional field only where
        // it is present.
        let (compare, recompute) = if field.repeat != Repeat::None {
            let (compare, recompute) = fallible::bound(
                derivation,
                quote!(.at_index(index).in_field(#name)),
                quote! {
                    let stored = i128::from(self.#ident[index]);
                    c.compare_element(#name, index, stored, i128::from(#computed));
                },
                quote! {
                    let computed = #computed;
                    let new = rt::arith::narrow(computed, 0).at_index(index).in_field(#name)?;
                    rt::passes::set(&mut self.#ident[index], new, changed);
                },
            );
            (
                quote!(for index in 0..self.#ident.len() { #compare }),
                quote!(for index in 0..self.#ident.len() { #recompute }),
            )
        } else if field.cond.is_some() {
            let (compare, recompute) = fallible::bound(
                derivation,
                quote!(.in_field(#name)),
                quote!(c.compare(#name, i128::from(stored), i128::from(#computed));),
                quote! {
                    let computed = #computed;
                    let new = rt::arith::narrow(computed, 0).in_field(#name)?;
                    rt::passes::set(&mut self.#ident, Some(new), changed);
                },
            );
            (
                quote!(if let Some(stored) = self.#ident { #compare }),
                quote!(if self.#ident.is_some() { #recompute }),
            )
        } else {
            let (compare, recompute) = compare_and_set(quote!(self.#ident), (field, &[]), computed);
            fallible::bound(derivation, quote!(.in_field(#name)), compare, recompute)
        };
        let (compare, recompute) = where_measured(def, def.held_user(field), compare, recompute);
        compares.push(compare);
        recomputes.insert(Step::Derived(index), recompute);
    }
    for (k, (member, derivation)) in def
        .derived_members
        .iter()
        .zip(&ir.derived_members)
        .enumerate()
    {
        let step = &def.fields[member.step];
        let Some(&child) = step.ty.user_types().first() else {
            continue;
        };
        let field = &schema.types[child].fields[member.field];
        let (step_ident, step_name) = (field_ident(&step.id), &step.id);
        let ident = field_ident(&field.id);
        let place = quote!(self.#step_ident.#ident);
        let computed = &fallible::computed(derivation);
        let (compare, recompute) = compare_and_set(place, (field, &[step_name]), computed);
        let name = &field.id;
        let (compare, recompute) = fallible::bound(
            derivation,
            quote!(.in_field(#name).in_field(#step_name)),
            compare,
            recompute,
        );
        let compare = quote!(c.enter_field(#step_name); #compare c.leave(););
        let held = def.member_held(member);
        let (compare, recompute) = where_measured(def, held, compare, recompute);
        compares.push(compare);
        recomputes.insert(Step::Member(k), recompute);
    }
    for (index, field, size) in (def.fields.iter().zip(&ir.fields).enumerate())
        .filter_map(|(index, (f, i))| Some((index, f, i.padding.as_ref()?)))
    {
        let ident = field_ident(&field.id);
        let name = &field.id;
        compares.push(quote! {
            c.compare(#name, self.#ident.0.len() as i128, i128::from(#size));
        });
        recomputes.insert(
            Step::Padding(index),
            quote! {
                let (size, before) = (#size, self.#ident.0.len());
                rt::fields::resize_padding(self.#ident.0.as_mut_vec(), size).in_field(#name)?;
                *changed |= self.#ident.0.len() != before;
            },
        );
    }
    for (index, field) in
        (def.fields.iter().enumerate()).filter(|(_, f)| f.is_measured_as_written())
    {
        let (compare, recompute) = measured_as_written(field);
        compares.push(compare);
        recomputes.insert(Step::MeasuredAsWritten(index), recompute);
    }
    for (index, field) in (def.fields.iter().enumerate()).filter(|(_, f)| f.fill_index) {
        let ident = field_ident(&field.id);
        let name = &field.id;
        compares.push(quote! {
            if let Some((found, expected)) = rt::fields::index_fill_mismatch(&self.#ident.0) {
                c.compare(#name, i128::from(found), i128::from(expected));
            }
        });
        recomputes.insert(
            Step::FillIndex(index),
            quote! {
                if rt::fields::index_fill_mismatch(&self.#ident.0).is_some() {
                    rt::fields::fill_with_index(self.#ident.0.as_mut_vec());
                    *changed = true;
                }
            },
        );
    }
    let check_children = def
        .fields
        .iter()
        .map(|f| visit_children(schema, ty, f, needs, Visit::Check));
    let check_kept = (def.fields.iter().zip(&ir.fields))
        .map(|(f, i)| kept_args(schema, f, &i.kept_args, Visit::Check));
    let slotted = schema.slotted_fields(ty);
    let checked_back = slotted.iter().filter_map(|&index| {
        let slot = ir.fields[index].slot.as_ref()?;
        Some(super::slots::check_back(schema, ty, index, slot))
    });
    // Values read from the end of the file are the root's unclaimed bytes.
    let ends = || {
        (def.fields.iter().enumerate()).filter_map(|(i, _)| Some((i, ir.fields[i].end.as_ref()?)))
    };
    let checked_at_end = ends().map(|(i, end)| super::slots::check_back_at_end(schema, i, end));
    let written_at_end: Vec<TokenStream> = ends()
        .map(|(i, end)| super::slots::write_back_at_end(schema, i, end))
        .collect();
    let check_children = checked_back.chain(check_children).chain(checked_at_end);
    // One pass of `normalize()`, as the plan orders it.
    let steps = (plan.types[ty].iter().flat_map(|p| &p.steps)).map(|step| match *step {
        Step::KeptArgs(i) => kept_args(
            schema,
            &def.fields[i],
            &ir.fields[i].kept_args,
            Visit::Normalize,
        ),
        Step::Visit(i) => visit_children(schema, ty, &def.fields[i], needs, Visit::Normalize),
        Step::WriteBack(i) => match &ir.fields[i].slot {
            Some(slot) => super::slots::write_back(schema, ty, i, slot),
            // Its writer needs the input stream: the slot keeps the bytes read.
            None => quote!(),
        },
        Step::Rooted => set_rooted.clone(),
        step => recomputes.remove(&step).unwrap_or_default(),
    });
    let steps: Vec<TokenStream> = steps.collect();
    let passes = plan.passes;
    // Offsets derived from the layout are the root's, and depend on every size below.
    let (check_offsets, clear_free_space, move_blocks) = if ty == 0 {
        (
            layout::check_offsets(schema),
            layout::clear_free_space(schema),
            layout::move_blocks(schema),
        )
    } else {
        (quote!(), quote!(), quote!())
    };
    // Checksums cover bytes, which only the writer has: the root is written with them
    // recomputed and read again, once every size is.
    let recompute_checksums =
        (ty == 0 && schema.has_checksums()).then(|| quote!(rt::codec::recompute_checksums(self)?;));
    // Blocks move and views are read again once sizes are final, before the checksums cover
    // the bytes moved.
    let relocate = (ty == 0 && schema.settles()).then(|| {
        let offsets = schema
            .relocated_offsets()
            .map(|(_, offset, _, _)| &offset.id);
        let views = schema.view_names();
        quote! {
            rt::settle::settle(self, rt::settle::MayChange {
                offsets: &[#(#offsets),*],
                views: &[#(#views),*],
            })?;
        }
    });
    quote! {
        /// Records every derived field, here and below, whose stored value disagrees with the content.
        pub fn check_into(&self, c: &mut rt::Checker) {
            #check_rooted
            #(#compares)*
            #(#check_kept)*
            #(#check_children)*
            #check_offsets
        }

        /// Recomputes every derived field from the content, innermost first, pass after
        /// pass until they settle.
        pub fn normalize(&mut self) -> rt::Result<()> {
            #clear_free_space
            rt::passes::until_settled(#passes, |changed| self.normalize_pass(changed))?;
            #move_blocks
            #(#written_at_end)*
            #relocate
            #recompute_checksums
            Ok(())
        }

        /// One pass of [`Self::normalize`] over this value and those below it, innermost
        /// first; sets `changed` when it changes anything.
        #[doc(hidden)]
        pub fn normalize_pass(&mut self, changed: &mut bool) -> rt::Result<()> {
            #(#steps)*
            Ok(())
        }

        #set_rooted_method
    }
}
