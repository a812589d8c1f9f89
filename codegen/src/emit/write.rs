//! Writers: `write_to(&self, w, params…)`. Every stored field is written verbatim; what the
//! reader would use to find its way (counts, sizes, switch selectors, conditions) is checked
//! against the content first, so a written file always reads back.

use std::cell::Cell;

use proc_macro2::TokenStream;
use quote::quote;

use super::fixed::encode_at;
use super::read::case_pattern;
use crate::model::*;
use crate::repr::scalar;
use crate::repr::sizes::element_len;
use crate::repr::switch::{Variant, switch_variants};
use crate::sanitization::switch_enum_ident;
use crate::sanitization::{field_ident, local_ident, struct_ident};
use crate::typeck::expr::{Scope, Ty, expect_valid};

/// The body of `write_to` for a type with a variable layout; sets `unchecked` when a check the
/// reader relies on needs the input stream and is left out (see [`Scope::writer_check`]).
pub fn write_body(schema: &Schema, ty: usize, unchecked: &Cell<bool>) -> TokenStream {
    let def = &schema.types[ty];
    let scope = Scope::writer(schema, ty, unchecked);
    // A value read from another value's stream is that value's bytes: it writes them.
    let statements = def
        .fields
        .iter()
        .filter(|f| !f.is_read_only())
        .map(|field| {
            let ident = field_ident(&field.id);
            let valid = valid_check(field, &quote!(self.#ident), &scope);
            let write = write_field(schema, ty, field, &quote!(self.#ident), &scope);
            let write = quote!(#valid #write);
            match &field.position {
                Some(pos) => {
                    let name = &field.id;
                    let pos = expect_valid(scope.int(pos));
                    // The block's own writes name the field; so do the checks of its placement.
                    quote! {
                        rt::fields::write_at(w, #pos, #name, |w| {
                            #write
                            Ok(())
                        })
                        .map_err(|e| if e.has_no_path() { e.in_field(#name) } else { e })?;
                    }
                }
                None => write,
            }
        });
    let kept_params = def.params.iter().filter(|p| p.kept).map(check_kept_param);
    let gaps = schema
        .keeps_unclaimed(ty)
        .then(|| quote!(rt::fields::write_gaps(w, &self.unclaimed).in_field("unclaimed")?;));
    let byte_order = def.endian_choice.as_ref().map(|choice| {
        super::byte_order::choose_byte_order(&scope, choice, |value| {
            quote!(return Err(rt::fields::encode_error(
                w,
                ::std::format!("no byte order for {}: the `meta/endian` switch has no case for it", #value),
            )))
        })
    });
    quote! {
        #(#kept_params)*
        #byte_order
        #(#statements)*
        #gaps
        Ok(())
    }
}

/// Refuses a value whose kept argument is not the one it is written with: read back, it
/// would have the new one.
fn check_kept_param(param: &Param) -> TokenStream {
    let field = field_ident(&param.id);
    let local = local_ident(&param.id);
    let name = &param.id;
    quote! {
        if self.#field != #local {
            return Err(rt::fields::encode_error(
                w,
                ::std::format!(
                    "this value keeps the argument {:?} it was read with, but is written with {:?}: set it to the new one",
                    self.#field, #local,
                ),
            )
            .in_field(#name));
        }
    }
}

fn write_field(
    schema: &Schema,
    owner: usize,
    field: &Field,
    access: &TokenStream,
    scope: &Scope,
) -> TokenStream {
    let name = &field.id;
    let Some(cond) = &field.cond else {
        return write_present(schema, owner, field, access, scope);
    };
    let present = write_present(schema, owner, field, &quote!(value), scope);
    // When the reader decides from the stream, the value says whether the field is there,
    // and the codec reads its output back to confirm (`VERIFY_WRITES`).
    let Some(cond) = scope.writer_check(scope.bool(cond)) else {
        return quote!(if let ::core::option::Option::Some(value) = &#access { #present });
    };
    quote! {
        match (#cond, &#access) {
            (true, Some(value)) => { #present }
            (false, None) => {}
            (true, None) => {
                return Err(rt::fields::encode_error(w, "missing, but its `if` condition holds".into())).in_field(#name);
            }
            (false, Some(_)) => {
                return Err(rt::fields::encode_error(w, "present, but its `if` condition does not hold".into())).in_field(#name);
            }
        }
    }
}

/// Statements writing a field whose value is at `access`.
fn write_present(
    schema: &Schema,
    owner: usize,
    field: &Field,
    access: &TokenStream,
    scope: &Scope,
) -> TokenStream {
    let name = &field.id;
    if let FieldType::Switch(switch) = &field.ty {
        return write_switch(schema, owner, field, switch, access, scope);
    }
    if let Repeat::ForEach(list) = &field.repeat {
        return write_for_each(schema, field, list, access, scope);
    }
    let list_check = list_check(field, &field.ty, access, scope);
    let path = quote!(.in_field(#name));
    let body = write_list_or_one(schema, field, &field.ty, access, &path, scope);
    quote!(#list_check #body)
}

/// A `-for-each` list: one element per element of the list it follows, written side by side
/// with it, since each element's arguments come from its partner.
fn write_for_each(
    schema: &Schema,
    field: &Field,
    list: &crate::expr::Expr,
    access: &TokenStream,
    scope: &Scope,
) -> TokenStream {
    let name = &field.id;
    let (list, list_ty) = expect_valid(scope.compile(list));
    let Ty::Array(elem) = list_ty else {
        unreachable!("validated: -for-each takes a list")
    };
    let each_scope = scope
        .with_element(quote!(each), *elem)
        .with_index(quote!(index));
    let one = write_delimited(
        schema,
        field,
        &field.ty,
        &quote!(item),
        &quote!(.at_index(index).in_field(#name)),
        &each_scope,
    );
    quote! {
        rt::fields::check_count(#list.len() as i64, #access.len(), w).in_field(#name)?;
        for (index, (item, each)) in #access.iter().zip(#list.iter()).enumerate() {
            let _ = each;
            #one
        }
    }
}

/// Before writing a field with `valid`: a value the reader would reject is refused. A rule
/// that needs the stream (`_io`) can only be checked by reading.
fn valid_check(field: &Field, access: &TokenStream, scope: &Scope) -> TokenStream {
    let name = &field.id;
    let refuse = |_kind, rule: &str, _found, index: Option<TokenStream>| {
        let message = format!("the reader expects a value {rule}");
        let at = index.map(|i| quote!(.at_index(#i)));
        quote!(return Err(rt::fields::encode_error(w, #message.into()))#at.in_field(#name);)
    };
    match scope.writer_check(scope.valid_rules(field)) {
        Some(holds) => super::valid::valid_check(field, &holds, access, refuse),
        None => quote!(),
    }
}

/// Statements writing one value of `field` of type `ty` at `access`, delimited as the reader
/// delimits it: a value read from `size` bytes must encode to that size (a size computed from
/// the stream cannot be checked before writing), and a value read up to a terminator must
/// not hold it earlier and is followed by it when the reader consumes it.
fn write_delimited(
    schema: &Schema,
    field: &Field,
    ty: &FieldType,
    access: &TokenStream,
    wrap: &TokenStream,
    scope: &Scope,
) -> TokenStream {
    if let Some(decode) = &field.decode {
        let one = write_one(schema, ty, &quote!(#access.value), wrap, scope);
        let check = match decode.wide_terminator() {
            Some((byte, unit, consume, eos_error)) => quote!(
                rt::fields::check_terminated_units(stored, #byte, #unit, #consume, #eos_error, w)#wrap?;
            ),
            None => size_check(&decode.size, 1, &quote!(stored), wrap, scope),
        };
        return super::decode::write_decoded(decode, access, one, check, wrap, scope);
    }
    let one = write_one(schema, ty, access, wrap, scope);
    let len = || element_len(schema, ty, access);
    let size = match &field.substream {
        None | Some(Size::Eos) => return one,
        Some(Size::Const(n)) => {
            let n = *n as i64;
            quote!(#n)
        }
        Some(Size::Expr(size)) => match scope.writer_check(scope.int(size)) {
            Some(size) => size,
            None => return one,
        },
        Some(Size::Terminator {
            byte,
            include,
            consume,
            eos_error,
        }) => {
            return quote! {{
                let start = w.pos();
                #one
                rt::fields::end_terminated(w, start, #byte, #include, #consume, #eos_error)#wrap?;
            }};
        }
    };
    let len = len();
    quote!(rt::fields::check_len(#size, #len, w)#wrap?; #one)
}

/// Before writing a list, what the reader uses to end it: a count must equal the list's
/// length; a `repeat-until` condition must hold for the last element and for no other. One
/// computed from the stream (`_io`) cannot be checked before writing.
fn list_check(field: &Field, ty: &FieldType, list: &TokenStream, scope: &Scope) -> TokenStream {
    let name = &field.id;
    match &field.repeat {
        Repeat::Expr(count) => match scope.writer_check(scope.int(count)) {
            Some(count) => {
                quote!(rt::fields::check_count(#count, #list.len(), w).in_field(#name)?;)
            }
            None => quote!(),
        },
        Repeat::Until(until) => {
            let item = crate::repr::stored_value(field, quote!(item));
            let done = scope.with_element_of(item, ty).with_index(quote!(_index));
            match scope.writer_check(done.bool(until)) {
                Some(done) => quote! {
                    rt::fields::check_until(&#list, w, |item, _index| #done).in_field(#name)?;
                },
                None => quote!(),
            }
        }
        Repeat::None | Repeat::Eos | Repeat::ForEach(_) => quote!(),
    }
}

/// Statements writing a field's value, one or a list; `path` adds the field's path to errors.
fn write_list_or_one(
    schema: &Schema,
    field: &Field,
    ty: &FieldType,
    access: &TokenStream,
    path: &TokenStream,
    scope: &Scope,
) -> TokenStream {
    if field.repeat == Repeat::None {
        return write_delimited(schema, field, ty, access, path, scope);
    }
    if let Some(size) = schema
        .fixed_size_of(ty)
        .filter(|_| field.substream.is_none() && field.decode.is_none())
    {
        let encode = match ty {
            FieldType::User { ty, .. } => {
                let ident = struct_ident(&schema.types[*ty]);
                quote!(#ident::encode)
            }
            FieldType::Number(s) => {
                let bytes = scalar::encode(*s, quote!(value));
                quote!(|value, b: &mut [u8; #size]| *b = #bytes)
            }
            _ => {
                let statements = encode_at(schema, ty, quote!(value), 0);
                quote!(|value, b: &mut [u8; #size]| { #statements })
            }
        };
        return quote!(rt::fields::write_fixed(w, &#access, #encode););
    }
    let scope = scope.with_index(quote!(index));
    let scope = match field.refers_to_itself() {
        true => scope.with_prior(field, quote!((&#access[..index]))),
        false => scope,
    };
    let one = write_delimited(
        schema,
        field,
        ty,
        &quote!(item),
        &quote!(.at_index(index) #path),
        &scope,
    );
    quote! {
        for (index, item) in #access.iter().enumerate() {
            #one
        }
    }
}

/// Statements writing one value at `access`; `wrap` adds the path to errors.
fn write_one(
    schema: &Schema,
    ty: &FieldType,
    access: &TokenStream,
    wrap: &TokenStream,
    scope: &Scope,
) -> TokenStream {
    match ty {
        FieldType::Number(s) => {
            let bytes = scalar::encode(*s, access.clone());
            quote!(w.bytes(&#bytes);)
        }
        FieldType::Enum { raw, .. } => {
            let int = scalar::int_type(*raw);
            let bytes = scalar::encode(Scalar::Int(*raw), quote!(raw));
            // A `u8` value above `i64::MAX` is held as its bit pattern, as the reader made it.
            let narrow = match (raw.bytes, raw.signed) {
                (8, false) => quote!(let raw = #access.raw() as u64;),
                _ => quote!(let raw: #int = rt::arith::narrow(#access.raw(), w.pos())#wrap?;),
            };
            quote! {
                #narrow
                w.bytes(&#bytes);
            }
        }
        FieldType::Quat(_) | FieldType::Vec3(_) | FieldType::Array { .. } => {
            let size = schema.fixed_size_of(ty).unwrap_or(0);
            let statements = encode_at(schema, ty, access.clone(), 0);
            quote! {
                let b = rt::fields::reserve_array::<#size>(w);
                #statements
            }
        }
        FieldType::Str {
            size: Size::Const(_),
            align,
            ..
        } if *align <= 1 => quote!(w.bytes(#access.as_bytes());),
        FieldType::Str { size, align, .. } | FieldType::Bytes { size, align, .. } => {
            let bytes = match ty {
                FieldType::Str { .. } => quote!(#access.as_bytes()),
                _ => quote!(#access.0.as_slice()),
            };
            let check = size_check(size, *align, &bytes, wrap, scope);
            quote!(#check w.bytes(#bytes);)
        }
        FieldType::Contents(bytes) => {
            let lit = proc_macro2::Literal::byte_string(bytes);
            quote!(w.bytes(#lit);)
        }
        FieldType::Vlq => quote!(w.write_7bit_u32(#access);),
        FieldType::Nothing => quote!(),
        FieldType::Bits {
            width,
            big_endian,
            enum_idx,
        } => super::bits::write_bits(schema, *width, *big_endian, *enum_idx, access, wrap),
        FieldType::BitPadding => quote!(w.align_to_byte(#access)#wrap?;),
        // Computed while reading; not part of the file.
        FieldType::Remembered { .. } => quote!(),
        FieldType::User { ty, args } => {
            let args = scope.arguments(*ty, args);
            quote!(#access.write_to(w #(, #args)*)#wrap?;)
        }
        FieldType::Switch(_) => unreachable!("switches are written by write_switch"),
    }
}

/// Before writing a sized value: its length must be what the reader will compute.
fn size_check(
    size: &Size,
    align: usize,
    bytes: &TokenStream,
    wrap: &TokenStream,
    scope: &Scope,
) -> TokenStream {
    let expected = match size {
        Size::Const(n) => {
            let n = *n as i64;
            quote!(#n)
        }
        Size::Expr(e) => match scope.writer_check(scope.int(e)) {
            Some(len) => len,
            // Sizes computed from the stream (`_io`) cannot be checked before writing.
            None => return quote!(),
        },
        Size::Terminator {
            byte,
            consume,
            eos_error,
            ..
        } => {
            return quote!(rt::fields::check_terminated(#bytes, #byte, #consume, #eos_error, w)#wrap?;);
        }
        Size::Eos => return quote!(),
    };
    let expected = if align > 1 {
        quote!(rt::fields::padded_len(#expected, #align))
    } else {
        expected
    };
    quote!(rt::fields::check_len(#expected, #bytes.len(), w)#wrap?;)
}

fn write_switch(
    schema: &Schema,
    owner: usize,
    field: &Field,
    switch: &Switch,
    access: &TokenStream,
    scope: &Scope,
) -> TokenStream {
    let name = &field.id;
    let enum_name = switch_enum_ident(schema, owner, field);
    let switch_arms = switch_variants(schema, switch);
    let Some((selector, _)) = scope.writer_check(scope.selector(&switch.on)) else {
        // The selector depends on the stream: write whichever variant is held.
        let arms = switch_arms.variants.iter().map(|v| {
            let body = write_variant(schema, v, field, scope);
            let variant = &v.ident;
            quote!(#enum_name::#variant(value) => { #body })
        });
        return quote!(match &#access { #(#arms)* });
    };
    let mut arms = Vec::new();
    for (key, variant) in switch_arms.arms() {
        let pattern = match key {
            Some(key) => case_pattern(scope, key),
            None => quote!(_),
        };
        let list_check = list_check(field, variant.ty, &quote!(value), scope);
        let body = write_variant(schema, variant, field, scope);
        let mismatch = if switch_arms.variants.len() > 1 {
            let expected = &variant.name;
            quote! {
                _ => {
                    return Err(rt::fields::encode_error(
                        w,
                        format!("the selector calls for `{}`, but the value holds another case", #expected),
                    ))
                    .in_field(#name);
                }
            }
        } else {
            quote!()
        };
        let variant = &variant.ident;
        arms.push(quote! {
            #pattern => match &#access {
                #enum_name::#variant(value) => { #list_check #body }
                #mismatch
            }
        });
    }
    if switch.default.is_none() {
        arms.push(quote! {
            _ => {
                return Err(rt::fields::encode_error(w, "the selector matches no case".into())).in_field(#name);
            }
        });
    }
    quote! {
        match #selector {
            #(#arms)*
        }
    }
}

/// Statements writing the value of one variant held in `value`; errors name the variant after
/// the field, as documents do.
fn write_variant(schema: &Schema, variant: &Variant, field: &Field, scope: &Scope) -> TokenStream {
    let (name, case) = (&field.id, &variant.name);
    let path = quote!(.in_field(#case).in_field(#name));
    write_list_or_one(schema, field, variant.ty, &quote!(value), &path, scope)
}
