//! `check` and `normalize` of a value read with a schema at run time, as the generated code's
//! methods do: every derived field (declared with `-derived`, or inferred from its use as a
//! size or count) is compared with, or recomputed from, the value as it would be written, and
//! `-fill: index` padding with the bytes it should hold. (Checksums are the writer's: see
//! `Interpreter::check`.) What is recomputed, in which order, and how many passes are made
//! is the schema's `NormalizePlan` (`Schema::normalize_plan`), which the generated code
//! renders: this module executes it. Sizes are measured by writing the value once per pass without the writer's checks,
//! which leaves each structure's span where it is written.

use skelcodec_codegen::expr::Expr;
use skelcodec_codegen::model::{Field, FieldType, Repeat, Schema, Size, Step, UNREAD};
use skelcodec_runtime::{self as rt, Error, ErrorKind, Mismatch, PathSegment};

use crate::eval::Scope;
use crate::plan::Plan;
use crate::value::{Link, Value};

/// The derived fields of `value`, here and below, whose stored value disagrees with the
/// content, then the root's offsets that disagree with its `-layout`.
pub(crate) fn check(schema: &Schema, plan: &Plan, value: &Value) -> rt::Result<Vec<Mismatch>> {
    crate::write::measure(schema, value)?;
    let mut pass = Pass::new(plan, false);
    visit(schema, value, None, &mut Vec::new(), &mut pass)?;
    let mut found = pass.found;
    if let Value::Struct(root) = value {
        found.extend(crate::layout::check(schema, &Link::new(root.clone(), None)));
    }
    Ok(found)
}

/// Recomputes every derived field of `value` from its content, then moves the blocks of the
/// root's `-layout` (the free-space lists emptied first); returns the fields that changed,
/// with their stored and recomputed values.
pub(crate) fn normalize(schema: &Schema, plan: &Plan, value: &Value) -> rt::Result<Vec<Mismatch>> {
    let root = match value {
        Value::Struct(root) => Some(Link::new(root.clone(), None)),
        _ => None,
    };
    if let Some(root) = &root {
        crate::layout::clear_free_space(schema, root);
    }
    let mut changed: Vec<Mismatch> = Vec::new();
    rt::__private::passes::until_settled(plan.normalize.passes, |again| {
        crate::write::measure(schema, value)?;
        let mut pass = Pass::new(plan, true);
        visit(schema, value, None, &mut Vec::new(), &mut pass)?;
        let Pass { found, synced, .. } = pass;
        *again = !found.is_empty() || synced;
        for mismatch in found {
            match changed.iter_mut().find(|m| m.path == mismatch.path) {
                Some(seen) => seen.computed = mismatch.computed,
                None => changed.push(mismatch),
            }
        }
        Ok(())
    })?;
    if let Some(root) = &root {
        changed.extend(crate::layout::move_blocks(schema, root)?);
    }
    Ok(changed)
}

/// The path of `last` below `steps` (fields and indexes), as errors and checks spell it.
fn path_of(steps: &[PathSegment], last: &'static str) -> String {
    rt::error::render_path(steps.iter().chain([&PathSegment::Field(last)]))
}

/// What one visit of a value finds, and does.
struct Pass<'p> {
    /// The derived fields that disagree with the content.
    found: Vec<Mismatch>,
    /// Recompute them (and write values back into their slots).
    set: bool,
    /// Some slot's bytes changed: the value is to be measured again.
    synced: bool,
    /// What reading asks of each type, to read a value again from its slot's bytes.
    plan: &'p Plan,
}

impl<'p> Pass<'p> {
    /// A pass that finds nothing yet; `set`: it recomputes what it finds.
    fn new(plan: &'p Plan, set: bool) -> Self {
        Pass {
            found: Vec::new(),
            set,
            synced: false,
            plan,
        }
    }
}

