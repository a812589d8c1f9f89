//! Reads a file with a checked schema: the interpreter of the model, reading each field as the
//! generated reader does, with the runtime's own readers, so that values and errors (offset,
//! field path, message) are the generated code's.

use std::cell::RefCell;
use std::rc::Rc;

use skelcodec_codegen::model::*;
use skelcodec_codegen::names::IS_BE;
use skelcodec_runtime::stream::{Buffer, StreamId};
use skelcodec_runtime::{self as rt, ErrorKind, Reader};

use crate::choice::{self, Chosen};
use crate::eval::Scope;
use crate::map::{Deferred, FieldMap, Range};
use crate::plan::Plan;
use crate::process::Processor;
use crate::streams::{Origin, Place};
use crate::value::{Int, Io, Keys, Layout, Link, Packed, Page, Struct, Val, Value};

/// What every read of one file shares.
pub(crate) struct Ctx<'s> {
    pub schema: &'s Schema,
    /// What reading asks of each type, resolved once.
    plan: &'s Plan,
    pub file: &'s [u8],
    /// The document keys of each type's fields.
    pub keys: Rc<[Keys]>,
    /// What the reads of the schema share (layouts, switches' arms).
    shared: Rc<crate::plan::Shared>,
    /// Decoded streams met so far: one copy each.
    decoded: RefCell<Vec<DecodedStream>>,
    /// Every structure read with arguments or instances, to release what only reading needed
    /// (see [`read_file`]).
    nodes: RefCell<Vec<Rc<Struct>>>,
    /// The field map being recorded, when one is asked for.
    pub map: Option<RefCell<FieldMap>>,
    /// Copies of the file's pages, shared by the packed lists read from them.
    pages: RefCell<Vec<Option<Rc<Page>>>>,
    /// The fields read later being read the first time, whose listed arguments are empty.
    first_reads: RefCell<Vec<&'s ReadLater>>,
}

/// A decoded stream, its copy and the buffer the copy is.
type DecodedStream = (StreamId, Rc<[u8]>, Buffer);

impl<'s> Ctx<'s> {
    /// Reading `file` with `schema`.
    pub fn new(schema: &'s Schema, plan: &'s Plan, file: &'s [u8]) -> Self {
        let shared = plan.shared();
        Ctx {
            schema,
            plan,
            file,
            keys: shared.keys.clone(),
            shared,
            decoded: RefCell::default(),
            nodes: RefCell::default(),
            map: None,
            pages: RefCell::default(),
            first_reads: RefCell::default(),
        }
    }

    /// Reading `file` with `schema`, recording its field map.
    pub fn mapping(schema: &'s Schema, plan: &'s Plan, file: &'s [u8]) -> Self {
        Ctx {
            map: Some(RefCell::default()),
            ..Ctx::new(schema, plan, file)
        }
    }
}

