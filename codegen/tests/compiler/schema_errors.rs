//! Schema mistakes are reported with the file, the line and column, and a plain message.

use std::path::Path;

use skelcodec_codegen::model::{ByteOrder, FieldType};
use skelcodec_codegen::parse_schema;

fn error(source: &str) -> String {
    match parse_schema(source, Path::new("schemas/broken.ksy")) {
        Ok(_) => panic!("the schema should be rejected"),
        Err(e) => e.to_string(),
    }
}

const HEADER: &str = "meta:\n  id: broken\n  endian: le\nseq:\n";

#[test]
fn unknown_type() {
    let message = error(&format!(
        "{HEADER}  - id: count\n    type: u4\n  - id: items\n    type: widget\n"
    ));
    assert!(
        message.starts_with("schemas/broken.ksy:8:5: unknown type `widget`"),
        "{message}"
    );
    assert!(message.contains("(at seq[1].type)"), "{message}");
}

#[test]
fn bad_expression() {
    let message = error(&format!(
        "{HEADER}  - id: count\n    type: u4\n  - id: items\n    type: u1\n    repeat: expr\n    repeat-expr: count * \n"
    ));
    assert!(
        message.starts_with("schemas/broken.ksy:10:5: bad expression `count *`"),
        "{message}"
    );
}

#[test]
fn unknown_field_in_expression() {
    let message = error(&format!(
        "{HEADER}  - id: items\n    type: u1\n    repeat: expr\n    repeat-expr: cuont\n"
    ));
    assert!(message.contains("unknown name `cuont`"), "{message}");
    assert!(message.contains("broken.ksy:8:5"), "{message}");
}

#[test]
fn field_used_before_it_is_read() {
    let message = error(&format!(
        "{HEADER}  - id: items\n    type: u1\n    repeat: expr\n    repeat-expr: count\n  - id: count\n    type: u4\n"
    ));
    assert!(message.contains("`count` is not read yet"), "{message}");
}

#[test]
fn the_size_of_a_field_not_read_yet_is_known_when_it_is_fixed() {
    // dBASE: the header's size less the terminator that follows it.
    let fixed = format!(
        "{HEADER}  - id: len\n    type: u1\n  - id: body\n    size: len - tail._sizeof\n  - id: tail\n    type: u2\n"
    );
    let schema = parse_schema(&fixed, Path::new("fixed.ksy")).expect("accepted");
    let tail = &schema.types[0].fields[2];
    assert_eq!(schema.static_field_size(tail), Some(2));
    let varying = fixed.replace("    type: u2\n", "    type: strz\n    encoding: ASCII\n");
    assert!(
        error(&varying).contains("`tail` is not read yet"),
        "{}",
        error(&varying)
    );
}

#[test]
fn unnamed_attributes_and_unknown_keys() {
    // As in Kaitai, an attribute without `id` is `_unnamed<index>`, a name no schema can use.
    let source = format!("{HEADER}  - id: a\n    type: u1\n  - type: u4\n");
    let schema = parse_schema(&source, Path::new("schemas/unnamed.ksy")).expect("accepted");
    assert_eq!(schema.types[0].fields[1].id, "_unnamed1");
    let message = error(&format!("{HEADER}  - id: _unnamed1\n    type: u4\n"));
    assert!(
        message.contains("broken.ksy:5:5: `_unnamed1` is not a valid name"),
        "{message}"
    );
    let message = error(&format!("{HEADER}  - id: a\n    typo: u4\n    type: u4\n"));
    assert!(message.contains("unknown key `typo`"), "{message}");
    assert!(message.contains("broken.ksy:6:5"), "{message}");
}

#[test]
fn an_argument_that_reaches_itself_again_is_refused_not_recursed_into_forever() {
    // Each element's argument is the instance of the element before, which is computed from
    // that element's own argument: the checker followed it without end (a fuzzed mutant of
    // kept_params.ksy overflowed the stack). Now it stops at the nesting limit, located.
    let message = error(&format!(
        "{HEADER}  - id: groups\n    type: 'group(_index == 0 ? \"\" : groups[_index - 1].so_far)'\n    repeat: expr\n    repeat-expr: 2\ntypes:\n  group:\n    params:\n      - id: prev\n        type: str\n    seq:\n      - id: chunk\n        type: u1\n    instances:\n      so_far:\n        value: prev + chunk\n"
    ));
    assert!(message.starts_with("schemas/broken.ksy:"), "{message}");
    assert!(
        message.contains("`+` needs numbers, found a string and an integer"),
        "{message}"
    );
}

#[test]
fn yaml_syntax_errors_keep_serde_yaml_positions() {
    let message = error("meta:\n  id: [broken\n");
    assert!(message.starts_with("schemas/broken.ksy:"), "{message}");
}

#[test]
fn type_mismatch_in_condition_and_case() {
    let message = error(&format!("{HEADER}  - id: a\n    type: u4\n    if: 3\n"));
    assert!(message.contains("expected a boolean"), "{message}");
    let message = error(&format!(
        "{HEADER}  - id: a\n    type: u4\n  - id: b\n    type:\n      switch-on: a\n      cases:\n        '\"x\"': u1\n"
    ));
    assert!(
        message.contains("does not have the type of the `switch-on` value"),
        "{message}"
    );
}

#[test]
fn the_ifp_schema_compiles_to_parseable_rust() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas/ifp.ksy");
    let schema = skelcodec_codegen::load_schema(&path).expect("ifp.ksy is valid");
    let source = skelcodec_codegen::generate_source(&schema).expect("generated code parses");
    // Key frames of fixed size are kept as read, with one bounds check per list, and decoded
    // in bulk when first looked at.
    assert!(
        source.contains("rt::fields::read_fixed_list("),
        "bulk read missing"
    );
    assert!(source.contains("rt::fields::decode_fixed(b, len, Anp3Rotation::decode)"));
    assert!(source.contains("pub fn check_into"));
}

