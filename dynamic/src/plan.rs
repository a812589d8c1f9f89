//! What reading asks of the schema again and again, resolved once per schema: each type's
//! layout facts and its fields' keys in documents. Computing them per value read (a walk of
//! the type's fields each time) cost the interpreter a fifth of its time on real files.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::atomic::{AtomicU64, Ordering};

use skelcodec_codegen::model::{Field, FieldType, NormalizePlan, Schema};
use skelcodec_codegen::names::document_key;

use crate::choice::CaseNames;
use crate::packed::{is_plain, is_plain_field};
use crate::tree::Trees;
use crate::value::{Keys, Layout};

/// The schema's facts, by type.
#[derive(Debug)]
pub(crate) struct Plan {
    /// One per type of the schema.
    pub types: Vec<TypePlan>,
    /// Whether some field is found by trial parsing (`-scan`, `-solve`).
    pub searched: bool,
    /// Whether some field is read by position.
    pub positioned: bool,
    /// What `normalize()` recomputes, in which order (the generated code's plan: see
    /// [`Schema::normalize_plan`]).
    pub normalize: NormalizePlan,
    /// The expressions of the read path, resolved into trees.
    pub trees: Trees,
    /// Which plan it is, among those of the process (see [`Plan::shared`]).
    id: u64,
}

/// What the reads and writes of one schema on one thread share, made when first asked: the
/// document keys of each type's fields, the layouts of packed lists, the switches' arms.
/// Making them for each file cost small files more than reading them. Held per thread as
/// values are (`Rc`), which the interpreter, shared between threads, cannot hold.
pub(crate) struct Shared {
    /// The document keys of each type's fields.
    pub keys: Rc<[Keys]>,
    /// The layout of each type's values in packed lists, once asked (`None` for a type whose
    /// values are not plain).
    pub layouts: RefCell<Vec<Option<Option<Rc<Layout>>>>>,
    /// The names of the switches' cases, once asked.
    pub cases: CaseNames,
}

/// How many plans' shared parts a thread keeps: the interpreters it used last.
const SHARED_KEPT: usize = 4;

thread_local! {
    /// The shared parts of the plans this thread used last, by plan, the last used first.
    static SHARED: RefCell<Vec<(u64, Rc<Shared>)>> = const { RefCell::new(Vec::new()) };
}

/// What the reader asks of one type.
#[derive(Debug)]
pub(crate) struct TypePlan {
    /// Its size when its layout is fixed: a value is read in one read of all its bytes.
    pub fixed_size: Option<usize>,
    /// The fewest bytes a value takes.
    pub min_size: usize,
    /// Whether a value may hold a value of its own type: read a level deeper.
    pub recursive: bool,
    /// Whether a value keeps the bytes no field claims (the root, with fields by position).
    pub keeps_unclaimed: bool,
    /// Whether its `_root._io` is its own stream (the root of an imported schema).
    pub roots_imported_stream: bool,
    /// The index of the field that keeps the file's trailing bytes (the root's last).
    pub trailing: Option<usize>,
    /// Each field's key in documents (`None` for a field not in documents).
    pub keys: Vec<Option<String>>,
    /// Whether each field is a list whose elements see the elements read before them.
    pub seeing: Vec<bool>,
    /// Whether each field is a list of the one case its switch chooses.
    pub switches_whole_list: Vec<bool>,
    /// Whether each field is a single value of a plain type, or an array of them, read from
    /// its bytes alone.
    pub plain: Vec<bool>,
    /// Whether every field is plain and the type asks nothing else of its reader (a byte
    /// order, bytes kept from its holder or the file): a value is its fields read one after
    /// the other, which no expression sees while they are.
    pub all_plain: bool,
}

impl Plan {
    /// The plan of `schema`.
    pub fn of(schema: &Schema) -> Plan {
        let types = (0..schema.types.len())
            .map(|ty| {
                let def = &schema.types[ty];
                let fields = &def.fields;
                let plain: Vec<bool> = (fields.iter())
                    .map(|f| {
                        let array =
                            matches!(&f.ty, FieldType::Array { elem, .. } if is_plain(elem));
                        is_plain_field(f) && (is_plain(&f.ty) || array)
                    })
                    .collect();
                let trailing = schema
                    .trailing_field(ty)
                    .and_then(|t| fields.iter().position(|f| std::ptr::eq(f, t)));
                let all_plain = plain.iter().all(|p| *p)
                    && def.endian_choice.is_none()
                    && !def.unread_from_holder
                    && trailing.is_none()
                    && !schema.keeps_unclaimed(ty)
                    && def.look_aheads().next().is_none();
                TypePlan {
                    fixed_size: schema.fixed_size(ty),
                    min_size: schema.min_size_of(&FieldType::User {
                        ty,
                        args: Vec::new(),
                    }),
                    recursive: schema.is_recursive(ty),
                    keeps_unclaimed: schema.keeps_unclaimed(ty),
                    roots_imported_stream: schema.roots_imported_stream(ty),
                    trailing,
                    keys: fields
                        .iter()
                        .map(|f| f.stores_value().then(|| document_key(&f.id)))
                        .collect(),
                    seeing: fields.iter().map(Field::refers_to_itself).collect(),
                    switches_whole_list: fields.iter().map(Field::switches_whole_list).collect(),
                    plain,
                    all_plain,
                }
            })
            .collect();
        static PLANS: AtomicU64 = AtomicU64::new(0);
        Plan {
            types,
            searched: schema.has_searched_fields(),
            positioned: schema.has_positioned_fields(),
            normalize: schema.normalize_plan(),
            trees: Trees::of(schema),
            id: PLANS.fetch_add(1, Ordering::Relaxed),
        }
    }

    /// What this thread's reads and writes of the plan's schema share (see [`Shared`]).
    pub fn shared(&self) -> Rc<Shared> {
        SHARED.with(|kept| {
            let mut kept = kept.borrow_mut();
            if let Some(at) = kept.iter().position(|(id, _)| *id == self.id) {
                let found = kept.remove(at);
                kept.insert(0, found.clone());
                return found.1;
            }
            let shared = Rc::new(Shared {
                keys: self.keys().into(),
                layouts: RefCell::new(vec![None; self.types.len()]),
                cases: CaseNames::default(),
            });
            kept.insert(0, (self.id, shared.clone()));
            kept.truncate(SHARED_KEPT);
            shared
        })
    }

    /// The size of a value of `ty` when its layout is fixed.
    pub fn fixed_size_of(&self, schema: &Schema, ty: &FieldType) -> Option<usize> {
        match ty {
            // As the schema has it: a type with arguments is not read in bulk.
            FieldType::User { ty, args } if args.is_empty() => self.types.get(*ty)?.fixed_size,
            FieldType::User { .. } => None,
            ty => schema.fixed_size_of(ty),
        }
    }

    /// The document keys of each type's fields, shared by the values of a read.
    pub fn keys(&self) -> Vec<Keys> {
        self.types
            .iter()
            .map(|t| t.keys.iter().map(|k| k.as_deref().map(Rc::from)).collect())
            .collect()
    }

    /// The fewest bytes a value of `ty` takes.
    pub fn min_size_of(&self, schema: &Schema, ty: &FieldType) -> usize {
        match ty {
            FieldType::User { ty, .. } => self.types.get(*ty).map_or(0, |t| t.min_size),
            ty => schema.min_size_of(ty),
        }
    }
}
