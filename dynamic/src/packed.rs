//! Plain values, which their bytes alone give (numbers in a byte order the schema fixes, bit
//! fields, strings and byte arrays of a constant size, structures of such fields only), and lists of
//! them kept packed: the bytes a list was read from, decoded element by element only when a
//! document, an expression or an edit uses it. The generated code reads such a list in bulk
//! at about the speed of a copy; holding each element as a structure of values would make the
//! interpreter two hundred times slower on files that are mostly such lists (animations,
//! meshes).

use std::rc::Rc;

use skelcodec_codegen::expr::Expr;
use skelcodec_codegen::model::{
    ByteOrder, Field, FieldType, FloatType, Instance, InstanceKind, IntType, Repeat, Scalar,
    Schema, Size, TypeDef,
};
use skelcodec_runtime::{self as rt, Reader};

use crate::value::{Element, Int, Io, Keys, Layout, Packed, Struct, Value};

/// The layout of the elements of a list of `ty`, each of `size` bytes, when they are plain;
/// `keys` are the document keys of each type's fields.
pub(crate) fn layout(
    schema: &Schema,
    keys: &[Keys],
    ty: &FieldType,
    size: usize,
) -> Option<Layout> {
    let layout = |element| Some(Layout { size, element });
    if is_plain(ty) {
        return layout(Element::Plain(ty.clone()));
    }
    let FieldType::User { ty, args } = ty else {
        return None;
    };
    let def = &schema.types[*ty];
    let plain_type = args.is_empty()
        && def.params.is_empty()
        && pure_instances(def)
        && def.endian_choice.is_none()
        && !def.keeps_stream
        && !def.unread_from_holder
        && schema.fixed_size(*ty).is_some()
        && !schema.is_recursive(*ty)
        && !schema.keeps_unclaimed(*ty)
        && !schema.roots_imported_stream(*ty)
        && schema.trailing_field(*ty).is_none();
    let plain_fields = def.fields.iter().all(|f| {
        let array_of_plain = matches!(&f.ty, FieldType::Array { elem, .. } if is_plain(elem));
        (array_of_plain || is_plain(&f.ty)) && is_plain_field(f)
    });
    if !(plain_type && plain_fields) {
        return None;
    }
    layout(Element::Struct {
        ty: *ty,
        fields: def.fields.iter().map(|f| f.ty.clone()).collect(),
        keys: keys[*ty].clone(),
    })
}

/// Whether every instance of `def` is a value computed from the value's own fields alone (a
/// mask, a scaled word): the same whenever it is computed, so that an element of a packed
/// list, made again each time it is asked for, computes it as the value read would. Its fields
/// derive nothing from it.
fn pure_instances(def: &TypeDef) -> bool {
    let own = |e: &Expr| only_own_fields(def, e);
    let derives = |f: &Field| f.derived.is_some() || f.derived_inferred.is_some();
    let pure = |i: &Instance| match &i.kind {
        InstanceKind::Value { value, cond, .. } => own(value) && cond.as_ref().is_none_or(own),
        InstanceKind::Peek { .. } => false,
    };
    def.instances.is_empty() || (def.instances.iter().all(pure) && !def.fields.iter().any(derives))
}

/// Whether `e` names nothing but fields of `def` (no parameter, instance, stream, parent or
/// root).
fn only_own_fields(def: &TypeDef, e: &Expr) -> bool {
    let own = match e {
        Expr::Name(name) => return def.fields.iter().any(|f| f.id == *name),
        Expr::Attr(_, name) | Expr::Method(_, name, _) => !name.starts_with('_'),
        _ => true,
    };
    own && e.children().into_iter().all(|e| only_own_fields(def, e))
}

/// Whether a field is read as its type's value alone, in sequence (no condition, repetition,
/// rule, substream, position or other stream), so that a plain type makes a plain value.
pub(crate) fn is_plain_field(f: &Field) -> bool {
    f.repeat == Repeat::None
        && f.cond.is_none()
        && f.valid.is_empty()
        && f.substream.is_none()
        && f.decode.is_none()
        && f.position.is_none()
        && f.parent.is_none()
        && f.scan.is_none()
        && f.read_later.is_none()
        && !(f.parse_instance || f.from_instance || f.read_again || f.kept_as_read)
}