impl<'s> Ctx<'s> {
    /// Reads with `read`, recording what it reads in the field map (when one is recorded) as
    /// `segment` of the path, of type `ty`.
    fn mapped(
        &self,
        r: &mut Reader<'_>,
        segment: impl FnOnce() -> String,
        ty: &FieldType,
        read: impl FnOnce(&mut Reader<'_>) -> rt::Result<Value>,
    ) -> rt::Result<Value> {
        self.mapped_at(r, segment, ty, |r| read(r).map(|value| (value, None)))
    }

    /// [`Ctx::mapped`] for a read that may say where it read (a value read by position is
    /// not where `r` stands): its range, else where `r` stood before and after.
    fn mapped_at(
        &self,
        r: &mut Reader<'_>,
        segment: impl FnOnce() -> String,
        ty: &FieldType,
        read: impl FnOnce(&mut Reader<'_>) -> rt::Result<(Value, Option<Range>)>,
    ) -> rt::Result<Value> {
        let Some(map) = &self.map else {
            return read(r).map(|(value, _)| value);
        };
        map.borrow_mut().enter(segment());
        let start = map.borrow().streams.place(self.file, r);
        let read = read(r);
        let end = map.borrow().streams.place(self.file, r);
        let (value, range) = match read {
            Ok((value, range)) => (Ok(value), range.unwrap_or((start, end))),
            Err(e) => (Err(e), (start, end)),
        };
        map.borrow_mut()
            .leave(self.schema, range, ty, value.as_ref().ok());
        value
    }

    /// Reads with `read`, and where it read when a field map is recorded.
    fn ranged<'a, T>(
        &self,
        r: &mut Reader<'a>,
        read: impl FnOnce(&mut Reader<'a>) -> rt::Result<T>,
    ) -> rt::Result<(T, Option<Range>)> {
        let start = self.place(r);
        let value = read(r)?;
        Ok((value, start.zip(self.place(r))))
    }

    /// Where `r` stands, when a field map is recorded.
    fn place(&self, r: &Reader<'_>) -> Option<Place> {
        let map = self.map.as_ref()?;
        Some(map.borrow().streams.place(self.file, r))
    }

    /// Where the bytes `processor` decodes from the bytes stored at `(start, end)` stand: a
    /// stream of their own, named by the value being read; the stored bytes themselves when
    /// the processor changes nothing (a frame cut to its terminator or padding, which starts
    /// where they do).
    fn decoded_origin(&self, processor: &Processor, (start, end): Range) -> Origin {
        if matches!(processor, Processor::Unchanged) {
            return start.at;
        }
        let path = (self.map.as_ref()).map_or_else(String::new, |m| m.borrow().rendered());
        let stream = crate::streams::Stream {
            path,
            stored_start: start.at.offset,
            stored_end: end.at.offset,
            stored_in: start.at.stream.map(|s| s.path.clone()),
        };
        Origin {
            stream: Some(Rc::new(stream)),
            offset: 0,
        }
    }

    /// Runs `read`, which reads `bytes` (decoded ones), knowing for the field map that they
    /// stand at `origin`.
    fn reading_decoded<T>(
        &self,
        bytes: &[u8],
        origin: Option<Origin>,
        read: impl FnOnce() -> T,
    ) -> T {
        let (Some(map), Some(origin)) = (&self.map, origin) else {
            return read();
        };
        map.borrow_mut().streams.enter(bytes, origin);
        let value = read();
        map.borrow_mut().streams.leave();
        value
    }

    /// How the elements of `field`'s list of `ty` are read from their bytes when the list can
    /// be kept packed: not when a field map is recorded (each element has its range there)
    /// or the elements have rules to keep.
    fn packing(&self, field: &Field, ty: &FieldType, size: usize) -> Option<Rc<Layout>> {
        if self.map.is_some() || !field.valid.is_empty() || size == 0 {
            return None;
        }
        let layout = || crate::packed::layout(self.schema, &self.keys, ty, size).map(Rc::new);
        let FieldType::User { ty: user, .. } = ty else {
            return layout();
        };
        let mut layouts = self.shared.layouts.borrow_mut();
        layouts.get_mut(*user)?.get_or_insert_with(layout).clone()
    }

    /// A copy of the part of the file that holds `bytes`, which start at `start`: their page
    /// (copied once, when first asked), or a copy of their own when they cross pages. Pages are
    /// small enough for the allocator to serve from memory it reuses.
    fn page(&self, start: usize, bytes: &[u8]) -> Rc<Page> {
        const PAGE: usize = 1 << 16;
        let (index, end) = (start / PAGE, start + bytes.len());
        if end > (index + 1) * PAGE {
            return Rc::new(Page {
                at: start as u64,
                bytes: bytes.to_vec(),
            });
        }
        let mut pages = self.pages.borrow_mut();
        if pages.len() <= index {
            pages.resize(index + 1, None);
        }
        let copy = || {
            let at = index * PAGE;
            let bytes = self.file.get(at..(at + PAGE).min(self.file.len()));
            Rc::new(Page {
                at: at as u64,
                bytes: bytes.unwrap_or_default().to_vec(),
            })
        };
        pages[index].get_or_insert_with(copy).clone()
    }

    /// Forgets the copies of the streams in `buffer`, whose bytes are read: no reader meets
    /// them again, and values hold the copies they keep.
    fn forget_decoded(&self, buffer: Buffer) {
        self.decoded
            .borrow_mut()
            .retain(|(id, ..)| id.buffer() != buffer);
    }

    /// Runs `read`, the first read of a field read later (when `later` is one) with the
    /// arguments it lists empty.
    fn first_read<T>(&self, later: Option<&'s ReadLater>, read: impl FnOnce() -> T) -> T {
        let Some(later) = later else {
            return read();
        };
        self.first_reads.borrow_mut().push(later);
        let value = read();
        self.first_reads.borrow_mut().pop();
        value
    }

    /// Whether parameter `param` of type `ty` is passed an empty argument here.
    fn is_empty_first(&self, ty: usize, param: &str) -> bool {
        let first_reads = self.first_reads.borrow();
        (first_reads.iter()).any(|later| {
            later
                .empty_first
                .iter()
                .any(|(t, p)| *t == ty && p == param)
        })
    }

    /// The scope of the expressions of `link`'s structure while it is read, which evaluates
    /// the read path's sites through their trees.
    fn scope(&self, link: &Link) -> Scope<'s> {
        Scope {
            trees: Some(&self.plan.trees),
            ..Scope::of(self.schema, link.clone(), self.file)
        }
    }

    /// Whether `r` reads a range of the file (not decoded bytes).
    fn in_file(&self, r: &Reader<'_>) -> bool {
        let (file, range) = (self.file.as_ptr_range(), r.data().as_ptr_range());
        file.start <= range.start && range.end <= file.end
    }

    /// The stream `r` reads: a range of the file, or decoded bytes, copied once per stream
    /// for the look-aheads of the values read from them.
    fn stream_of(&self, r: &Reader<'_>) -> Io {
        let data = r.data();
        let (file, range) = (self.file.as_ptr_range(), data.as_ptr_range());
        let in_file = self.in_file(r);
        let decoded = (!in_file).then(|| {
            let mut known = self.decoded.borrow_mut();
            let key = r.stream_id();
            match known.iter().find(|(k, ..)| *k == key) {
                Some((_, bytes, buffer)) => (bytes.clone(), *buffer),
                None => {
                    let bytes: Rc<[u8]> = Rc::from(data);
                    let buffer = Buffer::fresh();
                    known.push((key, bytes.clone(), buffer));
                    if let Some(map) = &self.map {
                        map.borrow_mut().streams.keep_copy(self.file, data, &bytes);
                    }
                    (bytes, buffer)
                }
            }
        });
        Io {
            start: match in_file {
                true => (range.start as usize - file.start as usize) as u64,
                false => r.absolute_pos() - r.pos() as u64,
            },
            len: data.len(),
            buffer: decoded.as_ref().map_or(Buffer::FILE, |(_, buffer)| *buffer),
            decoded: decoded.map(|(bytes, _)| bytes),
        }
    }
}

/// Reads the whole file as the schema's root type, with `args` for its parameters.
pub(crate) fn read_file(cx: &Ctx<'_>, args: Vec<Val>) -> rt::Result<Value> {
    // Work beyond one pass over the file is budgeted as the generated reader budgets it.
    let searched = cx.plan.searched;
    let state = (cx.plan.positioned || searched)
        .then(|| rt::reader::FileState::new(rt::Reader::budget_for(cx.file.len(), searched)));
    let mut r = Reader::new(cx.file);
    if let Some(state) = &state {
        r = r.sharing(state);
    }
    // The root is at 0 of the file: an instance there of its type is itself, a cycle.
    let visiting_root = r.visit_as(crate::intern::interned("type 0"))?;
    let root = read_struct(cx, &mut r, 0, args, (None, None));
    drop(visiting_root);
    map_look_aheads(cx);
    // What expressions kept while reading (arguments, instances computed once) may link a
    // value to the values around it, in a cycle: only reading needs them.
    for node in cx.nodes.take() {
        node.release();
    }
    let root = root?;
    if let Some(index) = cx.plan.types[0].trailing {
        root.fields.borrow_mut()[index] = Some(Value::Bytes(rt::RawBytes::new(r.rest().to_vec())));
    }
    Ok(Value::Struct(root))
}

/// The bytes of `old` a value of type `ty` (one that needs no arguments) read at `pos` was
/// read from, found by reading it there again: a value read from a slot, written back into it
/// (see `sync`).
pub(crate) fn read_again(
    schema: &Schema,
    plan: &Plan,
    ty: usize,
    old: &[u8],
    pos: i64,
) -> Option<rt::__private::fields::Replaced> {
    let cx = Ctx::new(schema, plan, old);
    rt::__private::fields::Replaced::as_read(old, pos, |r| {
        read_struct(&cx, r, ty, Vec::new(), (None, None)).map(drop)
    })
}

/// An error of evaluating an expression, at the reader's position.
fn eval_error(r: &Reader<'_>, message: String) -> rt::Error {
    r.error(ErrorKind::Invalid(message))
}

/// Reads a value of type `ty` at `r`'s position, as the generated reader does: a type of a
/// fixed layout in one read of all its bytes (so it fails where it starts), a recursive one a
/// level deeper (bounded by [`rt::reader::MAX_DEPTH`]).
fn read_struct(
    cx: &Ctx<'_>,
    r: &mut Reader<'_>,
    ty: usize,
    params: Vec<Val>,
    (parent, holder): (Option<Link>, Option<&Link>),
) -> rt::Result<Rc<Struct>> {
    let context = (parent, holder);
    let plan = &cx.plan.types[ty];
    let kept_before = cx.nodes.borrow().len();
    let read = match (plan.fixed_size, plan.recursive) {
        (Some(size), _) => r
            .sub(size)
            .and_then(|mut whole| read_fields(cx, &mut whole, ty, params, context)),
        (None, true) => r.nested(|r| read_fields(cx, r, ty, params, context)),
        (None, false) => read_fields(cx, r, ty, params, context),
    };
    if read.is_err() {
        // The values read for it are dropped now, not once the whole file is read: a file
        // whose instances fail by the thousand (a spent budget) keeps none of them.
        for node in cx.nodes.borrow_mut().drain(kept_before..) {
            node.release();
        }
    }
    read
}

/// Reads the fields of a value of type `ty` one after another. While it is read, the value is
/// its holder's field (`holder`, whose field being read it is), as Kaitai's objects are
/// visible while they are built (`_root.tag.header` from inside `tag`).
fn read_fields(
    cx: &Ctx<'_>,
    r: &mut Reader<'_>,
    ty: usize,
    params: Vec<Val>,
    context: (Option<Link>, Option<&Link>),
) -> rt::Result<Rc<Struct>> {
    // Inside an imported schema's root value, its `_root._io` is that value's stream.
    match cx.plan.types[ty].roots_imported_stream {
        true => r.in_file_root(|r| read_sequence(cx, r, ty, params, context)),
        false => read_sequence(cx, r, ty, params, context),
    }
}

/// [`read_fields`] in the stream its `_root._io` is.
fn read_sequence(
    cx: &Ctx<'_>,
    r: &mut Reader<'_>,
    ty: usize,
    params: Vec<Val>,
    (parent, holder): (Option<Link>, Option<&Link>),
) -> rt::Result<Rc<Struct>> {
    let def = &cx.schema.types[ty];
    let start = r.pos();
    let args = Value::kept_args(def, &params);
    let node = Rc::new(Struct::new(
        ty,
        vec![None; def.fields.len()],
        params,
        cx.keys[ty].clone(),
        (cx.stream_of(r), start, r.is_eof()),
    ));
    node.keep_args(args);
    if !(def.params.is_empty() && def.instances.is_empty()) {
        cx.nodes.borrow_mut().push(node.clone());
    }
    if cx.plan.types[ty].keeps_unclaimed {
        // Found once the whole file is read (see `Interpreter::read`); none elsewhere.
        node.unclaimed.replace(Some(Vec::new()));
    }
    if let Some(map) = &cx.map {
        map.borrow_mut().root.get_or_insert_with(|| node.clone());
    }
    if let Some(holder) = holder
        && let Some(index) = holder.node().reading.get()
    {
        holder.set_field(index as usize, Value::Struct(node.clone()));
    }
    if cx.map.is_none() && cx.plan.types[ty].all_plain {
        // Its fields one after the other, where no expression looks: no link is needed.
        for (index, field) in def.fields.iter().enumerate() {
            let value =
                read_plain_field(cx, r, &field.ty).map_err(|e| e.in_path(field_name(field)));
            node.fields.borrow_mut()[index] = Some(value?);
        }
        node.pos.set((r.pos(), r.is_eof()));
        node.span.set((start, r.pos()));
        return Ok(node);
    }
    let link = Link::new(node.clone(), parent);
    if let Some(choice) = &def.endian_choice {
        let scope = cx.scope(&link);
        node.is_be.set(Some(choose_byte_order(r, &scope, choice)?));
    }
    read_fields_from(cx, r, &link, 0, Vec::new())?;
    node.pos.set((r.pos(), r.is_eof()));
    node.reading.set(None);
    node.span.set((start, r.pos()));
    defer_look_aheads(cx, &link);
    Ok(node)
}

/// Fields read later (see `Field::read_later`) waiting for their second read: each with where
/// it started and ended.
type Waiting = Vec<(usize, usize, usize)>;

/// Reads the fields of `link`'s structure from field `from` on, one after another; `waiting`
/// holds the fields before it read later. A field searched for (`-scan`) or solved (`-solve`)
/// reads the rest of the fields itself: they decide its value.
fn read_fields_from(
    cx: &Ctx<'_>,
    r: &mut Reader<'_>,
    link: &Link,
    from: usize,
    mut waiting: Waiting,
) -> rt::Result<()> {
    let (node, ty) = (link.node(), link.ty());
    let def = &cx.schema.types[ty];
    for (index, field) in def.fields.iter().enumerate().skip(from) {
        if let Some(marker) = &field.scan {
            return read_scanned(cx, r, link, (index, marker), waiting);
        }
        if let FieldType::Remembered {
            value,
            ty: int,
            solve: Some(range),
        } = &field.ty
        {
            return read_solved(cx, r, link, (index, value, *int, *range), waiting);
        }
        let read_later = match &field.read_later {
            Some(_) => Some(
                rt::__private::fields::byte_start(r).map_err(|e| e.in_path(field_name(field)))?,
            ),
            None => None,
        };
        start_field(cx, r, link, index);
        let kept_from_holder = def.unread_from_holder && field.id == UNREAD;
        let trailing = cx.plan.types[ty].trailing == Some(index);
        let value = if kept_from_holder || trailing {
            // Filled by the whole-file read, or by the read of the substream.
            Value::Bytes(rt::RawBytes::default())
        } else {
            // A plain value needs none of the general reader's steps.
            let read = match cx.map.is_none() && cx.plan.types[ty].plain[index] {
                true => read_plain_field(cx, r, &field.ty),
                false => cx.first_read(field.read_later.as_ref(), || {
                    read_mapped(cx, r, link, index)
                }),
            };
            match (read, field.parse_instance) {
                (Ok(value), _) => value,
                // A parse instance's failure is its own: the value is read all the same.
                (Err(e), true) => failed_instance(cx, r, link, index, e),
                (Err(e), false) => return Err(e.in_path(field_name(field))),
            }
        };
        node.fields.borrow_mut()[index] = Some(value);
        if let Some(start) = read_later {
            waiting.push((index, start, r.pos()));
        }
        read_again_after(cx, r, link, &mut waiting, &field.id)?;
    }
    Ok(())
}

/// Reads a plain field's value (see `TypePlan::plain`) as the general reader would: an array
/// in one read of all its bytes, so that it fails where it starts.
fn read_plain_field(cx: &Ctx<'_>, r: &mut Reader<'_>, ty: &FieldType) -> rt::Result<Value> {
    let unplain = |r: &Reader<'_>| r.error(ErrorKind::Invalid(format!("{ty:?} is not plain")));
    let FieldType::Array { elem, len } = ty else {
        return crate::packed::read_plain(r, ty, false).unwrap_or_else(|| Err(unplain(r)));
    };
    let size = cx.plan.fixed_size_of(cx.schema, ty).unwrap_or(0);
    let mut whole = r.sub(size)?;
    let items = (0..*len)
        .map(
            |index| match crate::packed::read_plain(&mut whole, elem, false) {
                Some(read) => read.map_err(|e| e.at_index(index)),
                None => Err(unplain(&whole)),
            },
        )
        .collect::<rt::Result<_>>()?;
    Ok(Value::List(items))
}

/// Field `index` of `link`'s structure is read next, where `r` stands.
fn start_field(cx: &Ctx<'_>, r: &Reader<'_>, link: &Link, index: usize) {
    let node = link.node();
    node.pos.set((r.pos(), r.is_eof()));
    // A single value is visible while it is read; a list shows the elements read before.
    let single = cx.schema.types[link.ty()].fields[index].repeat == Repeat::None;
    node.reading.set(single.then_some(index as u32));
}

/// Reads field `index` of `link`'s structure, recording it in the field map when one is.
fn read_mapped(cx: &Ctx<'_>, r: &mut Reader<'_>, link: &Link, index: usize) -> rt::Result<Value> {
    let ty = link.ty();
    let field_ty = &cx.schema.types[ty].fields[index].ty;
    cx.mapped_at(
        r,
        || segment(cx, ty, index),
        field_ty,
        |r| read_field_at(cx, r, link, index),
    )
}

/// The segment of the path field `index` of type `ty` is in the field map: its document key.
fn segment(cx: &Ctx<'_>, ty: usize, index: usize) -> String {
    let field = &cx.schema.types[ty].fields[index];
    cx.keys[ty][index]
        .as_deref()
        .unwrap_or(&field.id)
        .to_owned()
}

/// What a trial read of the fields after a searched or solved one leaves: their values, and
/// what it recorded in the field map (put back when the trial is the one kept).
type Trial = (Vec<Option<Value>>, crate::map::Recorded);

/// Reads the fields of `link`'s structure after field `index` as one trial of a search:
/// their values and what was recorded in the map; a failed trial leaves nothing recorded.
fn trial_of_rest(
    cx: &Ctx<'_>,
    r: &mut Reader<'_>,
    link: &Link,
    index: usize,
    waiting: &Waiting,
) -> rt::Result<Trial> {
    let mark = cx.map.as_ref().map(|m| m.borrow().mark());
    let read = read_fields_from(cx, r, link, index + 1, waiting.clone());
    let recorded = (cx.map.as_ref().zip(mark)).map(|(m, mark)| m.borrow_mut().take_since(mark));
    read.map(|()| {
        let fields = link.node().fields.borrow()[index + 1..].to_vec();
        (fields, recorded.unwrap_or_default())
    })
}

/// Keeps the trial found: its fields' values, and what it recorded in the map.
fn keep_trial(cx: &Ctx<'_>, link: &Link, index: usize, (fields, recorded): Trial) {
    link.node().fields.borrow_mut()[index + 1..].clone_from_slice(&fields);
    if let Some(map) = &cx.map {
        map.borrow_mut().put_back(recorded);
    }
}

/// Reads field `index`, searched for (`-scan: marker`), and the fields after it, as the
/// generated reader does: it ends at the first occurrence of `marker` after which the rest
/// of the fields read exactly to the end of the stream.
fn read_scanned(
    cx: &Ctx<'_>,
    r: &mut Reader<'_>,
    link: &Link,
    (index, marker): (usize, &[u8]),
    waiting: Waiting,
) -> rt::Result<()> {
    let name = crate::intern::interned(&cx.schema.types[link.ty()].fields[index].id);
    let read_value = |r: &mut Reader<'_>| {
        start_field(cx, r, link, index);
        let mark = cx.map.as_ref().map(|m| m.borrow().mark());
        let value = read_mapped(cx, r, link, index);
        // Kept in the map only with the trial of the rest that follows it.
        let recorded = (cx.map.as_ref().zip(mark)).map(|(m, mark)| m.borrow_mut().take_since(mark));
        let value = value?;
        link.set_field(index, value.clone());
        Ok((value, recorded.unwrap_or_default()))
    };
    let rest = |r: &mut Reader<'_>| trial_of_rest(cx, r, link, index, &waiting);
    let ((value, recorded), trial) =
        rt::__private::fields::read_scanned(r, name, marker, read_value, rest)?;
    link.set_field(index, value);
    if let Some(map) = &cx.map {
        map.borrow_mut().put_back(recorded);
    }
    keep_trial(cx, link, index, trial);
    Ok(())
}

