//! What the interpreter cannot read without its caller: custom processors, Rust types of the
//! crate that expands a codec, which a caller registers by name. A caller that has none to give
//! (the command line) refuses a schema that names one before any file is read, each use named
//! with the place in the schema (see [`crate::Interpreter::require_processors`]).

use skelcodec_codegen::model::*;

use crate::process::{Registry, custom_name};

/// Every use in `schema` of a custom processor `registered` lacks, with where it is.
pub(crate) fn unregistered(schema: &Schema, registered: &Registry) -> Vec<String> {
    let mut found = Vec::new();
    let mut refuse = |at: &skelcodec_codegen::YamlPath, what: &str| {
        let use_ = format!("{at}: {what}");
        if !found.contains(&use_) {
            found.push(use_);
        }
    };
    // Only what a file of the root type can hold: an imported schema's other types are not.
    for def in reached_types(schema)
        .into_iter()
        .map(|ty| &schema.types[ty])
    {
        for field in &def.fields {
            field_uses(field, registered, &mut refuse);
        }
    }
    found
}

/// The types a value of the root type can hold, at any depth, the root first.
fn reached_types(schema: &Schema) -> Vec<usize> {
    let mut reached = vec![0];
    let mut next = 0;
    while let Some(&ty) = reached.get(next) {
        next += 1;
        for field in &schema.types[ty].fields {
            for held in field.ty.user_types() {
                if !reached.contains(&held) {
                    reached.push(held);
                }
            }
        }
    }
    reached
}

fn field_uses(
    field: &Field,
    registered: &Registry,
    refuse: &mut impl FnMut(&skelcodec_codegen::YamlPath, &str),
) {
    if let Some(Decode {
        process: Some(Process::Custom { modules, name, .. }),
        ..
    }) = &field.decode
    {
        let name = custom_name(modules, name);
        if !registered.has(&name) {
            refuse(&field.at, &format!("the custom processor `{name}`"));
        }
    }
}