/// Whether a value of `ty` is given by its bytes alone, in a byte order the schema fixes.
pub(crate) fn is_plain(ty: &FieldType) -> bool {
    !uses_chosen_order(ty)
        && match ty {
            FieldType::Number(_)
            | FieldType::Quat(_)
            | FieldType::Vec3(_)
            | FieldType::Enum { .. }
            | FieldType::Bits { .. }
            | FieldType::BitPadding => true,
            FieldType::Str {
                size: Size::Const(_),
                align,
                ..
            }
            | FieldType::Bytes {
                size: Size::Const(_),
                align,
                ..
            } => *align <= 1,
            _ => false,
        }
}

/// Whether a number of `ty` is stored in the byte order its type chooses while reading.
pub(crate) fn uses_chosen_order(ty: &FieldType) -> bool {
    let scalar_order = |scalar: &Scalar| match scalar {
        Scalar::Int(IntType { order, .. })
        | Scalar::Float(FloatType { order, .. })
        | Scalar::Fixed {
            raw: IntType { order, .. },
            ..
        } => *order,
    };
    let order = match ty {
        FieldType::Number(s) | FieldType::Quat(s) | FieldType::Vec3(s) => scalar_order(s),
        FieldType::Enum { raw, .. } => raw.order,
        _ => return false,
    };
    order == ByteOrder::Chosen
}

/// Reads a value of `ty` when it is plain (`None` otherwise), numbers of a chosen byte order
/// big-endian when `chosen_big` says so. A value of several numbers is read in one read of
/// all its bytes, as the generated code reads it: it fails where it starts.
pub(crate) fn read_plain(
    r: &mut Reader<'_>,
    ty: &FieldType,
    chosen_big: bool,
) -> Option<rt::Result<Value>> {
    let big = |order: ByteOrder| match order {
        ByteOrder::Big => true,
        ByteOrder::Little => false,
        ByteOrder::Chosen => chosen_big,
    };
    let vector = |r: &mut Reader<'_>, scalar: Scalar, count: usize| {
        let mut whole = r.sub(count * scalar.size())?;
        let components = (0..count)
            .map(|_| read_scalar(&mut whole, scalar, big))
            .collect::<rt::Result<_>>()?;
        Ok(Value::Vector(components))
    };
    Some(match ty {
        FieldType::Number(scalar) => read_scalar(r, *scalar, big),
        FieldType::Quat(scalar) => vector(r, *scalar, 4),
        FieldType::Vec3(scalar) => vector(r, *scalar, 3),
        FieldType::Enum { enum_idx, raw } => {
            read_int(r, *raw, big(raw.order)).map(|n| Value::Enum {
                def: *enum_idx,
                raw: n.as_i64(),
            })
        }
        FieldType::Str {
            size: Size::Const(n),
            align,
            ..
        } if *align <= 1 => r.bytes(*n).map(|b| Value::FixedStr(b.to_vec())),
        FieldType::Bytes {
            size: Size::Const(n),
            align,
            ..
        } if *align <= 1 => rt::__private::fields::read_raw(r, *n as i64, *align).map(Value::Bytes),
        FieldType::Bits {
            width,
            big_endian,
            enum_idx,
        } => read_bits(r, u32::from(*width), *big_endian, *enum_idx),
        FieldType::BitPadding => Ok(Value::Int(Int::Unsigned(r.align_to_byte().into()))),
        _ => return None,
    })
}

/// Reads a bit field: an integer of `width` bits, a boolean of one, or a value of an enum.
fn read_bits(
    r: &mut Reader<'_>,
    width: u32,
    big_endian: bool,
    enum_idx: Option<usize>,
) -> rt::Result<Value> {
    let raw = match big_endian {
        true => r.read_bits_be(width)?,
        false => r.read_bits_le(width)?,
    };
    Ok(match (enum_idx, width) {
        (Some(def), _) => Value::Enum {
            def,
            raw: raw as i64,
        },
        (None, 1) => Value::Bool(raw != 0),
        (None, _) => Value::Int(Int::Unsigned(raw)),
    })
}

