//! `check` and `normalize` of a value read with a schema at run time, as the generated code's
//! methods do: every derived field (declared with `-derived`, or inferred from its use as a
//! size or count) is compared with, or recomputed from, the value as it would be written, and
//! `-fill: index` padding with the bytes it should hold. (Checksums are the writer's: see
//! `Interpreter::check`.) Sizes are measured by writing the
//! value once without the writer's checks, which leaves each structure's span where it is
//! written.

use skelcodec_codegen::expr::Expr;
use skelcodec_codegen::model::{Field, FieldType, Repeat, Schema, Size, UNREAD};
use skelcodec_runtime::{self as rt, Error, ErrorKind, Mismatch, PathSegment};

use crate::eval::Scope;
use crate::plan::Plan;
use crate::value::{Link, Value};

/// How often a value is measured again: a recomputed `vlq` may change its own size, and a
/// value written back into a slot the sizes that measure it (once per slot nested in another).
const MEASURES: usize = 8;

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
    for _ in 0..MEASURES {
        crate::write::measure(schema, value)?;
        let mut pass = Pass::new(plan, true);
        visit(schema, value, None, &mut Vec::new(), &mut pass)?;
        let Pass { found, synced, .. } = pass;
        if found.is_empty() && !synced {
            if let Some(root) = &root {
                changed.extend(crate::layout::move_blocks(schema, root)?);
            }
            return Ok(changed);
        }
        for mismatch in found {
            match changed.iter_mut().find(|m| m.path == mismatch.path) {
                Some(seen) => seen.computed = mismatch.computed,
                None => changed.push(mismatch),
            }
        }
    }
    Err(Error::new(
        0,
        ErrorKind::Invalid(format!(
            "the derived fields do not settle after {MEASURES} measures"
        )),
    ))
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