#[test]
fn only_types_that_always_contain_themselves_are_refused() {
    // Through a list, a condition or a switch, a type may hold itself (tests/recursion.rs).
    let repeated = format!(
        "{HEADER}  - id: node\n    type: tree\ntypes:\n  tree:\n    seq:\n      - id: children\n        type: tree\n        repeat: eos\n"
    );
    assert!(parse_schema(&repeated, Path::new("tree.ksy")).is_ok());
    // Through fields it always has, a value would never end.
    let message = error(&format!(
        "{HEADER}  - id: node\n    type: a\ntypes:\n  a:\n    seq:\n      - id: b\n        type: b\n  b:\n    seq:\n      - id: a\n        type: a\n"
    ));
    assert!(
        message.contains("type `a` always contains itself, so a value would never end"),
        "{message}"
    );
    assert!(message.contains("broken.ksy:8:3"), "{message}");
}

/// A schema in which a chunk's stated size is `-untrusted`, `extra` is read with `size`, and
/// `header` has the given `instances` block.
fn untrusted_size_schema(extra_size: &str, instances: &str) -> String {
    format!(
        "{HEADER}  - id: header\n    type: header\n  - id: extra\n    size: {extra_size}\n\
         types:\n  header:\n    seq:\n      - id: chunk_size\n        type: u4\n\
         \x20       -derived: _sizeof\n        -untrusted: true\n      - id: count\n        type: u4\n\
         {instances}"
    )
}

#[test]
fn untrusted_sizes_cannot_steer_a_read() {
    // Used directly by a read: refused where it is used.
    let message = error(&untrusted_size_schema("header.chunk_size - 8", ""));
    assert!(
        message.contains(
            "`chunk_size` is `-untrusted`: it is reported by `check()`, never used to read"
        ),
        "{message}"
    );
    assert!(message.contains("(at seq[1].size)"), "{message}");
    // Through a value instance of the child: refused as well.
    let instance = "    instances:\n      body_size:\n        value: chunk_size - 8\n";
    let message = error(&untrusted_size_schema("header.body_size", instance));
    assert!(
        message.contains("`chunk_size` is `-untrusted`"),
        "{message}"
    );
    // The same instance is fine where nothing is read with it, and so is a read by layout.
    let accepted = untrusted_size_schema("header.count", instance);
    assert!(parse_schema(&accepted, Path::new("ok.ksy")).is_ok());
    // `-untrusted` needs `-derived`, so that `check()` has something to report.
    let message = error(&untrusted_size_schema("4", "").replace("        -derived: _sizeof\n", ""));
    assert!(
        message.contains("`-untrusted` needs `-derived`"),
        "{message}"
    );
    assert!(
        message.contains("(at types.header.seq[0].-untrusted)"),
        "{message}"
    );
}

/// A root with a table of entries, each placing a blob, and the table placed itself.
fn layout_schema(layout: &str, entry_pos: &str) -> String {
    format!(
        "meta:\n  id: broken\n  endian: le\n{layout}seq:\n  - id: table_offset\n    type: u4\n  - id: count\n    type: u4\ninstances:\n  table:\n    pos: table_offset\n    type: entry\n    repeat: expr\n    repeat-expr: count\ntypes:\n  entry:\n    seq:\n      - id: offset\n        type: u4\n      - id: size\n        type: u4\n    instances:\n      blob:\n        pos: {entry_pos}\n        size: size\n"
    )
}

#[test]
fn a_layout_resolves_every_block_to_a_stored_offset() {
    let good = "-layout:\n  blocks:\n    - table[].blob\n    - table\n";
    assert!(parse_schema(&layout_schema(good, "offset"), Path::new("a.ksy")).is_ok());
    for (layout, pos, expected) in [
        (
            "-layout:\n  blocks:\n    - table.blob\n    - table\n",
            "offset",
            "`table` is a list: write `table[]`",
        ),
        (
            "-layout:\n  blocks:\n    - table[].size\n    - table\n",
            "offset",
            "`size` is not read by position",
        ),
        (
            "-layout:\n  blocks:\n    - table[].blob\n    - table\n",
            "offset + 4",
            "must name an integer field of `entry`",
        ),
        (
            "-layout:\n  blocks:\n    - table\n",
            "offset",
            "`blob` of type `entry` is read by position but not in `-layout/blocks`",
        ),
        (
            "-layout:\n  blocks:\n    - table[].blob\n    - table\n    - table\n",
            "offset",
            "`table` is listed twice",
        ),
        (
            "-layout:\n  order: sorted\n  blocks:\n    - table[].blob\n    - table\n",
            "offset",
            "order must be `stored` or `listed`",
        ),
        (
            "-layout:\n  start: first\n  blocks:\n    - table[].blob\n    - table\n",
            "offset",
            "start must be `fields` or `stored`, not `first`",
        ),
        (
            "-layout:\n  blocks:\n    - table[].blob\n    - table\n",
            "offset * 2048",
            "`align` must be a multiple of it",
        ),
        (
            "-layout:\n  blocks:\n    - table[].blob\n    - table\n  clears:\n    - count\n",
            "offset",
            "`count` cannot be emptied",
        ),
        (
            "-layout:\n  blocks:\n    - table[].blob\n    - table\n  sort: true\n",
            "offset",
            "unknown field `sort`",
        ),
    ] {
        let message = error(&layout_schema(layout, pos));
        assert!(message.contains(expected), "{expected}: {message}");
        assert!(message.starts_with("schemas/broken.ksy:"), "{message}");
    }
    let sector = "-layout:\n  align: 2048\n  blocks:\n    - table[].blob\n    - table\n";
    assert!(parse_schema(&layout_schema(sector, "offset * 2048"), Path::new("a.ksy")).is_ok());
}

