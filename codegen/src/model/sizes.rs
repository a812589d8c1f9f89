//! Sizes the schema alone decides: Kaitai's `sizeof`, and the fewest bytes a value may take.

use super::*;
use crate::expr::Expr;

/// A built-in number type named in an expression (`sizeof<u4>`, `.as<f4>`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NumberType {
    /// An integer of this many bytes.
    Int(usize),
    /// `f4`.
    F4,
    /// `f8`.
    F8,
}

impl NumberType {
    /// The type `name` means (`u4`, `s2be`, `f8le`), when it is a built-in number.
    pub fn named(name: &str) -> Option<NumberType> {
        let base = name
            .strip_suffix("be")
            .or_else(|| name.strip_suffix("le"))
            .unwrap_or(name);
        match base {
            "u1" | "s1" => Some(NumberType::Int(1)),
            "u2" | "s2" => Some(NumberType::Int(2)),
            "u4" | "s4" => Some(NumberType::Int(4)),
            "u8" | "s8" => Some(NumberType::Int(8)),
            "f4" => Some(NumberType::F4),
            "f8" => Some(NumberType::F8),
            _ => None,
        }
    }

    /// Bytes on disk.
    pub fn size(self) -> usize {
        match self {
            NumberType::Int(bytes) => bytes,
            NumberType::F4 => 4,
            NumberType::F8 => 8,
        }
    }
}

impl Schema {
    /// `sizeof<name>` written in type `from`: a built-in number's size, or that of the user
    /// type the name resolves to there when all its values take the same bytes.
    pub fn sizeof_named(&self, from: usize, name: &str) -> Option<usize> {
        NumberType::named(name).map(NumberType::size).or_else(|| {
            let user = self.resolve_type(from, name)?;
            self.static_size(user)
        })
    }

    /// Kaitai's `sizeof<T>`: the bytes every value of type `ty` takes in sequence, when the
    /// schema alone decides it (no condition, no count or size read from the data). Unlike
    /// [`Schema::fixed_size`], a `valid` rule or a substream does not matter here.
    pub fn static_size(&self, ty: usize) -> Option<usize> {
        self.static_size_within(ty, 0)
    }

    fn static_size_within(&self, ty: usize, depth: usize) -> Option<usize> {
        if depth > 16 {
            return None;
        }
        let def = &self.types[ty];
        // The bytes a substream leaves unread are the substream's, not the type's: none in place.
        def.fields
            .iter()
            .filter(|f| f.position.is_none() && f.id != UNREAD)
            .try_fold(0usize, |total, field| {
                total.checked_add(self.static_field_size_within(field, depth)?)
            })
    }

    /// The size every value of `field` takes, all its elements, when it is always the same
    /// (`header._sizeof` of a field not read yet is then known).
    pub fn static_field_size(&self, field: &Field) -> Option<usize> {
        self.static_field_size_within(field, 0)
    }

    /// The size `a.b._sizeof` (or `_root.a._sizeof`) stands for in type `ty` when the field
    /// it names always has the same size: a constant, needing no value read (Kaitai computes
    /// it lazily, so a schema may use it before the value, or in the value's own position).
    pub fn static_path_size(&self, ty: usize, e: &Expr) -> Option<usize> {
        let Expr::Attr(base, attr) = e else {
            return None;
        };
        if attr != "_sizeof" {
            return None;
        }
        let names = base.names()?;
        let (mut owner, names) = match names.split_first()? {
            (&"_root", rest) => (self.file_root(ty), rest),
            _ => (ty, &names[..]),
        };
        let (last, path) = names.split_last()?;
        for name in path {
            let field = self.types[owner].fields.iter().find(|f| f.id == *name)?;
            owner = match (&field.ty, &field.repeat, &field.cond) {
                (FieldType::User { ty, .. }, Repeat::None, None) => *ty,
                _ => return None,
            };
        }
        let field = self.types[owner]
            .fields
            .iter()
            .find(|f| f.id == *last && f.position.is_none())?;
        self.static_field_size(field)
    }

    /// The expression `_root.x` stands for in type `ty` when `x` is a value instance of the
    /// root computed from literals alone (`block_address_mask: 0x1f`): the same everywhere,
    /// so nothing needs to pass it down.
    pub fn root_constant(&self, ty: usize, e: &Expr) -> Option<&Expr> {
        let Expr::Attr(base, name) = e else {
            return None;
        };
        if !matches!(base.as_ref(), Expr::Name(n) if n == "_root") {
            return None;
        }
        let root = &self.types[self.file_root(ty)];
        match &root.instances.iter().find(|i| i.id == *name)?.kind {
            InstanceKind::Value {
                value,
                cond: None,
                enum_idx: None,
            } if value.is_constant() => Some(value),
            _ => None,
        }
    }

    fn static_field_size_within(&self, field: &Field, depth: usize) -> Option<usize> {
        if field.cond.is_some() {
            return None;
        }
        let one = match (&field.substream, &field.ty) {
            (Some(Size::Const(n)), _) => n.checked_add(field.delimiter_len())?,
            (Some(_), _) => return None,
            (None, _) if field.decode.is_some() => match field.decode.as_ref()?.size {
                Size::Const(n) => n,
                _ => return None,
            },
            (None, FieldType::User { ty, .. }) => self.static_size_within(*ty, depth + 1)?,
            (
                None,
                FieldType::Bytes {
                    size: Size::Const(n),
                    align,
                    ..
                },
            )
            | (
                None,
                FieldType::Str {
                    size: Size::Const(n),
                    align,
                    ..
                },
            ) => n.checked_next_multiple_of((*align).max(1))?,
            (None, FieldType::Contents(bytes)) => bytes.len(),
            (None, FieldType::Enum { raw, .. }) => usize::from(raw.bytes),
            (None, other) => self.fixed_size_of(other)?,
        };
        let count = match &field.repeat {
            Repeat::None => 1,
            Repeat::Expr(crate::expr::Expr::Int(n)) => usize::try_from(*n).ok()?,
            _ => return None,
        };
        one.checked_mul(count)
    }

    /// The fewest bytes a value of `ty` can take: bounds allocation against hostile counts.
    pub fn min_size_of(&self, ty: &FieldType) -> usize {
        self.min_size_within(ty, 0)
    }

    fn min_size_within(&self, ty: &FieldType, depth: usize) -> usize {
        if let Some(size) = self.fixed_size_of(ty) {
            return size;
        }
        match ty {
            FieldType::Enum { raw, .. } => usize::from(raw.bytes),
            FieldType::Contents(bytes) => bytes.len(),
            FieldType::Vlq => 1,
            // Types that contain themselves are cut off: the bound only needs to be a lower one.
            FieldType::User { ty, .. } if depth < 16 => self.types[*ty]
                .fields
                .iter()
                .filter(|f| f.cond.is_none() && f.repeat == Repeat::None)
                .map(|f| self.min_size_within(&f.ty, depth + 1))
                .fold(0, usize::saturating_add),
            _ => 0,
        }
    }
}
