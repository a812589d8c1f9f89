meta:
  id: dff
  title: RenderWare DFF model
  file-extension: dff
  endian: le
  -magic:
    - [0x10, 0, 0, 0]
doc: |
  A RenderWare binary stream holding one or more clumps (GTA III, Vice City, San Andreas
  models). Every chunk starts with `type, size, library_id`; `size` counts the payload after
  the header, children included. See shared/reference/formats.md section 2.

  Sizes in real files lie (a clump 12 bytes short of its children, deliberately wrong sizes,
  sector padding), so known structures are read field by field, as the games read them, and
  every stated size is stored as read and declared `-derived`: `check()` reports a
  disagreement, `normalize()` recomputes it. Sizes are used only where the game uses them: to
  delimit extensions and the chunks nobody decodes, which are kept raw.
seq:
  - id: clumps
    type: clump
    repeat: until
    repeat-until: _io.size - _io.pos < 12 or next_chunk_type != 0x10
  - id: tail
    size-eos: true
    doc: Bytes after the last clump (sector padding, stale data), kept as read.
instances:
  next_chunk_type:
    pos: _io.pos
    type: u4

types:
  clump:
    seq:
      - id: chunk_type
        type: u4
        enum: section_type
      - id: chunk_size
        type: u4
        -derived: _sizeof - 12
      - id: library_id
        type: u4
      - id: info
        type: clump_info
      - id: frame_list
        type: frame_list
      - id: geometry_list
        type: geometry_list
      - id: atomics
        type: atomic
        repeat: expr
        repeat-expr: info.num_atomics
      - id: extension
        type: raw_chunk

  clump_info:
    doc: The clump's Struct chunk.
    seq:
      - id: chunk_type
        type: u4
        enum: section_type
      - id: chunk_size
        type: u4
        -derived: _sizeof - 12
      - id: library_id
        type: u4
      - id: num_atomics
        type: u4
      - id: num_lights
        type: u4
        if: chunk_size >= 12
        doc: Absent in pre-3.3 files, whose struct holds only the atomic count.
      - id: num_cameras
        type: u4
        if: chunk_size >= 12
      - id: extra
        size: 'chunk_size - (chunk_size >= 12 ? 12 : 4)'
        doc: Struct bytes beyond the known counts (none in known files).

  frame_list:
    seq:
      - id: chunk_type
        type: u4
        enum: section_type
      - id: chunk_size
        type: u4
        -derived: _sizeof - 12
      - id: library_id
        type: u4
      - id: structure
        type: frame_list_struct
      - id: extensions
        type: raw_chunk
        repeat: expr
        repeat-expr: structure.num_frames
        doc: One extension per frame (frame names, HAnim data), kept raw.

  frame_list_struct:
    seq:
      - id: chunk_type
        type: u4
        enum: section_type
      - id: chunk_size
        type: u4
        -derived: _sizeof - 12
      - id: library_id
        type: u4
      - id: num_frames
        type: u4
      - id: frames
        type: frame
        repeat: expr
        repeat-expr: num_frames
      - id: extra
        size: chunk_size - 4 - num_frames * 56

  frame:
    seq:
      - id: rotation
        type: f4
        repeat: expr
        repeat-expr: 9
        doc: 3×3 rotation matrix, row by row.
      - id: position
        type: vec3
      - id: parent
        type: s4
        doc: Index of the parent frame, -1 for the root.
      - id: flags
        type: u4

  geometry_list:
    seq:
      - id: chunk_type
        type: u4
        enum: section_type
      - id: chunk_size
        type: u4
        -derived: _sizeof - 12
      - id: library_id
        type: u4
      - id: structure
        type: geometry_list_struct
      - id: geometries
        type: geometry
        repeat: expr
        repeat-expr: structure.num_geometries

  geometry_list_struct:
    seq:
      - id: chunk_type
        type: u4
        enum: section_type
      - id: chunk_size
        type: u4
        -derived: _sizeof - 12
      - id: library_id
        type: u4
      - id: num_geometries
        type: u4
      - id: extra
        size: chunk_size - 4

  geometry:
    seq:
      - id: chunk_type
        type: u4
        enum: section_type
      - id: chunk_size
        type: u4
        -derived: _sizeof - 12
      - id: library_id
        type: u4
      - id: structure
        type: geometry_struct
      - id: material_list
        type: raw_chunk
      - id: extension
        type: 'geometry_extension(structure.num_vertices, structure.version, structure.is_native)'

  geometry_struct:
    seq:
      - id: chunk_type
        type: u4
        enum: section_type
      - id: chunk_size
        type: u4
        -derived: _sizeof - 12
      - id: library_id
        type: u4
      - id: format
        type: u4
        doc: Flags (tristrip 0x1, positions 0x2, …, native 0x01000000) and the texture-set count.
      - id: num_triangles
        type: s4
      - id: num_vertices
        type: s4
      - id: num_morph_targets
        type: s4
      - id: surface_properties
        type: f4
        repeat: expr
        repeat-expr: 3
        if: version < 0x34000
        doc: Ambient, specular and diffuse factors; only before RenderWare 3.4.
      - id: data
        size: 'chunk_size - 16 - (version < 0x34000 ? 12 : 0)'
        doc: Prelit colours, texture coordinates, triangles and morph targets, kept raw.
    instances:
      version:
        value: '(library_id & 0xffff0000) != 0 ? (((library_id >> 14) & 0x3ff00) + 0x30000) | ((library_id >> 16) & 0x3f) : library_id << 8'
        doc: The RenderWare version 0x3MNRR unpacked from the library id (librw's rule, pre-3.1 ids included).
      is_native:
        value: (format & 0x01000000) != 0
        doc: Platform-native geometry (PS2, Xbox, …) whose plugins use native layouts.

  geometry_extension:
    params:
      - id: num_vertices
        type: s4
      - id: version
        type: u4
      - id: native
        type: bool
    seq:
      - id: chunk_type
        type: u4
        enum: section_type
      - id: chunk_size
        type: u4
        -derived: _sizeof - 12
      - id: library_id
        type: u4
      - id: body
        type: geometry_plugins(num_vertices, version, native)
        size: chunk_size

  geometry_plugins:
    params:
      - id: num_vertices
        type: s4
      - id: version
        type: u4
      - id: native
        type: bool
    seq:
      - id: plugins
        type: geometry_plugin(num_vertices, version, native)
        repeat: eos

  geometry_plugin:
    params:
      - id: num_vertices
        type: s4
      - id: version
        type: u4
      - id: native
        type: bool
    seq:
      - id: chunk_type
        type: u4
        enum: section_type
      - id: chunk_size
        type: u4
        -derived: body._sizeof
      - id: library_id
        type: u4
      - id: body
        size: chunk_size
        type:
          switch-on: chunk_type
          cases:
            section_type::skin: skin(num_vertices, version, native)

  # ------------------------------------------------------------------ Skin PLG (0x116)
  skin:
    doc: |
      The Skin PLG payload. Its arrays are sized by the parent geometry's vertex count, and
      its layout depends on the geometry being platform-native. Usable on its own: read it
      with the vertex count, the RenderWare version and the native flag.
    params:
      - id: num_vertices
        type: s4
      - id: version
        type: u4
        doc: RenderWare version (0x3MNRR) of the geometry; the layout itself is told by the data.
      - id: native
        type: bool
    seq:
      - id: layout
        type:
          switch-on: native
          cases:
            false: skin_plain(num_vertices)
            true: skin_native
      - id: stale
        size-eos: true
        -slack: true
        doc: Bytes the chunk's stated size covers beyond the skin (reported by `check()`).

  skin_plain:
    doc: |
      The PC layout. Old skins (numUsedBones == 0, librw's reader rule, true of 3.3 files and of
      some 3.6 ones) put a 0xDEADDEAD word before each matrix and have no used-bone list and no
      split data.
    params:
      - id: num_vertices
        type: s4
    seq:
      - id: num_bones
        type: u1
      - id: num_used_bones
        type: u1
      - id: max_weights_per_vertex
        type: u1
        doc: 0 means "count the non-zero weights".
      - id: padding
        type: u1
      - id: used_bones
        type: u1
        repeat: expr
        repeat-expr: num_used_bones
      - id: vertex_bone_indices
        type: vertex_bones
        repeat: expr
        repeat-expr: num_vertices
      - id: vertex_weights
        type: vertex_weights
        repeat: expr
        repeat-expr: num_vertices
      - id: bones
        type: skin_bone(num_used_bones == 0)
        repeat: expr
        repeat-expr: num_bones
      - id: split
        type: skin_split(num_bones)
        if: num_used_bones != 0

  vertex_bones:
    seq:
      - id: indices
        type: u1
        repeat: expr
        repeat-expr: 4
  vertex_weights:
    seq:
      - id: weights
        type: f4
        repeat: expr
        repeat-expr: 4

  skin_bone:
    params:
      - id: has_marker
        type: bool
    seq:
      - id: marker
        type: u4
        if: has_marker
        doc: 0xDEADDEAD in old-layout skins; kept as read.
      - id: inverse_bind_matrix
        type: f4
        repeat: expr
        repeat-expr: 16
        doc: Skin-to-bone transform, 4 rows of 4; the fourth float of each row is kept as read.

  skin_split:
    doc: Bone-group remapping for platforms that limit bones per mesh.
    params:
      - id: num_bones
        type: u1
    seq:
      - id: bone_limit
        type: s4
      - id: num_meshes
        type: s4
      - id: rle_size
        type: s4
      - id: remap_indices
        type: u1
        repeat: expr
        repeat-expr: num_bones
        if: num_meshes != 0
      - id: rle_counts
        type: skin_rle
        repeat: expr
        repeat-expr: num_meshes
        if: num_meshes != 0
      - id: rle
        type: skin_rle
        repeat: expr
        repeat-expr: rle_size
        if: num_meshes != 0

  skin_rle:
    seq:
      - id: first
        type: u1
      - id: count
        type: u1

  skin_native:
    doc: A platform-native skin, wrapped in a Struct chunk that starts with the platform id.
    seq:
      - id: chunk_type
        type: u4
        enum: section_type
      - id: chunk_size
        type: u4
        -derived: _sizeof - 12
      - id: library_id
        type: u4
      - id: platform
        type: u4
        enum: platform
      - id: body
        size: chunk_size - 4
        type:
          switch-on: platform
          cases:
            platform::ps2: skin_ps2

  skin_ps2:
    doc: The PS2 layout (librw `ps2::readNativeSkin`); other platforms are kept raw.
    seq:
      - id: num_bones
        type: u1
      - id: num_used_bones
        type: u1
      - id: max_weights_per_vertex
        type: u1
      - id: padding
        type: u1
      - id: used_bones
        type: u1
        repeat: expr
        repeat-expr: num_used_bones
      - id: bones
        type: skin_bone(false)
        repeat: expr
        repeat-expr: num_bones
      - id: unknown
        size: 16
      - id: split
        type: skin_split(num_bones)
      - id: stale
        size-eos: true
        -slack: true

  raw_chunk:
    doc: A chunk nobody decodes here, kept byte for byte.
    seq:
      - id: chunk_type
        type: u4
        enum: section_type
      - id: chunk_size
        type: u4
        -derived: data.size
      - id: library_id
        type: u4
      - id: data
        size: chunk_size

  atomic:
    seq:
      - id: chunk_type
        type: u4
        enum: section_type
      - id: chunk_size
        type: u4
        -derived: _sizeof - 12
      - id: library_id
        type: u4
      - id: structure
        type: atomic_struct
      - id: extension
        type: raw_chunk

  atomic_struct:
    seq:
      - id: chunk_type
        type: u4
        enum: section_type
      - id: chunk_size
        type: u4
        -derived: _sizeof - 12
      - id: library_id
        type: u4
      - id: frame_index
        type: u4
      - id: geometry_index
        type: u4
      - id: flags
        type: u4
      - id: unused
        type: u4
      - id: extra
        size: chunk_size - 16

enums:
  section_type:
    0x01: struct
    0x02: string
    0x03: extension
    0x06: texture
    0x07: material
    0x08: material_list
    0x0e: frame_list
    0x0f: geometry
    0x10: clump
    0x14: atomic
    0x1a: geometry_list
    0x116: skin
    0x11e: hanim
    0x50e: bin_mesh
    0x510: native_data
    0x253f2fe: frame_name
  platform:
    4: ps2
    5: xbox
    8: d3d8
    9: d3d9
