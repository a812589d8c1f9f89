//! `-layout` with a schema at run time, as the generated code lays blocks out: every block read
//! by position is measured and packed after the root's sequential bytes (`rt::__private::layout::lay_out`),
//! its stored offset compared with where it goes (`check()`) or set to it (`normalize()`), the
//! free-space lists emptied first and the unclaimed bytes replaced by the alignment's padding.
//! Both walk the value in the generated code's order: blocks as listed, lists in order.

use skelcodec_codegen::model::{Layout, LayoutBlock, Schema};
use skelcodec_runtime::{self as rt, Error, ErrorKind, Mismatch, PathSegment};

use crate::eval::stored_len;
use crate::value::{Link, Value};

/// One block as found: the structure holding its offset, the path to that structure, and the
/// block's stored position and length.
struct Found<'s> {
    owner: Link,
    path: Vec<PathSegment>,
    block: &'s LayoutBlock,
    measured: rt::__private::layout::Block,
}

/// The root's offsets that disagree with the layout (the value measured already).
pub(crate) fn check(schema: &Schema, root: &Link) -> Vec<Mismatch> {
    let Some(layout) = &schema.layout else {
        return Vec::new();
    };
    let (found, laid) = lay_out(schema, layout, root);
    (found.iter().zip(laid.offsets))
        .filter_map(|(block, at)| {
            let stored = block.stored_offset();
            let computed = at / i128::from(block.block.unit);
            (stored != computed).then(|| Mismatch {
                path: block.offset_path(schema),
                stored,
                computed,
            })
        })
        .collect()
}

/// Empties the root's free-space lists (`clears`): they describe the old layout.
pub(crate) fn clear_free_space(schema: &Schema, root: &Link) {
    let Some(layout) = &schema.layout else {
        return;
    };
    for &index in &layout.clears {
        let field = &schema.types[root.ty()].fields[index];
        let empty = match field.cond {
            Some(_) => Value::Absent,
            None => Value::List(Vec::new()),
        };
        root.set_field(index, empty);
    }
}

/// Moves every block to its place in the new layout (the value measured, its sizes final) and
/// replaces the unclaimed bytes by the alignment's padding; returns the offsets that changed.
pub(crate) fn move_blocks(schema: &Schema, root: &Link) -> rt::Result<Vec<Mismatch>> {
    let Some(layout) = &schema.layout else {
        return Ok(Vec::new());
    };
    let (found, rt::__private::layout::Laid { offsets, padding }) = lay_out(schema, layout, root);
    let mut changed = Vec::new();
    for (block, at) in found.iter().zip(offsets) {
        let (stored, path) = (block.stored_offset(), block.offset_path(schema));
        let computed = rt::__private::layout::stored_offset::<i64>(at, block.block.unit)
            .map_err(|e| e.in_path(path.clone()))?;
        if stored == i128::from(computed) {
            continue;
        }
        let offset = &schema.types[block.block.owner].fields[block.block.offset_field];
        let value = Value::of_int(&offset.ty, computed).ok_or_else(|| {
            let message = format!(
                "the block would start at byte {at}, beyond what `{}` can hold",
                offset.id
            );
            Error::new(0, ErrorKind::Encode(message)).in_path(path.clone())
        })?;
        block.owner.set_field(block.block.offset_field, value);
        changed.push(Mismatch {
            path,
            stored,
            computed: computed.into(),
        });
    }
    root.node().unclaimed.replace(Some(padding));
    Ok(changed)
}

/// Every present block, in walk order, and where the layout puts each.
fn lay_out<'s>(
    schema: &Schema,
    layout: &'s Layout,
    root: &Link,
) -> (Vec<Found<'s>>, rt::__private::layout::Laid) {
    let found: Vec<Found<'s>> = (layout.blocks.iter())
        .flat_map(|block| blocks_of(schema, block, root))
        .collect();
    let blocks: Vec<rt::__private::layout::Block> = found.iter().map(|f| f.measured).collect();
    let (start, end) = root.node().span.get();
    let fields_end = end.saturating_sub(start) as u64;
    let start = match layout.keep_stored_start {
        true => rt::__private::layout::Start::Stored(fields_end),
        false => rt::__private::layout::Start::Fields(fields_end),
    };
    let laid =
        rt::__private::layout::lay_out(&blocks, start, layout.align, layout.keep_stored_order);
    (found, laid)
}

/// The present blocks of `block` under `root`: through each field passed, every element of a
/// list, skipping absent values.
fn blocks_of<'s>(schema: &Schema, block: &'s LayoutBlock, root: &Link) -> Vec<Found<'s>> {
    let mut owners = vec![(root.clone(), Vec::new())];
    for step in &block.through {
        let name = crate::intern::interned(&schema.types[step.owner].fields[step.field].id);
        owners = (owners.into_iter())
            .flat_map(|(link, path)| {
                let held = link.node().fields.borrow()[step.field].clone();
                let structs: Vec<(Option<usize>, _)> = match held {
                    Some(Value::Struct(node)) => vec![(None, node)],
                    Some(Value::List(items)) => (items.into_iter().enumerate())
                        .filter_map(|(i, item)| match item {
                            Value::Struct(node) => Some((Some(i), node)),
                            _ => None,
                        })
                        .collect(),
                    _ => Vec::new(),
                };
                (structs.into_iter()).map(move |(index, node)| {
                    let mut path = path.clone();
                    path.push(PathSegment::Field(name));
                    path.extend(index.map(PathSegment::Index));
                    (Link::new(node, Some(link.clone())), path)
                })
            })
            .collect();
    }
    (owners.into_iter())
        .filter_map(|(owner, path)| {
            let node = owner.node();
            let fields = node.fields.borrow();
            let value = fields[block.field]
                .as_ref()
                .filter(|v| !matches!(v, Value::Absent))?;
            let stored = match &fields[block.offset_field] {
                Some(Value::Int(n)) => n.as_i128() * i128::from(block.unit),
                _ => return None,
            };
            let measured = rt::__private::layout::Block {
                stored,
                len: stored_len(value) as u64,
            };
            Some(Found {
                owner: owner.clone(),
                path,
                block,
                measured,
            })
        })
        .collect()
}

impl Found<'_> {
    /// The block's stored offset, in its offset field's units.
    fn stored_offset(&self) -> i128 {
        self.measured.stored / i128::from(self.block.unit.max(1))
    }

    /// How `check()` names the block's offset field.
    fn offset_path(&self, schema: &Schema) -> String {
        let offset = &schema.types[self.block.owner].fields[self.block.offset_field];
        let last = PathSegment::Field(crate::intern::interned(&offset.id));
        rt::error::render_path(self.path.iter().chain([&last]))
    }
}