/// Reads field `index`, a value remembered and solved (`-solve: [min, max]`), and the fields
/// after it, as the generated reader does: its value as computed when not 0, else the only
/// candidate after which the rest of the fields read exactly to the end of the stream.
fn read_solved(
    cx: &Ctx<'_>,
    r: &mut Reader<'_>,
    link: &Link,
    (index, value, int, (min, max)): (usize, &skelcodec_codegen::expr::Expr, IntType, (i64, i64)),
    waiting: Waiting,
) -> rt::Result<()> {
    start_field(cx, r, link, index);
    let scope = Scope::of(cx.schema, link.clone(), cx.file);
    let known = scope.int(value).map_err(|m| eval_error(r, m))?;
    let field = &cx.schema.types[link.ty()].fields[index];
    let name = crate::intern::interned(&field.id);
    // Its row in the field map comes before the rows of the fields that decide it.
    let place = cx.place(r);
    let row = (cx.map.as_ref()).map(|m| m.borrow_mut().reserve(segment(cx, link.ty(), index)));
    let solve = Solve {
        cx,
        link,
        index,
        waiting: &waiting,
        name,
        int,
        known,
        candidates: min..=max,
    };
    let (solved, trial) = match (int.bytes, int.signed) {
        (1, false) => solve.run::<u8>(r),
        (1, true) => solve.run::<i8>(r),
        (2, false) => solve.run::<u16>(r),
        (2, true) => solve.run::<i16>(r),
        (4, false) => solve.run::<u32>(r),
        (4, true) => solve.run::<i32>(r),
        (8, false) => solve.run::<u64>(r),
        _ => solve.run::<i64>(r),
    }?;
    let solved = Int::fitting(solved, int).map_or(Value::Absent, Value::Int);
    if let (Some(map), Some(row), Some(at)) = (&cx.map, row, place) {
        let range = (at.clone(), at);
        map.borrow_mut()
            .record(cx.schema, row, range, (&field.ty, &solved));
    }
    link.set_field(index, solved);
    keep_trial(cx, link, index, trial);
    Ok(())
}

