//! How the types of a schema hold each other, and where they are: recursion, holders, the
//! file's root, names resolved from a type's scope, what the whole-file codec keeps.

use super::*;

impl Schema {
    /// The parameters, as (type, parameter and argument), that `field` gives each user type
    /// it holds an argument `passes` accepts.
    pub fn params_given<'s>(
        &'s self,
        field: &'s Field,
        passes: impl Fn(&Expr) -> bool,
    ) -> Vec<(usize, &'s Param, &'s Expr)> {
        let mut given = Vec::new();
        let mut add = |used: usize, args: &'s [Expr]| {
            for (param, arg) in self.types[used].params.iter().zip(args) {
                if passes(arg) {
                    given.push((used, param, arg));
                }
            }
        };
        let mut types = vec![&field.ty];
        while let Some(ty) = types.pop() {
            match ty {
                FieldType::User { ty, args } => add(*ty, args),
                FieldType::Switch(s) => {
                    types.extend(s.cases.iter().map(|c| &c.ty));
                    types.extend(s.default.as_deref());
                }
                _ => {}
            }
        }
        given
    }

    /// True when a value of type `from` can hold, at any depth, a value of type `to`.
    pub fn reaches(&self, from: usize, to: usize) -> bool {
        let mut seen = vec![false; self.types.len()];
        let mut stack = vec![from];
        while let Some(ty) = stack.pop() {
            if std::mem::replace(&mut seen[ty], true) {
                continue;
            }
            for child in self.types[ty].fields.iter().flat_map(|f| f.ty.user_types()) {
                if child == to {
                    return true;
                }
                stack.push(child);
            }
        }
        false
    }

    /// True when a value of type `ty`, or one it holds in the same stream, places a value read
    /// by position in that stream (`pos` without `io`), is the root of an imported schema whose
    /// `_root._io` is that stream (see [`Schema::roots_imported_stream`]: what its values place
    /// there, however deep and behind whatever substreams, counts from where it starts), or
    /// passes an argument computed from the stream (`_io.pos`, the writer's position in it):
    /// written in a substream, it needs to know where the substream starts.
    pub fn places_in_own_stream(&self, ty: usize) -> bool {
        let in_same_stream = |field: &Field| field.substream.is_none() && field.decode.is_none();
        let roots_stream = |field: &Field| {
            let held = field.ty.user_types();
            in_same_stream(field) && held.into_iter().any(|t| self.roots_imported_stream(t))
        };
        self.roots_imported_stream(ty)
            || self.holds_field(ty, in_same_stream, |_, field| {
                let own = field.stream == Stream::Own && !field.kept_as_read;
                (field.position.is_some() && own) || roots_stream(field) || field.ty.passes_stream()
            })
    }

    /// True when a value of type `ty`, or one it holds, places a value in the whole file (`io:
    /// _root._io`): written, it claims bytes outside its own (a minidump stream's strings and
    /// memory ranges, pointed to from inside the stream).
    pub fn places_in_root_stream(&self, ty: usize) -> bool {
        self.holds_field(
            ty,
            |_| true,
            |_, field| {
                let placed = field.position.is_some() && !field.kept_as_read;
                placed && field.stream == Stream::Root
            },
        )
    }

    /// True when `found` holds of a field (with its type) of `ty`, or of a type held through
    /// the fields `descend` lets through.
    fn holds_field(
        &self,
        ty: usize,
        descend: impl Fn(&Field) -> bool,
        found: impl Fn(usize, &Field) -> bool,
    ) -> bool {
        let mut seen = vec![false; self.types.len()];
        let mut stack = vec![ty];
        while let Some(ty) = stack.pop() {
            if std::mem::replace(&mut seen[ty], true) {
                continue;
            }
            for field in &self.types[ty].fields {
                if found(ty, field) {
                    return true;
                }
                if descend(field) {
                    stack.extend(field.ty.user_types());
                }
            }
        }
        false
    }

    /// Whether parse instance `field` of type `owner` is read on demand, as Kaitai reads every
    /// instance: each value it may hold (one, or one per case of its switch) has bytes of its
    /// own of a size known before it is read (`size`), so that a writer that only measures
    /// coverage claims them unread; is neither decoded (`process`) nor boxed (of a type that
    /// reaches `owner`: reading it then never meets a value being read around it, a cycle,
    /// which only a reader reading them all sees); and is raw bytes or a value of a type whose
    /// arguments the reader can keep and that places nothing outside its bytes (so that they
    /// are all it claims).
    pub fn reads_on_demand(&self, owner: usize, field: &Field) -> bool {
        let sized = |size: &Size| matches!(size, Size::Const(_) | Size::Expr(_));
        let kept = |ty: &FieldType| {
            let value = match (&field.substream, ty) {
                (Some(size), FieldType::User { ty, .. }) => {
                    let def = &self.types[*ty];
                    sized(size)
                        && !def.unread_from_holder
                        && def.params.iter().all(|p| p.ty.is_kept_by_readers())
                        && !self.places_in_root_stream(*ty)
                }
                (
                    Some(size),
                    FieldType::Bytes {
                        size: Size::Eos,
                        align: 1,
                        ..
                    },
                ) => sized(size),
                (None, FieldType::Bytes { size, align: 1, .. }) => sized(size),
                _ => false,
            };
            value && field.decode.is_none() && !self.boxes(owner, field, ty)
        };
        field.parse_instance
            && field.position.is_some()
            && field.repeat == Repeat::None
            && match &field.ty {
                FieldType::Switch(_) if field.switches_per_element() => false,
                FieldType::Switch(switch) => switch
                    .cases
                    .iter()
                    .map(|case| &case.ty)
                    .chain(switch.default.as_deref())
                    .all(kept),
                ty => kept(ty),
            }
    }

    /// True when the single values of type `ty` that `field` (of type `owner`) holds are
    /// boxed: a value that can hold its owner again needs the indirection a `Vec` gives lists.
    pub fn boxes(&self, owner: usize, field: &Field, ty: &FieldType) -> bool {
        field.repeat == Repeat::None
            && matches!(ty, FieldType::User { ty, .. } if self.reaches(*ty, owner) || *ty == owner)
    }

    /// The types with a field that holds a value of type `ty`, in the file that declares it:
    /// those that give it its `_parent` (as in Kaitai, a schema that imports a type cannot give
    /// it a parent it does not have at home).
    pub fn holders(&self, ty: usize) -> Vec<usize> {
        let file = self.types[ty].at.file();
        (0..self.types.len())
            .filter(|&owner| {
                let def = &self.types[owner];
                def.at.file() == file && def.fields.iter().any(|f| f.ty.user_types().contains(&ty))
            })
            .collect()
    }

    /// The root type of the file that declares `ty` (declared first): what `_root` is for the
    /// types of that file (Kaitai never passes `_root` from one file's types to another's).
    pub fn file_root(&self, ty: usize) -> usize {
        let file = self.types[ty].at.file();
        self.types
            .iter()
            .position(|def| def.at.file() == file)
            .unwrap_or(ty)
    }

    /// True when `ty` is the root type of its file (see [`Schema::file_root`]).
    pub fn is_file_root(&self, ty: usize) -> bool {
        self.file_root(ty) == ty
    }

    /// True when `ty` is the root of an imported file some of whose values are read by
    /// position in `_root._io`: as in Kaitai, that is the stream a value of `ty` is read from
    /// (EXIF inside a JPEG segment), not the whole file.
    pub fn roots_imported_stream(&self, ty: usize) -> bool {
        let file = self.types[ty].at.file();
        ty != 0
            && self.is_file_root(ty)
            && self.types.iter().any(|def| {
                def.at.file() == file && def.fields.iter().any(|f| f.stream == Stream::Root)
            })
    }

    /// True when a value of type `ty` can hold another value of its own type: its reader
    /// counts how deep it nests, so that hostile input cannot exhaust the stack.
    pub fn is_recursive(&self, ty: usize) -> bool {
        self.reaches(ty, ty)
    }
    /// The root's `_trailing` field, which keeps the bytes a file has after its value (see
    /// `lower::keep_trailing_bytes`), when `ty` is the root and has one.
    pub fn trailing_field(&self, ty: usize) -> Option<&Field> {
        let last = self.types.get(ty)?.fields.last()?;
        (ty == 0 && last.id == TRAILING).then_some(last)
    }

    /// True when some type reads a value by position: the root then keeps unclaimed bytes.
    pub fn has_positioned_fields(&self) -> bool {
        self.types
            .iter()
            .any(|t| t.fields.iter().any(Field::is_placed))
    }

    /// True when values of type `ty` keep the bytes no field claims (the root, when some type
    /// reads a value by position).
    pub fn keeps_unclaimed(&self, ty: usize) -> bool {
        ty == 0 && self.has_positioned_fields()
    }

    /// True when some field is found by trial parsing (`-scan`, `-solve`).
    pub fn has_searched_fields(&self) -> bool {
        self.types.iter().any(|t| {
            t.fields.iter().any(|f| {
                f.scan.is_some() || matches!(f.ty, FieldType::Remembered { solve: Some(_), .. })
            })
        })
    }

    /// True when reading decides something from the data that a writer cannot check before
    /// writing: a look-ahead instance, a remembered or a scanned field, a field kept as read.
    /// Such codecs read their output back before returning it, as do those whose writers
    /// leave out a check that needs the input stream (see `typeck::ir::Ir::verify_writes`).
    pub fn reads_decide_from_data(&self) -> bool {
        self.has_searched_fields()
            || self.types.iter().any(|t| {
                t.instances
                    .iter()
                    .any(|i| matches!(i.kind, InstanceKind::Peek { .. }))
                    || t.fields.iter().any(|f| {
                        matches!(f.ty, FieldType::Remembered { .. })
                            || f.is_read_only()
                            || f.parse_instance
                    })
            })
    }

    /// The type a name means inside type `from`, as Kaitai resolves it: the first segment is
    /// looked up among the types nested in `from`, then in its parent, and so on up to the
    /// root (which is also found by its own name); further segments (`a::b`) descend.
    pub fn resolve_type(&self, from: usize, path: &str) -> Option<usize> {
        let mut segments = path.split("::");
        let first = segments.next()?;
        let found = self
            .enclosing(from)
            .find_map(|scope| self.nested_type(scope, first))
            .or_else(|| (self.types.first()?.id == first).then_some(0))?;
        // Kaitai's own specs name a type through a type that only sits beside it
        // (`root::chunk::chunk_body` for a `chunk_body` declared in the root): each segment is
        // looked up in the type before it, then in the types around that one.
        segments.try_fold(found, |ty, segment| {
            self.enclosing(ty)
                .find_map(|scope| self.nested_type(scope, segment))
        })
    }

    /// The enum a name means inside type `from`: `animal` is looked up in `from` and the types
    /// around it, `a::b::animal` in the type `a::b` resolves to.
    pub fn resolve_enum(&self, from: usize, path: &str) -> Option<usize> {
        let owned_by = |owner: usize, id: &str| {
            self.enums
                .iter()
                .position(|e| e.owner == owner && e.id == id)
        };
        match path.rsplit_once("::") {
            Some((types, id)) => owned_by(self.resolve_type(from, types)?, id),
            None => self.enclosing(from).find_map(|scope| owned_by(scope, path)),
        }
    }

    /// The enum value `enum_name::variant` means inside type `from` (see
    /// [`Schema::resolve_enum`]): its enum and variant, or why it means none.
    pub fn resolve_enum_value(
        &self,
        from: usize,
        enum_name: &str,
        variant: &str,
    ) -> Result<(usize, &EnumVariant), String> {
        let idx = (self.resolve_enum(from, enum_name))
            .ok_or_else(|| format!("unknown enum `{enum_name}`"))?;
        let found = self.enums[idx].variants.iter().find(|v| v.id == variant);
        found
            .map(|v| (idx, v))
            .ok_or_else(|| format!("enum `{enum_name}` has no value `{variant}`"))
    }

    /// `ty`, then the types it is nested in, out to the root.
    fn enclosing(&self, ty: usize) -> impl Iterator<Item = usize> + '_ {
        std::iter::successors(Some(ty), |&t| self.types.get(t).and_then(|d| d.parent))
    }

    /// The type called `id` declared directly in `parent`.
    fn nested_type(&self, parent: usize, id: &str) -> Option<usize> {
        self.types
            .iter()
            .position(|t| t.parent == Some(parent) && t.id == id)
    }
}
