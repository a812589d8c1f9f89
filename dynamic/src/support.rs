//! What the interpreter reads so far: a schema that uses anything else is refused before any
//! file is read, each use named with the place in the schema, rather than read differently
//! from the generated code.

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
    // The implicit parameters of a root that holds itself (`_parent.value` in the root type)
    // are no arguments to the interpreter, which follows its values' links to their holders.
    let followed = |p: &Param| p.id.starts_with("_parent") && p.default.is_some();
    if !schema.types[0].params.iter().all(followed) {
        refuse(&schema.types[0].at, "a root type with parameters");
    }
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
    if field.read_again && field.read_later.is_some() {
        // ELF's section headers: its first reads meet values not read yet where Kaitai, lazy,
        // would not look.
        refuse(
            at,
            "a list read again both once complete and once later values are read",
        );
    }
    if field.scan.is_some() {
        refuse(at, "a value searched for (`-scan`)");
    }
    let mut types = vec![&field.ty];
    while let Some(ty) = types.pop() {
        match ty {
            FieldType::Remembered { solve: Some(_), .. } => refuse(at, "`-solve`"),
            FieldType::Str { content, .. } if content.unit > 1 => {
                refuse(at, "text of two-byte code units")
            }
            FieldType::Array { elem, .. } => types.push(elem),
            FieldType::Switch(switch) => {
                types.extend(switch.cases.iter().map(|c| &c.ty));
                types.extend(switch.default.as_deref());
            }
            _ => {}
        }
    }
}