/// A solved field's search (see [`read_solved`]), run in its integer type as the generated
/// reader's, so that its errors are the same.
struct Solve<'c, 's> {
    cx: &'c Ctx<'s>,
    link: &'c Link,
    index: usize,
    waiting: &'c Waiting,
    name: &'static str,
    /// The field's integer type.
    int: IntType,
    known: i64,
    candidates: std::ops::RangeInclusive<i64>,
}

impl Solve<'_, '_> {
    /// The value solved, as a wide integer, and the trial of the rest it was kept with.
    fn run<T>(self, r: &mut Reader<'_>) -> rt::Result<(i128, Trial)>
    where
        T: TryFrom<i64> + Copy + std::fmt::Display + Into<i128>,
    {
        let Solve {
            cx,
            link,
            index,
            waiting,
            int,
            ..
        } = self;
        let rest = |r: &mut Reader<'_>, candidate: T| {
            let held = Int::fitting(candidate.into(), int).map_or(Value::Absent, Value::Int);
            link.set_field(index, held);
            trial_of_rest(cx, r, link, index, waiting)
        };
        let (value, trial) =
            rt::__private::fields::read_solved(r, self.name, self.known, self.candidates, rest)?;
        Ok((value.into(), trial))
    }
}

/// Takes a place in the field map for each look-ahead instance of `link`'s structure, read
/// for the map once the whole file is read ([`map_look_aheads`]): the reader reads them only
/// when an expression needs them, and only then can every value their `pos` uses be read.
fn defer_look_aheads(cx: &Ctx<'_>, link: &Link) {
    let Some(map) = &cx.map else {
        return;
    };
    let mut map = map.borrow_mut();
    let instances = &cx.schema.types[link.ty()].instances;
    for (index, instance) in instances.iter().enumerate() {
        if instance.is_look_ahead() {
            let (path, order) = map.reserve(instance.id.clone());
            map.deferred.push(Deferred {
                path,
                order,
                link: link.clone(),
                index,
            });
        }
    }
}

/// Maps the look-ahead instances [`defer_look_aheads`] put aside, each at its place in its
/// structure's stream; one that reads nothing (its `if` does not hold, past the end) is left
/// out.
fn map_look_aheads(cx: &Ctx<'_>) {
    let Some(map) = &cx.map else {
        return;
    };
    let deferred = std::mem::take(&mut map.borrow_mut().deferred);
    for Deferred {
        path,
        order,
        link,
        index,
    } in deferred
    {
        let Some((at, ty, value)) = crate::eval::peeked(cx.schema, &link, index, cx.file) else {
            continue;
        };
        let io = &link.node().io;
        let origin = match &io.decoded {
            Some(copy) => map.borrow().streams.copy_origin(copy),
            None => Some(Origin {
                stream: None,
                offset: io.start,
            }),
        };
        let Some(origin) = origin else {
            continue;
        };
        let size = cx.plan.fixed_size_of(cx.schema, &ty).unwrap_or(0) as u64;
        let place = |offset: u64| Place {
            at: Origin {
                offset,
                ..origin.clone()
            },
            pending: 0,
        };
        let start = origin.offset + at as u64;
        let range = (place(start), place(start + size));
        map.borrow_mut()
            .record(cx.schema, (path, order), range, (&ty, &value));
    }
}