#[test]
fn a_layout_belongs_to_the_root() {
    let source = layout_schema("", "offset").replace(
        "  entry:\n    seq:",
        "  entry:\n    -layout:\n      blocks: []\n    seq:",
    );
    let message = error(&source);
    assert!(
        message.contains("`-layout` belongs to the root type"),
        "{message}"
    );
}

#[test]
fn unknown_encodings_are_located_warnings_as_in_kaitai() {
    let warnings = warnings(
        &format!("{HEADER}  - id: name\n    type: str\n    size: 4\n    encoding: KLINGON-1\n"),
        "schemas/broken.ksy",
    );
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].contains("unknown encoding `KLINGON-1`"),
        "{warnings:?}"
    );
    assert!(
        warnings[0].starts_with("schemas/broken.ksy:8:5:"),
        "{warnings:?}"
    );
}

#[test]
fn documentation_keys_are_accepted_and_kept_as_docs() {
    let source = "meta:\n  id: documented\n  title: A documented format\n  application: Tests\n  license: CC0-1.0\n  ks-version: 0.9\n  ks-debug: true\n  tags: [test]\n  xref:\n    wikidata: Q1\n  endian: le\ndoc: The root.\ndoc-ref: https://example.com/spec\nseq:\n  - id: count\n    type: u4\n    doc-ref: section 2\n";
    let schema = parse_schema(source, Path::new("documented.ksy")).expect("accepted");
    let doc = schema.types[0].doc.as_deref().unwrap_or_default();
    for part in [
        "The root.",
        "See: https://example.com/spec",
        "Application: Tests",
        "CC0-1.0",
        "wikidata Q1",
    ] {
        assert!(doc.contains(part), "{part}: {doc}");
    }
    assert_eq!(
        schema.types[0].fields[0].doc.as_deref(),
        Some("See: section 2")
    );
}

#[test]
fn writer_expressions_that_need_the_input_stream_are_refused_not_panicked_on() {
    // A number is passed a placeholder (tests/stream_arguments.rs in generated-tests); a list
    // has none, and a writer cannot compute it without the stream.
    let message = error(
        "meta:\n  id: broken\n  endian: le\nseq:\n  - id: p\n    type: part([_io.size])\ntypes:\n  part:\n    params:\n      - id: totals\n        type: u4[]\n    seq:\n      - id: b\n        type: u1\n",
    );
    assert!(
        message.contains("an argument computed from `_io` cannot be written back yet"),
        "{message}"
    );
}

#[test]
fn a_number_argument_only_the_stream_gives_is_one_writers_lack() {
    let source = "meta:\n  id: sized\n  endian: le\nseq:\n  - id: p\n    type: part(_io.size)\ntypes:\n  part:\n    params:\n      - id: total\n        type: u4\n    seq:\n      - id: b\n        type: u1\n        if: total > 1\n";
    let schema = parse_schema(source, Path::new("sized.ksy")).expect("accepted");
    assert!(schema.types[1].params[0].writers_lack);
}

#[test]
fn the_position_in_an_argument_of_a_value_of_its_own_bytes_is_refused() {
    // Kaitai takes it after the value's bytes, in the outer stream; a reader lends its stream
    // before, a writer has not written them yet.
    let message = error(&format!(
        "{HEADER}  - id: p\n    size: 2\n    type: part(_io.pos)\ntypes:\n  part:\n    params:\n      - id: ofs\n        type: u4\n    seq:\n      - id: b\n        type: u1\n"
    ));
    assert!(
        message.starts_with(
            "schemas/broken.ksy:7:5: `_io.pos` in an argument of a value read from bytes of its own"
        ),
        "{message}"
    );
}

#[test]
fn a_position_that_needs_the_input_stream_is_kept_as_read() {
    // A writer could not place it (tests/other_streams.rs in generated-tests).
    let source = "meta:\n  id: footer\n  endian: le\ninstances:\n  last:\n    pos: _io.size - 1\n    type: part\ntypes:\n  part:\n    seq:\n      - id: b\n        type: u1\n";
    let schema = parse_schema(source, Path::new("footer.ksy")).expect("accepted");
    let last = &schema.types[0].fields[0];
    assert_eq!(last.id, "last");
    assert!(last.kept_as_read && last.position.is_some());
}

#[test]
fn nested_types_and_enums_resolve_as_kaitai_scopes_them() {
    let source = "meta:\n  id: outer\n  endian: le\nenums:\n  kind:\n    1: one\nseq:\n  - id: a\n    type: box\n  - id: b\n    type: other\ntypes:\n  box:\n    seq:\n      - id: k\n        type: u1\n        enum: kind\n    enums:\n      kind:\n        2: two\n  other:\n    seq:\n      - id: inner\n        type: box\n      - id: k\n        type: u1\n        enum: kind\n    types:\n      box:\n        seq:\n          - id: x\n            type: u1\n";
    let schema = parse_schema(source, Path::new("outer.ksy")).expect("accepted");
    let types: Vec<&str> = schema.types.iter().map(|t| t.rust_name.as_str()).collect();
    // `box` would shadow the prelude's `Box`: its Rust name gets `_type`.
    assert_eq!(types, ["outer", "box_type", "other", "other_box"]);
    let enums: Vec<&str> = schema.enums.iter().map(|e| e.rust_name.as_str()).collect();
    assert_eq!(enums, ["kind", "box_type_kind"]);
    let enum_of = |ty: usize, field: usize| match schema.types[ty].fields[field].ty {
        FieldType::Enum { enum_idx, .. } => schema.enums[enum_idx].rust_name.as_str(),
        _ => panic!("an enum field"),
    };
    // The nearest declaration wins: `box`'s own `kind`, the root's `kind` from `other`…
    assert_eq!((enum_of(1, 0), enum_of(2, 1)), ("box_type_kind", "kind"));
    // …and `box` inside `other` is `other`'s own nested `box`.
    let FieldType::User { ty, .. } = schema.types[2].fields[0].ty else {
        panic!("a user type")
    };
    assert_eq!(schema.types[ty].rust_name, "other_box");
    // So `box::kind` from `other` names an enum that `other_box` does not have.
    let message = error(&source.replace(
        "      - id: k\n        type: u1\n        enum: kind\n    types:",
        "      - id: k\n        type: u1\n        enum: box::kind\n    types:",
    ));
    assert!(message.contains("unknown enum `box::kind`"), "{message}");
}

