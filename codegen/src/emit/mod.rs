//! Rust emission. Each submodule owns one concern; this one assembles a schema's items.

pub mod bits;
pub mod byte_order;
pub mod decode;
pub mod derived;
pub mod fixed;
pub mod layout;
mod on_demand;
pub mod read;
mod slots;
pub mod snapshot_tests;
pub mod types;
pub mod valid;
pub mod write;

use crate::sanitization::case_ident;
use proc_macro2::TokenStream;
use quote::quote;

use crate::model::{FieldType, InstanceKind, Schema};
use crate::model::{Variant, switch_variants};
use crate::sanitization::switch_enum_ident;
use crate::sanitization::{instance_ident, local_ident, struct_ident};
use crate::typeck::expr::Ty;
use crate::typeck::ir::{Ir, TypeIr};

/// All items generated for a schema: to be placed in a module of their own. Every path into
/// the runtime goes through the `rt` alias of `runtime`'s `__private` module.
pub fn schema_items(schema: &Schema, ir: &Ir, runtime: &TokenStream) -> TokenStream {
    let plan = schema.normalize_plan();
    let needs_derived: Vec<bool> = plan.types.iter().map(Option::is_some).collect();
    let enums = schema.enums.iter().map(types::enum_def);
    let types: Vec<TokenStream> = ir
        .types
        .iter()
        .enumerate()
        .map(|(ty, type_ir)| type_items(schema, ty, type_ir, &plan, &ir.rooted))
        .collect();
    // The writers leave out the checks that need the input stream.
    let verify_writes = schema.reads_decide_from_data() || ir.verify_writes;
    let codec = codec_impl(schema, ir, &needs_derived, verify_writes);
    // Through `__private`, which holds the public API and the plumbing only generated code
    // calls (`rt::fields`), so every path below reads `rt::…` either way.
    quote! {
        use #runtime::__private as rt;
        use rt::ResultExt as _;

        #(#enums)*
        #(#types)*
        #codec
    }
}