/// Reads again, each from where it started, the fields read later whose instances use the
/// field `after`, just read (Kaitai evaluates those instances lazily): `waiting` holds each
/// such field with where it started and ended, and it must end there again.
fn read_again_after(
    cx: &Ctx<'_>,
    r: &mut Reader<'_>,
    link: &Link,
    waiting: &mut Vec<(usize, usize, usize)>,
    after: &str,
) -> rt::Result<()> {
    if waiting.is_empty() {
        return Ok(());
    }
    let fields = &cx.schema.types[link.ty()].fields;
    let is_now =
        |index: usize| (fields[index].read_later.as_ref()).is_some_and(|l| l.after == after);
    let (now, others) = waiting.drain(..).partition(|(index, ..)| is_now(*index));
    *waiting = others;
    for (index, start, end) in now {
        // The field read again is the one being read now (a single value shows while it is).
        let single = fields[index].repeat == Repeat::None;
        link.node().reading.set(single.then_some(index as u32));
        let value = rt::__private::fields::read_once_more(r, start, end, |r| {
            read_field(cx, r, link, index)
        })
        .map_err(|e| e.in_path(field_name(&fields[index])))?;
        link.set_field(index, value);
    }
    Ok(())
}

/// The field's name in error paths: its name in the schema, as the generated reader's.
fn field_name(field: &Field) -> String {
    field.id.clone()
}

/// Reads field `index` of `link`'s structure: its condition, its repetition, its values.
fn read_field(cx: &Ctx<'_>, r: &mut Reader<'_>, link: &Link, index: usize) -> rt::Result<Value> {
    read_field_at(cx, r, link, index).map(|(value, _)| value)
}

/// [`read_field`], with where a field read by position was read (when a field map is
/// recorded).
fn read_field_at(
    cx: &Ctx<'_>,
    r: &mut Reader<'_>,
    link: &Link,
    index: usize,
) -> rt::Result<(Value, Option<Range>)> {
    let field = &cx.schema.types[link.ty()].fields[index];
    let mut scope = cx.scope(link);
    if let Some(parent) = &field.parent {
        scope.parent = match scope.eval(parent).map_err(|m| eval_error(r, m))? {
            Val::Struct(link) => Some(Some(link)),
            _ => Some(None),
        };
    }
    if let Some(cond) = &field.cond
        && !scope.bool_site(cond).map_err(|m| eval_error(r, m))?
    {
        return Ok((Value::Absent, None));
    }
    let (value, range) = match (&field.position, &field.stream) {
        (None, _) => (read_values(cx, r, &scope, index)?, None),
        (Some(pos), Stream::Of(stream)) => read_in_stream(cx, r, &scope, index, (stream, pos))?,
        (Some(pos), _) => {
            let placed = placed(r, &scope, field, pos)?;
            let key = visit_key(cx, link.ty(), index);
            rt::__private::fields::read_placed_as(r, placed, key, |r| {
                cx.ranged(r, |r| read_values(cx, r, &scope, index))
            })?
        }
    };
    // Checked where the reader stands after the field (before one read by position), with
    // the field read: a rule may name it (`valid: 'idx == 9 ? false : has_next'`).
    if !field.valid.is_empty() {
        link.set_field(index, value.clone());
    }
    check_valid(cx, r, &scope, field, &value)?;
    // A conditional field that holds nothing says only that it is there.
    let value = match field.is_presence_flag() {
        true => Value::Present,
        false => value,
    };
    Ok((value, range))
}

/// Reads field `index` of the scope's structure at a position of another value's stream
/// (`io: x._io`), from that stream's start: a range of the file, or decoded bytes. With where
/// it was read, when a field map is recorded.
fn read_in_stream(
    cx: &Ctx<'_>,
    r: &Reader<'_>,
    scope: &Scope<'_>,
    index: usize,
    (stream, pos): (
        &skelcodec_codegen::expr::Expr,
        &skelcodec_codegen::expr::Expr,
    ),
) -> rt::Result<(Value, Option<Range>)> {
    let io = match scope.eval(stream).map_err(|m| eval_error(r, m))? {
        Val::Io(io, ..) => io,
        _ => return Err(eval_error(r, "`io` needs a value's stream".to_owned())),
    };
    let pos = scope.int_site(pos).map_err(|m| eval_error(r, m))?;
    let key = visit_key(cx, scope.this.ty(), index);
    let read = |at: &mut Reader<'_>| cx.ranged(at, |at| read_values(cx, at, scope, index));
    match &io.decoded {
        Some(bytes) => {
            let origin = (cx.map.as_ref()).and_then(|m| m.borrow().streams.copy_origin(bytes));
            cx.reading_decoded(bytes, origin, || {
                let at = r.decoded_in(io.buffer, bytes, io.start);
                rt::__private::fields::read_in_as(r, at, pos, key, read)
            })
        }
        None => {
            let start = usize::try_from(io.start).unwrap_or(usize::MAX);
            let at = r.whole_file().region(start, io.len)?;
            rt::__private::fields::read_in_as(r, at, pos, key, read)
        }
    }
}

/// Where a field read by position is.
fn placed(
    r: &Reader<'_>,
    scope: &Scope<'_>,
    field: &Field,
    pos: &skelcodec_codegen::expr::Expr,
) -> rt::Result<rt::__private::fields::Placed> {
    let pos = scope.int_site(pos).map_err(|m| eval_error(r, m))?;
    Ok(match field.stream {
        Stream::Root => rt::__private::fields::Placed::Root(pos),
        _ => rt::__private::fields::Placed::Own(pos),
    })
}

/// What identifies the values of field `index` of type `owner` among those being read around
/// them, for cycles: its type, as the generated reader's Rust type does.
fn visit_key(cx: &Ctx<'_>, owner: usize, index: usize) -> &'static str {
    let field = &cx.schema.types[owner].fields[index];
    let mut key = match &field.ty {
        FieldType::User { ty, .. } => format!("type {ty}"),
        FieldType::Switch(_) => format!("switch {owner}.{index}"),
        _ => "value".to_owned(),
    };
    if field.repeat != Repeat::None {
        key = format!("list of {key}");
    }
    if cx.schema.reads_on_demand(owner, field) {
        key = format!("on demand {key}");
    }
    crate::intern::interned(&key)
}

/// A parse instance whose read failed: a cycle, or its failure, with the bytes it holds when
/// it reads on demand (see [`rt::Instance`]).
fn failed_instance(cx: &Ctx<'_>, r: &Reader<'_>, link: &Link, index: usize, e: rt::Error) -> Value {
    if let ErrorKind::Cycle { offset } = e.kind()
        && e.has_no_path()
    {
        return Value::Cycle(*offset);
    }
    let field = &cx.schema.types[link.ty()].fields[index];
    let mut failed = Value::Failed {
        message: e.to_string().into(),
        held: None,
    };
    if !cx.schema.reads_on_demand(link.ty(), field) {
        return failed;
    }
    // Read on demand, it would hold the bytes of its size where it is; when they are not
    // there, it fails for that, at once.
    let scope = Scope::of(cx.schema, link.clone(), cx.file);
    let window = (|| {
        let len = scope.window_len(field)?;
        let (mut at, pos) = match placed(r, &scope, field, field.position.as_ref()?).ok()? {
            rt::__private::fields::Placed::Own(pos) => (r.clone(), pos),
            rt::__private::fields::Placed::Root(pos) => (r.root_stream(), pos),
        };
        Some(
            rt::__private::arith::length(pos, &at)
                .and_then(|pos| at.seek(pos))
                .and_then(|()| rt::__private::arith::length(len, &at))
                .and_then(|len| at.clone().sub(len))
                .map(|sub| (cx.in_file(&sub), sub.data().to_vec())),
        )
    })();
    match (window, &mut failed) {
        (Some(Ok((true, bytes))), Value::Failed { held, .. }) => {
            *held = Some(Box::new(rt::RawBytes::new(bytes)));
        }
        (Some(Err(e)), Value::Failed { message, .. }) => *message = e.to_string().into(),
        _ => {}
    }
    failed
}

/// The values of field `index` of the scope's structure, after its condition holds, where
/// it is read.
fn read_values<'s>(
    cx: &Ctx<'s>,
    r: &mut Reader<'_>,
    scope: &Scope<'_>,
    index: usize,
) -> rt::Result<Value> {
    let field = &cx.schema.types[scope.this.ty()].fields[index];
    let whole_list = cx.plan.types[scope.this.ty()].switches_whole_list[index];
    let value = match (&field.ty, whole_list) {
        (FieldType::Switch(switch), true) => {
            let (name, ty) = choose(cx, r, scope, switch)?;
            let list = cx
                .mapped(
                    r,
                    || name.to_string(),
                    ty,
                    |r| read_repeated(cx, r, scope, index, ty),
                )
                .map_err(|e| e.in_path(name.to_string()))?;
            Value::Case(name, Box::new(list))
        }
        (ty, _) => read_repeated(cx, r, scope, index, ty)?,
    };
    Ok(value)
}

