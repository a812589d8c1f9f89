//! Readers: `read_from(r, params…)` for every type, one statement per field.

use proc_macro2::TokenStream;
use quote::quote;

use super::fixed::decode_at;
use crate::expr::Expr;
use crate::model::*;
use crate::repr::scalar;
use crate::repr::switch::{Variant, switch_variants};
use crate::sanitization::switch_enum_ident;
use crate::sanitization::{enum_ident, field_ident, local_ident, struct_ident};
use crate::typeck::expr::{Mode, Scope, Ty, expect_valid};

/// The parameter list of a type's reader and writer.
pub fn param_list(schema: &Schema, def: &TypeDef) -> TokenStream {
    let params = def.params.iter().map(|p| {
        let ident = local_ident(&p.id);
        let ty = super::types::param_value_type(schema, p);
        match p.ty {
            ParamType::Int(_) | ParamType::Bool | ParamType::Enum(_) => quote!(#ident: #ty),
            ParamType::User(_) | ParamType::Io | ParamType::AnyStruct => quote!(#ident: &#ty),
            ParamType::Str | ParamType::Bytes | ParamType::IntList => quote!(#ident: &[#ty]),
            ParamType::AnyStructList | ParamType::StrList | ParamType::IoList => {
                quote!(#ident: &[&#ty])
            }
            // Lists of boxed (recursive) and decoded (`process`) values are passed too.
            ParamType::UserList(_) => quote!(#ident: &[impl ::core::borrow::Borrow<#ty>]),
        }
    });
    quote!(#(, #params)*)
}

/// The body of `read_from` for a type with a variable layout.
pub fn read_body(schema: &Schema, ty: usize) -> TokenStream {
    let def = &schema.types[ty];
    let statements = read_fields(schema, ty, 0);
    let kept = def.params.iter().filter(|p| p.kept);
    let locals = kept
        .clone()
        .map(|p| local_ident(&p.id))
        .chain(stored_names(&def.fields));
    let fields = kept.map(|p| field_ident(&p.id)).chain(
        def.fields
            .iter()
            .filter(|f| f.stores_value())
            .map(|f| field_ident(&f.id)),
    );
    // Found after the whole file is read (see the root's `read`).
    let unclaimed = schema
        .keeps_unclaimed(ty)
        .then(|| quote!(unclaimed: Vec::new()));
    let after = Scope::new(schema, ty, Mode::Read, def.fields.len());
    let (look_aheads, look_ahead_values): (Vec<_>, Vec<_>) = def
        .look_aheads()
        .map(|instance| {
            let value = expect_valid(after.int(&Expr::Name(instance.id.clone())));
            (field_ident(&instance.id), quote!(rt::LookAhead(#value)))
        })
        .unzip();
    // Where reading ended: after the sequence and what is read by position.
    let stream = def.keeps_stream.then(|| quote!(_io: rt::Stream::of(r),));
    let byte_order = def.endian_choice.as_ref().map(|choice| {
        let scope = Scope::new(schema, ty, Mode::Read, 0);
        super::byte_order::choose_byte_order(&scope, choice, |value| {
            quote!(return Err(r.error(rt::ErrorKind::UndecidedEndianness { value: #value })))
        })
    });
    let own_stream = def.passes_own_stream().then(|| {
        let own = local_ident("_io");
        quote!(let #own = rt::Stream::of(r);)
    });
    quote! {
        #own_stream
        #byte_order
        #statements
        Ok(Self { #(#fields: #locals,)* #(#look_aheads: #look_ahead_values,)* #stream #unclaimed })
    }
}

/// The locals holding the fields a type stores (all but fixed `contents`) while it is read.
fn stored_names(fields: &[Field]) -> Vec<proc_macro2::Ident> {
    fields
        .iter()
        .filter(|f| f.stores_value())
        .map(|f| local_ident(&f.id))
        .collect()
}

/// Statements reading fields `from..` of a type into locals named after them.
fn read_fields(schema: &Schema, ty: usize, from: usize) -> TokenStream {
    let def = &schema.types[ty];
    let mut statements = Vec::new();
    for (index, field) in def.fields.iter().enumerate().skip(from) {
        let scope = Scope::new(schema, ty, Mode::Read, index);
        let name = &field.id;
        if schema
            .trailing_field(ty)
            .is_some_and(|t| std::ptr::eq(t, field))
        {
            // The whole-file read fills it: a root read inside a stream ends with its value.
            let ident = local_ident(name);
            statements.push(quote!(let #ident = rt::RawBytes::default();));
            continue;
        }
        let read = read_field(schema, ty, field, &scope);
        if let FieldType::Remembered {
            value,
            ty: int,
            solve: Some((min, max)),
        } = &field.ty
        {
            // The rest of the type is read for each candidate: it decides the value.
            let ident = local_ident(name);
            let int = scalar::int_type(*int);
            let known = expect_valid(scope.int(value));
            let rest = read_fields(schema, ty, index + 1);
            let rest_names = stored_names(&def.fields[index + 1..]);
            statements.push(quote! {
                let (#ident, (#(#rest_names,)*)) = rt::fields::read_solved(
                    r,
                    #name,
                    #known,
                    #min..=#max,
                    |r, #ident: #int| {
                        #rest
                        Ok((#(#rest_names,)*))
                    },
                )?;
            });
            break;
        }
        if let Some(marker) = &field.scan {
            // The rest of the type is read inside the scan: it decides where this field ends.
            let ident = local_ident(name);
            let rest = read_fields(schema, ty, index + 1);
            let rest_names = stored_names(&def.fields[index + 1..]);
            let marker = proc_macro2::Literal::byte_string(marker);
            statements.push(quote! {
                let (#ident, (#(#rest_names,)*)) = rt::fields::read_scanned(
                    r,
                    #name,
                    #marker,
                    |r| #read,
                    |r| {
                        #rest
                        Ok((#(#rest_names,)*))
                    },
                )?;
            });
            break;
        }
        if !field.stores_value() {
            statements.push(quote!(#read.in_field(#name)?;));
        } else {
            let ident = local_ident(name);
            statements.push(quote!(let #ident = #read.in_field(#name)?;));
        }
        if !field.valid.is_empty() {
            let after = Scope::new(schema, ty, Mode::Read, index + 1);
            let access = local_ident(name);
            let refuse = |kind, rule: &str, found, index: Option<TokenStream>| {
                let expected = format!("expected a value {rule}");
                let at = index.map(|i| quote!(.at_index(#i)));
                let rule = super::valid::rule_path(kind);
                quote! {
                    return Err(r.error(rt::ErrorKind::Validation {
                        rule: #rule,
                        message: format!("{}, found {:?}", #expected, #found),
                    }))#at.in_field(#name);
                }
            };
            let holds = expect_valid(after.valid_rules(field));
            statements.push(super::valid::valid_check(
                field,
                &holds,
                &quote!(#access),
                refuse,
            ));
        }
    }
    quote!(#(#statements)*)
}

/// A `Result` expression reading the whole field (condition, repetition, switch).
fn read_field(schema: &Schema, owner: usize, field: &Field, scope: &Scope) -> TokenStream {
    let read = match &field.ty {
        FieldType::Switch(switch) => read_switch(schema, owner, field, switch, scope),
        ty => read_repeated(schema, owner, field, ty, scope),
    };
    let read = match &field.position {
        Some(pos) => {
            let pos = expect_valid(scope.int(pos));
            match &field.stream {
                // Never placed back, so read in any stream, substreams too.
                Stream::Own if field.kept_as_read => {
                    quote!(rt::fields::read_kept(r, #pos, |r| #read))
                }
                Stream::Own => quote!(rt::fields::read_at(r, #pos, |r| #read)),
                Stream::Root => quote!(rt::fields::read_at_root(r, #pos, |r| #read)),
                Stream::Of(stream) => {
                    let stream = expect_valid(scope.stream(stream));
                    quote!(rt::fields::read_in(r, #stream, #pos, |r| #read))
                }
            }
        }
        None => read,
    };
    match &field.cond {
        None => read,
        Some(cond) => {
            let cond = expect_valid(scope.bool(cond));
            quote!(if #cond { #read.map(Some) } else { Ok(None) })
        }
    }
}

/// A `Result` expression reading one value or the repeated list of `field`'s values of type
/// `ty` (its own, or one case of its switch).
fn read_repeated(
    schema: &Schema,
    owner: usize,
    field: &Field,
    ty: &FieldType,
    scope: &Scope,
) -> TokenStream {
    // Each element's own expressions (size, arguments) see its index as `_index`, and, when
    // they use them, the elements read before it: the closures then get those (`_prior`) and
    // count them.
    let seeing = field.refers_to_itself();
    let one = |scope: &Scope| {
        let scope = scope.with_index(quote!(_index));
        match seeing {
            true => {
                let scope = scope.with_prior(field, quote!(_prior));
                let one = read_delimited(schema, field, ty, &scope);
                quote!({ let _index = _prior.len(); #one })
            }
            false => read_delimited(schema, field, ty, &scope),
        }
    };
    let (read_counted, read_to_eos, read_until, index) = match seeing {
        true => (
            quote!(read_counted_seeing),
            quote!(read_to_eos_seeing),
            quote!(read_until_seeing),
            {
                // Named for the element's own expressions, which reach into it.
                let elem = super::types::stored_type(schema, owner, field, ty);
                quote!(_prior: &[#elem])
            },
        ),
        false => (
            quote!(read_counted),
            quote!(read_to_eos),
            quote!(read_until),
            quote!(_index),
        ),
    };
    let bulk =
        field.substream.is_none() && field.decode.is_none() && schema.fixed_size_of(ty).is_some();
    match &field.repeat {
        // A decoded value keeps its stored bytes beside the box (`Decoded<Box<T>>`).
        Repeat::None if schema.boxes(owner, field, ty) && field.decode.is_some() => {
            let one = read_delimited(schema, field, ty, scope);
            quote!(#one.map(|d| rt::Decoded { value: ::std::boxed::Box::new(d.value), rest: d.rest, stored: d.stored }))
        }
        Repeat::None if schema.boxes(owner, field, ty) => {
            let one = read_delimited(schema, field, ty, scope);
            quote!(#one.map(::std::boxed::Box::new))
        }
        Repeat::None => read_delimited(schema, field, ty, scope),
        Repeat::Expr(count) => {
            let count = expect_valid(scope.int(count));
            if bulk {
                let decode = bulk_decoder(schema, ty);
                quote!(rt::fields::read_fixed(r, #count, #decode))
            } else {
                let min = schema.min_size_of(ty) + field.delimiter_len();
                let one = one(scope);
                quote!(rt::fields::#read_counted(r, #count, #min, |r, #index| #one))
            }
        }
        Repeat::Eos => {
            let one = one(scope);
            quote!(rt::fields::#read_to_eos(r, |r, #index| #one))
        }
        Repeat::ForEach(list) => {
            let (list, list_ty) = expect_valid(scope.compile(list));
            let Ty::Array(elem) = list_ty else {
                unreachable!("validated: -for-each takes a list")
            };
            let min = schema.min_size_of(ty) + field.delimiter_len();
            let one = one(&scope.with_element(quote!(each), *elem));
            quote!(rt::fields::read_each(r, &#list, #min, |r, _index, each| #one))
        }
        Repeat::Until(until) => {
            let one = one(scope);
            let item = crate::repr::stored_value(field, quote!(item));
            let done = scope.with_element_of(item, ty).with_index(quote!(_index));
            let done = expect_valid(done.bool(until));
            quote!(rt::fields::#read_until(r, |r, #index| #one, |item, _index, r| #done))
        }
    }
}

/// A `Result` expression reading one value of type `ty`, from the substream `field` delimits
/// when it has one.
fn read_delimited(schema: &Schema, field: &Field, ty: &FieldType, scope: &Scope) -> TokenStream {
    let one = read_one(schema, ty, scope);
    if let Some(decode) = &field.decode {
        let stored = match decode.wide_terminator() {
            // A consumed terminator is kept, as `read_sized` keeps it.
            Some((byte, unit, consume, eos_error)) => quote!(
                r.until_unit(#byte, #unit, #consume, #consume, #eos_error)
                    .map(|b| rt::RawBytes(b.to_vec()))
            ),
            None => read_sized(&decode.size, 1, scope, quote!(rt::RawBytes)),
        };
        return super::decode::read_decoded(decode, stored, one, scope);
    }
    match &field.substream {
        None => one,
        Some(Size::Const(n)) => {
            let n = *n as i64;
            quote!(rt::fields::read_sub(r, #n, |r| #one))
        }
        // A length computed from the stream is computed before the reader is lent.
        Some(Size::Expr(size)) if size.mentions("_io") => {
            let len = expect_valid(scope.int(size));
            quote!({ let len = #len; rt::fields::read_sub(r, len, |r| #one) })
        }
        Some(Size::Expr(size)) => {
            let len = expect_valid(scope.int(size));
            quote!(rt::fields::read_sub(r, #len, |r| #one))
        }
        Some(Size::Eos) => {
            quote!({ let len = r.remaining() as i64; rt::fields::read_sub(r, len, |r| #one) })
        }
        Some(Size::Terminator {
            byte,
            include,
            consume,
            eos_error,
        }) => {
            quote!(rt::fields::read_terminated(r, #byte, #include, #consume, #eos_error, |r| #one))
        }
    }
}

/// The decoder passed to `read_fixed` for elements of `ty`.
fn bulk_decoder(schema: &Schema, ty: &FieldType) -> TokenStream {
    match ty {
        FieldType::User { ty, .. } => {
            let name = struct_ident(&schema.types[*ty]);
            quote!(#name::decode)
        }
        FieldType::Number(s) => {
            let size = s.size();
            let value = scalar::decode(*s, quote!(*b));
            quote!(|b: &[u8; #size]| #value)
        }
        _ => {
            let size = schema.fixed_size_of(ty).unwrap_or(0);
            let value = decode_at(schema, ty, 0);
            quote!(|b: &[u8; #size]| #value)
        }
    }
}

/// A `Result` expression reading a single value of `ty`.
fn read_one(schema: &Schema, ty: &FieldType, scope: &Scope) -> TokenStream {
    match ty {
        FieldType::Number(s) => {
            let value = scalar::decode(*s, quote!(b));
            quote!(r.array().map(|b| #value))
        }
        FieldType::Enum { enum_idx, raw } => {
            let name = enum_ident(&schema.enums[*enum_idx]);
            let value = scalar::decode(Scalar::Int(*raw), quote!(b));
            quote!(r.array().map(|b| #name::from_raw(#value as i64)))
        }
        FieldType::Quat(_) | FieldType::Vec3(_) | FieldType::Array { .. } => {
            let size = schema.fixed_size_of(ty).unwrap_or(0);
            let value = decode_at(schema, ty, 0);
            quote!(r.array::<#size>().map(|b| { let b = &b; #value }))
        }
        FieldType::Str {
            size: Size::Const(n),
            align,
            ..
        } if *align <= 1 => quote!(r.array::<#n>().map(rt::FixedStr::from_raw)),
        FieldType::Str {
            size,
            align,
            terminated: true,
            ..
        } => read_sized(size, *align, scope, quote!(rt::VarStr::from_raw)),
        FieldType::Str { size, align, .. } => {
            read_sized(size, *align, scope, quote!(rt::Text::from_raw))
        }
        FieldType::Bytes { size, align, .. } => {
            read_sized(size, *align, scope, quote!(rt::RawBytes))
        }
        FieldType::Contents(bytes) => {
            let lit = proc_macro2::Literal::byte_string(bytes);
            quote!(rt::fields::read_contents(r, #lit))
        }
        FieldType::Vlq => quote!(rt::fields::read_vlq(r)),
        FieldType::Nothing => quote!(rt::Result::Ok(())),
        FieldType::Bits {
            width,
            big_endian,
            enum_idx,
        } => super::bits::read_bits(schema, *width, *big_endian, *enum_idx),
        FieldType::BitPadding => quote!(Ok(r.align_to_byte())),
        FieldType::Remembered { value, ty, .. } => {
            let int = scalar::int_type(*ty);
            let value = expect_valid(scope.int(value));
            quote!(rt::arith::fit::<#int>(#value, r))
        }
        FieldType::User { ty, args } => {
            let name = struct_ident(&schema.types[*ty]);
            let args = scope.arguments(*ty, args);
            quote!(#name::read_from(r #(, #args)*))
        }
        FieldType::Switch(_) => unreachable!("switches are read by read_switch"),
    }
}

/// Reads a sized or terminated run of bytes and wraps it with `wrap` (a `Vec<u8>` constructor).
fn read_sized(size: &Size, align: usize, scope: &Scope, wrap: TokenStream) -> TokenStream {
    let sized =
        |len: TokenStream| quote!(rt::fields::read_raw(r, #len, #align).map(|b| #wrap(b.0)));
    match size {
        Size::Const(n) => {
            let n = *n as i64;
            sized(quote!(#n))
        }
        Size::Expr(e) => {
            let len = expect_valid(scope.int(e));
            if e.mentions("_io") {
                let call = sized(quote!(len));
                quote!({ let len = #len; #call })
            } else {
                sized(len)
            }
        }
        Size::Eos => quote!(Ok(#wrap(r.rest().to_vec()))),
        Size::Terminator {
            byte,
            include,
            consume,
            eos_error,
        } => {
            // A consumed terminator is kept in the value so that it is written back; `include`
            // only changes what the text accessor shows, which stops at the terminator anyway.
            let _ = include;
            quote!(r.until(#byte, #consume, #consume, #eos_error).map(|b| #wrap(b.to_vec())))
        }
    }
}

fn read_switch(
    schema: &Schema,
    owner: usize,
    field: &Field,
    switch: &Switch,
    scope: &Scope,
) -> TokenStream {
    let enum_name = switch_enum_ident(schema, owner, field);
    let (selector, selector_ty) = expect_valid(scope.selector(&switch.on));
    let mut arms = Vec::new();
    let mut fallback = None;
    for (key, variant) in switch_variants(schema, switch).arms() {
        let read = read_variant(schema, owner, (&enum_name, variant), field, scope);
        match key {
            Some(key) => {
                let pattern = case_pattern(scope, key);
                arms.push(quote!(#pattern => #read));
            }
            None => fallback = Some(quote!(_ => #read)),
        }
    }
    let fallback = match fallback {
        Some(fallback) => fallback,
        None => {
            let expected = switch
                .cases
                .iter()
                .map(|c| crate::expr::to_source(&c.key))
                .collect::<Vec<_>>()
                .join(", ");
            let shown = match selector_ty {
                Ty::Str => quote!(format!("{:?}", String::from_utf8_lossy(other))),
                _ => quote!(format!("{other:?}")),
            };
            quote!(other => Err(r.error(rt::ErrorKind::UnknownCase {
                value: #shown,
                expected: #expected.into(),
            })))
        }
    };
    quote! {
        match #selector {
            #(#arms,)*
            #fallback,
        }
    }
}

/// Reads the value of one variant; errors name the variant after the field, as documents do.
fn read_variant(
    schema: &Schema,
    owner: usize,
    (enum_name, variant): (&proc_macro2::Ident, &Variant),
    field: &Field,
    scope: &Scope,
) -> TokenStream {
    let read = read_repeated(schema, owner, field, variant.ty, scope);
    let (ident, name) = (&variant.ident, &variant.name);
    quote!(#read.in_field(#name).map(#enum_name::#ident))
}

/// The match pattern of a case key (an integer, string, boolean, enum or byte-array literal).
pub fn case_pattern(scope: &Scope, key: &Expr) -> TokenStream {
    match key {
        Expr::Str(s) => {
            let lit = proc_macro2::Literal::byte_string(s.as_bytes());
            quote!(#lit)
        }
        Expr::List(items) => {
            let bytes = items.iter().map(|item| match item {
                Expr::Int(n) => u8::try_from(*n).unwrap_or_default(),
                _ => 0,
            });
            let lit = proc_macro2::Literal::byte_string(&bytes.collect::<Vec<u8>>());
            quote!(#lit)
        }
        other => expect_valid(scope.compile(other)).0,
    }
}