/// Reads a number.
fn read_scalar(
    r: &mut Reader<'_>,
    scalar: Scalar,
    big: impl Fn(ByteOrder) -> bool,
) -> rt::Result<Value> {
    match scalar {
        Scalar::Int(int) => read_int(r, int, big(int.order)).map(Value::Int),
        Scalar::Float(float) => read_float(r, float, big(float.order)),
        Scalar::Fixed { raw, div } => {
            let raw = read_int(r, raw, big(raw.order))?;
            Ok(Value::Fixed { raw, div })
        }
    }
}

fn read_int(r: &mut Reader<'_>, int: IntType, big: bool) -> rt::Result<Int> {
    r.bytes(usize::from(int.bytes))
        .map(|raw| Int::decode(raw, int, big))
}

fn read_float(r: &mut Reader<'_>, float: FloatType, big: bool) -> rt::Result<Value> {
    match float.bytes {
        4 => r.array::<4>().map(|b| {
            Value::F32(match big {
                true => f32::from_be_bytes(b),
                false => f32::from_le_bytes(b),
            })
        }),
        _ => r.array::<8>().map(|b| {
            Value::F64(match big {
                true => f64::from_be_bytes(b),
                false => f64::from_le_bytes(b),
            })
        }),
    }
}

impl Packed {
    /// The elements' bytes, one after the other.
    pub fn bytes(&self) -> &[u8] {
        let start = u64::from(self.range.0).saturating_sub(self.page.at) as usize;
        let end = start + self.range.1 as usize;
        self.page.bytes.get(start..end).unwrap_or_default()
    }

    /// How many elements the list has.
    pub fn len(&self) -> usize {
        self.bytes().len() / self.layout.size
    }

    /// Whether the list has no elements.
    pub fn is_empty(&self) -> bool {
        self.bytes().is_empty()
    }

    /// Whether its elements are values of `ty`, as read.
    pub(crate) fn is_read_as(&self, ty: &FieldType) -> bool {
        match &self.layout.element {
            Element::Plain(plain) => plain == ty,
            Element::Struct { ty: layout, .. } => {
                matches!(ty, FieldType::User { ty, .. } if ty == layout)
            }
        }
    }

    /// Every element, decoded.
    pub(crate) fn elements(&self) -> Vec<Value> {
        (0..self.len()).map(|index| self.element(index)).collect()
    }

    /// Element `index`, decoded: the value the interpreter reads from its bytes.
    pub(crate) fn element(&self, index: usize) -> Value {
        let size = self.layout.size;
        let start = index * size;
        let Some(bytes) = self.bytes().get(start..start + size) else {
            return undecodable();
        };
        let mut r = Reader::new(bytes);
        match &self.layout.element {
            Element::Plain(ty) => decode(&mut r, ty),
            Element::Struct { ty, fields, keys } => {
                let values = fields.iter().map(|f| Some(decode(&mut r, f))).collect();
                // The stream a structure of a fixed size is read from: its own bytes.
                let io = Io {
                    start: u64::from(self.range.0) + start as u64,
                    len: size,
                    decoded: None,
                    buffer: rt::stream::Buffer::FILE,
                };
                let node = Struct::new(*ty, values, Vec::new(), keys.clone(), (io, 0, false));
                node.pos.set((size, true));
                node.span.set((0, size));
                Value::Struct(Rc::new(node))
            }
        }
    }
}

/// Decodes a plain value of `ty`, or an array of them, from bytes that hold it.
fn decode(r: &mut Reader<'_>, ty: &FieldType) -> Value {
    match ty {
        FieldType::Array { elem, len } => Value::List((0..*len).map(|_| decode(r, elem)).collect()),
        ty => read_plain(r, ty, false)
            .and_then(Result::ok)
            .unwrap_or_else(undecodable),
    }
}

/// An element its layout does not read: never met, as the layout is the reader's.
fn undecodable() -> Value {
    Value::Failed {
        message: "an element of a packed list that its layout does not read".into(),
        held: None,
    }
}