/// Refuses a value that breaks one of the field's `valid` rules, each checked on `_`: the
/// value, or each element of a list. The error is where the reader stands after the field.
fn check_valid(
    cx: &Ctx<'_>,
    r: &Reader<'_>,
    scope: &Scope<'_>,
    field: &Field,
    value: &Value,
) -> rt::Result<()> {
    if field.valid.is_empty() {
        return Ok(());
    }
    let element = match &field.ty {
        FieldType::Array { elem, .. } => elem.as_ref(),
        ty => ty,
    };
    let items: Vec<(Option<usize>, &Value)> = match value {
        Value::List(items) => items
            .iter()
            .enumerate()
            .map(|(i, v)| (Some(i), v))
            .collect(),
        value => vec![(None, value)],
    };
    for (index, item) in items {
        let item_scope = Scope {
            index: index.map(|i| i as i64),
            item: Some(crate::eval::to_val(element, item, &scope.this)),
            ..scope.clone()
        };
        for valid in &field.valid {
            let holds = match (valid.kind, item) {
                (ValidKind::InEnum, Value::Enum { def, raw }) => cx.schema.enums[*def]
                    .variants
                    .iter()
                    .any(|v| v.value == *raw),
                _ => item_scope.bool(&valid.rule).map_err(|m| eval_error(r, m))?,
            };
            if !holds {
                let error = r.error(ErrorKind::Validation {
                    rule: rule(valid.kind),
                    message: format!(
                        "expected a value {}, found {}",
                        valid.expected,
                        crate::debug::debug(cx.schema, item)
                    ),
                });
                return Err(match index {
                    Some(i) => error.at_index(i),
                    None => error,
                });
            }
        }
    }
    Ok(())
}

/// The runtime's name of the rule a `valid` key makes.
fn rule(kind: ValidKind) -> rt::error::ValidationRule {
    use rt::error::ValidationRule;
    match kind {
        ValidKind::Eq => ValidationRule::NotEqual,
        ValidKind::Min => ValidationRule::LessThan,
        ValidKind::Max => ValidationRule::GreaterThan,
        ValidKind::AnyOf => ValidationRule::NotAnyOf,
        ValidKind::InEnum => ValidationRule::NotInEnum,
        ValidKind::Expr => ValidationRule::Expr,
    }
}

/// Reads the values of field `index` of the scope's structure by its `repeat`. A list whose
/// elements use the elements read before them (`_parent.cats.size`) shows those as the field
/// while each is read, as Kaitai does.
fn read_repeated<'s>(
    cx: &Ctx<'s>,
    r: &mut Reader<'_>,
    scope: &Scope<'_>,
    index: usize,
    ty: &'s FieldType,
) -> rt::Result<Value> {
    let field = &cx.schema.types[scope.this.ty()].fields[index];
    if field.repeat == Repeat::None {
        return read_sized(cx, r, scope, field, ty);
    }
    let seeing = cx.plan.types[scope.this.ty()].seeing[index];
    // A list whose elements' instances use the list is read again once complete (Kaitai
    // evaluates those instances then): where each element starts.
    let again = seeing && field.read_again;
    let starts = RefCell::new(Vec::new());
    let one = |r: &mut Reader<'_>, prior: &[Value]| {
        if again {
            rt::__private::fields::element_start(r, &mut starts.borrow_mut())?;
        }
        scope.at(r);
        if seeing {
            scope.this.set_field(index, Value::List(prior.to_vec()));
        }
        let scope = Scope {
            index: Some(prior.len() as i64),
            ..scope.clone()
        };
        let read = cx.mapped(
            r,
            || format!("[{}]", prior.len()),
            ty,
            |r| read_sized(cx, r, &scope, field, ty),
        );
        if read.is_err() && cx.map.is_some() {
            // A failed read's tree shows the elements read before the failure.
            scope.this.set_field(index, Value::List(prior.to_vec()));
        }
        read
    };
    // Elements of a fixed size are read in bulk; plain ones are kept as their bytes.
    let bulk = cx
        .plan
        .fixed_size_of(cx.schema, ty)
        .filter(|_| field.substream.is_none() && field.decode.is_none() && !again);
    let packing = bulk.and_then(|size| cx.packing(field, ty, size));
    let items = match &field.repeat {
        Repeat::None => return read_sized(cx, r, scope, field, ty),
        Repeat::Expr(count) => {
            let count = scope.int_site(count).map_err(|m| eval_error(r, m))?;
            refuse_empty_elements(cx, r, field, ty, count)?;
            if let Some(layout) = packing
                && let Some(list) = packed(cx, r, layout.clone(), |r| {
                    rt::__private::fields::fixed_elements(r, count, layout.size)
                        .map(|(_, bytes)| bytes)
                })
            {
                return list;
            }
            match bulk {
                Some(size) => read_fixed(r, count, size, |r, index| {
                    cx.mapped(
                        r,
                        || format!("[{index}]"),
                        ty,
                        |r| read_sized(cx, r, scope, field, ty),
                    )
                })?,
                None => {
                    let min = cx.plan.min_size_of(cx.schema, ty) + field.delimiter_len();
                    rt::__private::fields::read_counted_seeing(r, count, min, one)?
                }
            }
        }
        // Whole elements up to the end, from a whole byte: else the last one fails, as read
        // one by one.
        Repeat::Eos => match packing {
            Some(layout)
                if r.remaining().is_multiple_of(layout.size)
                    && r.bit_pos() == 8 * r.pos() as u64
                    && let Some(list) = packed(cx, r, layout.clone(), |r| Ok(r.rest())) =>
            {
                return list;
            }
            _ => rt::__private::fields::read_to_eos_seeing(r, one)?,
        },
        Repeat::Until(done) => {
            rt::__private::fields::read_until_seeing(r, one, |item, index, r| {
                scope.at(r);
                let scope = Scope {
                    index: Some(index as i64),
                    item: Some(crate::eval::to_val(ty, item, &scope.this)),
                    ..scope.clone()
                };
                scope
                    .bool_site(done)
                    .map_err(|message| eval_error(r, message))
            })?
        }
        // One element per element of a list read before, each seeing its partner as `_`.
        Repeat::ForEach(list) => {
            let partners = match scope.eval_site(list).map_err(|m| eval_error(r, m))? {
                Val::List(items) => items,
                other => {
                    return Err(eval_error(
                        r,
                        format!("`-for-each` needs a list, found {other}"),
                    ));
                }
            };
            let min = cx.plan.min_size_of(cx.schema, ty) + field.delimiter_len();
            rt::__private::fields::read_each(r, &partners, min, |r, index, each| {
                scope.at(r);
                let scope = Scope {
                    index: Some(index as i64),
                    item: Some(each.clone()),
                    ..scope.clone()
                };
                cx.mapped(
                    r,
                    || format!("[{index}]"),
                    ty,
                    |r| read_sized(cx, r, &scope, field, ty),
                )
            })?
        }
    };
    if !again {
        return Ok(Value::List(items));
    }
    // Each element again, from where it started, seeing the whole list.
    scope.this.set_field(index, Value::List(items.clone()));
    let starts = starts.into_inner();
    let items = rt::__private::fields::read_again(r, &starts, items, |r, at, _| {
        scope.at(r);
        let scope = Scope {
            index: Some(at as i64),
            ..scope.clone()
        };
        read_sized(cx, r, &scope, field, ty)
    })?;
    Ok(Value::List(items))
}