#[test]
fn names_that_collide_in_rust_get_a_suffix() {
    let source = "meta:\n  id: clash\ntypes:\n  a_b:\n    seq: []\n  a:\n    types:\n      b:\n        seq: []\n";
    let schema = parse_schema(source, Path::new("clash.ksy")).expect("accepted");
    let names: Vec<&str> = schema.types.iter().map(|t| t.rust_name.as_str()).collect();
    assert_eq!(names, ["clash", "a", "a_b", "a_b_type"]);
}

#[test]
fn kaitai_rules_the_checker_enforces() {
    for (source, expected) in [
        (
            "meta:\n  id: broken\nseq:\n  - id: a\n    type: u2\n",
            "`u2` needs a byte order: set `meta/endian`, or write `u2le` or `u2be`",
        ),
        (
            "meta:\n  id: broken\n  endian: le\nseq:\n  - id: a\n    type: u1\n    repeat-until: _ == 0\n",
            "`repeat-until` needs `repeat: until`",
        ),
        (
            "meta:\n  id: broken\n  endian: le\nseq:\n  - id: a\n    type: u1\ninstances:\n  a:\n    value: 1\n",
            "`a` is declared twice",
        ),
        (
            "meta:\n  id: broken\n  ks-version: 99.1\n",
            "needs Kaitai 99.1; skelcodec implements 0.11",
        ),
        (
            "meta:\n  id: broken\n  ks-version: 0.7f\n",
            "`0.7f` is not a version",
        ),
        (
            "meta:\n  id: broken\nseq:\n  - id: s\n    type: strz\n",
            "a string needs an `encoding`",
        ),
        (
            "meta:\n  id: broken\nseq:\n  - id: b\n    size: 4\n    enum: e\nenums:\n  e:\n    1: one\n",
            "`enum` applies to integer attributes only",
        ),
        (
            "meta:\n  id: broken\ninstances:\n  peek:\n    pos: 0\n    type: u1\n    enum: nowhere\n",
            "unknown enum `nowhere`",
        ),
        (
            "meta:\n  id: broken\ninstances:\n  a:\n    value: 1\n    size: 4\n",
            "`size` does not belong in a value instance",
        ),
    ] {
        let message = error(source);
        assert!(message.contains(expected), "{expected}: {message}");
    }
}

#[test]
fn value_instances_take_enum_and_if() {
    let source = "meta:\n  id: ok\n  endian: le\nseq:\n  - id: a\n    type: u1\ninstances:\n  kind:\n    value: a + 1\n    enum: animal\n  big:\n    value: a * 2\n    if: a > 3\nenums:\n  animal:\n    1: cat\n";
    let schema = parse_schema(source, Path::new("ok.ksy")).expect("accepted");
    let code = skelcodec_codegen::generate_source(&schema).expect("parses");
    assert!(code.contains("pub fn kind(&self) -> Animal"), "{code}");
    assert!(code.contains("if ((self.a as i64) > 3i64)"), "{code}");
    // `ok` would shadow the prelude's `Ok`.
    assert!(code.contains("impl OkType"), "{code}");
}

#[test]
fn checks_a_writer_cannot_make_are_verified_by_reading_back() {
    let expand = |source: &str| {
        let schema = parse_schema(source, Path::new("s.ksy")).expect("accepted");
        skelcodec_codegen::generate_source(&schema).expect("parses")
    };
    // A size computed from the stream: the writer cannot check it, so it reads its output back.
    let code = expand(
        "meta:\n  id: s\n  endian: le\nseq:\n  - id: body\n    size: _io.size - 2\n  - id: tail\n    type: u2\n",
    );
    assert!(code.contains("const VERIFY_WRITES: bool = true"), "{code}");
    let code = expand("meta:\n  id: s\n  endian: le\nseq:\n  - id: body\n    size: 4\n");
    assert!(code.contains("const VERIFY_WRITES: bool = false"), "{code}");
    // Sums wrap instead of overflowing; 40 floats are a list (serde derives arrays up to 32).
    let code = expand(
        "meta:\n  id: s\n  endian: le\nseq:\n  - id: xs\n    type: u4\n    repeat: expr\n    repeat-expr: 40\n  - id: n\n    type: u4\n    -derived: xs.sum(_)\n",
    );
    assert!(code.contains("sum.wrapping_add"), "{code}");
    assert!(code.contains("pub xs: rt::FixedList<u32>"), "{code}");
}