/// Visits the structures in `value` as the schema's [`NormalizePlan`] orders it (innermost
/// first), recording in `pass` each derived field that disagrees with the content, and
/// recomputing it when the pass sets them.
///
/// [`NormalizePlan`]: skelcodec_codegen::model::NormalizePlan
fn visit(
    schema: &Schema,
    value: &Value,
    parent: Option<&Link>,
    steps: &mut Vec<PathSegment>,
    pass: &mut Pass<'_>,
) -> rt::Result<()> {
    each_struct(value, parent, steps, &mut |link, steps| {
        visit_struct(schema, link, steps, pass)
    })
}

/// One pass of the plan of the structure `link`'s type over it.
fn visit_struct(
    schema: &Schema,
    link: &Link,
    steps: &mut Vec<PathSegment>,
    pass: &mut Pass<'_>,
) -> rt::Result<()> {
    // A type without a plan has nothing derived, in it or below.
    let Some(plan) = &pass.plan.normalize.types[link.ty()] else {
        return Ok(());
    };
    for step in &plan.steps {
        run(schema, link, *step, steps, pass)?;
    }
    Ok(())
}

/// Calls `f` on each structure `value` is or holds directly (through lists, switch cases and
/// processed values, not through the structures' fields), with its path.
fn each_struct(
    value: &Value,
    parent: Option<&Link>,
    steps: &mut Vec<PathSegment>,
    f: &mut dyn FnMut(&Link, &mut Vec<PathSegment>) -> rt::Result<()>,
) -> rt::Result<()> {
    match value {
        Value::Struct(node) => f(&Link::new(node.clone(), parent.cloned()), steps),
        Value::List(items) => items.iter().enumerate().try_for_each(|(i, item)| {
            steps.push(PathSegment::Index(i));
            let visited = each_struct(item, parent, steps, f);
            steps.pop();
            visited
        }),
        Value::Case(name, inner) => {
            steps.push(PathSegment::Field(crate::intern::interned(name)));
            let visited = each_struct(inner, parent, steps, f);
            steps.pop();
            visited
        }
        Value::Decoded(decoded) => each_struct(&decoded.value, parent, steps, f),
        // Packed lists hold plain values, which have nothing derived.
        _ => Ok(()),
    }
}

/// Calls `f` on each structure in field `index` of `link`, with its path.
fn each_in_field(
    schema: &Schema,
    link: &Link,
    index: usize,
    steps: &mut Vec<PathSegment>,
    f: &mut dyn FnMut(&Link, &mut Vec<PathSegment>) -> rt::Result<()>,
) -> rt::Result<()> {
    // What is set below is the fields of other structures (a slot's, a child's).
    let Some(held) = link.node().fields.borrow()[index].clone() else {
        return Ok(());
    };
    let name = crate::intern::interned(&schema.types[link.ty()].fields[index].id);
    steps.push(PathSegment::Field(name));
    let visited = each_struct(&held, Some(link), steps, f);
    steps.pop();
    visited
}

/// Runs one step of the plan of the structure `link`.
fn run(
    schema: &Schema,
    link: &Link,
    step: Step,
    steps: &mut Vec<PathSegment>,
    pass: &mut Pass<'_>,
) -> rt::Result<()> {
    match step {
        Step::KeptArgs(index) => each_in_field(schema, link, index, steps, &mut |child, steps| {
            follow_kept_args(schema, child, steps, pass);
            Ok(())
        }),
        Step::Visit(index) => each_in_field(schema, link, index, steps, &mut |child, steps| {
            visit_struct(schema, child, steps, pass)
        }),
        Step::WriteBack(index) => sync_slot(schema, link, index, steps, pass),
        Step::Member(k) => recompute_member(schema, link, k, steps, pass),
        Step::Rooted => recompute_rooted(schema, link, pass),
        Step::Derived(index)
        | Step::Padding(index)
        | Step::MeasuredAsWritten(index)
        | Step::FillIndex(index) => recompute(schema, link, (step, index), steps, pass),
    }
}

