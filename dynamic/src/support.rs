//! What the interpreter cannot read: custom processors, Rust types of the crate that expands
//! a codec. A schema that names one is refused before any file is read, each use named with
//! the place in the schema, rather than read differently from the generated code.

use skelcodec_codegen::model::*;

/// Every use in `schema` of what the interpreter does not read yet, with where it is.
pub(crate) fn unsupported(schema: &Schema) -> Vec<String> {
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
            field_uses(field, &mut refuse);
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

fn field_uses(field: &Field, refuse: &mut impl FnMut(&skelcodec_codegen::YamlPath, &str)) {
    let at = &field.at;
    if let Some(Decode {
        process: Some(Process::Custom { name, .. }),
        ..
    }) = &field.decode
    {
        // A Rust type of the crate that expands a codec: the interpreter has none.
        refuse(at, &format!("the custom processor `{name}`"));
    }
}