fn type_items(
    schema: &Schema,
    ty: usize,
    ir: &TypeIr,
    plan: &crate::model::NormalizePlan,
    rooted: &[crate::typeck::ir::Derivation],
) -> TokenStream {
    let def = &schema.types[ty];
    let name = struct_ident(def);
    let definition = types::struct_def(schema, ty);
    let params = read::param_list(schema, def);
    let allow_unused = if def.params.is_empty() {
        quote!()
    } else {
        quote!(#[allow(unused_variables)])
    };
    let (fixed, read_body, write_body, len_body) = match schema.fixed_fields(ty) {
        Some(layouts) => (
            fixed::fixed_impl(schema, ty, &layouts),
            {
                let size: usize = layouts.iter().map(|f| f.size).sum();
                quote!(r.array_ref::<#size>().map(Self::decode))
            },
            quote! {
                rt::fields::write_fixed(w, ::core::slice::from_ref(self), Self::encode);
                Ok(())
            },
            quote!(Self::SIZE),
        ),
        None if schema.is_recursive(ty) => {
            let body = read::read_body(schema, ty, ir);
            (
                quote!(),
                quote!(r.nested(|r| { #body })),
                write::write_body(schema, ty, ir),
                crate::repr::sizes::encoded_len_body(schema, ty),
            )
        }
        None => (
            quote!(),
            read::read_body(schema, ty, ir),
            write::write_body(schema, ty, ir),
            crate::repr::sizes::encoded_len_body(schema, ty),
        ),
    };
    let derived = if plan.types[ty].is_some() {
        derived::derived_impl(schema, ty, ir, plan, rooted)
    } else {
        quote!()
    };
    let instances = instance_methods(schema, ty, ir);
    let display = display_impl(schema, ty, ir);
    let switches = def.fields.iter().filter_map(|field| match &field.ty {
        FieldType::Switch(switch) => Some(switch_items(schema, ty, field, switch)),
        _ => None,
    });
    let read_doc = format!(" Reads a `{}` at the reader's position.", def.id);
    quote! {
        #definition

        impl #name {
            #fixed

            #[doc = #read_doc]
            #allow_unused
            pub fn read_from(r: &mut rt::Reader<'_> #params) -> rt::Result<Self> {
                #read_body
            }

            /// Writes every stored field verbatim.
            #allow_unused
            pub fn write_to(&self, w: &mut rt::Writer #params) -> rt::Result<()> {
                #write_body
            }

            /// The number of bytes [`Self::write_to`] writes.
            pub fn encoded_len(&self) -> usize {
                #len_body
            }

            #derived
            #instances
        }

        #display
        #(#switches)*
    }
}

/// `to-string`: the type's `Display`, with invalid UTF-8 replaced.
fn display_impl(schema: &Schema, ty: usize, ir: &TypeIr) -> TokenStream {
    let def = &schema.types[ty];
    let Some(text) = &ir.to_string else {
        return quote!();
    };
    let name = struct_ident(def);
    quote! {
        impl ::core::fmt::Display for #name {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(&::std::string::String::from_utf8_lossy(rt::bytes::view(&#text)))
            }
        }
    }
}

fn switch_items(
    schema: &Schema,
    owner: usize,
    field: &crate::model::Field,
    switch: &crate::model::Switch,
) -> TokenStream {
    let definition = types::switch_def(schema, owner, field, switch);
    let name = switch_enum_ident(schema, owner, field);
    let repeated = field.switches_whole_list();
    // A switch without cases has no values: a reference to one is still matched on its
    // place, which is empty.
    let matched = match switch_variants(schema, switch).variants.is_empty() {
        true => quote!(*self),
        false => quote!(self),
    };
    let arms =
        switch_variants(schema, switch)
            .variants
            .into_iter()
            .map(|Variant { name: case, ty }| {
                let variant = case_ident(&case);
                let len = crate::repr::sizes::values_len(schema, field, ty, &quote!(value));
                quote!(#name::#variant(value) => #len)
            });
    let list_len = repeated.then(|| {
        let arms = switch_variants(schema, switch)
            .variants
            .into_iter()
            .map(|v| {
                let variant = case_ident(&v.name);
                quote!(#name::#variant(value) => value.len())
            });
        quote! {
            /// The number of elements, whichever case holds them.
            pub fn len(&self) -> usize {
                match #matched {
                    #(#arms,)*
                }
            }

            /// True when there are no elements.
            pub fn is_empty(&self) -> bool {
                self.len() == 0
            }
        }
    });
    quote! {
        #definition

        impl #name {
            #list_len

            /// The number of bytes this value encodes to.
            pub fn encoded_len(&self) -> usize {
                match #matched {
                    #(#arms,)*
                }
            }
        }
    }
}

fn instance_methods(schema: &Schema, ty: usize, ir: &TypeIr) -> TokenStream {
    let def = &schema.types[ty];
    let methods = def
        .instances
        .iter()
        .zip(&ir.methods)
        .filter_map(|(instance, method)| {
            // Look-ahead instances exist only while reading. Instances that need parameters or the
            // stream exist only inlined in readers and writers, and so do structures: expressions
            // reach their fields through the instance inlined.
            let (InstanceKind::Value { value, .. }, Some(method)) = (&instance.kind, method) else {
                return None;
            };
            let ident = instance_ident(&instance.id);
            let (body, ty) = (method.body.clone(), method.ty.clone());
            let (ret, body) = match ty {
                // A value that may be absent: `None` when it is.
                Ty::Opt(inner) => {
                    let (ret, value) = instance_result(schema, &inner, quote!(value));
                    (
                        quote!(::core::option::Option<#ret>),
                        quote!(#body.map(|value| #value)),
                    )
                }
                ty => instance_result(schema, &ty, body),
            };
            // Text that is no number fails `to_i`, as in Kaitai: such a value is a `Result`.
            let (ret, body) = match method.can_fail {
                true => (
                    quote!(::core::result::Result<#ret, rt::bytes::NotANumber>),
                    quote! {
                        let value = #body;
                        ::core::result::Result::Ok(value)
                    },
                ),
                false => (ret, body),
            };
            let doc = types::docs(
                instance.doc.as_deref(),
                &[format!("Value: `{}`.", crate::expr::to_source(value))],
            );
            Some(quote! {
                #doc
                pub fn #ident(&self) -> #ret {
                    #body
                }
            })
        });
    quote!(#(#methods)*)
}

/// The return type of an instance method for a value of type `ty`, and its body given the
/// value's expression: numbers, enums and booleans as they are, text as a `String` (invalid
/// UTF-8 replaced; the bytes stay reachable through the fields), bytes as a `Vec<u8>`.
fn instance_result(schema: &Schema, ty: &Ty, body: TokenStream) -> (TokenStream, TokenStream) {
    match ty {
        Ty::Int => (quote!(i64), body),
        Ty::Float => (quote!(f64), body),
        Ty::Enum(idx) => {
            let name = crate::sanitization::enum_ident(&schema.enums[*idx]);
            (quote!(#name), body)
        }
        Ty::Str | Ty::StrLit => (
            quote!(::std::string::String),
            quote!(::std::string::String::from_utf8_lossy(rt::bytes::view(&#body)).into_owned()),
        ),
        Ty::Bytes => (
            quote!(::std::vec::Vec<u8>),
            quote!(rt::bytes::view(&#body).to_vec()),
        ),
        _ => (quote!(bool), body),
    }
}

/// The whole-file codec; `verify_writes`: the writer cannot check everything the reader relies
/// on, so `to_bytes` reads its output back.
fn codec_impl(
    schema: &Schema,
    ir: &Ir,
    needs_derived: &[bool],
    verify_writes: bool,
) -> TokenStream {
    // A root with parameters is a whole-file codec only when every parameter has a default.
    let (Some(root), Some(defaults)) = (schema.types.first(), &ir.root_defaults) else {
        return quote!();
    };
    let name = struct_ident(root);
    let params = read::param_list(schema, root);
    let args: Vec<_> = root.params.iter().map(|p| local_ident(&p.id)).collect();
    // Work beyond one pass over the file is budgeted (`rt::Reader::budget_for`). Every file
    // read shares a state, which keeps the file given to `read_owned`, so that byte fields
    // are views of it.
    let searched = schema.has_searched_fields();
    let budget = match schema.has_positioned_fields() || searched {
        true => quote!(rt::Reader::budget_for(bytes.len(), #searched)),
        false => quote!(u64::MAX),
    };
    let state = quote!(rt::reader::FileState::new(#budget));
    let reader = quote!(let mut r = rt::Reader::new(bytes).sharing(state););
    // The whole-file read, with the given arguments.
    let body = if schema.has_positioned_fields() {
        // Which bytes the fields claim is known once the value is encoded again, unless the
        // read tells: what it read in sequence and the instances it left unread.
        // The root is at 0 of the file: an instance there of its type is itself, a cycle.
        quote! {
            #reader
            let root = r.visit::<Self>()?;
            let mut value = Self::read_from(&mut r #(, #args)*)?;
            drop(root);
            value.unclaimed = match rt::fields::claimed_as_read(&r, value.encoded_len()) {
                Some(claimed) => rt::fields::unclaimed(&r, &claimed),
                None => {
                    let mut w = rt::Writer::for_coverage();
                    value.write_to(&mut w #(, #args)*)?;
                    rt::fields::unclaimed(&r, &w.coverage())
                }
            };
            Ok(value)
        }
    } else if let Some(field) = schema.trailing_field(0) {
        // Only the whole file has bytes after the root's value.
        let trailing = crate::sanitization::field_ident(&field.id);
        quote! {
            #reader
            let mut value = Self::read_from(&mut r #(, #args)*)?;
            value.#trailing = rt::RawBytes(r.keep_rest());
            Ok(value)
        }
    } else {
        quote! {
            #reader
            Self::read_from(&mut r #(, #args)*)
        }
    };
    let args: Vec<TokenStream> = args.iter().map(|a| quote!(#a)).collect();
    // Given the file, the value keeps it: byte fields, strings, lists of fixed elements and
    // instances read on demand are views of it. A borrowed input is not copied up front
    // (fields copy their bytes, lists are decoded as they are read): measured on the benches,
    // a copy of the whole input makes a value that is then looked at everywhere slower.
    let read_owned = quote! {
        let input = rt::on_demand::Input::owned(bytes);
        let bytes = input.bytes();
        Self::__read_whole(bytes, &#state.with_input(input.clone()) #(, #defaults)*)
    };
    let read_root = quote!(Self::__read_whole(bytes, &#state #(, #defaults)*));
    let read_with_args = quote!(Self::__read_whole(bytes, &#state #(, #args)*));
    let read_budgeted = quote! {
        fn __read_whole(bytes: &[u8], state: &rt::reader::FileState #params) -> rt::Result<Self> {
            #body
        }
    };
    let read_with = (!root.params.is_empty()).then(|| {
        quote! {
            /// Decodes a whole file with explicit values for the schema's parameters.
            pub fn read_with(bytes: &[u8] #params) -> rt::Result<Self> {
                #read_with_args
            }
        }
    });
    let id = &schema.id;
    let magic = schema.magic.iter().map(|m| {
        let lit = proc_macro2::Literal::byte_string(m);
        quote!(#lit)
    });
    let extensions = &schema.extensions;
    let (check, normalize) = if needs_derived[0] {
        (
            quote! {
                let mut checker = rt::Checker::new();
                self.check_into(&mut checker);
                checker.into_mismatches()
            },
            quote!(#name::normalize(self)),
        )
    } else {
        (quote!(Vec::new()), quote!(Ok(())))
    };
    // Checksums cover bytes, which only the writer has: it computes them (`normalize` of the
    // root recomputes them last).
    let checksums = schema
        .has_checksums()
        .then(|| quote!(found.extend(rt::codec::checksum_mismatches(self));));
    let settled = schema
        .settles()
        .then(|| quote!(found.extend(rt::settle::mismatches(self, &found));));
    let check = match checksums.is_some() || settled.is_some() {
        true => quote! {
            let mut found = { #check };
            #checksums
            #settled
            found
        },
        false => check,
    };
    let title = schema.title.as_deref().unwrap_or(&schema.id);
    let doc = format!(" Decodes a whole {title} file.");
    quote! {
        impl #name {
            #[doc = #doc]
            pub fn read(bytes: &[u8]) -> rt::Result<Self> {
                #read_root
            }

            /// [`Self::read`], keeping the file it is given instead of a copy: byte fields,
            /// lists of fixed elements and instances read on demand are views of it.
            pub fn read_owned(bytes: Vec<u8>) -> rt::Result<Self> {
                #read_owned
            }

            #read_budgeted

            #read_with

            /// Encodes into a new buffer, writing every stored field verbatim.
            pub fn to_bytes(&self) -> rt::Result<Vec<u8>> {
                rt::Codec::to_bytes(self)
            }

            /// Derived fields (sizes, counts, offsets) whose stored value disagrees with the content.
            pub fn check(&self) -> Vec<rt::Mismatch> {
                rt::Codec::check(self)
            }
        }

        impl rt::Codec for #name {
            const FORMAT: &'static str = #id;
            const MAGIC: &'static [&'static [u8]] = &[#(#magic),*];
            const EXTENSIONS: &'static [&'static str] = &[#(#extensions),*];
            const VERIFY_WRITES: bool = #verify_writes;

            fn read(bytes: &[u8]) -> rt::Result<Self> {
                #name::read(bytes)
            }

            fn read_owned(bytes: Vec<u8>) -> rt::Result<Self> {
                #name::read_owned(bytes)
            }

            fn write(&self, w: &mut rt::Writer) -> rt::Result<()> {
                self.write_to(w #(, #defaults)*)
            }

            fn encoded_len(&self) -> usize {
                #name::encoded_len(self)
            }

            fn check(&self) -> Vec<rt::Mismatch> {
                #check
            }

            fn normalize(&mut self) -> rt::Result<()> {
                #normalize
            }
        }
    }
}