#[test]
fn a_type_meta_sets_defaults_for_it_and_its_nested_types() {
    let source = "meta:\n  id: defaults\n  endian: le\nseq:\n  - id: a\n    type: u2\n  - id: b\n    type: outer\ntypes:\n  outer:\n    meta:\n      endian: be\n    seq:\n      - id: c\n        type: u2\n      - id: d\n        type: inner\n    types:\n      inner:\n        seq:\n          - id: e\n            type: u2\n";
    let schema = parse_schema(source, Path::new("schemas/defaults.ksy")).expect("accepted");
    let order =
        |schema: &skelcodec_codegen::model::Schema, ty: usize| match &schema.types[ty].fields[0].ty
        {
            FieldType::Number(skelcodec_codegen::model::Scalar::Int(i)) => i.order,
            other => panic!("not an integer: {other:?}"),
        };
    let outer = schema.types.iter().position(|t| t.id == "outer").unwrap();
    let inner = schema.types.iter().position(|t| t.id == "inner").unwrap();
    assert_eq!(
        [
            order(&schema, 0),
            order(&schema, outer),
            order(&schema, inner)
        ],
        [ByteOrder::Little, ByteOrder::Big, ByteOrder::Big]
    );
    // Chosen by a switch: `outer` decides, `inner` is given the order by the `outer` holding it.
    let switched = source.replace(
        "endian: be",
        "endian:\n        switch-on: _parent.a\n        cases:\n          1: be\n          _: le",
    );
    let schema = parse_schema(&switched, Path::new("schemas/defaults.ksy")).expect("accepted");
    assert_eq!(
        [order(&schema, outer), order(&schema, inner)],
        [ByteOrder::Chosen, ByteOrder::Chosen]
    );
    assert!(schema.types[outer].endian_choice.is_some());
    let params = |ty: usize| -> Vec<&str> {
        schema.types[ty]
            .params
            .iter()
            .map(|p| p.id.as_str())
            .collect()
    };
    assert_eq!(params(outer), ["_parent_a"]);
    assert_eq!(params(inner), ["_is_be"]);
    // The root cannot give `inner` an order it does not choose.
    let held_by_root = switched.replace("    type: outer\n", "    type: outer::inner\n");
    let message = error(&held_by_root);
    assert!(
        message.contains("type `inner` takes its byte order from the `meta/endian` switch of a type around it, but the root holds it"),
        "{message}"
    );
    let bad_case = switched.replace("_: le", "_: middle");
    assert!(
        error(&bad_case).contains("a case of `endian` must be `le` or `be`"),
        "{bad_case}"
    );
}

#[test]
fn sizeof_needs_a_type_whose_values_all_have_the_same_size() {
    let message = error(&format!(
        "{HEADER}  - id: n\n    type: u1\n  - id: body\n    size: size\ninstances:\n  size:\n    value: sizeof<counted>\ntypes:\n  counted:\n    seq:\n      - id: n\n        type: u1\n      - id: data\n        size: n\n"
    ));
    assert!(
        message.contains(
            "`sizeof<counted>`: `counted` is not a type whose values all have the same size"
        ),
        "{message}"
    );
}

#[test]
fn parameter_types_and_arguments_are_checked() {
    let with_param = |ty: &str, arg: &str| {
        format!(
            "{HEADER}  - id: n\n    type: u1\n  - id: b\n    type: body({arg})\ntypes:\n  body:\n    params:\n      - id: p\n        type: {ty}\n    seq:\n      - id: x\n        type: u1\n"
        )
    };
    let message = error(&with_param("struct", "n"));
    assert!(
        message.contains("this argument is an integer, which the parameter's type does not take"),
        "{message}"
    );
    let message = error(&with_param("any", "n"));
    assert!(
        message.contains("parameter type `any` (Kaitai) is not implemented yet"),
        "{message}"
    );
    let message = error(&with_param("widget", "n"));
    assert!(
        message.contains("parameter type `widget` is not supported"),
        "{message}"
    );
    let message = error(&with_param("str", "n"));
    assert!(
        message.contains("this argument is an integer, which the parameter's type does not take"),
        "{message}"
    );
    assert!(parse_schema(&with_param("str", "\"ab\""), Path::new("ok.ksy")).is_ok());
}

#[test]
fn vendor_keys_are_accepted_in_switches_too() {
    let source = format!(
        "{HEADER}  - id: k\n    type: u1\n  - id: v\n    type:\n      switch-on: k\n      -other-tool: hint\n      cases:\n        1: u1\n"
    );
    assert!(parse_schema(&source, Path::new("vendor.ksy")).is_ok());
}

#[test]
fn unmatched_takes_only_error() {
    let message = error(&format!(
        "{HEADER}  - id: k\n    type: u1\n  - id: v\n    type:\n      switch-on: k\n      -unmatched: null\n      cases:\n        1: u1\n"
    ));
    assert!(message.contains("broken.ksy:10:7"), "{message}");
    assert!(
        message.contains("`-unmatched` takes one value, `error`"),
        "{message}"
    );
}

/// The warnings of a schema that compiles, as shown to the user.
fn warnings(source: &str, file: &str) -> Vec<String> {
    let schema = parse_schema(source, Path::new(file)).expect("the schema compiles");
    schema.warnings.iter().map(|w| w.to_string()).collect()
}

#[test]
fn encodings_not_spelled_canonically_are_warnings() {
    let source = "meta:\n  id: warned\n  encoding: utf-8\nseq:\n  - id: name\n    type: strz\n    encoding: latin1\n";
    let warnings = warnings(source, "schemas/warned.ksy");
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(
        warnings[0].starts_with("schemas/warned.ksy:3:3:"),
        "{warnings:?}"
    );
    assert!(
        warnings[0].contains("`UTF-8` instead of `utf-8`"),
        "{warnings:?}"
    );
    assert!(
        warnings[1].contains("`ISO-8859-1` instead of `latin1`"),
        "{warnings:?}"
    );
}

