//! Fixed layouts: values whose every instance takes the same bytes, decoded from and encoded
//! into byte arrays at constant offsets (the bulk path for arrays of key frames).

use super::*;

/// A value of a fixed layout, and the bytes it takes.
#[derive(Debug, Clone, PartialEq)]
pub struct Fixed {
    /// Bytes every value takes.
    pub size: usize,
    /// What the value is.
    pub kind: FixedKind,
}

/// The kinds of value with a fixed layout.
#[derive(Debug, Clone, PartialEq)]
pub enum FixedKind {
    /// A number.
    Number(Scalar),
    /// A quaternion.
    Quat(Scalar),
    /// A three-component vector.
    Vec3(Scalar),
    /// Text of a constant size.
    Str,
    /// A fixed-size array.
    Array(Box<Fixed>, usize),
    /// A user type of a fixed layout (see [`Schema::fixed_size`]).
    User(usize),
    /// No bytes at all.
    Nothing,
}

impl Schema {
    /// The layout of every value of `ty`, when it is fixed and also decodes without failing:
    /// such values are read and written in bulk. Enums (whose unknown values may not fit back)
    /// and `contents` (which must be checked) are excluded.
    pub fn fixed_layout(&self, ty: &FieldType) -> Option<Fixed> {
        self.fixed_layout_within(ty, 0)
    }

    /// The layout of each element of `field`'s list of elements of type `ty`, when the list is
    /// read and written in bulk: elements of a fixed layout, neither cut into substreams of
    /// their own nor decoded by a `process`.
    pub fn bulk_layout(&self, field: &Field, ty: &FieldType) -> Option<Fixed> {
        self.fixed_layout(ty)
            .filter(|_| field.substream.is_none() && field.decode.is_none())
    }

    /// Whether `field`'s list of elements of type `ty` is an `rt::FixedList`: a counted list
    /// read in bulk, kept as the bytes it was read from until it is looked at or changed.
    pub fn keeps_list_stored(&self, field: &Field, ty: &FieldType) -> bool {
        matches!(field.repeat, Repeat::Expr(_)) && self.bulk_layout(field, ty).is_some()
    }

    /// Bytes every value of `ty` takes, when it is fixed.
    pub fn fixed_size_of(&self, ty: &FieldType) -> Option<usize> {
        self.fixed_layout(ty).map(|f| f.size)
    }

    /// The layouts of the fields of type `ty`, when the type has a fixed layout: no
    /// conditions, no repetition, no switches, no parameters, nothing to validate. Such types
    /// are read and written in bulk.
    pub fn fixed_fields(&self, ty: usize) -> Option<Vec<Fixed>> {
        self.fixed_fields_within(ty, 0)
    }

    /// Bytes every value of type `ty` takes, when the type has a fixed layout.
    pub fn fixed_size(&self, ty: usize) -> Option<usize> {
        self.fixed_size_within(ty, 0)
    }

    fn fixed_size_within(&self, ty: usize, depth: usize) -> Option<usize> {
        self.fixed_fields_within(ty, depth)?
            .iter()
            .try_fold(0usize, |total, f| total.checked_add(f.size))
    }

    /// [`Schema::fixed_layout`] `depth` user types down: a type that always contains itself
    /// (refused later, by the checker) must not recurse forever here.
    fn fixed_layout_within(&self, ty: &FieldType, depth: usize) -> Option<Fixed> {
        let fixed = |size: usize, kind| Some(Fixed { size, kind });
        match ty {
            FieldType::Number(s) => fixed(s.size(), FixedKind::Number(*s)),
            FieldType::Nothing => fixed(0, FixedKind::Nothing),
            FieldType::Quat(s) => fixed(4 * s.size(), FixedKind::Quat(*s)),
            FieldType::Vec3(s) => fixed(3 * s.size(), FixedKind::Vec3(*s)),
            FieldType::Str {
                size: Size::Const(n),
                align,
                ..
            } if *align <= 1 => fixed(*n, FixedKind::Str),
            FieldType::Array { elem, len } => {
                let elem = self.fixed_layout_within(elem, depth)?;
                fixed(
                    len.checked_mul(elem.size)?,
                    FixedKind::Array(Box::new(elem), *len),
                )
            }
            FieldType::User { ty, args } if args.is_empty() && depth < 32 => fixed(
                self.fixed_size_within(*ty, depth + 1)?,
                FixedKind::User(*ty),
            ),
            _ => None,
        }
    }

    fn fixed_fields_within(&self, ty: usize, depth: usize) -> Option<Vec<Fixed>> {
        let def = &self.types[ty];
        // A chosen byte order is decided for each value; look-aheads are read beside it.
        if !def.params.is_empty()
            || self.keeps_unclaimed(ty)
            || def.endian_choice.is_some()
            || def.keeps_stream
            || def.look_aheads().next().is_some()
        {
            return None;
        }
        let fields: Vec<Fixed> = def
            .fields
            .iter()
            .map(|field| {
                // A `valid` must be checked, which bulk decoding would skip; a checksum is
                // computed by the writer as it writes.
                if field.cond.is_some()
                    || field.checksum.is_some()
                    || field.repeat != Repeat::None
                    || field.substream.is_some()
                    || field.decode.is_some()
                    || field.position.is_some()
                    || !field.valid.is_empty()
                {
                    return None;
                }
                self.fixed_layout_within(&field.ty, depth)
            })
            .collect::<Option<_>>()?;
        // The sum must fit too.
        fields
            .iter()
            .try_fold(0usize, |total, f| total.checked_add(f.size))
            .map(|_| fields)
    }
}
