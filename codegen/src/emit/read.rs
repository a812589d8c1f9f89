//! Readers: `read_from(r, params…)` for every type, one statement per field.

use proc_macro2::TokenStream;
use quote::quote;

use super::fixed::decode_at;
use crate::model::*;
use crate::repr::scalar;
use crate::sanitization::{
    enum_ident, field_ident, local_ident, look_ahead_cell_ident, own_reader_ident, struct_ident,
    switch_enum_ident,
};
use crate::typeck::ir::{self, Reading};
/// The parameter list of a type's reader and writer.
pub fn param_list(schema: &Schema, def: &TypeDef) -> TokenStream {
    let params = def.params.iter().map(|p| {
        let ident = local_ident(&p.id);
        let ty = crate::repr::param_value_type(schema, p);
        match p.ty {
            ParamType::Int(_) | ParamType::Bool | ParamType::Enum(_) => quote!(#ident: #ty),
            ParamType::User(_) | ParamType::Io | ParamType::AnyStruct => quote!(#ident: &#ty),
            ParamType::OptUser(_) => quote!(#ident: ::core::option::Option<&#ty>),
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
pub fn read_body(schema: &Schema, ty: usize, ir: &ir::TypeIr) -> TokenStream {
    let def = &schema.types[ty];
    let statements = read_fields(schema, ty, ir, 0);
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
    let look_aheads = def.look_aheads().map(|instance| field_ident(&instance.id));
    let look_ahead_cells = def
        .look_aheads()
        .map(|instance| look_ahead_cell_ident(&instance.id));
    let look_ahead_values = ir.look_aheads.iter();
    // Evaluated before the fields move into the value, since they may use them.
    let look_ahead_locals: Vec<_> = def
        .look_aheads()
        .map(|instance| local_ident(&instance.id))
        .collect();
    // Where reading ended: after the sequence and what is read by position.
    let stream = def.keeps_stream.then(|| quote!(_io: rt::Stream::of(r),));
    let byte_order = ir.read_order.as_ref().map(|order| {
        super::byte_order::choose_byte_order(order, |value| {
            quote!(return Err(r.error(rt::ErrorKind::UndecidedEndianness { value: #value })))
        })
    });
    let own_stream = def.passes_own_stream().then(|| {
        let own = local_ident("_io");
        quote!(let #own = rt::Stream::of(r);)
    });
    let body = quote! {
        #(let #look_ahead_cells = ::core::cell::Cell::new(::core::option::Option::None);)*
        #own_stream
        #byte_order
        #statements
        #(let #look_ahead_locals = #look_ahead_values;)*
        Ok(Self { #(#fields: #locals,)* #(#look_aheads: #look_ahead_locals,)* #stream #unclaimed })
    };
    match schema.roots_imported_stream(ty) {
        true => quote!(r.in_file_root(|r| { #body })),
        false => body,
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
fn read_fields(schema: &Schema, ty: usize, ir: &ir::TypeIr, from: usize) -> TokenStream {
    let def = &schema.types[ty];
    let mut statements = Vec::new();
    // Second reads waiting for the field they follow (see `Field::read_later`).
    let mut read_later: Vec<(&String, TokenStream)> = Vec::new();
    for (index, (field, field_ir)) in def.fields.iter().zip(&ir.fields).enumerate().skip(from) {
        let read_ir = &field_ir.read;
        let name = &field.id;
        let filled_later = def.unread_from_holder && field.id == UNREAD;
        if filled_later
            || schema
                .trailing_field(ty)
                .is_some_and(|t| std::ptr::eq(t, field))
        {
            // The whole-file read fills it (a root read inside a stream ends with its value),
            // or the field reading the value from a substream does.
            let ident = local_ident(name);
            statements.push(quote!(let #ident = rt::RawBytes::default();));
            continue;
        }
        if let (
            FieldType::Remembered {
                ty: int,
                solve: Some((min, max)),
                ..
            },
            Some(known),
        ) = (&field.ty, &read_ir.solved)
        {
            // The rest of the type is read for each candidate: it decides the value.
            let ident = local_ident(name);
            let int = scalar::int_type(*int);
            let rest = read_fields(schema, ty, ir, index + 1);
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
            let rest = read_fields(schema, ty, ir, index + 1);
            let rest_names = stored_names(&def.fields[index + 1..]);
            let marker = proc_macro2::Literal::byte_string(marker);
            let read_scanned = read_field(schema, ty, field, read_ir);
            statements.push(quote! {
                let (#ident, (#(#rest_names,)*)) = rt::fields::read_scanned(
                    r,
                    #name,
                    #marker,
                    |r| #read_scanned,
                    |r| {
                        #rest
                        Ok((#(#rest_names,)*))
                    },
                )?;
            });
            break;
        }
        let (start, end) = (
            local_ident(&format!("_start_{name}")),
            local_ident(&format!("_end_{name}")),
        );
        if field.read_later.is_some() {
            statements.push(quote!(let #start = rt::fields::byte_start(r).in_field(#name)?;));
        }
        let value = read_value(schema, ty, field, read_ir);
        if !field.stores_value() {
            statements.push(quote!(#value;));
        } else {
            let ident = local_ident(name);
            statements.push(quote!(let #ident = #value;));
        }
        if let (Some(later), Some(again)) = (&field.read_later, &field_ir.read_again) {
            statements.push(quote!(let #end = r.pos();));
            let ident = local_ident(name);
            let read = read_field(schema, ty, field, again);
            read_later.push((
                &later.after,
                quote! {
                    let #ident = rt::fields::read_once_more(r, #start, #end, |r| #read).in_field(#name)?;
                },
            ));
        }
        if !field.valid.is_empty() {
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
            statements.push(super::valid::valid_check(
                field,
                &read_ir.valid,
                &quote!(#access),
                refuse,
            ));
        }
        // Fields read later whose instances use this one are read again now.
        let (now, others) = read_later
            .into_iter()
            .partition(|(after, _)| *after == name);
        read_later = others;
        statements.extend(now.into_iter().map(|(_, again): (_, TokenStream)| again));
    }
    quote!(#(#statements)*)
}

/// The value of a stored `field`: its read with `?` applied, inside its condition, so an absent
/// value is `None` outright and a present one is not moved through a `Result<Option<_>>`.
///
/// An expression that can fail (`to_i`) returns its failure with `?`: such a read runs in a
/// closure of its own, so that the failure, too, is the field's.
fn read_value(schema: &Schema, owner: usize, field: &Field, ir: &ir::ReadField) -> TokenStream {
    let name = &field.id;
    match (&ir.cond, field.parse_instance) {
        (Some(cond), false) => {
            let read = read_present(schema, owner, field, ir);
            if ir.can_fail {
                let present = quote!(if #cond { Some(#read?) } else { None });
                return quote!((|| -> rt::Result<_> { Ok(#present) })().in_field(#name)?);
            }
            quote!(if #cond { Some(#read.in_field(#name)?) } else { None })
        }
        _ => {
            let read = read_field(schema, owner, field, ir);
            if ir.can_fail {
                return quote!((|| #read)().in_field(#name)?);
            }
            quote!(#read.in_field(#name)?)
        }
    }
}

/// A `Result` expression reading the whole field (condition, repetition, switch).
fn read_field(schema: &Schema, owner: usize, field: &Field, ir: &ir::ReadField) -> TokenStream {
    let on_demand = schema.reads_on_demand(owner, field);
    let read = read_present(schema, owner, field, ir);
    // A parse instance's failure is its own (`rt::Instance`), so its read cannot fail.
    let instance = match on_demand {
        true => quote!(rt::Instance::from_result(#read)),
        false => quote!(rt::Instance::from_read(#read)),
    };
    match (&ir.cond, field.parse_instance) {
        (None, false) => read,
        (Some(cond), false) => quote!(if #cond { #read.map(Some) } else { Ok(None) }),
        (None, true) => quote!(Ok::<_, rt::Error>(#instance)),
        (Some(cond), true) => quote! {
            Ok::<_, rt::Error>(if #cond { #instance } else { rt::Instance::Absent })
        },
    }
}

/// A `Result` expression reading the field when it is present (repetition, switch, position).
fn read_present(schema: &Schema, owner: usize, field: &Field, ir: &ir::ReadField) -> TokenStream {
    let on_demand = schema.reads_on_demand(owner, field);
    let read = match &ir.values {
        ir::Values::Switch(switch) if on_demand => {
            let enum_name = switch_enum_ident(schema, owner, field);
            read_switch(switch, |case| {
                let (ident, name) = (&case.ident, &case.name);
                let then = quote!(.in_field(#name).map(#enum_name::#ident));
                read_on_demand(schema, &case.list.one, then)
            })
        }
        ir::Values::One(list) if on_demand => read_on_demand(schema, &list.one, quote!()),
        ir::Values::Switch(switch) => read_cases(schema, owner, field, switch),
        ir::Values::Elements(elements) => read_elements(schema, owner, field, elements),
        ir::Values::One(list) => read_repeated(schema, owner, field, &field.ty, list),
    };
    let own = own_reader_ident();
    match &ir.position {
        Some(ir::Position { pos, stream }) => match stream {
            // Never placed back, so read in any stream, substreams too.
            ir::PositionStream::Kept => quote!(rt::fields::read_kept(r, #pos, |r| #read)),
            ir::PositionStream::Own => quote!(rt::fields::read_at(r, #pos, |r| #read)),
            // The value's own `_io` stays this type's (see `Scope::in_other_stream`).
            ir::PositionStream::Root => quote!({
                let #own = &*r;
                rt::fields::read_at_root(r, #pos, |r| #read)
            }),
            ir::PositionStream::Of(stream) => quote!({
                let #own = &*r;
                rt::fields::read_in(r, #stream, #pos, |r| #read)
            }),
        },
        None => read,
    }
}

/// A `Result` expression reading one value or the repeated list of `field`'s values of type
/// `ty` (its own, or one case of its switch).
fn read_repeated(
    schema: &Schema,
    owner: usize,
    field: &Field,
    ty: &FieldType,
    list: &ir::List<Reading>,
) -> TokenStream {
    // Each element's own expressions (size, arguments) see its index as `_index`, and, when
    // they use them, the elements read before it: the closures then get those (`_prior`) and
    // count them.
    let seeing = field.refers_to_itself();
    let again = seeing && field.read_again;
    let one = || {
        let one = read_delimited(schema, &list.one);
        // Read twice: the second pass starts each element where the first one did.
        let start = again.then(|| quote!(rt::fields::element_start(r, &mut _starts)?;));
        match seeing {
            true => quote!({ #start let _index = _prior.len(); #one }),
            false => one,
        }
    };
    let read_again = |first_pass: TokenStream| match again {
        true => {
            let one = read_delimited(schema, &list.one);
            quote!({
                let mut _starts = ::std::vec::Vec::new();
                #first_pass.and_then(|first| rt::fields::read_again(r, &_starts, first, |r, _index, _prior| #one))
            })
        }
        false => first_pass,
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
    let bulk = schema.bulk_layout(field, ty);
    match &list.repeat {
        // A decoded value keeps its stored bytes beside the box (`Decoded<Box<T>>`).
        ir::Repeat::One if schema.boxes(owner, field, ty) && field.decode.is_some() => {
            let one = read_delimited(schema, &list.one);
            quote!(#one.map(|d| rt::Decoded { value: ::std::boxed::Box::new(d.value), rest: d.rest, stored: d.stored }))
        }
        ir::Repeat::One if schema.boxes(owner, field, ty) => {
            let one = read_delimited(schema, &list.one);
            quote!(#one.map(::std::boxed::Box::new))
        }
        ir::Repeat::One => read_delimited(schema, &list.one),
        ir::Repeat::Times(count) => match bulk {
            Some(fixed) if schema.keeps_list_stored(field, ty) => {
                let (size, decode) = (fixed.size, bulk_decoder(schema, &fixed));
                quote!(rt::fields::read_fixed_list(r, #count, const {
                    &rt::FixedLayout::new(#size, |b: &[u8], len: usize| {
                        rt::fields::decode_fixed(b, len, #decode)
                    })
                }))
            }
            Some(fixed) => {
                let decode = bulk_decoder(schema, &fixed);
                quote!(rt::fields::read_fixed(r, #count, #decode))
            }
            None => {
                let min = schema.min_size_of(ty) + field.delimiter_len();
                let one = one();
                read_again(quote!(rt::fields::#read_counted(r, #count, #min, |r, #index| #one)))
            }
        },
        ir::Repeat::Eos => {
            let one = one();
            read_again(quote!(rt::fields::#read_to_eos(r, |r, #index| #one)))
        }
        ir::Repeat::Each(list) => {
            let min = schema.min_size_of(ty) + field.delimiter_len();
            let one = one();
            quote!(rt::fields::read_each(r, &#list, #min, |r, _index, each| #one))
        }
        ir::Repeat::Until(done) => {
            let one = one();
            read_again(
                quote!(rt::fields::#read_until(r, |r, #index| #one, |item, _index, r| ::core::result::Result::Ok(#done))),
            )
        }
    }
}

/// A `Result` expression reading a list whose elements each choose their case: the switch is
/// matched for each element, which sees its `_index` (and its partner `each` in a
/// `-for-each`), and the element is its case's variant holding one value.
fn read_elements(
    schema: &Schema,
    owner: usize,
    field: &Field,
    elements: &ir::Elements<Reading>,
) -> TokenStream {
    let one = read_cases(schema, owner, field, &elements.switch);
    // Every element is one of the cases: it takes at least the fewest bytes of any.
    let min = elements
        .switch
        .cases
        .iter()
        .map(|case| schema.min_size_of(&case.ty))
        .min()
        .unwrap_or(0)
        + field.delimiter_len();
    match &elements.repeat {
        ir::Repeat::One => one,
        ir::Repeat::Times(count) => {
            quote!(rt::fields::read_counted(r, #count, #min, |r, _index| #one))
        }
        ir::Repeat::Eos => quote!(rt::fields::read_to_eos(r, |r, _index| #one)),
        ir::Repeat::Each(list) => {
            quote!(rt::fields::read_each(r, &#list, #min, |r, _index, each| #one))
        }
        ir::Repeat::Until(done) => {
            quote!(rt::fields::read_until(r, |r, _index| #one, |item, _index, r| ::core::result::Result::Ok(#done)))
        }
    }
}

/// True when compiled Rust uses the reader `r` (locals have a trailing `_`).
fn uses_reader(tokens: &TokenStream) -> bool {
    tokens.clone().into_iter().any(|token| match token {
        proc_macro2::TokenTree::Ident(ident) => ident == "r",
        proc_macro2::TokenTree::Group(group) => uses_reader(&group.stream()),
        _ => false,
    })
}

/// A `Result` expression reading `one` from a substream of `len` bytes; a value that keeps the
/// bytes its substream leaves ([`TypeDef::unread_from_holder`]) gets them as `_unread`.
fn read_sub(
    schema: &Schema,
    value: &ir::Value<Reading>,
    len: TokenStream,
    one: &TokenStream,
) -> TokenStream {
    match value {
        ir::Value::User { ty, .. } if schema.types[*ty].unread_from_holder => {
            let unread = field_ident(UNREAD);
            quote!(rt::fields::read_sub_keeping(r, #len, |r| #one).map(|(mut value, rest)| {
                value.#unread = rt::RawBytes(rest);
                value
            }))
        }
        _ => quote!(rt::fields::read_sub(r, #len, |r| #one)),
    }
}

/// A `Result` of the `rt::Instance` of `one` (see [`Schema::reads_on_demand`]),
/// read at `r`'s position when asked for; `then` maps what reading it gives (into its case of a
/// switch). Its size and arguments are computed now, as they are for a value read at once, and
/// kept.
fn read_on_demand(schema: &Schema, one: &ir::One<Reading>, then: TokenStream) -> TokenStream {
    let Some((len, value)) = super::on_demand::window(one) else {
        // Not read on demand (see `reads_on_demand`): read now.
        let read = read_delimited(schema, one);
        return quote!(#read #then .map(rt::Instance::from));
    };
    let (kept, value) = match value {
        ir::Value::User { ty, args } => {
            let params = &schema.types[*ty].params;
            let names: Vec<_> = (0..args.len())
                .map(|i| quote::format_ident!("arg{i}"))
                .collect();
            let kept: Vec<_> = names
                .iter()
                .zip(args)
                .zip(params)
                .map(|((name, arg), param)| match param.ty {
                    ParamType::Io => quote!(let #name = ::core::clone::Clone::clone(#arg);),
                    _ => quote!(let #name = #arg;),
                })
                .collect();
            let passed = names
                .iter()
                .zip(params)
                .map(|(name, param)| match param.ty {
                    ParamType::Io => quote!(&#name),
                    _ => quote!(#name),
                })
                .collect();
            (
                kept,
                ir::Value::User {
                    ty: *ty,
                    args: passed,
                },
            )
        }
        other => (Vec::new(), other.clone()),
    };
    let read = read_one(schema, &value);
    quote!({
        let len: i64 = #len;
        #(#kept)*
        Ok(rt::Instance::on_demand(r, len, move |r| {
            rt::fields::read_sub(r, len, |r| #read)#then
        }))
    })
}

/// A `Result` expression reading one value, from the substream its field delimits when it has
/// one, or from the bytes it is stored in when it is decoded.
fn read_delimited(schema: &Schema, ir: &ir::One<Reading>) -> TokenStream {
    // The arguments of a value read from bytes of its own are computed in the outer stream
    // (`_io.size`, a look-ahead), before the reader lends it.
    if let ir::Value::User { ty, args } = &ir.value
        && (ir.substream.is_some() || ir.decode.is_some())
        && args.iter().any(uses_reader)
    {
        let names: Vec<_> = (0..args.len())
            .map(|i| quote::format_ident!("arg{i}"))
            .collect();
        let value = ir::Value::User {
            ty: *ty,
            args: names.iter().map(|n| quote!(#n)).collect(),
        };
        let read = read_delimited(
            schema,
            &ir::One {
                value,
                ..ir.clone()
            },
        );
        return quote!({ #(let #names = #args;)* #read });
    }
    let one = read_one(schema, &ir.value);
    if let Some(decode) = &ir.decode {
        let stored = match decode.spec.wide_terminator() {
            Some((byte, unit, consume, eos_error)) => quote!(
                rt::fields::read_terminated_bytes(r, #byte, #unit, #consume, #eos_error)
                    .map(rt::RawBytes)
            ),
            None => read_sized(&decode.size, 1, quote!(rt::RawBytes)),
        };
        return super::decode::read_decoded(decode, stored, one);
    }
    let sub = |len: TokenStream| read_sub(schema, &ir.value, len, &one);
    match &ir.substream {
        None => one,
        Some(ir::Size::Const(n)) => {
            let n = *n as i64;
            sub(quote!(#n))
        }
        // A length computed from the stream is computed before the reader is lent.
        Some(ir::Size::Computed {
            len,
            from_stream: true,
        }) => {
            let read = sub(quote!(len));
            quote!({ let len = #len; #read })
        }
        Some(ir::Size::Computed {
            len,
            from_stream: false,
        }) => sub(len.clone()),
        Some(ir::Size::Eos) => {
            let read = sub(quote!(len));
            quote!({ let len = r.remaining() as i64; #read })
        }
        Some(ir::Size::Terminator {
            byte,
            include,
            consume,
            eos_error,
        }) => {
            quote!(rt::fields::read_terminated(r, #byte, #include, #consume, #eos_error, |r| #one))
        }
    }
}

/// The decoder passed to `read_fixed` for elements of layout `fixed`.
fn bulk_decoder(schema: &Schema, fixed: &Fixed) -> TokenStream {
    let size = fixed.size;
    match &fixed.kind {
        FixedKind::User(ty) => {
            let name = struct_ident(&schema.types[*ty]);
            quote!(#name::decode)
        }
        FixedKind::Number(s) => {
            let value = scalar::decode(*s, quote!(*b));
            quote!(|b: &[u8; #size]| #value)
        }
        FixedKind::Quat(_)
        | FixedKind::Vec3(_)
        | FixedKind::Str
        | FixedKind::Array(..)
        | FixedKind::Nothing => {
            let value = decode_at(schema, fixed, 0);
            quote!(|b: &[u8; #size]| #value)
        }
    }
}

/// A `Result` expression reading a single value.
fn read_one(schema: &Schema, value: &ir::Value<Reading>) -> TokenStream {
    match value {
        ir::Value::Number(s) => {
            let value = scalar::decode(*s, quote!(b));
            quote!(r.array().map(|b| #value))
        }
        ir::Value::Enum { enum_idx, raw } => {
            let name = enum_ident(&schema.enums[*enum_idx]);
            let value = scalar::decode(Scalar::Int(*raw), quote!(b));
            quote!(r.array().map(|b| #name::from_raw(#value as i64)))
        }
        ir::Value::Fixed(fixed) => {
            let size = fixed.size;
            let value = decode_at(schema, fixed, 0);
            quote!(r.array_ref::<#size>().map(|b| #value))
        }
        ir::Value::FixedStr(n) => quote!(r.array_ref::<#n>().map(|b| rt::FixedStr::from_raw(*b))),
        ir::Value::Str {
            size,
            align,
            terminated: true,
        } => read_sized(size, *align, quote!(rt::VarStr::from_raw)),
        ir::Value::Str { size, align, .. } => read_sized(size, *align, quote!(rt::Text::from_raw)),
        ir::Value::Bytes { size, align } => read_sized(size, *align, quote!(rt::RawBytes)),
        ir::Value::Contents(bytes) => {
            let lit = proc_macro2::Literal::byte_string(bytes);
            quote!(rt::fields::read_contents(r, #lit))
        }
        ir::Value::Vlq => quote!(rt::fields::read_vlq(r)),
        ir::Value::Nothing => quote!(rt::Result::Ok(())),
        ir::Value::Bits {
            width,
            big_endian,
            enum_idx,
        } => super::bits::read_bits(schema, *width, *big_endian, *enum_idx),
        ir::Value::BitPadding => quote!(Ok(r.align_to_byte())),
        ir::Value::Remembered { int, value } => {
            let int = scalar::int_type(*int);
            quote!(rt::arith::fit::<#int>(#value, r))
        }
        ir::Value::User { ty, args } => {
            let name = struct_ident(&schema.types[*ty]);
            quote!(#name::read_from(r #(, #args)*))
        }
    }
}

/// Reads a sized or terminated run of bytes and wraps it with `wrap` (a `Vec<u8>` constructor).
fn read_sized(size: &ir::Size<Reading>, align: usize, wrap: TokenStream) -> TokenStream {
    let sized =
        |len: TokenStream| quote!(rt::fields::read_raw(r, #len, #align).map(|b| #wrap(b.0)));
    match size {
        ir::Size::Const(n) => {
            let n = *n as i64;
            sized(quote!(#n))
        }
        ir::Size::Computed {
            len,
            from_stream: true,
        } => {
            let call = sized(quote!(len));
            quote!({ let len = #len; #call })
        }
        ir::Size::Computed {
            len,
            from_stream: false,
        } => sized(len.clone()),
        ir::Size::Eos => quote!(Ok(#wrap(r.keep_rest()))),
        ir::Size::Terminator {
            byte,
            consume,
            eos_error,
            ..
        } => {
            quote!(rt::fields::read_terminated_bytes(r, #byte, 1, #consume, #eos_error).map(#wrap))
        }
    }
}

/// A `match` on the selector of `switch` of `field`, each arm reading its case.
fn read_cases(
    schema: &Schema,
    owner: usize,
    field: &Field,
    switch: &ir::Switch<Reading>,
) -> TokenStream {
    let enum_name = switch_enum_ident(schema, owner, field);
    read_switch(switch, |case| {
        read_variant(schema, owner, &enum_name, case, field)
    })
}

/// A `match` on the selector of `switch`, each arm reading its case with `variant`.
fn read_switch(
    switch: &ir::Switch<Reading>,
    variant: impl Fn(&ir::Case<Reading>) -> TokenStream,
) -> TokenStream {
    let mut arms = Vec::new();
    let mut fallback = None;
    for arm in &switch.arms {
        let read = variant(&arm.case);
        match &arm.pattern {
            Some(pattern) => arms.push(quote!(#pattern => #read)),
            None => fallback = Some(quote!(_ => #read)),
        }
    }
    let fallback = fallback.unwrap_or_else(|| {
        let expected = &switch.expected;
        let shown = match switch.text {
            true => quote!(format!("{:?}", String::from_utf8_lossy(other))),
            false => quote!(format!("{other:?}")),
        };
        quote!(other => Err(r.error(rt::ErrorKind::UnknownCase {
            value: #shown,
            expected: #expected.into(),
        })))
    });
    let selector = &switch.selector;
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
    enum_name: &proc_macro2::Ident,
    case: &ir::Case<Reading>,
    field: &Field,
) -> TokenStream {
    let read = read_repeated(schema, owner, field, &case.ty, &case.list);
    let (ident, name) = (&case.ident, &case.name);
    quote!(#read.in_field(#name).map(#enum_name::#ident))
}
