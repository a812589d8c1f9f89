//! Lowers `-layout`: resolves each block path to the field read by position and the integer
//! field its `pos` names, and refuses what a new layout could not place.

use crate::error::{Located, YamlPath};
use crate::expr::{BinOp, Expr};
use crate::ksy::LayoutSpec;
use crate::model::*;

/// The largest alignment: padding is allocated per block, so the schema bounds it.
const MAX_ALIGN: u64 = 1 << 20;

/// Lowers the root's `-layout`, once every type's fields are lowered.
pub fn lower_layout(schema: &Schema, spec: &LayoutSpec, at: &YamlPath) -> Result<Layout, Located> {
    let keep_stored_order = one_of(&spec.order, ("order", ["stored", "listed"]), at)? == 0;
    let keep_stored_start = one_of(&spec.start, ("start", ["fields", "stored"]), at)? == 1;
    let align = spec.align.unwrap_or(1);
    if !(1..=MAX_ALIGN).contains(&align) {
        return Err(Located::new(
            &at.key("align"),
            format!("align must be between 1 and {MAX_ALIGN}"),
        ));
    }
    let mut blocks = Vec::new();
    for (i, path) in spec.blocks.iter().enumerate() {
        let at = at.key("blocks").index(i);
        let block = resolve_block(schema, path, &at)?;
        if !align.is_multiple_of(block.unit) {
            return Err(Located::new(
                &at,
                format!(
                    "`{path}` is placed in units of {} bytes: `align` must be a multiple of it",
                    block.unit
                ),
            ));
        }
        if blocks
            .iter()
            .any(|b: &LayoutBlock| (b.owner, b.field) == (block.owner, block.field))
        {
            return Err(Located::new(&at, format!("`{path}` is listed twice")));
        }
        blocks.push(block);
    }
    check_every_placed_field_is_laid_out(schema, &blocks, &at.key("blocks"))?;
    let clears = spec
        .clears
        .iter()
        .enumerate()
        .map(|(i, id)| resolve_cleared(schema, id, &at.key("clears").index(i)))
        .collect::<Result<_, _>>()?;
    Ok(Layout {
        blocks,
        keep_stored_order,
        align,
        keep_stored_start,
        clears,
    })
}

/// Which of a key's two words `value` is (the first when the key is absent), or an error at
/// the key that names both.
fn one_of(
    value: &Option<String>,
    (key, words): (&str, [&str; 2]),
    at: &YamlPath,
) -> Result<usize, Located> {
    let value = value.as_deref().unwrap_or(words[0]);
    words.iter().position(|w| *w == value).ok_or_else(|| {
        Located::new(
            &at.key(key),
            format!(
                "{key} must be `{}` or `{}`, not `{value}`",
                words[0], words[1]
            ),
        )
    })
}

/// `a.b[].c`: `a` and `b` are user-typed fields passed through (`[]`: every element of the
/// list), `c` is read by position.
fn resolve_block(schema: &Schema, path: &str, at: &YamlPath) -> Result<LayoutBlock, Located> {
    let segments: Vec<&str> = path.split('.').collect();
    let (last, passed) = segments.split_last().unwrap_or((&"", &[]));
    let mut owner = 0;
    let mut through = Vec::new();
    for segment in passed {
        let (id, each) = match segment.strip_suffix("[]") {
            Some(id) => (id, true),
            None => (*segment, false),
        };
        let field = find_field(schema, owner, id, at)?;
        let def = &schema.types[owner].fields[field];
        let FieldType::User { ty, .. } = def.ty else {
            return Err(Located::new(
                at,
                format!(
                    "`{id}` in `{path}` is not a user type: a block path passes through user types"
                ),
            ));
        };
        let is_list = def.repeat != Repeat::None;
        if is_list != each {
            let fix = if is_list {
                format!("`{id}` is a list: write `{id}[]` to lay out the block of each element")
            } else {
                format!("`{id}` is not a list: write `{id}` without `[]`")
            };
            return Err(Located::new(at, fix));
        }
        through.push(LayoutStep { owner, field });
        owner = ty;
    }
    let field = find_field(schema, owner, last, at)?;
    let def = &schema.types[owner].fields[field];
    let Some(pos) = &def.position else {
        return Err(Located::new(
            at,
            format!("`{last}` is not read by position (`pos`): only placed blocks are laid out"),
        ));
    };
    let (offset_field, unit) = offset_of(schema, owner, pos).ok_or_else(|| {
        Located::new(
            at,
            format!(
                "the `pos` of `{last}` must name an integer field of `{}`, possibly times a constant \
                 (`offset`, `sector * 2048`), so that a new layout can store the block's offset",
                schema.types[owner].id
            ),
        )
    })?;
    Ok(LayoutBlock {
        through,
        owner,
        field,
        offset_field,
        unit,
    })
}

fn find_field(schema: &Schema, owner: usize, id: &str, at: &YamlPath) -> Result<usize, Located> {
    let def = &schema.types[owner];
    def.fields
        .iter()
        .position(|f| f.id == id)
        .ok_or_else(|| Located::new(at, format!("type `{}` has no field `{id}`", def.id)))
}

/// The stored integer field and unit of a `pos` written `offset` or `offset * unit`.
pub(crate) fn offset_of(schema: &Schema, owner: usize, pos: &Expr) -> Option<(usize, u64)> {
    let (name, unit) = match pos {
        Expr::Name(name) => (name, 1),
        Expr::Binary(BinOp::Mul, a, b) => match (a.as_ref(), b.as_ref()) {
            (Expr::Name(name), Expr::Int(unit)) | (Expr::Int(unit), Expr::Name(name)) => {
                (name, u64::try_from(*unit).ok().filter(|u| *u > 0)?)
            }
            _ => return None,
        },
        _ => return None,
    };
    let fields = &schema.types[owner].fields;
    let index = fields.iter().position(|f| &f.id == name)?;
    let field = &fields[index];
    let plain = field.position.is_none()
        && field.cond.is_none()
        && field.repeat == Repeat::None
        && field.derived.is_none()
        && matches!(field.ty, FieldType::Number(Scalar::Int(_)));
    plain.then_some((index, unit))
}

/// A field read by position and left out of the layout would keep its old offset and collide
/// with the blocks laid out around it.
fn check_every_placed_field_is_laid_out(
    schema: &Schema,
    blocks: &[LayoutBlock],
    at: &YamlPath,
) -> Result<(), Located> {
    for (owner, def) in schema.types.iter().enumerate() {
        for (field, f) in def.fields.iter().enumerate() {
            let listed = blocks.iter().any(|b| (b.owner, b.field) == (owner, field));
            if f.position.is_some() && !listed {
                return Err(Located::new(
                    at,
                    format!(
                        "`{}` of type `{}` is read by position but not in `-layout/blocks`",
                        f.id, def.id
                    ),
                ));
            }
        }
    }
    Ok(())
}

fn resolve_cleared(schema: &Schema, id: &str, at: &YamlPath) -> Result<usize, Located> {
    let field = find_field(schema, 0, id, at)?;
    let def = &schema.types[0].fields[field];
    if def.cond.is_none() && def.repeat == Repeat::None {
        return Err(Located::new(
            at,
            format!("`{id}` cannot be emptied: `clears` takes lists and conditional fields"),
        ));
    }
    Ok(field)
}
