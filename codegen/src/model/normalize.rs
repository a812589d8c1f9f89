//! How `normalize()` recomputes a schema's derived fields: which fields of each type, from
//! what, in which order, and how often. Decided once, here, as plain data: the generator
//! renders it (`emit::derived`), the interpreter (`skelcodec-dynamic`) executes it, so the two
//! back ends cannot disagree on the order or on when the values have settled.
//!
//! One pass visits a value's children before the value itself (a holder's sizes measure
//! them as normalized), the values read from slots before everything else (each written back
//! into its slot as soon as it is normalized, the inner slots' first, so that the sizes that
//! measure a slot measure the bytes written back), then recomputes the value's own derived
//! fields. One pass is not always enough: a recomputed `vlq` length may change its own size,
//! which a size recomputed before it measured; a value written back into a slot changes the
//! sizes of the slot's holders. Passes are repeated until one changes nothing.

use super::{Field, Schema};

/// At most this many passes are made before `normalize()` gives up: each pass settles at
/// least one more level of sizes that measure each other, and no schema nests more.
pub const PASSES: usize = 8;

/// What `normalize()` does, for a whole schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NormalizePlan {
    /// One per type of the schema, in order: what one pass over a value of it does, or
    /// `None` when nothing in or below it is derived (it has nothing to normalize, and no
    /// `normalize()`).
    pub types: Vec<Option<TypePlan>>,
    /// How many passes are made at most, each repeated until one changes nothing; more is
    /// an error.
    pub passes: usize,
}

/// One pass over a value of one type: its steps, in order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TypePlan {
    /// In the order they run.
    pub steps: Vec<Step>,
}

/// One step of a pass over a value (indexes are of the type's fields, or of its
/// [`super::TypeDef::derived_members`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Step {
    /// Sets the kept arguments ([`super::Param::kept`]) of the values of this field to those
    /// the value passes them, before they are normalized.
    KeptArgs(usize),
    /// Normalizes the values of this field (one pass over each; only the values of types that
    /// have a plan).
    Visit(usize),
    /// Writes the value of this field, read from a slot, back into the slot.
    WriteBack(usize),
    /// Recomputes this field from its `-derived` expression (declared or inferred).
    Derived(usize),
    /// Recomputes this derived member: a field of a value the type holds, derived from the
    /// holder's content.
    Member(usize),
    /// Resizes this padding (see [`Field::padding`]) to the size it should have.
    Padding(usize),
    /// Restores the stored bytes of this field, measured as written (see
    /// [`Field::is_measured_as_written`]), to those its value is written as.
    MeasuredAsWritten(usize),
    /// Rewrites this `-fill: index` padding to hold its index.
    FillIndex(usize),
    /// (The root's last step.) Computes every derivation that uses `_root` (see
    /// [`Schema::rooted`]) and sets it in every value of its type.
    Rooted,
}

impl Schema {
    /// What `normalize()` does for this schema (see [`NormalizePlan`]).
    pub fn normalize_plan(&self) -> NormalizePlan {
        let needs = self.types_with_derived();
        let types = (0..self.types.len())
            .map(|ty| needs[ty].then(|| self.type_plan(ty, &needs)))
            .collect();
        NormalizePlan {
            types,
            passes: PASSES,
        }
    }

    /// One pass over a value of type `ty`; `needs`: which types have a plan.
    fn type_plan(&self, ty: usize, needs: &[bool]) -> TypePlan {
        let def = &self.types[ty];
        let fields = || def.fields.iter().enumerate();
        let mut steps: Vec<Step> = fields()
            .filter(|(_, f)| self.passes_kept_args(f))
            .map(|(i, _)| Step::KeptArgs(i))
            .collect();
        let visited = |i: usize| {
            let field: &Field = &def.fields[i];
            field.ty.user_types().iter().any(|&c| needs[c])
        };
        // Values read from slots first, each written back once normalized (the inner slots
        // first: see `Schema::slotted_fields`), then the rest, the slots among it, whose
        // sizes then measure what was written back.
        let slotted = self.slotted_fields(ty);
        for &i in &slotted {
            steps.extend(visited(i).then_some(Step::Visit(i)));
            steps.push(Step::WriteBack(i));
        }
        steps.extend(
            (0..def.fields.len())
                .filter(|i| !slotted.contains(i) && visited(*i))
                .map(Step::Visit),
        );
        steps.extend(
            fields()
                .filter(|(_, f)| f.derived.is_some())
                .map(|(i, _)| Step::Derived(i)),
        );
        steps.extend((0..def.derived_members.len()).map(Step::Member));
        steps.extend(
            fields()
                .filter(|(_, f)| f.padding)
                .map(|(i, _)| Step::Padding(i)),
        );
        steps.extend(
            fields()
                .filter(|(_, f)| f.is_measured_as_written())
                .map(|(i, _)| Step::MeasuredAsWritten(i)),
        );
        steps.extend(
            fields()
                .filter(|(_, f)| f.fill_index)
                .map(|(i, _)| Step::FillIndex(i)),
        );
        if ty == 0 && !self.rooted.is_empty() {
            steps.push(Step::Rooted);
        }
        TypePlan { steps }
    }

    /// For each type: whether it or anything inside it has something `normalize()` does.
    fn types_with_derived(&self) -> Vec<bool> {
        let needs: Vec<bool> = self
            .types
            .iter()
            .enumerate()
            .map(|(i, t)| {
                (i == 0
                    && (self.layout.is_some()
                        || self.has_checksums()
                        || !self.rooted.is_empty()
                        || self.settles()
                        || t.fields.iter().any(|f| self.from_file_end(i, f).is_some())))
                    || !t.derived_members.is_empty()
                    || self.rooted.iter().any(|r| r.ty == i)
                    || t.fields.iter().any(|f| {
                        f.derived.is_some()
                            || f.padding
                            || f.fill_index
                            || f.is_measured_as_written()
                            || self.passes_kept_args(f)
                    })
                    || !self.slotted_fields(i).is_empty()
            })
            .collect();
        self.held_by_holders(needs)
    }

    /// `marks` extended to every type that holds a marked one, however deep.
    pub fn held_by_holders(&self, mut marks: Vec<bool>) -> Vec<bool> {
        loop {
            let mut changed = false;
            for (i, def) in self.types.iter().enumerate() {
                if !marks[i]
                    && def
                        .fields
                        .iter()
                        .any(|f| f.ty.user_types().iter().any(|&c| marks[c]))
                {
                    marks[i] = true;
                    changed = true;
                }
            }
            if !changed {
                return marks;
            }
        }
    }

    /// True when `field`'s values have kept parameters (see [`super::Param::kept`]) whose
    /// arguments `check()` compares and `normalize()` sets.
    pub fn passes_kept_args(&self, field: &Field) -> bool {
        field.ty.user_types().iter().any(|&child| {
            self.types[child]
                .params
                .iter()
                .any(|p| p.kept && !p.writers_lack)
        })
    }
}