#[test]
fn an_instance_only_the_finished_value_could_compute_is_a_located_warning() {
    let source = "meta:\n  id: lazy\nseq:\n  - id: dir\n    type: entries\n  - id: tail\n    type: u1\ntypes:\n  entries:\n    seq:\n      - id: n\n        type: u1\n    instances:\n      root_tail:\n        value: _root.tail\n";
    let warnings = warnings(source, "lazy.ksy");
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].starts_with("lazy.ksy:15:9:"), "{warnings:?}");
    assert!(
        warnings[0].contains("value instance `root_tail` gets no method"),
        "{warnings:?}"
    );
    // Used while reading, it is an error.
    let used = source.replace(
        "      - id: n\n        type: u1\n",
        "      - id: n\n        type: u1\n      - id: body\n        size: root_tail\n",
    );
    assert!(
        error(&used).contains("`tail` is not read yet"),
        "{}",
        error(&used)
    );
}

#[test]
fn the_root_field_being_read_gives_what_it_has_read_and_no_more() {
    // Inside `dir`, `_root.dir.n` is its own `n`, read before `body`.
    let source = "meta:\n  id: inside\nseq:\n  - id: dir\n    type: entries\ntypes:\n  entries:\n    seq:\n      - id: n\n        type: u1\n      - id: body\n        type: entry\n  entry:\n    seq:\n      - id: data\n        size: _root.dir.n\n";
    parse_schema(source, Path::new("inside.ksy")).expect("accepted");
    let late = source
        .replace("size: _root.dir.n", "size: _root.dir.m")
        .replace(
            "        type: entry\n",
            "        type: entry\n      - id: m\n        type: u1\n",
        );
    assert!(
        error(&late).contains("`m` is not read yet"),
        "{}",
        error(&late)
    );
}

#[test]
fn a_list_its_own_elements_use_in_instances_is_read_again_or_refused() {
    // Kaitai computes `body` once `files` is complete; an element's reader has only the
    // elements before it, so the elements are read once more with the whole list.
    let source = "meta:\n  id: pak\nseq:\n  - id: files\n    type: file(_index)\n    repeat: expr\n    repeat-expr: 2\ntypes:\n  file:\n    params:\n      - id: idx\n        type: u4\n    seq:\n      - id: ofs\n        type: u1\n    instances:\n      body:\n        pos: ofs\n        size: _parent.files[idx + 1].ofs - ofs\n";
    let schema = parse_schema(source, Path::new("pak.ksy")).expect("accepted");
    assert!(schema.types[0].fields[0].read_again);
    // A switch's list has no one list of elements to pass down.
    let switched = source.replace(
        "    type: file(_index)\n",
        "    type:\n      switch-on: 1\n      cases:\n        1: file(_index)\n",
    );
    let message = error(&switched);
    assert!(message.contains("broken.ksy:5:5"), "{message}");
    assert!(message.contains("`_parent.files`"), "{message}");
}

#[test]
fn parent_and_root_are_located_where_nothing_can_give_them() {
    let message = error(&format!("{HEADER}  - id: a\n    size: _parent.len\n"));
    assert!(message.contains("broken.ksy:6:5"), "{message}");
    assert!(message.contains("the root type has no parent"), "{message}");

    let unused = format!(
        "{HEADER}  - id: a\n    type: u1\ntypes:\n  orphan:\n    seq:\n      - id: b\n        size: _parent.len\n"
    );
    let message = error(&unused);
    assert!(message.contains("broken.ksy:11:9"), "{message}");
    assert!(message.contains("nothing gives it this value"), "{message}");

    let missing = format!(
        "{HEADER}  - id: a\n    type: child\ntypes:\n  child:\n    seq:\n      - id: b\n        size: _parent.len\n"
    );
    let message = error(&missing);
    assert!(message.contains("broken.ksy:6:5"), "{message}");
    assert!(
        message.contains("`_parent.len` in type `child`"),
        "{message}"
    );
    assert!(message.contains("unknown name `len`"), "{message}");

    // A type nothing holds still takes `_root` values (GIMP brush's `bitmap`): its caller
    // passes them, typed from the root.
    let root_only = unused.replace("_parent.len", "_root.a");
    let schema = parse_schema(&root_only, Path::new("orphan.ksy")).expect("accepted");
    let params: Vec<&str> = schema.types[1]
        .params
        .iter()
        .map(|p| p.id.as_str())
        .collect();
    assert_eq!(params, ["_root_a"]);
}

/// A root type that holds values of itself: `value`, then `next` of the same type while the
/// value is 0xff, and `extra` (its instances).
fn chain(extra: &str) -> String {
    format!(
        "meta:\n  id: chain\nseq:\n  - id: value\n    type: u1\n  - id: next\n    type: chain\n    if: value == 0xff\n{extra}"
    )
}

