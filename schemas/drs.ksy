meta:
  id: drs
  title: BattleForge DRS container
  file-extension: drs
  endian: le
  encoding: ASCII
  -magic:
    - [0x1e, 0xf1, 0x7c, 0xc5]
doc: |
  BattleForge model container (shared with BMG and FXB): a 20-byte header with absolute
  offsets to a node-information table and a node hierarchy, which lie after the data blobs
  they point to. Each node-information entry gives a class tag, an absolute offset and a size;
  AnimationSet blobs are decoded, every other class is kept raw with its class named.
  See shared/reference/formats.md section 5 (the add-on's decimal magics are authoritative;
  the hex values in its docs are wrong).

  Blobs, tables and hierarchy are read by position and written back at the positions they
  were read from; bytes no part claims are kept (`unclaimed`), so any layout round-trips.
  Their offsets are derived from the layout: packed one after another after the header, in
  the order they are stored (the add-on writes blobs in its WriteOrder, then the table, then
  the hierarchy; game files need not order the table like the blobs). `check()` reports an
  offset that leaves a gap or an overlap; `normalize()` packs them again after an edit.
-layout:
  blocks:
    - node_information.entries[].blob
    - node_information
    - node_hierarchy
seq:
  - id: magic
    contents: [0x1e, 0xf1, 0x7c, 0xc5]
    doc: -981667554 as an i32.
  - id: number_of_models
    type: s4
  - id: node_information_offset
    type: s4
  - id: node_hierarchy_offset
    type: s4
  - id: node_count
    type: u4
    -derived: node_information.entries.size + 1
    doc: Nodes including the root node.
instances:
  node_information:
    pos: node_information_offset
    type: node_information_table
  node_hierarchy:
    pos: node_hierarchy_offset
    type: node_hierarchy