/// Writes the value of field `index` of `link` back into the slot it was read from, or, when
/// the pass only checks, records the slot as disagreeing where it would change.
fn sync_slot(
    schema: &Schema,
    link: &Link,
    index: usize,
    steps: &mut Vec<PathSegment>,
    pass: &mut Pass<'_>,
) -> rt::Result<()> {
    if pass.set {
        pass.synced |= crate::sync::write_back(schema, pass.plan, link, index)?;
    } else if let Some((path, (held, written))) =
        crate::sync::slot_mismatch(schema, pass.plan, link, index)
    {
        let depth = steps.len();
        steps.extend(path.into_iter().map(PathSegment::Field));
        pass.found.push(Mismatch {
            path: path_of(steps, crate::intern::interned(UNREAD)),
            stored: held as i128,
            computed: written as i128,
        });
        steps.truncate(depth);
    }
    Ok(())
}

/// Compares (and when the pass sets them, recomputes) field `index` of the structure `link`,
/// as `step` (which names it) says: a derived field, padding, stored bytes measured as
/// written, or an index fill.
fn recompute(
    schema: &Schema,
    link: &Link,
    (step, index): (Step, usize),
    steps: &[PathSegment],
    pass: &mut Pass<'_>,
) -> rt::Result<()> {
    let def = &schema.types[link.ty()];
    let field = &def.fields[index];
    let scope = Scope::of(schema, link.clone(), &[]);
    let path = || path_of(steps, crate::intern::interned(&field.id));
    let refused =
        |message: String| Error::new(0, ErrorKind::Invalid(format!("{}: {message}", path())));
    let stored = link.node().fields.borrow()[index].clone();
    // A measure of a value read on its own that failed holds nothing.
    if def
        .held_user(field)
        .is_some_and(|user| !measured(link, user))
    {
        return Ok(());
    }
    match step {
        Step::Derived(_) => {
            let Some(derived) = &field.derived else {
                return Ok(());
            };
            if field.repeat != Repeat::None {
                return settle_elements(&scope, (index, field), derived, path(), pass)
                    .map_err(refused);
            }
            let computed = match scope.int(derived) {
                Ok(computed) => computed,
                // Without a value (`inflated(…)` of bytes that are no deflate stream) there is
                // nothing to compare; `normalize()` refuses, as the generated code does.
                Err(_) if !pass.set && derived.inflates() => return Ok(()),
                Err(message) => return Err(refused(message)),
            };
            settle(link, (index, field), computed, path(), pass)
        }
        Step::Padding(_) => {
            let (
                Some(Value::Bytes(pad)),
                FieldType::Bytes {
                    size: Size::Expr(size),
                    ..
                },
            ) = (&stored, &field.ty)
            else {
                return Ok(());
            };
            let size = scope.int(size).map_err(refused)?;
            if pad.0.len() as i64 == size {
                return Ok(());
            }
            pass.found.push(Mismatch {
                path: path(),
                stored: pad.0.len() as i128,
                computed: size.into(),
            });
            if pass.set {
                let mut pad = pad.clone();
                rt::__private::fields::resize_padding(pad.0.as_mut_vec(), size)
                    .map_err(|e| e.in_path(path()))?;
                link.set_field(index, Value::Bytes(pad));
            }
            Ok(())
        }
        Step::MeasuredAsWritten(_) => {
            let Some(Value::Decoded(text)) = &stored else {
                return Ok(());
            };
            let Some(new) = (!text.stored.is_empty())
                .then(|| scope.reframed(field, text))
                .flatten()
            else {
                return Ok(());
            };
            pass.found.push(Mismatch {
                path: format!("{}.stored", path()),
                stored: text.stored.0.len() as i128,
                computed: new.len() as i128,
            });
            if pass.set {
                let text = rt::Decoded {
                    stored: rt::RawBytes::new(new),
                    ..(**text).clone()
                };
                link.set_field(index, Value::Decoded(Box::new(text)));
            }
            Ok(())
        }
        Step::FillIndex(_) => {
            let Some(Value::Bytes(mut pad)) = stored else {
                return Ok(());
            };
            let Some((at, expected)) = rt::__private::fields::index_fill_mismatch(&pad.0) else {
                return Ok(());
            };
            pass.found.push(Mismatch {
                path: path(),
                stored: at.into(),
                computed: expected.into(),
            });
            if pass.set {
                rt::__private::fields::fill_with_index(&mut pad.0);
                link.set_field(index, Value::Bytes(pad));
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// Compares (and when the pass sets them, sets) the kept arguments of the structure `link`
/// (see [`skelcodec_codegen::model::Param::kept`]) with those the measure just passed it, as
/// the generated code compares them with those its holder passes.
fn follow_kept_args(schema: &Schema, link: &Link, steps: &[PathSegment], pass: &mut Pass<'_>) {
    let node = link.node();
    let measured = node.measured_args();
    let kept = schema.types[link.ty()].params.iter().filter(|p| p.kept);
    for (j, (param, written)) in kept.zip(measured).enumerate() {
        let stored = node.args().get(j).and_then(Value::arg_as_int);
        let (false, Some(stored), Some(computed)) =
            (param.writers_lack, stored, written.arg_as_int())
        else {
            continue;
        };
        if stored == computed {
            continue;
        }
        pass.found.push(Mismatch {
            path: path_of(steps, crate::intern::interned(&param.id)),
            stored,
            computed,
        });
        if pass.set {
            node.set_arg(j, written);
        }
    }
}

/// True when field `index` of `link`, a value read on its own, was read or is absent: what it
/// measures can be told.
fn measured(link: &Link, index: usize) -> bool {
    (link.node().fields.borrow()[index].as_ref()).is_none_or(Value::is_measured)
}

/// Compares field `index` of `link`, a derived integer, with `computed`, recording a
/// mismatch at `path`; sets it when the pass sets them.
fn settle(
    link: &Link,
    (index, field): (usize, &Field),
    computed: i64,
    path: String,
    pass: &mut Pass<'_>,
) -> rt::Result<()> {
    let stored = match &link.node().fields.borrow()[index] {
        Some(Value::Int(n)) => n.as_i128(),
        // A flag is derived as 1 or 0.
        Some(Value::Bool(flag)) => i128::from(*flag),
        _ => return Ok(()),
    };
    if rt::__private::arith::agrees(stored, i128::from(computed)) {
        return Ok(());
    }
    if pass.set {
        let held = Value::of_int(&field.ty, computed).ok_or_else(|| {
            let message = format!("{path}: {computed} does not fit the field");
            Error::new(0, ErrorKind::Invalid(message))
        })?;
        link.set_field(index, held);
    }
    pass.found.push(Mismatch {
        path,
        stored,
        computed: computed.into(),
    });
    Ok(())
}

/// Compares each element of field `index` of the structure of `scope`, a list of derived
/// integers, with its derivation at its `_index`, recording mismatches under `path`; sets them
/// when the pass sets them.
fn settle_elements(
    scope: &Scope<'_>,
    (index, field): (usize, &Field),
    derived: &Expr,
    path: String,
    pass: &mut Pass<'_>,
) -> Result<(), String> {
    let link = &scope.this;
    let mut elements = match &link.node().fields.borrow()[index] {
        Some(Value::List(items)) => items.clone(),
        Some(Value::Packed(packed)) => packed.elements(),
        _ => return Ok(()),
    };
    let mut changed = false;
    for (at, element) in elements.iter_mut().enumerate() {
        let Value::Int(stored) = element else {
            continue;
        };
        let scope = Scope {
            index: Some(at as i64),
            ..scope.clone()
        };
        let computed = scope.int(derived)?;
        if rt::__private::arith::agrees(stored.as_i128(), i128::from(computed)) {
            continue;
        }
        pass.found.push(Mismatch {
            path: format!("{path}[{at}]"),
            stored: stored.as_i128(),
            computed: computed.into(),
        });
        if pass.set {
            *element = Value::of_int(&field.ty, computed)
                .ok_or_else(|| format!("{path}[{at}]: {computed} does not fit the field"))?;
            changed = true;
        }
    }
    if changed {
        link.set_field(index, Value::List(elements));
    }
    Ok(())
}

/// Compares (and when the pass sets them, sets) the fields whose derivation the root computes
/// (see [`skelcodec_codegen::model::Schema::rooted`]), in every structure of `root`: evaluated
/// once, in the root, as the generated code's root computes them and sets them below.
fn recompute_rooted(schema: &Schema, root: &Link, pass: &mut Pass<'_>) -> rt::Result<()> {
    let scope = Scope::of(schema, root.clone(), &[]);
    let mut computed = Vec::new();
    for rooted in &schema.rooted {
        computed.push(match scope.int(&rooted.derived) {
            Ok(value) => Some(value),
            // Without a value there is nothing to compare; `normalize()` refuses.
            Err(_) if !pass.set && rooted.derived.inflates() => None,
            Err(m) => {
                let name = &schema.types[rooted.ty].fields[rooted.field].id;
                return Err(Error::new(0, ErrorKind::Invalid(format!("{name}: {m}"))));
            }
        });
    }
    set_rooted(schema, root, &computed, &mut Vec::new(), pass)
}

/// Compares (and when the pass sets them, sets) the fields of `link`, and of every structure
/// below it, whose derivation the root computed (`computed`, one per
/// [`skelcodec_codegen::model::Schema::rooted`]).
fn set_rooted(
    schema: &Schema,
    link: &Link,
    computed: &[Option<i64>],
    steps: &mut Vec<PathSegment>,
    pass: &mut Pass<'_>,
) -> rt::Result<()> {
    for (rooted, value) in schema.rooted.iter().zip(computed) {
        if let (true, Some(value)) = (rooted.ty == link.ty(), value) {
            let field = &schema.types[rooted.ty].fields[rooted.field];
            let path = path_of(steps, crate::intern::interned(&field.id));
            settle(link, (rooted.field, field), *value, path, pass)?;
        }
    }
    for index in 0..schema.types[link.ty()].fields.len() {
        each_in_field(schema, link, index, steps, &mut |child, steps| {
            set_rooted(schema, child, computed, steps, pass)
        })?;
    }
    Ok(())
}

/// Compares (and when the pass sets them, recomputes) derived member `k` of the structure
/// `link`: a field of a value it holds, derived from its content (see
/// [`skelcodec_codegen::model::TypeDef::derived_members`]).
fn recompute_member(
    schema: &Schema,
    link: &Link,
    k: usize,
    steps: &[PathSegment],
    pass: &mut Pass<'_>,
) -> rt::Result<()> {
    let def = &schema.types[link.ty()];
    let scope = Scope::of(schema, link.clone(), &[]);
    let member = &def.derived_members[k];
    let step = &def.fields[member.step];
    let child = match &link.node().fields.borrow()[member.step] {
        Some(Value::Struct(child)) => child.clone(),
        _ => return Ok(()),
    };
    let field = &schema.types[child.ty].fields[member.field];
    if def
        .member_held(member)
        .is_some_and(|user| !measured(link, user))
    {
        return Ok(());
    }
    let path = path_of(
        &[
            steps,
            &[PathSegment::Field(crate::intern::interned(&step.id))],
        ]
        .concat(),
        crate::intern::interned(&field.id),
    );
    let computed = match scope.int(&member.derived) {
        Ok(computed) => computed,
        Err(_) if !pass.set && member.derived.inflates() => return Ok(()),
        Err(m) => return Err(Error::new(0, ErrorKind::Invalid(format!("{path}: {m}")))),
    };
    let child = Link::new(child, Some(link.clone()));
    settle(&child, (member.field, field), computed, path, pass)
}