#[test]
fn a_root_that_holds_itself_passes_its_parent_values_down() {
    // Kaitai's `nav_parent_recursive`: the values held give `_parent.value`; the file's root,
    // read without arguments, has no parent and takes 0.
    let source =
        chain("instances:\n  parent_value:\n    value: _parent.value\n    if: value != 0xff\n");
    let schema = parse_schema(&source, Path::new("chain.ksy")).expect("accepted");
    let root = &schema.types[0];
    let params: Vec<(&str, String)> = (root.params.iter())
        .map(|p| (p.id.as_str(), format!("{:?}", p.default)))
        .collect();
    assert_eq!(params, [("_parent_value", "Some(Int(0))".to_owned())]);
    let FieldType::User { args, .. } = &root.fields[1].ty else {
        panic!("`next` holds a `chain`");
    };
    assert_eq!(format!("{args:?}"), r#"[Name("value")]"#);
}

#[test]
fn root_values_of_a_root_that_holds_itself_are_only_the_files_roots() {
    // Read in a value held by another, `_root.value` is the file's root's, not the value's
    // own: the reader, which reads both, cannot tell them apart.
    let read = chain("  - id: body\n    size: _root.value\n");
    let message = error(&read);
    assert!(
        message.contains("only the file's root knows it is the root"),
        "{message}"
    );
    assert!(message.contains("(at seq[2].size)"), "{message}");
    // So for a type it holds: the root type passes `_root.value` down from a value that may
    // be held itself.
    let held = chain(
        "  - id: child\n    type: leaf\ntypes:\n  leaf:\n    seq:\n      - id: body\n        size: _root.value\n",
    );
    let message = error(&held);
    assert!(
        message.contains("only the file's root knows it is the root"),
        "{message}"
    );
    // An instance gets no method, for the same reason; expressions over the file's root
    // reach it (`next.root_value`).
    let instance = chain("instances:\n  root_value:\n    value: _root.value\n");
    let warnings = warnings(&instance, "chain.ksy");
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("value instance `root_value` gets no method")),
        "{warnings:?}"
    );
}

#[test]
fn an_instance_reads_only_from_a_stream() {
    let message = error(&format!(
        "{HEADER}  - id: count\n    type: u1\ninstances:\n  tail:\n    io: count\n    pos: 0\n    type: u2\n"
    ));
    assert!(
        message.starts_with(
            "schemas/broken.ksy:9:5: expected a stream (`_io` of a value), found an integer"
        ),
        "{message}"
    );
}

#[test]
fn a_ternary_of_two_switch_values_is_taken_apart_by_what_follows_it() {
    let body = "  - id: k\n    type: u1\n  - id: a\n    type:\n      switch-on: k\n      cases:\n        1: one\n        2: two\n  - id: b\n    type:\n      switch-on: k\n      cases:\n        1: one\n";
    let types = "types:\n  one:\n    seq:\n      - id: n\n        type: u1\n  two:\n    seq:\n      - id: m\n        type: u1\n";
    // Each switch field has an enum of its own: no common type, and the property is taken
    // from each branch, where `a` has two cases.
    let message = error(&format!(
        "{HEADER}{body}  - id: c\n    size: '(k == 1 ? a : b).n'\n{types}"
    ));
    assert!(
        message.contains("a switch value has no property `n`"),
        "{message}"
    );
    // Taken as one of their cases, each branch is a structure of the same type.
    let source =
        format!("{HEADER}{body}  - id: c\n    size: '(k == 1 ? a : b).as<one>.n'\n{types}");
    parse_schema(&source, Path::new("ok.ksy")).expect("accepted");
}

#[test]
fn enum_keys_above_i64_and_with_underscores_are_integers() {
    let source = "meta:\n  id: keys\nenums:\n  big:\n    0x0253_f200: spaced\n    18446744073709551615: long_max\n";
    let schema = parse_schema(source, Path::new("keys.ksy")).expect("accepted");
    let values: Vec<(i64, &str)> = schema.enums[0]
        .variants
        .iter()
        .map(|v| (v.value, v.id.as_str()))
        .collect();
    // A `u8` value above `i64::MAX` is held as its bit pattern.
    assert_eq!(values, [(-1, "long_max"), (0x0253_f200, "spaced")]);
}

#[test]
fn a_schema_type_named_like_a_skelcodec_built_in_is_the_schema_type() {
    let source = "meta:\n  id: own\nseq:\n  - id: v\n    type: vec3\ntypes:\n  vec3:\n    seq:\n      - id: x\n        type: u1\n";
    let schema = parse_schema(source, Path::new("own.ksy")).expect("accepted");
    assert!(
        matches!(schema.types[0].fields[0].ty, FieldType::User { ty: 1, .. }),
        "{:?}",
        schema.types[0].fields[0].ty
    );
}

#[test]
fn a_byte_order_switch_whose_cases_do_not_match_its_selector() {
    // Two bytes compared with integer cases: the generator used to panic on it.
    let message = error(
        "meta:\n  id: broken\nseq:\n  - id: indicator\n    size: 2\n  - id: main\n    type: main_obj\ntypes:\n  main_obj:\n    meta:\n      endian:\n        switch-on: _parent.indicator\n        cases:\n          7: le\n          8: be\n    seq:\n      - id: x\n        type: u2\n",
    );
    assert!(
        message.starts_with("schemas/broken.ksy:14:11: case `7` does not have the type"),
        "{message}"
    );
    assert!(
        message.contains("(at types.main_obj.meta.endian.cases.7)"),
        "{message}"
    );
}

#[test]
fn every_error_of_a_schema_is_reported_at_once_each_with_its_line() {
    let source = format!(
        "{HEADER}  - id: a\n    size: nothing\n  - id: b\n    type: u1\n    if: also_nothing\n  - id: c\n    type: u1\n    repeat: expr\n    repeat-expr: \"'x'\"\ninstances:\n  d:\n    value: a + 1\n"
    );
    let e = parse_schema(&source, Path::new("schemas/broken.ksy")).unwrap_err();
    let lines: Vec<String> = e
        .all()
        .map(|e| format!("{:?} {}", e.line_col, e.path))
        .collect();
    // In the order of the text, though the instance's error is found before the fields'.
    assert_eq!(
        lines,
        [
            "Some((6, 5)) seq[0].size",
            "Some((9, 5)) seq[1].if",
            "Some((13, 5)) seq[2].repeat-expr",
            "Some((16, 5)) instances.d.value",
        ]
    );
    // One line an error.
    let shown = e.to_string();
    assert_eq!(shown.lines().count(), 4, "{shown}");
    assert!(
        shown.lines().all(|l| l.starts_with("schemas/broken.ksy:")),
        "{shown}"
    );
}

