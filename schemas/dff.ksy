meta:
  id: dff
  title: RenderWare DFF model
  file-extension: [dff, txd]
  endian: le
  encoding: ASCII
  -magic:
    - [0x10, 0, 0, 0]
    - [0x2b, 0, 0, 0]
    - [0x16, 0, 0, 0]
doc: |
  A RenderWare binary stream (GTA III, Vice City, San Andreas models and texture
  dictionaries): a sequence of top-level chunks, read as the games read them. A model is a
  clump, sometimes after a UV animation dictionary (scrolling signs); a `.txd` is a texture
  dictionary; any other top-level chunk is kept raw with its type. Every
  chunk starts with `type, size, library_id`; `size` counts the payload after the header,
  children included. See shared/reference/formats.md section 2.

  Sizes in real files lie (a clump 12 bytes short of its children, "protected" models whose
  Struct chunks claim 16 MB and hold 12 bytes, sector padding). RenderWare reads a Struct chunk
  by its known layout for the stream's version and ignores the stated size, and so does this
  schema: every size of a chunk read by layout is `-derived` and `-untrusted`, so it is stored
  as read, reported by `check()`, recomputed by `normalize()`, and the checker guarantees that
  no read depends on it. Sizes are believed only where the game believes them: to delimit
  extensions, their plugins and String chunks, and the chunks nobody decodes, which are kept
  raw.

  Decoded: frames with their names (Rockstar's node-name plugin) and HAnim data, geometries
  with their material lists (materials, textures and their names, Material Effects, Rockstar's
  reflection and specular materials, UV animation names), the Skin, Bin Mesh, breakable, night
  colour and ADC plugins, atomics with their Right To Render, Material Effects and pipeline
  plugins, UV animation and texture dictionaries. A plugin of any other type (the Native Data
  PLG, whose layout is the platform's, the Morph and Particles PLGs, 2dfx, collision) is kept
  raw with its type, delimited by its size.
seq:
  - id: chunks
    type: top_level_chunk
    repeat: until
    repeat-until: >-
      not (_.next_chunk_type > 0
      and ((_.next_library_id & 0xffff0000) != 0 or (_.next_library_id >= 0x300 and _.next_library_id < 0x400))
      and (_.next_chunk_type == 0x10 or _.next_chunk_type == 0x2b or _.next_chunk_size <= _io.size - _io.pos - 12))
    doc: |
      Top-level chunks, while the 12 bytes after the last one are a plausible chunk header: a
      non-zero type, a library id that is a RenderWare version stamp (3.1 and later, or a
      pre-3.1 0x3MN), and, unless it is a clump or a UV animation dictionary (read by layout
      whatever their size says), a size that fits in what remains. Zero padding, stale bytes
      and text trailers fail this test.
  - id: tail
    size-eos: true
    doc: Bytes after the last chunk (sector padding, stale data, text trailers), kept as read.
types:
  top_level_chunk:
    doc: One top-level chunk, chosen by its type (looked at before it is read).
    seq:
      - id: body
        type:
          switch-on: chunk_type
          cases:
            0x10: clump
            0x2b: uv_anim_dict
            0x16: texture_dictionary
            _: raw_chunk
    instances:
      chunk_type:
        pos: _io.pos
        type: u4
      next_chunk_type:
        pos: _io.pos
        type: u4
        doc: The 12 bytes after this chunk, read as a chunk header, tell whether a chunk follows.
      next_chunk_size:
        pos: _io.pos + 4
        type: u4
      next_library_id:
        pos: _io.pos + 8
        type: u4

  clump:
    seq:
      - id: chunk_type
        type: u4
        enum: section_type
      - id: chunk_size
        type: u4
        -derived: _sizeof - 12
        -untrusted: true
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
      - id: lights
        type: clump_object
        repeat: expr
        repeat-expr: info.num_lights
        doc: Each light with the index of its frame.
      - id: cameras
        type: clump_object
        repeat: expr
        repeat-expr: info.num_cameras
        doc: Each camera with the index of its frame.
      - id: extension
        type: raw_chunk

  clump_info:
    doc: |
      The clump's Struct chunk. Its layout depends on the version, as RenderWare reads it:
      the light and camera counts exist after 3.3.0.0 (librw's rule); earlier structs hold only
      the atomic count (4 bytes).
    seq:
      - id: chunk_type
        type: u4
        enum: section_type
      - id: chunk_size
        type: u4
        -derived: _sizeof - 12
        -untrusted: true
      - id: library_id
        type: u4
      - id: num_atomics
        type: u4
      - id: num_lights
        type: u4
        if: version > 0x33000
      - id: num_cameras
        type: u4
        if: version > 0x33000
    instances:
      version:
        value: '(library_id & 0xffff0000) != 0 ? (((library_id >> 14) & 0x3ff00) + 0x30000) | ((library_id >> 16) & 0x3f) : library_id << 8'
        doc: The RenderWare version 0x3MNRR unpacked from the library id (librw's rule, pre-3.1 ids included).

  clump_object:
    doc: A light or camera of a clump, after the Struct chunk holding the index of its frame.
    seq:
      - id: structure
        type: frame_index_struct
      - id: object
        type: raw_chunk

  frame_index_struct:
    seq:
      - id: chunk_type
        type: u4
        enum: section_type
      - id: chunk_size
        type: u4
        -derived: _sizeof - 12
        -untrusted: true
      - id: library_id
        type: u4
      - id: frame_index
        type: s4

  frame_list:
    seq:
      - id: chunk_type
        type: u4
        enum: section_type
      - id: chunk_size
        type: u4
        -derived: _sizeof - 12
        -untrusted: true
      - id: library_id
        type: u4
      - id: structure
        type: frame_list_struct
      - id: extensions
        type: frame_extension
        repeat: expr
        repeat-expr: structure.num_frames
        doc: One extension per frame, in frame order (its name, its HAnim data).

  frame_list_struct:
    seq:
      - id: chunk_type
        type: u4
        enum: section_type
      - id: chunk_size
        type: u4
        -derived: _sizeof - 12
        -untrusted: true
      - id: library_id
        type: u4
      - id: num_frames
        type: u4
      - id: frames
        type: frame
        repeat: expr
        repeat-expr: num_frames

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


  frame_extension:
    doc: |
      A frame's Extension chunk (0x03). Its size is believed, as RenderWare believes it: it
      delimits the plugins, each chosen by its type; a plugin nobody decodes is kept raw.
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
        type: frame_plugins
        size: chunk_size

  frame_plugins:
    seq:
      - id: plugins
        type: frame_plugin
        repeat: eos

  frame_plugin:
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
            section_type::frame_name: frame_name
            section_type::hanim: hanim

  frame_name:
    doc: |
      Rockstar's node-name plugin (0x253F2FE, librwgta `readNodeName`): the whole payload is
      the frame's name, with no terminator; its length is the chunk's size. Some exporters
      count a NUL in it, which is then part of the name as stored.
    seq:
      - id: name
        type: str
        size-eos: true

  hanim:
    doc: |
      The HAnim PLG (0x11E, librw `readHAnim`): the frame's node id and, on the frame that
      roots the hierarchy, the hierarchy itself, one entry per node in hierarchy order.
    seq:
      - id: version
        type: u4
        doc: 0x100 in every known stream (librw asserts it).
      - id: node_id
        type: s4
        doc: The id animations use to find this frame's bone.
      - id: num_nodes
        type: u4
        -derived: nodes.size
        doc: Nodes of the hierarchy rooted here; 0 on every other frame.
      - id: flags
        type: u4
        if: num_nodes != 0
        doc: 'Hierarchy flags (librw `HAnimHierarchy::Flags`: 1 sub-hierarchy, 2 no matrices, …).'
      - id: key_frame_size
        type: u4
        if: num_nodes != 0
        doc: The largest key-frame size of the animations meant for it (36 for standard key frames).
      - id: nodes
        type: hanim_node
        repeat: expr
        repeat-expr: num_nodes

  hanim_node:
    seq:
      - id: node_id
        type: s4
        doc: The node id of the frame this node animates (its HAnim PLG's `node_id`).
      - id: node_index
        type: s4
        doc: The node's index in the hierarchy; read and ignored by librw.
      - id: flags
        type: u4
        doc: 'How the hierarchy is walked (librw `NodeFlag`): 1 pop (the last child), 2 push (siblings follow).'

  geometry_list:
    seq:
      - id: chunk_type
        type: u4
        enum: section_type
      - id: chunk_size
        type: u4
        -derived: _sizeof - 12
        -untrusted: true
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
        -untrusted: true
      - id: library_id
        type: u4
      - id: num_geometries
        type: u4

  geometry:
    seq:
      - id: chunk_type
        type: u4
        enum: section_type
      - id: chunk_size
        type: u4
        -derived: _sizeof - 12
        -untrusted: true
      - id: library_id
        type: u4
      - id: structure
        type: geometry_struct
      - id: material_list
        type: material_list
      - id: extension
        type: geometry_extension

  geometry_struct:
    doc: |
      The geometry's Struct chunk, read by its layout (librw `Geometry::streamRead`): the
      format flags decide which per-vertex arrays exist; native geometries (PS2, Xbox) keep
      their vertex data in the Native Data PLG and have only the morph targets' headers here.
    seq:
      - id: chunk_type
        type: u4
        enum: section_type
      - id: chunk_size
        type: u4
        -derived: _sizeof - 12
        -untrusted: true
      - id: library_id
        type: u4
      # The format word (librw's flags), a little-endian u4 read from its lowest bit.
      - id: is_tristrip
        type: b1le
        doc: 'Flag 0x1: the triangles form strips.'
      - id: has_positions
        type: b1le
        doc: Flag 0x2.
      - id: is_textured
        type: b1le
        doc: 'Flag 0x4: one set of texture coordinates unless bits 16-23 say otherwise.'
      - id: is_prelit
        type: b1le
        doc: 'Flag 0x8: a prelit colour per vertex.'
      - id: has_normals
        type: b1le
        doc: Flag 0x10.
      - id: is_lit
        type: b1le
        doc: Flag 0x20.
      - id: modulates_material_color
        type: b1le
        doc: Flag 0x40.
      - id: is_textured2
        type: b1le
        doc: 'Flag 0x80: two sets of texture coordinates unless bits 16-23 say otherwise.'
      - id: format_unused_low
        type: b8le
        doc: Bits 8-15, unused; kept as read.
      - id: num_tex_coord_sets_stated
        type: b8le
        doc: Bits 16-23, the number of texture-coordinate sets; 0 when the flags tell it.
      - id: is_native
        type: b1le
        doc: |
          Flag 0x01000000: platform-native geometry (PS2, Xbox, …) whose plugins use native
          layouts.
      - id: format_unused_high
        type: b7le
        doc: Bits 25-31, unused; kept as read.
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
      - id: prelit_colors
        type: rgba
        repeat: expr
        repeat-expr: 'not is_native and is_prelit ? num_vertices : 0'
      - id: tex_coord_sets
        type: tex_coord_set(num_vertices)
        repeat: expr
        repeat-expr: 'is_native ? 0 : num_tex_coord_sets'
      - id: triangles
        type: triangle
        repeat: expr
        repeat-expr: 'is_native ? 0 : num_triangles'
      - id: morph_targets
        type: morph_target(num_vertices)
        repeat: expr
        repeat-expr: num_morph_targets
    instances:
      version:
        value: '(library_id & 0xffff0000) != 0 ? (((library_id >> 14) & 0x3ff00) + 0x30000) | ((library_id >> 16) & 0x3f) : library_id << 8'
        doc: The RenderWare version 0x3MNRR unpacked from the library id (librw's rule, pre-3.1 ids included).
      num_tex_coord_sets:
        value: 'num_tex_coord_sets_stated != 0 ? num_tex_coord_sets_stated : (is_textured ? 1 : (is_textured2 ? 2 : 0))'
        doc: Texture-coordinate sets; when bits 16-23 are 0, one if textured, two if textured2.

  rgba:
    seq:
      - id: r
        type: u1
      - id: g
        type: u1
      - id: b
        type: u1
      - id: a
        type: u1

  tex_coord_set:
    params:
      - id: num_vertices
        type: s4
    seq:
      - id: coords
        type: tex_coord
        repeat: expr
        repeat-expr: num_vertices

  tex_coord:
    seq:
      - id: u
        type: f4
      - id: v
        type: f4

  triangle:
    doc: A triangle as stored, two 32-bit words (v0 << 16 | v1, v2 << 16 | material) read little-endian.
    seq:
      - id: v1
        type: u2
      - id: v0
        type: u2
      - id: material
        type: u2
      - id: v2
        type: u2

  morph_target:
    params:
      - id: num_vertices
        type: s4
    seq:
      - id: bounding_sphere
        type: sphere
      - id: has_vertices
        type: u4
      - id: has_normals
        type: u4
      - id: vertices
        type: vec3
        repeat: expr
        repeat-expr: num_vertices
        if: has_vertices != 0
      - id: normals
        type: vec3
        repeat: expr
        repeat-expr: num_vertices
        if: has_normals != 0

  sphere:
    seq:
      - id: center
        type: vec3
      - id: radius
        type: f4

  geometry_extension:
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
        type: geometry_plugins
        size: chunk_size

  geometry_plugins:
    seq:
      - id: plugins
        type: geometry_plugin
        repeat: eos

  geometry_plugin:
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
            section_type::skin: skin(geometry.num_vertices, geometry.version, geometry.is_native)
            section_type::bin_mesh: bin_mesh(geometry.is_native)
            section_type::extra_vert_colors: extra_vert_colors(geometry.num_vertices)
            section_type::breakable: breakable
            section_type::adc: adc
    instances:
      geometry:
        value: _parent._parent._parent.structure
        doc: The Struct chunk of the geometry these plugins extend (plugins, extension, geometry).


  # ------------------------------------------------------------------ material list (0x08)
  material_list:
    doc: |
      The geometry's materials (librw `MaterialList::streamRead`): a Struct with one index per
      material, then, in index order, a Material chunk for each index that is negative (-1,
      a material of its own); an index >= 0 makes the material an instance of the earlier
      material at that index, stored once. Read by layout, as RenderWare reads it.
    seq:
      - id: chunk_type
        type: u4
        enum: section_type
      - id: chunk_size
        type: u4
        -derived: _sizeof - 12
        -untrusted: true
      - id: library_id
        type: u4
      - id: structure
        type: material_list_struct
      - id: materials
        type: material_slot(_)
        -for-each: structure.indices
        doc: One slot per index; a slot holds a material when its index is negative.

  material_list_struct:
    seq:
      - id: chunk_type
        type: u4
        enum: section_type
      - id: chunk_size
        type: u4
        -derived: _sizeof - 12
        -untrusted: true
      - id: library_id
        type: u4
      - id: num_materials
        type: u4
      - id: indices
        type: s4
        repeat: expr
        repeat-expr: num_materials
        doc: Per material, -1 for a material stored next, or the index of an earlier one it instances.

  material_slot:
    params:
      - id: index
        type: s4
    seq:
      - id: material
        type: material
        if: index < 0

  material:
    doc: |
      A Material chunk (0x07, librw `Material::streamRead`): its Struct, its texture when the
      Struct says it is textured, then its extension.
    seq:
      - id: chunk_type
        type: u4
        enum: section_type
      - id: chunk_size
        type: u4
        -derived: _sizeof - 12
        -untrusted: true
      - id: library_id
        type: u4
      - id: structure
        type: material_struct
      - id: texture
        type: texture
        if: structure.is_textured != 0
      - id: extension
        type: material_extension

  material_struct:
    doc: |
      The material's Struct chunk: 16 bytes, then the surface properties from RenderWare 3.4
      on (librw reads them when the Struct's version is at least 0x30400).
    seq:
      - id: chunk_type
        type: u4
        enum: section_type
      - id: chunk_size
        type: u4
        -derived: _sizeof - 12
        -untrusted: true
      - id: library_id
        type: u4
      - id: flags
        type: u4
        doc: Unused by RenderWare; kept as read.
      - id: color
        type: rgba
      - id: unused
        type: u4
        doc: Unused; often stale memory in real files, kept as read.
      - id: is_textured
        type: u4
        doc: Non-zero when a Texture chunk follows.
      - id: surface_properties
        type: surface_properties
        if: version >= 0x30400
    instances:
      version:
        value: '(library_id & 0xffff0000) != 0 ? (((library_id >> 14) & 0x3ff00) + 0x30000) | ((library_id >> 16) & 0x3f) : library_id << 8'
        doc: The RenderWare version 0x3MNRR unpacked from the library id (librw's rule, pre-3.1 ids included).

  surface_properties:
    seq:
      - id: ambient
        type: f4
      - id: specular
        type: f4
      - id: diffuse
        type: f4

  texture:
    doc: |
      A Texture chunk (0x06, librw `Texture::streamRead`): how the texture is sampled, the
      names of the texture and of its alpha mask in the texture dictionary, and an extension.
    seq:
      - id: chunk_type
        type: u4
        enum: section_type
      - id: chunk_size
        type: u4
        -derived: _sizeof - 12
        -untrusted: true
      - id: library_id
        type: u4
      - id: structure
        type: texture_struct
      - id: name
        type: rw_string
        doc: The texture's name in the dictionary.
      - id: mask_name
        type: rw_string
        doc: The name of its alpha mask; empty in nearly every model.
      - id: extension
        type: texture_extension

  texture_struct:
    doc: The texture's Struct chunk, one little-endian word of filtering and addressing.
    seq:
      - id: chunk_type
        type: u4
        enum: section_type
      - id: chunk_size
        type: u4
        -derived: _sizeof - 12
        -untrusted: true
      - id: library_id
        type: u4
      # The word's bytes from the lowest: the filter mode, the addressing nibbles, the flags.
      - id: filter_mode
        type: u1
        doc: 'Bits 0-7: 1 nearest, 2 linear, 3 mip nearest, 4 mip linear, 5 linear mip nearest, 6 linear mip linear.'
      - id: address_u
        type: b4le
        doc: 'Bits 8-11: 1 wrap, 2 mirror, 3 clamp, 4 border.'
      - id: address_v
        type: b4le
        doc: Bits 12-15, as `address_u`; 0 means "as U" (librw).
      - id: has_mipmaps
        type: b1le
        doc: |
          Bit 16: with a mip filter mode, the texture's mipmap levels are its own; clear, they
          are generated (librw's automatic mipmapping).
      - id: unused_bits
        type: b7le
        doc: Bits 17-23; kept as read.
      - id: unused_high
        type: u1
        doc: Bits 24-31; kept as read.

  rw_string:
    doc: |
      A String chunk (0x02): NUL-terminated text padded to a multiple of 4. RenderWare reads
      as many bytes as the chunk's size says, so the size is believed; the bytes after the
      NUL are kept as read.
    seq:
      - id: chunk_type
        type: u4
        enum: section_type
      - id: chunk_size
        type: u4
        -derived: value._sizeof
      - id: library_id
        type: u4
      - id: value
        type: strz
        size: chunk_size

  texture_extension:
    doc: A texture's Extension chunk (0x03); its size delimits the plugins.
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
        type: texture_plugins
        size: chunk_size

  texture_plugins:
    seq:
      - id: plugins
        type: texture_plugin
        repeat: eos

  texture_plugin:
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
            section_type::sky_mipmap: sky_mipmap

  sky_mipmap:
    doc: The Sky Mipmap Val plugin (0x110, librw `readMipmap`) of PS2 textures.
    seq:
      - id: kl
        type: u4
        doc: The PS2 mipmap K and L values (librw keeps the low 16 bits).

  material_extension:
    doc: A material's Extension chunk (0x03); its size delimits the plugins.
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
        type: material_plugins
        size: chunk_size

  material_plugins:
    seq:
      - id: plugins
        type: material_plugin
        repeat: eos

  material_plugin:
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
            section_type::material_effects: matfx_material
            section_type::reflection_material: reflection_material
            section_type::specular_material: specular_material
            section_type::uv_animation: material_uv_animation
            section_type::right_to_render: right_to_render

  matfx_material:
    doc: |
      The Material Effects PLG on a material (0x120, librw `readMaterialMatFX`): the effect
      type, then two effect slots, read whatever the type. Bump and environment maps together
      (3) fill the slots with a bump map and an environment map; a dual texture with a UV
      transform (6) with a dual texture and a UV transform. A slot of another type (unused
      or undocumented) reads nothing more.
    seq:
      - id: effects
        type: u4
        enum: matfx_effect
      - id: slots
        type: matfx_slot
        repeat: expr
        repeat-expr: 2
      - id: stale
        size-eos: true
        doc: Bytes the chunk's size covers beyond the two slots, kept as read.

  matfx_slot:
    seq:
      - id: effect
        type: u4
        enum: matfx_effect
      - id: data
        type:
          switch-on: effect
          cases:
            matfx_effect::bump_map: matfx_bump_map
            matfx_effect::env_map: matfx_env_map
            matfx_effect::dual: matfx_dual
        doc: The effect's data; none for an empty slot or a UV transform (its matrices are set at run time).

  matfx_bump_map:
    seq:
      - id: coefficient
        type: f4
        doc: Bumpiness.
      - id: has_bumped_texture
        type: u4
      - id: bumped_texture
        type: texture
        if: has_bumped_texture != 0
        doc: librw's `bumpedTex`.
      - id: has_texture
        type: u4
      - id: texture
        type: texture
        if: has_texture != 0
        doc: The bump map, librw's `tex`.

  matfx_env_map:
    seq:
      - id: coefficient
        type: f4
        doc: Reflectivity.
      - id: use_frame_buffer_alpha
        type: u4
      - id: has_texture
        type: u4
      - id: texture
        type: texture
        if: has_texture != 0
        doc: The environment map.

  matfx_dual:
    seq:
      - id: src_blend
        type: u4
        doc: A RenderWare blend function (1 zero, 2 one, 3 source colour, 5 source alpha, …).
      - id: dst_blend
        type: u4
      - id: has_texture
        type: u4
      - id: texture
        type: texture
        if: has_texture != 0
        doc: The second texture.

  reflection_material:
    doc: Rockstar's reflection material (0x253F2FC, librwgta `readEnvMat`), San Andreas vehicles and peds.
    seq:
      - id: scale_x
        type: f4
      - id: scale_y
        type: f4
      - id: trans_scale_x
        type: f4
      - id: trans_scale_y
        type: f4
      - id: shininess
        type: f4
      - id: unused
        type: u4
        doc: 0 as librwgta writes it; kept as read.

  specular_material:
    doc: Rockstar's specular material (0x253F2F6, librwgta `readSpecMat`).
    seq:
      - id: specularity
        type: f4
      - id: texture_name
        type: strz
        size: 24
        doc: The specular texture; bytes after the NUL kept.

  material_uv_animation:
    doc: |
      The UV Animation PLG on a material (0x135, librw `readUVAnim`): a Struct chunk, read by
      its layout, whose mask says which of the material's 8 UV channels are animated and
      holds the name of each one's animation in the UV animation dictionary, lowest bit first.
    seq:
      - id: chunk_type
        type: u4
        enum: section_type
      - id: chunk_size
        type: u4
        -derived: _sizeof - 12
        -untrusted: true
      - id: library_id
        type: u4
      - id: channels
        type: u4
        doc: Bit i set when channel i is animated; bits 8-31 are ignored.
      - id: animation_names
        type: strz
        size: 32
        repeat: expr
        repeat-expr: >-
          (channels & 1) + ((channels >> 1) & 1) + ((channels >> 2) & 1) + ((channels >> 3) & 1)
          + ((channels >> 4) & 1) + ((channels >> 5) & 1) + ((channels >> 6) & 1) + ((channels >> 7) & 1)
        doc: The names, bytes after the NUL kept.
      - id: stale
        size-eos: true


  # ------------------------------------------------------------------ geometry plugins
  bin_mesh:
    doc: |
      The Bin Mesh PLG (0x50E, librw `readMesh`): the geometry's triangles grouped by
      material. Native geometries keep their indices in the Native Data PLG and have only the
      counts here; what a native stream stores beyond them (War Drum's 16-bit indices) is
      kept in `stale`.
    params:
      - id: native
        type: bool
    seq:
      - id: flags
        type: u4
        doc: 0 triangle lists, 1 triangle strips.
      - id: num_meshes
        type: u4
      - id: total_indices
        type: u4
        doc: |
          The meshes' indices together; librw allocates by it. Kept as stored (nothing reads
          by it here): set it with the meshes' counts when editing indices.
      - id: meshes
        type: bin_mesh_split(native)
        repeat: expr
        repeat-expr: num_meshes
      - id: stale
        size-eos: true

  bin_mesh_split:
    params:
      - id: native
        type: bool
    seq:
      - id: num_indices
        type: u4
      - id: material
        type: u4
        doc: Index in the geometry's material list.
      - id: indices
        type: u4
        repeat: expr
        repeat-expr: num_indices
        if: not native
        doc: Vertex indices, 32-bit on disk (RenderWare keeps 16 bits).

  extra_vert_colors:
    doc: |
      Rockstar's extra vertex colours (0x253F2F9, librwgta `readExtraVertColors`): the night
      prelighting of San Andreas buildings, one colour per vertex of the geometry.
    params:
      - id: num_vertices
        type: s4
    seq:
      - id: has_night_colors
        type: u4
        doc: Non-zero when colours follow (real files hold stale pointers here).
      - id: night_colors
        type: rgba
        repeat: expr
        repeat-expr: num_vertices
        if: has_night_colors != 0
      - id: stale
        size-eos: true

  breakable:
    doc: |
      Rockstar's breakable-object plugin (0x253F2FD, librwgta `readBreakableModel`): 0, or the
      geometry the game swaps in when the object breaks (glass, tables).
    seq:
      - id: has_model
        type: u4
        doc: 0 when no breakable model follows (every ped and most objects).
      - id: model
        type: breakable_model
        if: has_model != 0
      - id: stale
        size-eos: true

  breakable_model:
    doc: |
      The breakable model: a 13-word header whose other words are the game's run-time
      pointers (kept as read), then its arrays.
    seq:
      - id: position_rule
        type: u4
      - id: num_vertices
        type: u4
      - id: header_words_2_to_4
        type: u4
        repeat: expr
        repeat-expr: 3
      - id: num_faces
        type: u4
      - id: header_words_6_to_7
        type: u4
        repeat: expr
        repeat-expr: 2
      - id: num_materials
        type: u4
      - id: header_words_9_to_12
        type: u4
        repeat: expr
        repeat-expr: 4
      - id: vertices
        type: vec3
        repeat: expr
        repeat-expr: num_vertices
      - id: tex_coords
        type: tex_coord
        repeat: expr
        repeat-expr: num_vertices
      - id: colors
        type: rgba
        repeat: expr
        repeat-expr: num_vertices
      - id: faces
        type: breakable_face
        repeat: expr
        repeat-expr: num_faces
      - id: face_materials
        type: u2
        repeat: expr
        repeat-expr: num_faces
      - id: texture_names
        type: strz
        size: 32
        repeat: expr
        repeat-expr: num_materials
      - id: mask_names
        type: strz
        size: 32
        repeat: expr
        repeat-expr: num_materials
      - id: surface_properties
        type: surface_properties
        repeat: expr
        repeat-expr: num_materials

  breakable_face:
    seq:
      - id: vertices
        type: u2
        repeat: expr
        repeat-expr: 3

  adc:
    doc: |
      The ADC PLG (0x134, librw `readADC`) of PS2 geometries: a nested chunk of the same type
      read by its layout, holding one flag bit per vertex of the triangle strips.
    seq:
      - id: chunk_type
        type: u4
        enum: section_type
      - id: chunk_size
        type: u4
        -derived: _sizeof - 12
        -untrusted: true
      - id: library_id
        type: u4
      - id: num_bits
        type: s4
      - id: bits
        size: 'num_bits > 0 ? (num_bits + 3) / 4 * 4 : 0'
        doc: The flags, padded to a multiple of 4 bytes.
      - id: stale
        size-eos: true

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
        doc: |
          Bytes the chunk's stated size covers beyond the skin: unknown, kept and written back
          (the stated size counts them, and the game skips them).

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

  # ------------------------------------------------------------------ UV animation dictionary (0x2B)
  uv_anim_dict:
    doc: |
      A UV animation dictionary: the texture-coordinate animations that the materials of the
      clump after it name in their UV Animation PLG (librw `UVAnimDictionary::streamRead`).
    seq:
      - id: chunk_type
        type: u4
        enum: section_type
      - id: chunk_size
        type: u4
        -derived: _sizeof - 12
        -untrusted: true
      - id: library_id
        type: u4
      - id: structure
        type: uv_anim_dict_struct
      - id: animations
        type: anim_animation
        repeat: expr
        repeat-expr: structure.num_animations

  uv_anim_dict_struct:
    seq:
      - id: chunk_type
        type: u4
        enum: section_type
      - id: chunk_size
        type: u4
        -derived: _sizeof - 12
        -untrusted: true
      - id: library_id
        type: u4
      - id: num_animations
        type: u4

  anim_animation:
    doc: |
      An Animation chunk (0x1B) of RenderWare's animation toolkit (librw `Animation::streamRead`):
      a header, then the interpolator's own data. UV interpolators are decoded; the key frames
      of any other interpolator are kept raw, delimited by the chunk's size.
    seq:
      - id: chunk_type
        type: u4
        enum: section_type
      - id: chunk_size
        type: u4
        -derived: _sizeof - 12
      - id: library_id
        type: u4
      - id: version
        type: u4
        doc: 0x100 in every known stream (librw refuses any other).
      - id: interpolator
        type: u4
        enum: interpolator
      - id: num_frames
        type: u4
        doc: Key frames of all nodes together.
      - id: flags
        type: u4
      - id: duration
        type: f4
        doc: Seconds.
      - id: uv
        type: uv_animation(num_frames, interpolator == interpolator::uv_param)
        if: is_uv
      - id: data
        size: chunk_size - 20
        if: not is_uv
        doc: The data of an interpolator nobody decodes here, kept raw.
    instances:
      is_uv:
        value: interpolator == interpolator::uv_linear or interpolator == interpolator::uv_param

  uv_animation:
    doc: The data of a UV animation (librw `uvAnimStreamRead`).
    params:
      - id: num_frames
        type: u4
      - id: is_param
        type: bool
    seq:
      - id: unused
        type: u4
        doc: Read and ignored by RenderWare; written as 0 by librw, kept as read.
      - id: name
        type: strz
        size: 32
        doc: The name materials use to find the animation; bytes after the NUL kept.
      - id: node_to_uv_channel
        type: u4
        repeat: expr
        repeat-expr: 8
        doc: Per animated node, its UV channel; often uninitialised memory in real files.
      - id: frames
        type:
          switch-on: is_param
          cases:
            false: uv_linear_frame
            true: uv_param_frame
        repeat: expr
        repeat-expr: num_frames

  uv_linear_frame:
    doc: A key frame of the linear UV interpolator (0x1C0).
    seq:
      - id: time
        type: f4
        doc: Seconds.
      - id: uv
        type: f4
        repeat: expr
        repeat-expr: 6
        doc: The UV transform as six floats (a 2×3 matrix; the SDK's exact order is not public).
      - id: previous
        type: s4
        doc: Index of the previous key frame of the same node (the first frames' is not meaningful).

  uv_param_frame:
    doc: A key frame of the parametric UV interpolator (0x1C1).
    seq:
      - id: time
        type: f4
        doc: Seconds.
      - id: theta
        type: f4
        doc: Rotation, in radians.
      - id: s0
        type: f4
        doc: Scale along U.
      - id: s1
        type: f4
        doc: Scale along V.
      - id: skew
        type: f4
      - id: x
        type: f4
        doc: Translation along U.
      - id: y
        type: f4
        doc: Translation along V.
      - id: previous
        type: s4
        doc: Index of the previous key frame of the same node (the first frames' is not meaningful).

  # ------------------------------------------------------------- texture dictionary (0x16)
  texture_dictionary:
    doc: |
      A texture dictionary (`.txd`): its Struct (texture count, device), one texture native
      per texture, and an extension. Pixel data stays raw: its layout is the platform's.
    seq:
      - id: chunk_type
        type: u4
        enum: section_type
      - id: chunk_size
        type: u4
        -derived: _sizeof - 12
        -untrusted: true
      - id: library_id
        type: u4
      - id: info
        type: texture_dictionary_info
      - id: textures
        type: texture_native
        repeat: expr
        repeat-expr: info.num_textures
      - id: extension
        type: raw_chunk

  texture_dictionary_info:
    doc: The dictionary's Struct chunk (librw's TexDictionary::streamRead).
    seq:
      - id: chunk_type
        type: u4
        enum: section_type
      - id: chunk_size
        type: u4
        -derived: 4
        -untrusted: true
      - id: library_id
        type: u4
      - id: num_textures
        type: u2
      - id: device_id
        type: u2
        doc: The platform the textures were made for (1 D3D8, 2 D3D9, 6 PS2, 8 Xbox; 0 in old files).

  texture_native:
    doc: One texture (0x15), its platform's data in a Struct chunk, then an extension.
    seq:
      - id: chunk_type
        type: u4
        enum: section_type
      - id: chunk_size
        type: u4
        -derived: _sizeof - 12
        -untrusted: true
      - id: library_id
        type: u4
      - id: struct_type
        type: u4
        enum: section_type
      - id: struct_size
        type: u4
        -derived: data._sizeof
      - id: struct_library_id
        type: u4
      - id: data
        size: struct_size
        type: texture_native_data
      - id: extension
        type: raw_chunk

  texture_native_data:
    seq:
      - id: platform
        type: u4
        enum: platform
      - id: d3d
        type: d3d_texture_header
        if: platform == platform::d3d8 or platform == platform::d3d9
      - id: rest
        size-eos: true
        doc: The raster (mip levels with their sizes, palettes) or another platform's layout, raw.

  d3d_texture_header:
    doc: The PC texture header (librw's readNativeTexture for D3D8 and D3D9).
    seq:
      - id: filter_addressing
        type: u4
        doc: Filter mode (bits 0-7) and U/V addressing (bits 8-11, 12-15).
      - id: name
        type: strz
        size: 32
      - id: mask_name
        type: strz
        size: 32
      - id: raster_format
        type: u4
      - id: d3d_format
        type: u4
        doc: A D3D9 format code, or (D3D8) the has-alpha flag.
      - id: width
        type: u2
      - id: height
        type: u2
      - id: depth
        type: u1
      - id: num_levels
        type: u1
      - id: raster_type
        type: u1
      - id: flags
        type: u1
        doc: Compression (D3D8) or alpha / cube / compressed bits (D3D9).

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
        -untrusted: true
      - id: library_id
        type: u4
      - id: structure
        type: atomic_struct
      - id: extension
        type: atomic_extension

  atomic_struct:
    seq:
      - id: chunk_type
        type: u4
        enum: section_type
      - id: chunk_size
        type: u4
        -derived: _sizeof - 12
        -untrusted: true
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
        doc: Read by 3.0.4 and later (every GTA game); earlier streams are not supported.


  atomic_extension:
    doc: An atomic's Extension chunk (0x03); its size delimits the plugins, as for frames.
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
        type: atomic_plugins
        size: chunk_size

  atomic_plugins:
    seq:
      - id: plugins
        type: atomic_plugin
        repeat: eos

  atomic_plugin:
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
            section_type::right_to_render: right_to_render
            section_type::material_effects: matfx_atomic
            section_type::pipeline_set: pipeline_set

  right_to_render:
    doc: |
      Right To Render (0x1F, librw `readAtomicRights`; materials carry it too): the plugin
      whose pipeline draws the object, and a value for that plugin.
    seq:
      - id: plugin_id
        type: u4
        enum: section_type
        doc: A plugin id (0x116 skin, 0x120 material effects, 0x131 PS2 pipeline delivery system, …).
      - id: extra_data
        type: u4
        doc: For the PDS plugin, the pipeline id (0x53F20082 and the like in San Andreas).

  matfx_atomic:
    doc: The Material Effects PLG on an atomic (librw `readAtomicMatFX`).
    seq:
      - id: effects_enabled
        type: u4
        doc: Non-zero when the atomic renders its materials' effects.

  pipeline_set:
    doc: Rockstar's pipeline plugin (0x253F2F3, librwgta `readPipeline`).
    seq:
      - id: pipeline_id
        type: u4
        doc: The render pipeline the game uses for the atomic (Rockstar's ids, 0x53F200xx).

enums:
  section_type:
    0x01: struct
    0x02: string
    0x03: extension
    0x05: camera
    0x06: texture
    0x07: material
    0x08: material_list
    0x0e: frame_list
    0x0f: geometry
    0x10: clump
    0x12: light
    0x14: atomic
    0x15: texture_native
    0x16: texture_dictionary
    0x1a: geometry_list
    0x1b: anim_animation
    0x1f: right_to_render
    0x2b: uv_anim_dict
    0x105: morph
    0x110: sky_mipmap
    0x116: skin
    0x118: particles
    0x11e: hanim
    0x120: material_effects
    0x131: pds
    0x134: adc
    0x135: uv_animation
    0x50e: bin_mesh
    0x510: native_data
    0x253f2f2: extra_normals
    0x253f2f3: pipeline_set
    0x253f2f6: specular_material
    0x253f2f8: effect_2d
    0x253f2f9: extra_vert_colors
    0x253f2fa: collision
    0x253f2fc: reflection_material
    0x253f2fd: breakable
    0x253f2fe: frame_name
  matfx_effect:
    0: nothing
    1: bump_map
    2: env_map
    3: bump_env_map
    4: dual
    5: uv_transform
    6: dual_uv_transform
  interpolator:
    0x1c0: uv_linear
    0x1c1: uv_param
  platform:
    4: ps2
    5: xbox
    8: d3d8
    9: d3d9
