//! Offsets inferred as following where their blocks are placed: an integer field whose one
//! use is the `pos` of a block read in the file's stream (`pos: ofs_str`, `pos: sector * 512`)
//! gives [`Field::relocation`] to that block. `normalize()` then moves a block that no longer
//! fits where its offset says (it grew into the next one, or its offset was set into other
//! data) to the end of the file and sets the offset (`rt::relocation`); `check()` reports the
//! offsets it would set.

use super::{folded, is_candidate, measuring_uses};
use crate::layout::offset_of;
use crate::model::*;

/// Sets [`Field::relocation`] of every block whose offset may follow it.
pub(super) fn infer_relocations(schema: &mut Schema, reached: &[String]) {
    // In a schema laid out by `-layout`, every block is the layout's.
    if schema.layout.is_some() {
        return;
    }
    let mut found = Vec::new();
    for (ty, def) in schema.types.iter().enumerate() {
        for (index, block) in def.fields.iter().enumerate() {
            if let Some(relocation) = relocation(schema, ty, block, reached) {
                found.push((ty, index, relocation));
            }
        }
    }
    for (ty, index, relocation) in found {
        schema.types[ty].fields[index].relocation = Some(relocation);
    }
}

/// The offset `block` of `ty` is placed at, when that is its one use.
fn relocation(schema: &Schema, ty: usize, block: &Field, reached: &[String]) -> Option<Relocation> {
    let in_own_or_file_stream = matches!(block.stream, Stream::Own | Stream::Root);
    if !in_own_or_file_stream || block.kept_as_read {
        return None;
    }
    let pos = folded(schema, ty, block.position.as_ref()?);
    let (offset, unit) = offset_of(schema, ty, &pos)?;
    let def = &schema.types[ty];
    let field = &def.fields[offset];
    let once =
        is_candidate(field) && !reached.contains(&field.id) && measuring_uses(def, &field.id) == 1;
    once.then_some(Relocation {
        offset,
        unit,
        follows: block.in_sequence && read_in_sequence(schema, block),
    })
}

/// True when the type of `block`, a value read by position in the file's stream, is read in
/// sequence somewhere too (a ZIP's `pk_section`: the root's `sections`, and a central directory
/// entry's `local_header`): the block is then bytes a sequential value holds, read again.
fn read_in_sequence(schema: &Schema, block: &Field) -> bool {
    let FieldType::User { ty, .. } = block.ty else {
        return false;
    };
    schema.types.iter().any(|def| {
        def.fields.iter().any(|f| {
            f.position.is_none()
                && !f.from_instance
                && f.substream.is_none()
                && f.decode.is_none()
                && f.ty.user_types().contains(&ty)
        })
    })
}