/// Visits the structures in `value`, innermost first, recording in `pass` each derived field
/// that disagrees with the content, and recomputing it when the pass sets them.
fn visit(
    schema: &Schema,
    value: &Value,
    parent: Option<&Link>,
    steps: &mut Vec<PathSegment>,
    pass: &mut Pass<'_>,
) -> rt::Result<()> {
    match value {
        Value::Struct(node) => {
            let link = Link::new(node.clone(), parent.cloned());
            let def = &schema.types[node.ty];
            // Values read from slots first, written back into them once normalized, then
            // everything else (the slots among it).
            let slotted = schema.slotted_fields(node.ty);
            let rest = (0..def.fields.len()).filter(|i| !slotted.contains(i));
            {
                // What is set below is the fields of other structures (a slot's, a child's).
                let fields = node.fields.borrow();
                for index in slotted.iter().copied().chain(rest) {
                    if let Some(held) = &fields[index] {
                        let name = crate::intern::interned(&def.fields[index].id);
                        steps.push(PathSegment::Field(name));
                        visit(schema, held, Some(&link), steps, pass)?;
                        steps.pop();
                    }
                    if slotted.contains(&index) {
                        sync_slot(schema, &link, index, steps, pass)?;
                    }
                }
            }
            recompute(schema, &link, steps, pass)
        }
        Value::List(items) => items.iter().enumerate().try_for_each(|(i, item)| {
            steps.push(PathSegment::Index(i));
            let visited = visit(schema, item, parent, steps, pass);
            steps.pop();
            visited
        }),
        Value::Case(name, inner) => {
            steps.push(PathSegment::Field(crate::intern::interned(name)));
            let visited = visit(schema, inner, parent, steps, pass);
            steps.pop();
            visited
        }
        Value::Decoded(decoded) => visit(schema, &decoded.value, parent, steps, pass),
        // Packed lists hold plain values, which have nothing derived.
        _ => Ok(()),
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

/// Compares (and when the pass sets them, recomputes) the derived fields and index fills of the structure
/// `link`.
fn recompute(
    schema: &Schema,
    link: &Link,
    steps: &[PathSegment],
    pass: &mut Pass<'_>,
) -> rt::Result<()> {
    let def = &schema.types[link.ty()];
    follow_kept_args(schema, link, steps, pass);
    recompute_members(schema, link, steps, pass)?;
    recompute_rooted(schema, link, steps, pass)?;
    let scope = Scope::of(schema, link.clone(), &[]);
    let derived =
        |f: &&Field| f.derived.is_some() || f.padding || f.fill_index || f.is_measured_as_written();
    for (index, field) in def.fields.iter().enumerate().filter(|(_, f)| derived(f)) {
        let path = || path_of(steps, crate::intern::interned(&field.id));
        let refused =
            |message: String| Error::new(0, ErrorKind::Invalid(format!("{}: {message}", path())));
        let stored = link.node().fields.borrow()[index].clone();
        // A measure of a value read on its own that failed holds nothing.
        if def
            .held_user(field)
            .is_some_and(|user| !measured(link, user))
        {
            continue;
        }
        if let Some(derived) = &field.derived
            && field.repeat != Repeat::None
        {
            settle_elements(&scope, (index, field), derived, path(), pass).map_err(refused)?;
        } else if let Some(derived) = &field.derived {
            let computed = match scope.int(derived) {
                Ok(computed) => computed,
                // Without a value (`inflated(…)` of bytes that are no deflate stream) there is
                // nothing to compare; `normalize()` refuses, as the generated code does.
                Err(_) if !pass.set && derived.inflates() => continue,
                Err(message) => return Err(refused(message)),
            };
            settle(link, (index, field), computed, path(), pass)?;
        } else if field.padding
            && let Some(Value::Bytes(pad)) = &stored
            && let FieldType::Bytes {
                size: Size::Expr(size),
                ..
            } = &field.ty
        {
            let size = scope.int(size).map_err(refused)?;
            if pad.0.len() as i64 == size {
                continue;
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
        } else if let Some(Value::Decoded(text)) = &stored
            && !text.stored.is_empty()
            && let Some(new) = scope.reframed(field, text)
        {
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
        } else if field.fill_index
            && let Some(Value::Bytes(mut pad)) = stored
            && let Some((at, expected)) = rt::__private::fields::index_fill_mismatch(&pad.0)
        {
            pass.found.push(Mismatch {
                path: path(),
                stored: at.into(),
                computed: expected.into(),
            });
            if pass.set {
                rt::__private::fields::fill_with_index(&mut pad.0);
                link.set_field(index, Value::Bytes(pad));
            }
        }
    }
    Ok(())
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

/// Compares (and when the pass sets them, sets) the fields of the structure `link` whose
/// derivation the root computes (see [`skelcodec_codegen::model::Schema::rooted`]): evaluated
/// in the root of the value, as the generated code's root computes them.
fn recompute_rooted(
    schema: &Schema,
    link: &Link,
    steps: &[PathSegment],
    pass: &mut Pass<'_>,
) -> rt::Result<()> {
    for rooted in schema.rooted.iter().filter(|r| r.ty == link.ty()) {
        let field = &schema.types[rooted.ty].fields[rooted.field];
        let path = path_of(steps, crate::intern::interned(&field.id));
        let scope = Scope::of(schema, link.root(), &[]);
        let computed = match scope.int(&rooted.derived) {
            Ok(computed) => computed,
            Err(_) if !pass.set && rooted.derived.inflates() => continue,
            Err(m) => return Err(Error::new(0, ErrorKind::Invalid(format!("{path}: {m}")))),
        };
        settle(link, (rooted.field, field), computed, path, pass)?;
    }
    Ok(())
}

/// Compares (and when the pass sets them, recomputes) the fields of the values `link` holds
/// that are derived from its content (see
/// [`skelcodec_codegen::model::TypeDef::derived_members`]).
fn recompute_members(
    schema: &Schema,
    link: &Link,
    steps: &[PathSegment],
    pass: &mut Pass<'_>,
) -> rt::Result<()> {
    let def = &schema.types[link.ty()];
    let scope = Scope::of(schema, link.clone(), &[]);
    for member in &def.derived_members {
        let step = &def.fields[member.step];
        let child = match &link.node().fields.borrow()[member.step] {
            Some(Value::Struct(child)) => child.clone(),
            _ => continue,
        };
        let field = &schema.types[child.ty].fields[member.field];
        if def
            .member_held(member)
            .is_some_and(|user| !measured(link, user))
        {
            continue;
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
            Err(_) if !pass.set && member.derived.inflates() => continue,
            Err(m) => return Err(Error::new(0, ErrorKind::Invalid(format!("{path}: {m}")))),
        };
        let child = Link::new(child, Some(link.clone()));
        settle(&child, (member.field, field), computed, path, pass)?;
    }
    Ok(())
}