#[test]
fn a_switch_selector_uses_the_index_of_its_element_only_in_a_list() {
    // Each element of a list chooses its own case; a single value has no `_index`.
    let source = format!(
        "{HEADER}  - id: kinds\n    type: u1\n    repeat: expr\n    repeat-expr: 2\n  - id: items\n    type:\n      switch-on: kinds[_index]\n      cases:\n        1: u1\n        2: u2\n    repeat: expr\n    repeat-expr: 2\n"
    );
    let schema = parse_schema(&source, Path::new("items.ksy")).expect("accepted");
    assert!(schema.types[0].fields[1].switches_per_element());
    let single = source.replace("    repeat: expr\n    repeat-expr: 2\n", "");
    let message = error(&single.replace("switch-on: kinds[_index]", "switch-on: _index"));
    assert!(message.contains("broken.ksy:9:7"), "{message}");
    assert!(message.contains("(at seq[1].type.switch-on)"), "{message}");
    assert!(message.contains("`_index` is only defined"), "{message}");
}

#[test]
fn a_choice_between_lists_kaitai_unifies_is_unsupported_not_a_mistake() {
    // dcmp_2's `lookup_table`: a custom table that may be absent, or a literal one. Used by
    // nothing, it is left out with a warning; used as a count, it is refused.
    let table = "  - id: has_custom\n    type: u1\n  - id: custom\n    size: 2\n    repeat: expr\n    repeat-expr: 2\n    if: has_custom != 0\ninstances:\n  table:\n    value: 'has_custom != 0 ? custom : [[1, 2], [3, 4]]'\n";
    let warnings = warnings(&format!("{HEADER}{table}"), "schemas/broken.ksy");
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("value instance `table` gets no method")),
        "{warnings:?}"
    );
    let used = format!("{HEADER}{table}").replacen(
        "instances:",
        "  - id: rest\n    size: table.size\ninstances:",
        1,
    );
    let message = error(&used);
    assert!(message.contains("the branches of `?:` differ"), "{message}");
}

#[test]
fn the_functions_of_derivations_belong_to_derivations() {
    let body = "  - id: body\n    size: 4\n";
    let message = error(&format!(
        "{HEADER}{body}  - id: tail\n    type: u1\n    if: crc32(body) == 0\n"
    ));
    assert!(
        message.contains("broken.ksy:9:5: `crc32(…)` is a function of `-derived` expressions"),
        "{message}"
    );
    // Inside `sum`, a closure: `inflated(…)` could not say it has no value.
    let message = error(&format!(
        "{HEADER}  - id: parts\n    size: 4\n    repeat: expr\n    repeat-expr: 2\n  - id: total\n    type: u4\n    -derived: parts.sum(inflated(_).size)\n"
    ));
    assert!(
        message.contains("broken.ksy:11:5: `sum` of a value that can fail"),
        "{message}"
    );
}

#[test]
fn in_sequence_belongs_to_a_block_whose_offset_follows_it_and_whose_type_is_read_in_sequence() {
    let message = error(&format!(
        "{HEADER}  - id: a\n    type: u1\n    -in-sequence: true\n"
    ));
    assert!(
        message.contains("broken.ksy:7:5: `-in-sequence` belongs to an instance read by position"),
        "{message}"
    );
    let message = error(&format!(
        "{HEADER}  - id: a\n    type: u1\ninstances:\n  peek:\n    pos: 0\n    type: u1\n    -in-sequence: true\n"
    ));
    assert!(
        message.contains("`-in-sequence` on a look-ahead instance (Kaitai) is not implemented"),
        "{message}"
    );
    // `other` is read by position only; `ofs` is the position of two blocks, so neither
    // block's offset follows it.
    let schema = format!(
        "{HEADER}  - id: ofs\n    type: u1\n  - id: len\n    type: u1\n  - id: items\n    type: item\n    repeat: expr\n    repeat-expr: 1\ninstances:\n  once:\n    pos: len\n    type: other\n    -in-sequence: true\n  again:\n    pos: ofs\n    type: item\n    -in-sequence: true\n  twice:\n    pos: ofs\n    type: item\ntypes:\n  item:\n    seq:\n      - id: x\n        type: u1\n  other:\n    seq:\n      - id: y\n        type: u1\n"
    );
    let message = match parse_schema(&schema, Path::new("schemas/broken.ksy")) {
        Ok(_) => panic!("the schema should be rejected"),
        Err(e) => e
            .all()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("\n"),
    };
    assert!(
        message.contains("`-in-sequence` needs an instance read by position in the file's stream")
            && message.contains("(`once`: no field reads its type in sequence)"),
        "{message}"
    );
    assert!(
        message.contains("(`again`: its offset does not follow where it is placed)"),
        "{message}"
    );
}

#[test]
fn instances_and_look_aheads_that_reach_themselves_are_located_errors() {
    // Resolved where they are used, each one level deeper: the nesting ends with an error,
    // not a stack overflow (a schema mutant found a look-ahead whose `if` reads itself).
    let looking = error(&format!(
        "{HEADER}  - id: a\n    type: u1\ninstances:\n  peek:\n    pos: 0\n    type: u1\n    if: peek != 0\n"
    ));
    assert!(looking.contains("nests too deeply"), "{looking}");
    assert!(looking.contains("broken.ksy:"), "{looking}");
    let valued = error(&format!(
        "{HEADER}  - id: a\n    type: u1\ninstances:\n  v:\n    value: v + 1\n"
    ));
    assert!(valued.contains("nests too deeply"), "{valued}");
}