/// A list of plain elements kept as the bytes `take` reads: a range of the copy of the page of
/// the file they are in, or of a copy of their own when they cross pages. `None` for a list in
/// decoded bytes, or beyond 4 GiB, read element by element.
fn packed<'a>(
    cx: &Ctx<'_>,
    r: &mut Reader<'a>,
    layout: Rc<Layout>,
    take: impl FnOnce(&mut Reader<'a>) -> rt::Result<&'a [u8]>,
) -> Option<rt::Result<Value>> {
    if !cx.in_file(r) || u32::try_from(cx.file.len()).is_err() {
        return None;
    }
    Some(take(r).map(|bytes| {
        let start = bytes.as_ptr() as usize - cx.file.as_ptr() as usize;
        let range = (start as u32, bytes.len() as u32);
        let page = cx.page(start, bytes);
        Value::Packed(Packed {
            layout,
            page,
            range,
        })
    }))
}

/// Refuses a counted list of elements that may take no bytes, with more elements than the
/// stream has bytes and a million more. Generated code holds such values in no memory; each
/// of the interpreter's takes some, so that a count read from the file (4 billion) would take
/// more memory than the file calls for. Where the interpreter differs on purpose.
fn refuse_empty_elements(
    cx: &Ctx<'_>,
    r: &Reader<'_>,
    field: &Field,
    ty: &FieldType,
    count: i64,
) -> rt::Result<()> {
    const SLACK: u64 = 1 << 20;
    let empty = cx.plan.min_size_of(cx.schema, ty) + field.delimiter_len() == 0;
    match empty && count as u64 > (r.remaining() as u64).saturating_add(SLACK) && count > 0 {
        true => Err(r.error(ErrorKind::CountTooLarge {
            count: count as u64,
            elem_size: 0,
            remaining: r.remaining() as u64,
        })),
        false => Ok(()),
    }
}

/// Reads `count` elements of `size` bytes each as the generated code reads a list of a fixed
/// layout (`rt::__private::fields::read_fixed`): one bounds check for the whole list, then each element
/// from its bytes, where it cannot fail.
fn read_fixed(
    r: &mut Reader<'_>,
    count: i64,
    size: usize,
    mut one: impl FnMut(&mut Reader<'_>, usize) -> rt::Result<Value>,
) -> rt::Result<Vec<Value>> {
    let at = r.absolute_pos();
    let (count, bytes) = rt::__private::fields::fixed_elements(r, count, size)?;
    let mut elements = r.detached_at(bytes, at);
    (0..count).map(|index| one(&mut elements, index)).collect()
}

/// Reads one value of `ty` as the field delimits it: a switch chooses its case first, which
/// is then read from the substream its `size` gives, or decoded from the bytes it is stored
/// in (`process`, an encoding, a frame), or in place.
fn read_sized<'s>(
    cx: &Ctx<'s>,
    r: &mut Reader<'_>,
    scope: &Scope<'_>,
    field: &'s Field,
    ty: &'s FieldType,
) -> rt::Result<Value> {
    if let FieldType::Switch(switch) = ty {
        let (name, case) = choose(cx, r, scope, switch)?;
        let value = cx
            .mapped(
                r,
                || name.to_string(),
                case,
                |r| read_sized(cx, r, scope, field, case),
            )
            .map_err(|e| e.in_path(name.to_string()))?;
        return Ok(Value::Case(name, Box::new(value)));
    }
    if let Some(decode) = &field.decode {
        return read_decoded(cx, r, scope, decode, ty);
    }
    let Some(size) = &field.substream else {
        return read_one(cx, r, scope, ty);
    };
    let len = match size {
        Size::Const(n) => *n as i64,
        Size::Expr(e) => scope.int_site(e).map_err(|m| eval_error(r, m))?,
        Size::Eos => r.remaining() as i64,
        Size::Terminator {
            byte,
            include,
            consume,
            eos_error,
        } => {
            return rt::__private::fields::read_terminated(
                r,
                *byte,
                *include,
                *consume,
                *eos_error,
                |r| read_one(cx, r, scope, ty),
            );
        }
    };
    let keeps_unread =
        matches!(ty, FieldType::User { ty, .. } if cx.schema.types[*ty].unread_from_holder);
    if !keeps_unread {
        return rt::__private::fields::read_sub(r, len, |r| read_one(cx, r, scope, ty));
    }
    let (value, rest) =
        rt::__private::fields::read_sub_keeping(r, len, |r| read_one(cx, r, scope, ty))?;
    if let (Value::Struct(node), FieldType::User { ty, .. }) = (&value, ty) {
        let unread = cx.schema.types[*ty]
            .fields
            .iter()
            .position(|f| f.id == UNREAD);
        if let Some(i) = unread {
            node.fields.borrow_mut()[i] = Some(Value::Bytes(rt::RawBytes(rest)));
        }
    }
    Ok(value)
}

/// Reads the bytes a value is stored in, decodes their content and reads the value from it,
/// kept with those bytes (`rt::Decoded`).
fn read_decoded<'s>(
    cx: &Ctx<'s>,
    r: &mut Reader<'_>,
    scope: &Scope<'_>,
    decode: &Decode,
    ty: &'s FieldType,
) -> rt::Result<Value> {
    let before = cx.place(r);
    let stored = match decode.wide_terminator() {
        Some((byte, unit, consume, eos_error)) => {
            rt::__private::fields::read_terminated_bytes(r, byte, unit, consume, eos_error)?
        }
        None => read_bytes(r, scope, &decode.size, 1)?,
    };
    // Arguments may use `_io.pos`: they see the stream after the stored bytes, as in Kaitai.
    scope.at(r);
    let processor =
        crate::process::processor(decode, &|e| scope.eval(e)).map_err(|m| eval_error(r, m))?;
    let origin = (before.zip(cx.place(r))).map(|range| cx.decoded_origin(&processor, range));
    let decoded = rt::process::read_decoded(
        r,
        rt::RawBytes(stored),
        &processor,
        decode.frame(None),
        |r| {
            let data = r.data();
            let value = cx.reading_decoded(data, origin, || read_one(cx, r, scope, ty));
            cx.forget_decoded(r.stream_id().buffer());
            value
        },
    )?;
    Ok(Value::Decoded(Box::new(rt::Decoded {
        value: decoded.value,
        rest: decoded.rest,
        stored: decoded.stored,
    })))
}

