//! Where bit fields leave a byte partly read: a byte-aligned field after them starts at the
//! next byte (Kaitai's `alignToByte`), dropping the rest. The compiler adds a padding field
//! there (`_bits_before_<field>`, and `_bits_at_end` for a type read from a stream of its own
//! that ends inside a byte) so that the dropped bits are kept and written back.

use crate::error::YamlPath;
use crate::model::*;

/// How deep user types are followed to find whether a value ends inside a byte.
const MAX_DEPTH: usize = 16;

/// Adds the padding fields to every type that has bit fields.
pub(super) fn insert_bit_padding(schema: &mut Schema) {
    if !schema.types.iter().any(|t| {
        t.fields
            .iter()
            .any(|f| matches!(f.ty, FieldType::Bits { .. }))
    }) {
        return;
    }
    let own_stream: Vec<bool> = (0..schema.types.len())
        .map(|ty| ty == 0 || !read_in_stream(schema, ty))
        .collect();
    for (ty, own_stream) in own_stream.into_iter().enumerate() {
        let fields = std::mem::take(&mut schema.types[ty].fields);
        let mut padded = Vec::with_capacity(fields.len());
        // Bits read past the last byte boundary, when the schema fixes how many (a run of
        // unconditional bit fields): 32 bits of flags end on a boundary and need no padding.
        let mut offset = Some(0u32);
        for field in fields {
            if field.position.is_none() {
                let partial = offset != Some(0);
                if partial && byte_aligned(schema, &field, 0) {
                    padded.push(padding(format!("_bits_before_{}", field.id), &field.at));
                    offset = Some(0);
                }
                offset = match (&field.ty, offset) {
                    (FieldType::Bits { width, .. }, Some(bits))
                        if field.cond.is_none() && field.repeat == Repeat::None =>
                    {
                        Some((bits + u32::from(*width)) % 8)
                    }
                    _ if ends_inside_a_byte(schema, &field, offset != Some(0), 0) => None,
                    _ => Some(0),
                };
            }
            padded.push(field);
        }
        let partial = offset != Some(0);
        if partial && own_stream {
            let at = schema.types[ty].at.clone();
            let at_end = padding("_bits_at_end".to_owned(), &at);
            let first_positioned = padded.iter().position(|f| f.position.is_some());
            padded.insert(first_positioned.unwrap_or(padded.len()), at_end);
        }
        schema.types[ty].fields = padded;
    }
}

/// A field the compiler adds to keep the bits dropped at a byte boundary.
fn padding(id: String, at: &YamlPath) -> Field {
    let doc = "Bits dropped to reach a byte boundary after bit fields, kept to be written back.";
    Field::added(&id, doc, FieldType::BitPadding, at)
}

/// Whether a value of `field` starts at a byte boundary: everything but bit fields, and user
/// types (or switches of them) whose first field does. A user type that starts with bit fields
/// continues inside the byte its parent left, as Kaitai's do; one read from bytes of its own
/// starts at the next byte.
fn byte_aligned(schema: &Schema, field: &Field, depth: usize) -> bool {
    if field.substream.is_some() || field.decode.is_some() {
        return true;
    }
    let starts_aligned = |ty: &FieldType| match ty {
        FieldType::Bits { .. } | FieldType::BitPadding | FieldType::Remembered { .. } => false,
        FieldType::User { ty, .. } => {
            depth < MAX_DEPTH
                && schema.types[*ty]
                    .fields
                    .iter()
                    .find(|f| f.position.is_none())
                    .is_some_and(|first| byte_aligned(schema, first, depth + 1))
        }
        _ => true,
    };
    match &field.ty {
        FieldType::Switch(switch) => switch
            .cases
            .iter()
            .map(|c| &c.ty)
            .chain(switch.default.as_deref())
            .all(starts_aligned),
        ty => starts_aligned(ty),
    }
}

/// Whether the stream may be inside a byte after `field`, given whether it was before.
fn ends_inside_a_byte(schema: &Schema, field: &Field, partial: bool, depth: usize) -> bool {
    if field.substream.is_some() || field.decode.is_some() {
        return false;
    }
    let mut types = vec![&field.ty];
    if let FieldType::Switch(switch) = &field.ty {
        types = switch.cases.iter().map(|c| &c.ty).collect();
        types.extend(switch.default.as_deref());
    }
    types.into_iter().any(|ty| match ty {
        FieldType::Bits { .. } => true,
        FieldType::Remembered { .. } => partial,
        FieldType::User { ty, .. } => {
            // Absent or empty, the value leaves the stream as it was.
            (partial && (field.cond.is_some() || field.repeat != Repeat::None))
                || type_ends_inside_a_byte(schema, *ty, partial, depth + 1)
        }
        _ => false,
    })
}

/// Whether reading a value of type `ty` may leave the stream inside a byte.
fn type_ends_inside_a_byte(schema: &Schema, ty: usize, partial: bool, depth: usize) -> bool {
    if depth > MAX_DEPTH {
        return false;
    }
    schema.types[ty]
        .fields
        .iter()
        .filter(|f| f.position.is_none())
        .fold(partial, |partial, field| {
            let partial = partial && !byte_aligned(schema, field, depth);
            ends_inside_a_byte(schema, field, partial, depth)
        })
}

/// Whether some field reads a value of type `ty` in its parent's stream (not from a substream
/// of its own).
fn read_in_stream(schema: &Schema, ty: usize) -> bool {
    schema.types.iter().any(|t| {
        t.fields
            .iter()
            .any(|f| f.substream.is_none() && f.decode.is_none() && f.ty.user_types().contains(&ty))
    })
}