types:
  node_information_table:
    seq:
      - id: root_zeros
        size: 16
      - id: root_minus_one
        type: s4
      - id: root_one
        type: s4
      - id: root_entry_count
        type: s4
        -derived: entries.size
      - id: root_zero
        type: s4
      - id: entries
        type: node_information
        repeat: expr
        repeat-expr: _root.node_count - 1

  node_information:
    seq:
      - id: class_tag
        type: s4
        enum: node_class
      - id: identifier
        type: s4
        doc: 1-based position of the node in the hierarchy (as the add-on's writer stores it).
      - id: offset
        type: s4
        doc: Absolute file offset of the blob.
      - id: size
        type: s4
        -derived: blob._sizeof
      - id: spacer
        size: 16
        doc: Zero in BattleForge (SpellForce 2 used these bytes); kept as read.
    instances:
      blob:
        pos: offset
        size: size
        type:
          switch-on: class_tag
          cases:
            node_class::animation_set: animation_set

  node_hierarchy:
    seq:
      - id: root_identifier
        type: s4
      - id: root_unknown
        type: s4
      - id: root_name_length
        type: s4
        -derived: root_name.length
      - id: root_name
        type: str
        size: root_name_length
        doc: '"root node" in the add-on, "root_node" in its docs; kept as read.'
      - id: nodes
        type: node
        repeat: expr
        repeat-expr: _root.node_count - 1

  node:
    seq:
      - id: info_index
        type: s4
        doc: Index into the node-information table, the root entry counting as 0.
      - id: name_length
        type: s4
        -derived: name.length
      - id: name
        type: str
        size: name_length
        doc: Class name, exact and case-sensitive ("collisionShape").
      - id: zero
        type: s4

  # ------------------------------------------------------------------ AnimationSet
  animation_set:
    doc: |
      Versions 2 to 6. Version 2 stores the key count where later versions store the revision,
      and an unknown word where they store the key count; both words are kept as read and
      interpreted by the `revision`, `key_count` and `v2_unknown` instances.
    seq:
      - id: magic_length
        type: s4
        doc: 11; the game reads 11 bytes whatever it says.
      - id: magic
        type: str
        size: 11
      - id: version
        type: s4
        valid:
          min: 2
          max: 6
      - id: default_run_speed
        type: f4
      - id: default_walk_speed
        type: f4
      - id: revision_or_key_count
        type: s4
        -derived: 'version == 2 ? mode_animation_keys.size : revision_or_key_count'
      - id: mode_change_type
        type: u1
        if: version >= 6 and revision >= 2
      - id: hovering_ground
        type: u1
        if: version >= 6 and revision >= 2
      - id: fly_bank_scale
        type: f4
        if: version >= 6 and revision >= 5
      - id: fly_accel_scale
        type: f4
        if: version >= 6 and revision >= 5
      - id: fly_hit_scale
        type: f4
        if: version >= 6 and revision >= 5
      - id: align_to_terrain
        type: u1
        if: version >= 6 and revision >= 6
      - id: key_count_or_unknown
        type: s4
        -derived: 'version == 2 ? key_count_or_unknown : mode_animation_keys.size'
      - id: mode_animation_keys
        type: mode_animation_key(version, v2_unknown)
        repeat: expr
        repeat-expr: key_count
      - id: atlas
        type: ik_atlas_part
        if: version >= 3
      - id: markers
        type: marker_part
        if: version >= 4
      - id: stale
        size-eos: true
        doc: |
          Bytes the node's stated size covers beyond the AnimationSet: unknown, kept and
          written back (the stated size counts them).
    instances:
      revision:
        value: 'version == 2 ? 0 : revision_or_key_count'
      key_count:
        value: 'version == 2 ? revision_or_key_count : key_count_or_unknown'
      v2_unknown:
        value: 'version == 2 ? key_count_or_unknown : 0'

  mode_animation_key:
    params:
      - id: set_version
        type: s4
      - id: v2_unknown
        type: s4
    seq:
      - id: stored_type
        type: s4
        if: not (set_version == 2 and v2_unknown == 2)
        doc: Absent in version-2 sets whose unknown word is 2; the type is then 2.
      - id: file_length
        type: s4
        -derived: file.length
      - id: file
        type: str
        size: file_length
      - id: unknown
        type: s4
      - id: payload
        type:
          switch-on: key_type
          cases:
            1: key_payload_type1
            6: key_payload_type6
            _: key_payload_type2_5
      - id: variant_count
        type: s4
        -derived: variants.size
      - id: variants
        type: animation_set_variant
        repeat: expr
        repeat-expr: variant_count
    instances:
      key_type:
        value: '(set_version == 2 and v2_unknown == 2) ? 2 : stored_type'

  key_payload_type1:
    seq:
      - id: unknown2
        type: u1
        repeat: expr
        repeat-expr: 24
  key_payload_type2_5:
    doc: Types 2 to 5 (the add-on takes every type up to 5 this way).
    seq:
      - id: unknown2
        type: s4
      - id: special_mode
        type: s2
  key_payload_type6:
    seq:
      - id: unknown2
        type: s4
      - id: vis_job
        type: s2
      - id: unknown3
        type: s4
      - id: special_mode
        type: s2

  animation_set_variant:
    seq:
      - id: version
        type: s4
      - id: weight
        type: s4
      - id: file_length
        type: s4
        -derived: file.length
      - id: file
        type: str
        size: file_length
        doc: The .ska animation path, no NUL.
      - id: start
        type: f4
        if: version >= 4
      - id: end
        type: f4
        if: version >= 4
      - id: allows_ik
        type: u1
        if: version >= 5
      - id: force_no_blend
        type: u1
        if: version >= 7

  ik_atlas_part:
    seq:
      - id: has_atlas
        type: s2
      - id: atlases
        type: ik_atlas_list
        if: has_atlas >= 1
      - id: unknown_ints
        type: unknown_int_list
        if: has_atlas >= 2

  ik_atlas_list:
    seq:
      - id: count
        type: s4
        -derived: atlases.size
      - id: atlases
        type: ik_atlas
        repeat: expr
        repeat-expr: count

  ik_atlas:
    seq:
      - id: bone_id
        type: s4
      - id: version
        type: s2
      - id: axis
        type: s4
        if: version >= 1
      - id: chain_order
        type: s4
        if: version >= 1
      - id: constraints
        type: constraint
        repeat: expr
        repeat-expr: 3
        if: version >= 1
        doc: Inside the version-1 block in drs.bt and the add-on (formats.md's indentation is ambiguous).
      - id: purpose_flags
        type: s2
        if: version >= 2

  constraint:
    seq:
      - id: revision
        type: s2
      - id: left_angle
        type: f4
        if: revision == 1
      - id: right_angle
        type: f4
        if: revision == 1
      - id: left_damp_start
        type: f4
        if: revision == 1
      - id: right_damp_start
        type: f4
        if: revision == 1
      - id: damp_ratio
        type: f4
        if: revision == 1

  unknown_int_list:
    seq:
      - id: count
        type: s4
        -derived: values.size
      - id: values
        type: s4
        repeat: expr
        repeat-expr: count

  marker_part:
    seq:
      - id: subversion
        type: s2
      - id: marker_sets
        type: marker_set_list
        if: subversion == 2
      - id: unknown_structs
        type: unknown_struct_list
        if: subversion == 1

  marker_set_list:
    seq:
      - id: count
        type: s4
        -derived: sets.size
      - id: sets
        type: animation_marker_set
        repeat: expr
        repeat-expr: count

  animation_marker_set:
    seq:
      - id: anim_id
        type: s4
      - id: name_length
        type: s4
        -derived: name.length
      - id: name
        type: str
        size: name_length
      - id: marker_id
        type: u4
      - id: marker_count
        type: s4
        -derived: markers.size
      - id: markers
        type: animation_marker
        repeat: expr
        repeat-expr: marker_count

  animation_marker:
    seq:
      - id: is_spawn_animation
        type: s4
      - id: time
        type: f4
      - id: direction
        type: vec3
      - id: position
        type: vec3

  unknown_struct_list:
    seq:
      - id: count
        type: s4
        -derived: structs.size
      - id: structs
        type: unknown_struct
        repeat: expr
        repeat-expr: count

  unknown_struct:
    seq:
      - id: unknown
        type: s4
      - id: name_length
        type: s4
        -derived: name.length
      - id: name
        type: str
        size: name_length
      - id: unknown2
        type: s4
      - id: count
        type: s4
        -derived: values.size
      - id: values
        type: unknown_values
        repeat: expr
        repeat-expr: count

  unknown_values:
    seq:
      - id: values
        type: s4
        repeat: expr
        repeat-expr: 5

enums:
  node_class:
    -475734043: animation_set
    -1403092629: animation_timings
    -2110567991: sk_skeleton
    -761174227: sk_skin_info
    -1340635850: dsp_joint_map
    100449016: geo_mesh
    -933519637: geo_obb_tree
    -1900395636: dsp_mesh_file
    -183033339: drw_resource_meta
    268607026: collision_shape
    1396683476: geo_primitive_container
    735146985: drw_locator_list
    688490554: effect_set
    -196433635: gd_locator_list
    -1424862619: fx_master
