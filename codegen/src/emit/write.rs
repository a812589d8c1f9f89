//! Writers: `write_to(&self, w, params…)`. Every stored field is written verbatim; what the
//! reader would use to find its way (counts, sizes, switch selectors, conditions) is checked
//! against the content first, so a written file always reads back. A check that needs the
//! input stream is left out ([`ir::Writer::FromStream`]); the codec then reads its output
//! back.

use proc_macro2::TokenStream;
use quote::quote;

use super::fixed::encode_at;
use crate::model::*;
use crate::repr::scalar;
use crate::repr::sizes::element_len;
use crate::sanitization::{
    checksum_start_ident, checksum_written_ident, field_ident, local_ident, offset_written_ident,
    struct_ident, switch_enum_ident,
};
use crate::typeck::ir::{self, Writing};

/// The body of `write_to` for a type with a variable layout.
pub fn write_body(schema: &Schema, ty: usize, ir: &ir::TypeIr) -> TokenStream {
    let def = &schema.types[ty];
    // A value read from another value's stream is that value's bytes: it writes them.
    let statements = def
        .fields
        .iter()
        .zip(&ir.fields)
        .filter_map(|(field, field_ir)| match &field_ir.write {
            ir::WriteField::ReadOnly => None,
            ir::WriteField::Written(written) => Some((field, written)),
        })
        .map(|(field, written)| {
            let ident = field_ident(&field.id);
            let name = &field.id;
            if field.parse_instance {
                let on_demand = schema.reads_on_demand(ty, field);
                return write_parse_instance(schema, ty, field, written, on_demand);
            }
            let valid = valid_check(field, &written.valid, &quote!(self.#ident));
            let starts = checksum_starts(def, field);
            let (checksum, access) = match (&field.checksum, written.offset_unit) {
                (Some(checksum), _) => checksum_written(field, checksum),
                (None, Some(unit)) => offset_written(field, unit),
                (None, None) => (quote!(), quote!(self.#ident)),
            };
            let mut write = write_field(schema, ty, field, written, &access);
            if written.can_fail {
                // An expression that can fail (`to_i`) returns its failure with `?`: in a
                // closure of its own, the failure is the field's.
                let in_field = placement_error_in_field(name);
                write = quote!((|| -> rt::Result<()> { #write Ok(()) })().map_err(#in_field)?;);
            }
            write_placed(written, name, &quote!(#starts #valid #checksum #write))
        });
    // A writer that is passed a placeholder cannot compare: the codec reads its output back.
    let kept_params = def
        .params
        .iter()
        .filter(|p| p.kept && !p.writers_lack)
        .map(check_kept_param);
    let gaps = schema
        .keeps_unclaimed(ty)
        .then(|| quote!(rt::fields::write_gaps(w, &self.unclaimed).in_field("unclaimed")?;));
    let byte_order = ir.write_order.as_ref().map(|order| {
        super::byte_order::choose_byte_order(
            order,
            |value| quote!(return Err(rt::fields::undecided_byte_order(w, #value))),
        )
    });
    let body = quote! {
        #(#kept_params)*
        #byte_order
        #(#statements)*
        #gaps
        Ok(())
    };
    match schema.roots_imported_stream(ty) {
        true => quote!(w.in_file_root(|w| { #body })),
        false => body,
    }
}

/// Before `field`: where the bytes of the checksums that cover it first start.
fn checksum_starts(def: &TypeDef, field: &Field) -> TokenStream {
    let starts = def
        .fields
        .iter()
        .filter(|f| {
            f.checksum
                .as_ref()
                .is_some_and(|c| c.over.first() == Some(&field.id))
        })
        .map(|f| checksum_start_ident(&f.id));
    quote!(#(let #starts = w.pos();)*)
}

/// The value a checksum field is written as: as stored, or recomputed by a writer that
/// recomputes checksums (see `rt::checksum`); and where it is.
fn checksum_written(field: &Field, checksum: &Checksum) -> (TokenStream, TokenStream) {
    let ident = field_ident(&field.id);
    let start = checksum_start_ident(&field.id);
    let written = checksum_written_ident(&field.id);
    let algorithm = match checksum.algorithm {
        ChecksumAlgorithm::Crc32 => quote!(rt::checksum::Algorithm::Crc32),
        ChecksumAlgorithm::Adler32 => quote!(rt::checksum::Algorithm::Adler32),
    };
    let statement = quote! {
        let #written = rt::checksum::Held::written(
            &self.#ident,
            w.checksum(#algorithm, #start, rt::checksum::Held::to_u32(&self.#ident)),
        );
    };
    (statement, quote!(#written))
}

/// The value the offset of a relocatable block is written as: where the writer places the
/// block (see `rt::relocation`), in units of `unit`, or as stored.
fn offset_written(field: &Field, unit: u64) -> (TokenStream, TokenStream) {
    let (ident, name) = (field_ident(&field.id), &field.id);
    let written = offset_written_ident(&field.id);
    let key = offset_key(&field.id);
    let statement = quote! {
        let #written = rt::fields::relocated_offset(w, #key, #unit, self.#ident).in_field(#name)?;
    };
    (statement, quote!(#written))
}

/// The key of offset field `id` while the value is written: its address (see
/// `rt::relocation`).
fn offset_key(id: &str) -> TokenStream {
    let ident = field_ident(id);
    quote!(::core::ptr::addr_of!(self.#ident).addr())
}

/// Writes a block placed at `pos` (a value read by position) of the type's own stream, or of
/// the whole file. The block's own writes name the field; so do the checks of its placement.
fn write_placed(written: &ir::WrittenField, name: &str, write: &TokenStream) -> TokenStream {
    let Some(pos) = &written.pos else {
        return write.clone();
    };
    let in_file = written.pos_in_file;
    let (function, args) = match (&written.relocation, in_file) {
        (Some((offset, unit, follows)), _) => {
            let key = offset_key(offset);
            let args = quote!(#in_file, #name, (#key, #unit));
            match follows {
                true => (quote!(write_at_following), args),
                false => (quote!(write_at_relocatable), args),
            }
        }
        (None, true) => (quote!(write_at_root), quote!(#name)),
        (None, false) => (quote!(write_at), quote!(#name)),
    };
    let in_field = placement_error_in_field(name);
    quote! {
        rt::fields::#function(w, #pos, #args, |w| {
            #write
            Ok(())
        })
        .map_err(#in_field)?;
    }
}

/// What names the field in the errors of a placement (the block's own writes name it
/// already).
fn placement_error_in_field(name: &str) -> TokenStream {
    quote!(|e| if e.has_no_path() { e.in_field(#name) } else { e })
}

/// A parse instance writes its value, when it has one, where it was read; one that failed,
/// a cycle, or an absent one writes nothing of its own, not even an empty block (whose
/// position the file would have to reach).
fn write_parse_instance(
    schema: &Schema,
    owner: usize,
    field: &Field,
    written: &ir::WrittenField,
    on_demand: bool,
) -> TokenStream {
    let ident = field_ident(&field.id);
    let name = &field.id;
    let present = write_present(schema, owner, field, &written.values, &quote!(value));
    let write = write_placed(written, name, &present);
    let value = match written.cond.as_ref().map(ir::Writer::computed) {
        None => quote!(self.#ident.written(true, w)),
        Some(Some(cond)) => quote!(self.#ident.written(#cond, w)),
        // The codec reads its output back to confirm the condition (`VERIFY_WRITES`).
        Some(None) => quote!(Ok::<_, rt::Error>(self.#ident.get())),
    };
    let write = quote! {
        if let ::core::option::Option::Some(value) = #value.in_field(#name)? { #write }
    };
    if !on_demand {
        return write;
    }
    // Measuring what the value just read claims, an instance still unread claims its bytes
    // where its block would go (without a block); one that could not be read writes them back.
    let hold = write_placed(written, name, &quote!(w.hold(held);));
    let hold = match &written.pos {
        Some(pos) => {
            let (in_file, in_field) = (written.pos_in_file, placement_error_in_field(name));
            quote! {
                match held {
                    rt::writer::Held::Claimed(len) => rt::fields::claim_at(w, #pos, #in_file, len)
                        .map_err(#in_field)?,
                    held => { #hold }
                }
            }
        }
        None => hold,
    };
    quote! {
        if let ::core::option::Option::Some(held) = self.#ident.held(w) { #hold } else { #write }
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
            return Err(rt::fields::kept_argument_changed(w, &self.#field, &#local).in_field(#name));
        }
    }
}

fn write_field(
    schema: &Schema,
    owner: usize,
    field: &Field,
    ir: &ir::WrittenField,
    access: &TokenStream,
) -> TokenStream {
    let name = &field.id;
    let Some(cond) = &ir.cond else {
        return write_present(schema, owner, field, &ir.values, access);
    };
    let present = write_present(schema, owner, field, &ir.values, &quote!(value));
    // When the reader decides from the stream, the value says whether the field is there,
    // and the codec reads its output back to confirm (`VERIFY_WRITES`).
    let Some(cond) = cond.computed() else {
        return quote!(if let ::core::option::Option::Some(value) = &#access { #present });
    };
    quote! {
        match (#cond, &#access) {
            (true, Some(value)) => { #present }
            (holds, held) => rt::fields::check_condition(holds, held.is_some(), w).in_field(#name)?,
        }
    }
}

/// Statements writing a field whose value is at `access`.
pub(super) fn write_present(
    schema: &Schema,
    owner: usize,
    field: &Field,
    values: &ir::Values<Writing>,
    access: &TokenStream,
) -> TokenStream {
    let name = &field.id;
    let list = match values {
        ir::Values::Switch(switch) => {
            let path = quote!(.in_field(#name));
            return write_switch(schema, owner, field, switch, access, &path);
        }
        ir::Values::Elements(elements) => {
            return write_elements(schema, owner, field, elements, access);
        }
        ir::Values::One(list) => list,
    };
    if let ir::Repeat::Each(partners) = &list.repeat {
        return write_for_each(schema, field, partners, &list.one, access);
    }
    let list_check = list_check(field, &list.repeat, access);
    let path = quote!(.in_field(#name));
    let body = write_list_or_one(schema, field, &field.ty, list, access, &path);
    quote!(#list_check #body)
}

/// A list whose elements each choose their case: each element (`item`, at `index`) must hold
/// the case its selector gives, and is written as that case's value.
fn write_elements(
    schema: &Schema,
    owner: usize,
    field: &Field,
    elements: &ir::Elements<Writing>,
    access: &TokenStream,
) -> TokenStream {
    let name = &field.id;
    let path = quote!(.at_index(index).in_field(#name));
    let one = write_switch(schema, owner, field, &elements.switch, &quote!(item), &path);
    if let ir::Repeat::Each(partners) = &elements.repeat {
        // Each element's selector and arguments may come from its partner.
        return quote! {
            rt::fields::check_count(#partners.len() as i64, #access.len(), w).in_field(#name)?;
            for (index, (item, each)) in #access.iter().zip(#partners.iter()).enumerate() {
                let _ = each;
                #one
            }
        };
    }
    let list_check = list_check(field, &elements.repeat, access);
    quote! {
        #list_check
        for (index, item) in #access.iter().enumerate() {
            #one
        }
    }
}

/// A `-for-each` list: one element per element of the list it follows, written side by side
/// with it, since each element's arguments come from its partner.
fn write_for_each(
    schema: &Schema,
    field: &Field,
    partners: &TokenStream,
    one: &ir::One<Writing>,
    access: &TokenStream,
) -> TokenStream {
    let name = &field.id;
    let one = write_delimited(
        schema,
        &field.ty,
        one,
        &quote!(item),
        &quote!(.at_index(index).in_field(#name)),
    );
    quote! {
        rt::fields::check_count(#partners.len() as i64, #access.len(), w).in_field(#name)?;
        for (index, (item, each)) in #access.iter().zip(#partners.iter()).enumerate() {
            let _ = each;
            #one
        }
    }
}

/// Before writing a field with `valid`: a value the reader would reject is refused. A rule
/// that needs the stream (`_io`) can only be checked by reading.
fn valid_check(
    field: &Field,
    holds: &ir::Writer<Vec<TokenStream>>,
    access: &TokenStream,
) -> TokenStream {
    let name = &field.id;
    let refuse = |_kind, rule: &str, _found, index: Option<TokenStream>| {
        let message = format!("the reader expects a value {rule}");
        let at = index.map(|i| quote!(.at_index(#i)));
        quote!(return Err(rt::fields::encode_error(w, #message.into()))#at.in_field(#name);)
    };
    match holds.computed() {
        Some(holds) => super::valid::valid_check(field, holds, access, refuse),
        None => quote!(),
    }
}

/// Statements writing one value of type `ty` at `access`, delimited as the reader delimits
/// it: a value read from `size` bytes must encode to that size (a size computed from the
/// stream cannot be checked before writing), and a value read up to a terminator must not hold
/// it earlier and is followed by it when the reader consumes it.
fn write_delimited(
    schema: &Schema,
    ty: &FieldType,
    ir: &ir::One<Writing>,
    access: &TokenStream,
    wrap: &TokenStream,
) -> TokenStream {
    if let Some(decode) = &ir.decode {
        let one = write_one(schema, &ir.value, &quote!(#access.value), wrap);
        let check = match decode.spec.wide_terminator() {
            Some((byte, unit, consume, eos_error)) => quote!(
                rt::fields::check_terminated_units(stored, #byte, #unit, #consume, #eos_error, w)#wrap?;
            ),
            None => size_check(&decode.size, 1, &quote!(stored), wrap),
        };
        return super::decode::write_decoded(decode, access, one, check, wrap);
    }
    let one = write_one(schema, &ir.value, access, wrap);
    // In place, a value that may keep a substream's unread bytes must have none.
    let one = match &ir.value {
        ir::Value::User { ty, .. }
            if ir.substream.is_none() && schema.types[*ty].unread_from_holder =>
        {
            let unread = crate::sanitization::field_ident(UNREAD);
            quote!(rt::fields::nothing_unread(&#access.#unread.0, w)#wrap?; #one)
        }
        _ => one,
    };
    // Positions in the substream count from where it starts.
    let one = match ir.substream.is_some()
        && ty
            .user_types()
            .into_iter()
            .any(|ty| schema.places_in_own_stream(ty))
    {
        true => quote!(w.in_substream(|w| { #one Ok(()) })?;),
        false => one,
    };
    let size = match &ir.substream {
        None | Some(ir::Size::Eos) => return one,
        Some(ir::Size::Const(n)) => {
            let n = *n as i64;
            quote!(#n)
        }
        Some(ir::Size::Computed { len, .. }) => match len.computed() {
            Some(size) => size.clone(),
            None => return one,
        },
        Some(ir::Size::Terminator {
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
    let len = element_len(schema, ty, access);
    quote!(rt::fields::check_len(#size, #len, w)#wrap?; #one)
}

/// Before writing a list, what the reader uses to end it: a count must equal the list's
/// length; a `repeat-until` condition must hold for the last element and for no other. One
/// computed from the stream (`_io`) cannot be checked before writing.
fn list_check(field: &Field, repeat: &ir::Repeat<Writing>, list: &TokenStream) -> TokenStream {
    let name = &field.id;
    match repeat {
        ir::Repeat::Times(count) => match count.computed() {
            Some(count) => {
                quote!(rt::fields::check_count(#count, #list.len(), w).in_field(#name)?;)
            }
            None => quote!(),
        },
        ir::Repeat::Until(done) => match done.computed() {
            Some(done) => quote! {
                rt::fields::check_until(&#list, w, |item, _index| #done).in_field(#name)?;
            },
            None => quote!(),
        },
        ir::Repeat::One | ir::Repeat::Eos | ir::Repeat::Each(_) => quote!(),
    }
}

/// Statements writing a field's value, one or a list; `path` adds the field's path to errors.
fn write_list_or_one(
    schema: &Schema,
    field: &Field,
    ty: &FieldType,
    list: &ir::List<Writing>,
    access: &TokenStream,
    path: &TokenStream,
) -> TokenStream {
    if let ir::Repeat::One = list.repeat {
        return write_delimited(schema, ty, &list.one, access, path);
    }
    if let Some(fixed) = schema.bulk_layout(field, ty) {
        let size = fixed.size;
        let encode = match &fixed.kind {
            FixedKind::User(ty) => {
                let ident = struct_ident(&schema.types[*ty]);
                quote!(#ident::encode)
            }
            FixedKind::Number(s) => {
                let bytes = scalar::encode(*s, quote!(value));
                quote!(|value, b: &mut [u8; #size]| *b = #bytes)
            }
            FixedKind::Quat(_)
            | FixedKind::Vec3(_)
            | FixedKind::Str
            | FixedKind::Array(..)
            | FixedKind::Nothing => {
                let statements = encode_at(&fixed, quote!(value), 0);
                quote!(|value, b: &mut [u8; #size]| { #statements })
            }
        };
        return match schema.keeps_list_stored(field, ty) {
            true => quote!(rt::fields::write_fixed_list(w, &#access, #encode);),
            false => quote!(rt::fields::write_fixed(w, &#access, #encode);),
        };
    }
    let one = write_delimited(
        schema,
        ty,
        &list.one,
        &quote!(item),
        &quote!(.at_index(index) #path),
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
    value: &ir::Value<Writing>,
    access: &TokenStream,
    wrap: &TokenStream,
) -> TokenStream {
    match value {
        ir::Value::Number(s) => {
            let bytes = scalar::encode(*s, access.clone());
            quote!(w.bytes(&#bytes);)
        }
        ir::Value::Enum { raw, .. } => {
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
        ir::Value::Fixed(fixed) => {
            let size = fixed.size;
            let statements = encode_at(fixed, access.clone(), 0);
            quote! {
                let b = rt::fields::reserve_array::<#size>(w);
                #statements
            }
        }
        ir::Value::FixedStr(_) => quote!(w.bytes(#access.as_bytes());),
        ir::Value::Str { size, align, .. } => {
            let bytes = quote!(#access.as_bytes());
            let check = size_check(size, *align, &bytes, wrap);
            quote!(#check w.bytes(#bytes);)
        }
        ir::Value::Bytes { size, align } => {
            let bytes = quote!(#access.0.as_slice());
            let check = size_check(size, *align, &bytes, wrap);
            quote!(#check w.bytes(#bytes);)
        }
        ir::Value::Contents(bytes) => {
            let lit = proc_macro2::Literal::byte_string(bytes);
            quote!(w.bytes(#lit);)
        }
        ir::Value::Vlq => quote!(w.write_7bit_u32(#access);),
        ir::Value::Nothing => quote!(),
        ir::Value::Bits {
            width,
            big_endian,
            enum_idx,
        } => super::bits::write_bits(schema, *width, *big_endian, *enum_idx, access, wrap),
        ir::Value::BitPadding => quote!(w.align_to_byte(#access)#wrap?;),
        // Computed while reading; not part of the file.
        ir::Value::Remembered { .. } => quote!(),
        ir::Value::User { args, .. } => quote!(#access.write_to(w #(, #args)*)#wrap?;),
    }
}

/// Before writing a sized value: its length must be what the reader will compute.
fn size_check(
    size: &ir::Size<Writing>,
    align: usize,
    bytes: &TokenStream,
    wrap: &TokenStream,
) -> TokenStream {
    let expected = match size {
        ir::Size::Const(n) => {
            let n = *n as i64;
            quote!(#n)
        }
        ir::Size::Computed { len, .. } => match len.computed() {
            Some(len) => len.clone(),
            // Sizes computed from the stream (`_io`) cannot be checked before writing.
            None => return quote!(),
        },
        ir::Size::Terminator {
            byte,
            consume,
            eos_error,
            ..
        } => {
            return quote!(rt::fields::check_terminated(#bytes, #byte, #consume, #eos_error, w)#wrap?;);
        }
        ir::Size::Eos => return quote!(),
    };
    let expected = if align > 1 {
        quote!(rt::fields::padded_len(#expected, #align))
    } else {
        expected
    };
    quote!(rt::fields::check_len(#expected, #bytes.len(), w)#wrap?;)
}

/// The selector of the switch `field` holds, as the schema writes it (`frame_type`).
pub fn selector_source(field: &Field) -> String {
    match &field.ty {
        FieldType::Switch(switch) => crate::expr::to_source(&switch.on),
        _ => String::new(),
    }
}

/// Statements writing the switch value at `access` (a field's value, or one element of a list
/// whose elements each choose their case); `path` adds the value's path to errors.
fn write_switch(
    schema: &Schema,
    owner: usize,
    field: &Field,
    switch: &ir::Switch<Writing>,
    access: &TokenStream,
    path: &TokenStream,
) -> TokenStream {
    let enum_name = switch_enum_ident(schema, owner, field);
    let Some(selector) = switch.selector.computed() else {
        // The selector depends on the stream: write whichever variant is held.
        let arms = switch.cases.iter().map(|case| {
            let body = write_variant(schema, case, field, path);
            let variant = &case.ident;
            quote!(#enum_name::#variant(value) => { #body })
        });
        return quote!(match &#access { #(#arms)* });
    };
    let mut arms = Vec::new();
    for arm in &switch.arms {
        let pattern = arm.pattern.clone().unwrap_or_else(|| quote!(_));
        let case = &arm.case;
        let list_check = list_check(field, &case.list.repeat, &quote!(value));
        let body = write_variant(schema, case, field, path);
        let mismatch = if switch.cases.len() > 1 {
            let selector = selector_source(field);
            let called = &case.name;
            quote! {
                held => {
                    return Err(rt::fields::case_mismatch(w, #selector, #called, held.case_name()))
                    #path;
                }
            }
        } else {
            quote!()
        };
        let variant = &case.ident;
        arms.push(quote! {
            #pattern => match &#access {
                #enum_name::#variant(value) => { #list_check #body }
                #mismatch
            }
        });
    }
    if switch.arms.iter().all(|arm| arm.pattern.is_some()) {
        arms.push(quote! {
            _ => {
                return Err(rt::fields::no_case_matches(w)) #path;
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
/// the value's `path` (the field, or one element of it), as documents do.
fn write_variant(
    schema: &Schema,
    case: &ir::Case<Writing>,
    field: &Field,
    path: &TokenStream,
) -> TokenStream {
    let variant = &case.name;
    let path = quote!(.in_field(#variant) #path);
    write_list_or_one(schema, field, &case.ty, &case.list, &quote!(value), &path)
}