/// Reads one value of `ty` at `r`'s position.
fn read_one<'s>(
    cx: &Ctx<'s>,
    r: &mut Reader<'_>,
    scope: &Scope<'_>,
    ty: &'s FieldType,
) -> rt::Result<Value> {
    let chosen_big = match crate::packed::uses_chosen_order(ty) {
        true => is_big(r, scope, ByteOrder::Chosen)?,
        false => false,
    };
    if let Some(read) = crate::packed::read_plain(r, ty, chosen_big) {
        return read;
    }
    match ty {
        FieldType::Vlq => {
            rt::__private::fields::read_vlq(r).map(|n| Value::Int(Int::Unsigned(n.into())))
        }
        FieldType::Str {
            size,
            align,
            terminated,
            ..
        } => {
            let raw = read_bytes(r, scope, size, *align)?;
            Ok(match terminated {
                true => Value::VarStr(rt::VarStr::from_raw(raw)),
                false => Value::Text(rt::Text::from_raw(raw)),
            })
        }
        FieldType::Bytes { size, align, .. } => {
            read_bytes(r, scope, size, *align).map(|b| Value::Bytes(rt::RawBytes(b)))
        }
        FieldType::Contents(expected) => {
            rt::__private::fields::read_contents(r, expected).map(|()| Value::Unit)
        }
        FieldType::Nothing => Ok(Value::Unit),
        // Decided while reading (`_io.pos`, a look-ahead, a parameter) and kept in the value,
        // as the generated reader keeps it (`-solve` is refused: see `support`).
        FieldType::Remembered { value, ty, .. } => {
            let n = scope.int_site(value).map_err(|m| eval_error(r, m))?;
            match Int::fitting(n.into(), *ty) {
                Some(n) => Ok(Value::Int(n)),
                None => Err(r.error(ErrorKind::Invalid(format!(
                    "the computed value {n} does not fit a {}-byte integer",
                    ty.bytes
                )))),
            }
        }
        FieldType::Array { elem, len } => {
            // Its elements have a fixed size: the whole array is read at once, as the
            // generated code reads it, and so fails where it starts.
            let size = cx.plan.fixed_size_of(cx.schema, ty).unwrap_or(0);
            let mut whole = r.sub(size)?;
            // Each element is mapped as a list's is: `[i]`, with its range and value.
            let items = (0..*len)
                .map(|index| {
                    cx.mapped(
                        &mut whole,
                        || format!("[{index}]"),
                        elem,
                        |r| read_one(cx, r, scope, elem),
                    )
                    .map_err(|e| e.at_index(index))
                })
                .collect::<rt::Result<_>>()?;
            Ok(Value::List(items))
        }
        FieldType::User { ty, args } => {
            let def = &cx.schema.types[*ty];
            let params = (args.iter().zip(&def.params))
                .map(|(arg, param)| match cx.is_empty_first(*ty, &param.id) {
                    true => Ok(empty_argument(param)),
                    false => scope.eval_site(arg),
                })
                .collect::<Result<Vec<_>, _>>()
                .map_err(|m| eval_error(r, m))?;
            let parent = scope
                .parent
                .clone()
                .unwrap_or_else(|| Some(scope.this.clone()));
            read_struct(cx, r, *ty, params, (parent, Some(&scope.this))).map(Value::Struct)
        }
        FieldType::Switch(switch) => {
            let (name, ty) = choose(cx, r, scope, switch)?;
            let value = cx
                .mapped(r, || name.to_string(), ty, |r| read_one(cx, r, scope, ty))
                .map_err(|e| e.in_path(name.to_string()))?;
            Ok(Value::Case(name, Box::new(value)))
        }
        other => Err(r.error(ErrorKind::Invalid(format!(
            "the interpreter does not read {other:?} yet"
        )))),
    }
}

/// The argument a parameter is passed the first time a field read later is read, when the
/// value it comes from is read after it (as the generated reader's).
fn empty_argument(param: &Param) -> Val {
    match param.ty {
        ParamType::Int(_) => Val::Int(0),
        ParamType::Bool => Val::Bool(false),
        ParamType::Enum(def) => Val::Enum(def, 0),
        ParamType::Io | ParamType::IoList => Val::Io(Io::default(), 0, true),
        ParamType::Str => Val::Str(Vec::new()),
        ParamType::Bytes => Val::Bytes(Vec::new()),
        ParamType::IntList
        | ParamType::UserList(_)
        | ParamType::AnyStructList
        | ParamType::StrList => Val::List(Vec::new()),
        ParamType::User(_) | ParamType::OptUser(_) | ParamType::AnyStruct => Val::Null,
    }
}

/// The case of `switch` its selector calls for: its name in documents and its type.
fn choose<'s>(
    cx: &Ctx<'s>,
    r: &Reader<'_>,
    scope: &Scope<'_>,
    switch: &'s Switch,
) -> rt::Result<(Rc<str>, &'s FieldType)> {
    match choice::case(cx.schema, &cx.shared.cases, scope, switch).map_err(|m| eval_error(r, m))? {
        Chosen::Found(case) => Ok(case),
        Chosen::Unmatched(selector) => Err(r.error(ErrorKind::UnknownCase {
            value: match &selector {
                Val::Str(s) => format!("{:?}", String::from_utf8_lossy(s)),
                Val::Int(n) => format!("{n:?}"),
                // As the generated enum's `Debug` shows it.
                Val::Enum(def, n) => match cx.schema.enums[*def]
                    .variants
                    .iter()
                    .find(|v| v.value == *n)
                {
                    Some(variant) => variant.rust_name.clone(),
                    None => format!("Unknown({n})"),
                },
                other => format!("{other:?}"),
            },
            expected: switch.keys_as_written(),
        })),
    }
}

/// Reads the bytes of a string or byte array.
fn read_bytes(
    r: &mut Reader<'_>,
    scope: &Scope<'_>,
    size: &Size,
    align: usize,
) -> rt::Result<rt::ByteBuf> {
    // Kept as the generated reader keeps them: views of the file once that is cheaper.
    match size {
        Size::Const(n) => rt::__private::fields::read_raw(r, *n as i64, align).map(|b| b.0),
        Size::Expr(e) => {
            let len = scope.int_site(e).map_err(|m| eval_error(r, m))?;
            rt::__private::fields::read_raw(r, len, align).map(|b| b.0)
        }
        Size::Eos => Ok(r.keep_rest()),
        Size::Terminator {
            byte,
            consume,
            eos_error,
            ..
        } => rt::__private::fields::read_terminated_bytes(r, *byte, 1, *consume, *eos_error),
    }
}

/// Whether numbers of `order` are big-endian: a chosen order is the one the type that chooses
/// decided (`_is_be`, passed down to the types it holds).
fn is_big(r: &Reader<'_>, scope: &Scope<'_>, order: ByteOrder) -> rt::Result<bool> {
    match order {
        ByteOrder::Big => Ok(true),
        ByteOrder::Little => Ok(false),
        ByteOrder::Chosen => scope
            .bool(&skelcodec_codegen::expr::Expr::Name(IS_BE.to_owned()))
            .map_err(|m| eval_error(r, m)),
    }
}

/// The byte order a type with a `meta/endian` switch chooses for a value; with no case for
/// it, the value cannot be read.
fn choose_byte_order(r: &Reader<'_>, scope: &Scope<'_>, choice: &EndianChoice) -> rt::Result<bool> {
    match choice::byte_order(scope, choice).map_err(|m| eval_error(r, m))? {
        Chosen::Found(big) => Ok(big),
        Chosen::Unmatched(selector) => Err(r.error(ErrorKind::UndecidedEndianness {
            value: choice::shown_selector(&selector),
        })),
    }
}
