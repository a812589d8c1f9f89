//! Type definitions: structs with public fields, enums, and the enums of switch fields.

use crate::sanitization::case_ident;
use proc_macro2::TokenStream;
use quote::quote;

use crate::model::switch_variants;
use crate::model::*;
use crate::repr::scalar;
use crate::sanitization::switch_enum_ident;
use crate::sanitization::{enum_ident, field_ident, struct_ident, variant_ident};

/// Doc attributes for an optional doc string plus extra lines.
pub fn docs(doc: Option<&str>, extra: &[String]) -> TokenStream {
    let lines = doc
        .into_iter()
        .flat_map(|d| d.trim().lines().map(str::to_owned).collect::<Vec<_>>())
        .chain(extra.iter().cloned());
    let attrs = lines.map(|line| {
        let line = format!(" {}", line.trim_end());
        quote!(#[doc = #line])
    });
    quote!(#(#attrs)*)
}

/// The Rust type of one element of `ty`.
pub fn element_type(schema: &Schema, owner: usize, field: &Field, ty: &FieldType) -> TokenStream {
    match ty {
        FieldType::Number(s) => scalar::scalar_type(*s),
        FieldType::Remembered { ty, .. } => scalar::int_type(*ty),
        FieldType::Vlq => quote!(u32),
        FieldType::Bits {
            width, enum_idx, ..
        } => super::bits::bits_type(schema, *width, *enum_idx),
        FieldType::BitPadding => quote!(u8),
        FieldType::Enum { enum_idx, .. } => {
            let name = enum_ident(&schema.enums[*enum_idx]);
            quote!(#name)
        }
        FieldType::Quat(s) => {
            let c = scalar::scalar_type(*s);
            quote!(rt::Quat<#c>)
        }
        FieldType::Vec3(s) => {
            let c = scalar::scalar_type(*s);
            quote!(rt::Vec3<#c>)
        }
        FieldType::Str {
            size: Size::Const(n),
            align,
            ..
        } if *align <= 1 => quote!(rt::FixedStr<#n>),
        FieldType::Str {
            terminated: true, ..
        } => quote!(rt::VarStr),
        FieldType::Str { .. } => quote!(rt::Text),
        FieldType::Bytes { .. } => quote!(rt::RawBytes),
        // Only repeated or conditional contents are kept: how many times, or whether.
        FieldType::Contents(_) | FieldType::Nothing => quote!(()),
        FieldType::User { ty: user, .. } => {
            let name = struct_ident(&schema.types[*user]);
            if schema.boxes(owner, field, ty) {
                quote!(::std::boxed::Box<#name>)
            } else {
                quote!(#name)
            }
        }
        FieldType::Switch(_) => {
            let name = switch_enum_ident(schema, owner, field);
            quote!(#name)
        }
        FieldType::Array { elem, len } => {
            let one = element_type(schema, owner, field, elem);
            quote!([#one; #len])
        }
    }
}

/// The Rust type of one value `field` stores: a value decoded from its stored bytes keeps them
/// (`rt::Decoded`).
pub fn stored_type(schema: &Schema, owner: usize, field: &Field, ty: &FieldType) -> TokenStream {
    let one = element_type(schema, owner, field, ty);
    match field.decode {
        Some(_) => quote!(rt::Decoded<#one>),
        None => one,
    }
}

/// The Rust type of a whole field: repeated fields are `Vec`s (a repeated switch is an enum of
/// `Vec`s when its selector is fixed for the whole list, a `Vec` of the enum when each element
/// chooses its case), conditional ones `Option`s and parse instances `rt::Instance`s.
pub fn field_type(schema: &Schema, owner: usize, field: &Field) -> TokenStream {
    let one = match &field.ty {
        // Each case of a decoded switch keeps its own stored bytes.
        FieldType::Switch(_) => element_type(schema, owner, field, &field.ty),
        ty => stored_type(schema, owner, field, ty),
    };
    let many = match &field.repeat {
        Repeat::None => one,
        _ if field.switches_whole_list() => one,
        _ => list_type(schema, field, &field.ty, one),
    };
    if field.parse_instance {
        quote!(rt::Instance<#many>)
    } else if field.cond.is_some() {
        quote!(Option<#many>)
    } else {
        many
    }
}

/// The Rust type of a list of `field`'s elements of type `ty`, each an `elem`.
fn list_type(schema: &Schema, field: &Field, ty: &FieldType, elem: TokenStream) -> TokenStream {
    match schema.keeps_list_stored(field, ty) {
        true => quote!(rt::FixedList<#elem>),
        false => quote!(Vec<#elem>),
    }
}

/// The struct definition of a user type.
pub fn struct_def(schema: &Schema, ty: usize) -> TokenStream {
    let def = &schema.types[ty];
    let name = struct_ident(def);
    let doc = docs(
        Some(def.doc.as_deref().unwrap_or(&format!("Type `{}`.", def.id))),
        &[],
    );
    let fields = def
        .fields
        .iter()
        .filter(|f| f.stores_value())
        .map(|f| {
            let ident = field_ident(&f.id);
            let rust_ty = field_type(schema, ty, f);
            let mut extra = Vec::new();
            if let Some(checksum) = &f.checksum {
                extra.push(String::new());
                extra.push(format!(
                    "Derived: the {} of the bytes `{}` are written as. Stored as read; `check()` reports a disagreement, `normalize()` recomputes it.",
                    checksum.algorithm.name(),
                    checksum.over.join("`, `")
                ));
            }
            if let Some(derived) = &f.derived {
                let inferred = f.derived_inferred.as_ref().map_or(String::new(), |i| {
                    format!(" (inferred: it is the {} of `{}`)", i.role, i.user)
                });
                extra.push(String::new());
                extra.push(format!(
                    "Derived{inferred}: `{}`. Stored as read; `check()` reports a disagreement, `normalize()` recomputes it.",
                    source_of(derived)
                ));
            }
            if f.derived_elsewhere {
                extra.push(String::new());
                extra.push(
                    "Derived by what holds it (its `-derived` uses `_parent` or `_root`): stored as read; `check()` reports a disagreement, `normalize()` recomputes it."
                        .to_owned(),
                );
            }
            let undocumented;
            let doc = match &f.doc {
                Some(doc) => doc,
                None => {
                    undocumented = as_defined(schema, f);
                    &undocumented
                }
            };
            let doc = docs(Some(doc), &extra);
            // Most files end with their value: documents leave the empty rest out.
            let serde = if f.is_kept_tail() {
                Some(quote!(#[serde(default, skip_serializing_if = "rt::RawBytes::is_empty")]))
            } else {
                f.is_presence_flag()
                    .then(|| quote!(#[serde(default, with = "rt::present")]))
            };
            quote!(#doc #serde pub #ident: #rust_ty)
        });
    let kept_params = def.params.iter().filter(|p| p.kept).map(|p| {
        let ident = field_ident(&p.id);
        let ty = crate::repr::param_value_type(schema, p);
        let fallback = format!("`{}`.", p.id);
        let doc = docs(
            Some(p.doc.as_deref().unwrap_or(&fallback)),
            &["The argument this value was read with (each element of its list has its own): instances use it, and the writer refuses a value written with another.".to_owned()],
        );
        quote!(#doc pub #ident: #ty,)
    });
    let look_aheads = def.look_aheads().map(|instance| {
        let ident = field_ident(&instance.id);
        let doc = docs(
            instance.doc.as_deref(),
            &["Read at a position, once, where the reader first needed it (-1 past the end): never written and left out of documents, since the bytes there belong to other fields, which decide it.".to_owned()],
        );
        let ty = match &instance.kind {
            InstanceKind::Peek { cond: Some(_), .. } => quote!(Option<rt::LookAhead>),
            _ => quote!(rt::LookAhead),
        };
        quote!(#doc #[serde(skip)] pub #ident: #ty,)
    });
    let stream = def.keeps_stream.then(|| {
        quote! {
            /// The stream the value was read from, which instances elsewhere read from
            /// (`io: x._io`); never written, and left out of documents.
            #[serde(skip)]
            pub _io: rt::Stream,
        }
    });
    let unclaimed = schema.keeps_unclaimed(ty).then(|| {
        quote! {
            /// Bytes of the file that no field claims (between or after the parts found by
            /// offset), kept with their offsets so that the file round-trips.
            #[serde(default)]
            pub unclaimed: Vec<rt::fields::Gap>,
        }
    });
    quote! {
        #doc
        #[derive(Debug, Clone, PartialEq, rt::serde::Serialize, rt::serde::Deserialize)]
        // A misspelt key in an edited document is an error, not an edit silently lost.
        #[serde(crate = "rt::serde", deny_unknown_fields)]
        pub struct #name {
            #(#kept_params)*
            #(#fields,)*
            #(#look_aheads)*
            #stream
            #unclaimed
        }
    }
}

/// The enum definition of a switch field.
pub fn switch_def(schema: &Schema, owner: usize, field: &Field, switch: &Switch) -> TokenStream {
    let name = switch_enum_ident(schema, owner, field);
    // Each variant holds the whole list, or one element of a list of the enum.
    let repeated = field.switches_whole_list();
    let variants = switch_variants(schema, switch)
        .variants
        .into_iter()
        .map(|v| {
            let (variant, name) = (case_ident(&v.name), &v.name);
            let one = stored_type(schema, owner, field, v.ty);
            let doc = format!(" Values of `{name}`.");
            if repeated {
                let many = list_type(schema, field, v.ty, one);
                quote!(#[doc = #doc] #[serde(rename = #name)] #variant(#many))
            } else {
                quote!(#[doc = #doc] #[serde(rename = #name)] #variant(#one))
            }
        });
    let doc = match field.switches_per_element() {
        true => format!(
            " One element of `{}` of `{}`: its layout follows the selector of the switch for it.",
            field.id, schema.types[owner].id
        ),
        false => format!(
            " `{}` of `{}`: its layout follows the selector of the switch.",
            field.id, schema.types[owner].id
        ),
    };
    let names = switch_variants(schema, switch)
        .variants
        .into_iter()
        .map(|v| {
            let (variant, name) = (case_ident(&v.name), v.name);
            quote!(Self::#variant(..) => #name)
        });
    quote! {
        #[doc = #doc]
        #[derive(Debug, Clone, PartialEq, rt::serde::Serialize, rt::serde::Deserialize)]
        #[serde(crate = "rt::serde")]
        pub enum #name {
            #(#variants,)*
        }

        impl #name {
            /// The name of the case the value holds, as documents write it.
            pub fn case_name(&self) -> &'static str {
                match self {
                    #(#names,)*
                    // A switch without cases has no values.
                    #[allow(unreachable_patterns)]
                    _ => "",
                }
            }
        }
    }
}

/// An enum of the schema, with a fallback for values it does not name.
pub fn enum_def(def: &EnumDef) -> TokenStream {
    let name = enum_ident(def);
    let variants = def.variants.iter().map(|v| {
        let ident = variant_ident(v);
        let id = &v.id;
        let doc = docs(v.doc.as_deref(), &[format!("Value {}.", v.value)]);
        quote!(#doc #[serde(rename = #id)] #ident)
    });
    let from_arms = def.variants.iter().map(|v| {
        let ident = variant_ident(v);
        let value = v.value;
        quote!(#value => Self::#ident)
    });
    let raw_arms = def.variants.iter().map(|v| {
        let ident = variant_ident(v);
        let value = v.value;
        quote!(Self::#ident => #value)
    });
    let names = def.variants.iter().map(|v| &v.id);
    let name_arms = def.variants.iter().map(|v| {
        let (ident, id) = (variant_ident(v), &v.id);
        quote!(#id => ::core::option::Option::Some(Self::#ident))
    });
    let doc = format!(" Enum `{}`.", def.id);
    quote! {
        #[doc = #doc]
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, rt::serde::Serialize)]
        #[serde(crate = "rt::serde")]
        pub enum #name {
            #(#variants,)*
            /// A value the schema does not name, kept as read.
            #[serde(untagged)]
            Unknown(i64),
        }

        // A number that the schema names (`16` for `clump`) becomes the named variant, as the
        // reader makes it, so that an edited document reads back as written; a name the enum
        // does not have is refused with those it has.
        impl<'de> rt::serde::Deserialize<'de> for #name {
            fn deserialize<D: rt::serde::Deserializer<'de>>(d: D) -> ::core::result::Result<Self, D::Error> {
                rt::enums::deserialize(d)
            }
        }

        impl rt::enums::SchemaEnum for #name {
            const NAMES: &'static [&'static str] = &[#(#names),*];

            fn from_name(name: &str) -> ::core::option::Option<Self> {
                match name {
                    #(#name_arms,)*
                    _ => ::core::option::Option::None,
                }
            }

            fn from_number(raw: i64) -> Self {
                Self::from_raw(raw)
            }
        }

        impl #name {
            /// The variant for a stored value.
            pub fn from_raw(raw: i64) -> Self {
                match raw {
                    #(#from_arms,)*
                    other => Self::Unknown(other),
                }
            }

            /// The stored value.
            pub fn raw(self) -> i64 {
                match self {
                    #(#raw_arms,)*
                    Self::Unknown(raw) => raw,
                }
            }
        }
    }
}

/// The doc of a field the schema does not document: what its definition says
/// (`` `name`: `strz`, 24 bytes. ``).
fn as_defined(schema: &Schema, f: &Field) -> String {
    let mut doc = format!("`{}`: `{}`", f.id, f.ty.as_written(schema));
    if let FieldType::Str { size, .. } | FieldType::Bytes { size, .. } = &f.ty {
        match size {
            Size::Const(n) => doc.push_str(&format!(", {n} bytes")),
            Size::Expr(e) => doc.push_str(&format!(", `{}` bytes", source_of(e))),
            _ => {}
        }
    }
    match &f.repeat {
        Repeat::None => {}
        Repeat::Expr(e) => doc.push_str(&format!(", `{}` of them", source_of(e))),
        Repeat::Eos => doc.push_str(", repeated to the end of its stream"),
        Repeat::Until(e) => doc.push_str(&format!(", repeated until `{}`", source_of(e))),
        Repeat::ForEach(e) => doc.push_str(&format!(", one for each of `{}`", source_of(e))),
    }
    if let Some(cond) = &f.cond {
        doc.push_str(&format!(", when `{}`", source_of(cond)));
    }
    doc + "."
}

/// Source text of an expression, for docs.
pub fn source_of(e: &crate::expr::Expr) -> String {
    crate::expr::to_source(e)
}
