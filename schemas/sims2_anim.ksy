meta:
  id: sims2_anim
  title: The Sims 2 ANIM resource (RCOL with a cAnimResourceConst block)
  file-extension: 5an
  endian: le
  encoding: ASCII
doc: |
  An RCOL (scenegraph resource collection) holding one cAnimResourceConst block: the
  animation of a Sim or an object, type 0xFB00791E. See shared/reference/formats.md section 3
  (padding after each string run is `run length % 4` bytes holding 00 01 02; key-frame
  formats follow each component's packed type; channel type 3 holds Euler angles).

  Runtime pointer words (0x11BA05F0 and friends) are kept verbatim as `ignored*` fields.
  `data_size` is stored as read and checked against the data (`check()`); the data is read by
  structure, as the game overlays it, so a wrong size does not stop decoding.
seq:
  - id: mark
    type: u4
    doc: 0xFFFF0001 in current files; in old files this word is the link count itself.
  - id: num_links
    type: u4
    if: mark == 0xffff0001
  - id: links
    type: rcol_link(mark == 0xffff0001)
    repeat: expr
    repeat-expr: 'mark == 0xffff0001 ? num_links : mark'
  - id: num_blocks
    type: u4
    -derived: blocks.size
  - id: block_types
    type: u4
    repeat: expr
    repeat-expr: num_blocks
  - id: blocks
    type: rcol_block
    repeat: expr
    repeat-expr: num_blocks
  - id: trailing
    size-eos: true
    doc: Bytes after the blocks (SimPE's "oversize"), kept as read.

types:
  rcol_link:
    params:
      - id: new_form
        type: bool
    seq:
      - id: group
        type: u4
      - id: instance
        type: u4
      - id: instance_hi
        type: u4
        if: new_form
      - id: type
        type: u4

  dotnet_string:
    doc: A .NET BinaryWriter string - 7-bit encoded byte length, then UTF-8.
    seq:
      - id: length
        type: vlq_base128_le
        -derived: text.length
      - id: text
        type: str
        size: length
        encoding: UTF-8

  rcol_block:
    seq:
      - id: name
        type: dotnet_string
      - id: type_id
        type: u4
      - id: version
        type: u4
      - id: body
        type:
          switch-on: type_id
          -unmatched: error
          cases:
            0xfb00791e: anim_resource_const

  anim_resource_const:
    seq:
      - id: sg_name
        type: dotnet_string
        doc: '"cSGResource".'
      - id: sg_type_id
        type: u4
      - id: sg_version
        type: u4
      - id: resource_name
        type: dotnet_string
      - id: data_size
        type: u4
        -derived: data._sizeof
        doc: Bytes of everything that follows.
      - id: data
        type: anim_data

  anim_data:
    seq:
      - id: duration_ticks
        type: u2
      - id: num_anim_targets
        type: u2
        -derived: targets.size
      - id: num_event_keys
        type: u2
        -derived: events.size
      - id: data_string_length
        type: u1
        -derived: data_string.length
      - id: version
        type: u1
      - id: flags
        type: u1
        doc: Bit 0 full-body skeletal; object animations have 5, Sim body animations 7.
      - id: priority
        type: u1
      - id: locomotion_type
        type: u1
      - id: skeleton_tag_length
        type: u1
        -derived: skeleton_tag.length
      - id: ignored
        type: u4
        repeat: expr
        repeat-expr: 4
      - id: heading_offset
        type: f4
      - id: locomotion_distance
        type: f4
      - id: locomotion_cycle_portion_completed
        type: f4
      - id: locomotion_stride_length
        type: f4
      - id: locomotion_stride_velocity_mpt
        type: f4
      - id: velocity_mpt
        type: f4
      - id: turn_rotation
        type: f4
      - id: pre_stretch_factor
        type: f4
      - id: root_stretch_displacement
        type: f4
      # String run A
      - id: skeleton_tag
        type: strz
        size: skeleton_tag_length + 1
      - id: data_string
        type: strz
        size: data_string_length + 1
      - id: run_a_padding
        size: (skeleton_tag_length + data_string_length + 2) % 4
        -fill: index
      - id: targets
        type: anim_target
        repeat: expr
        repeat-expr: num_anim_targets
      # String run B
      - id: target_tags
        type: strz
        repeat: expr
        repeat-expr: num_anim_targets
      - id: run_b_padding
        size: target_tags.sum(_.length + 1) % 4
        -fill: index
      - id: channels
        type: channel
        repeat: expr
        repeat-expr: targets.sum(_.num_shared_channels)
      # String run C
      - id: channel_names
        type: strz
        repeat: expr
        repeat-expr: channels.size
      - id: run_c_padding
        size: channel_names.sum(_.length + 1) % 4
        -fill: index
      - id: components
        type: component
        repeat: expr
        repeat-expr: channels.sum(_.num_components)
      - id: keyframes
        type: component_keys(_.num_keyframes, _.packed_type)
        -for-each: components
        doc: The key frames of each component, in component order.
      - id: ik_chains
        type: ik_chain
        repeat: expr
        repeat-expr: targets.sum(_.num_ik_chains)
      - id: ik_targets
        type: ik_target
        repeat: expr
        repeat-expr: ik_chains.sum(_.num_ik_targets)
      - id: events
        type: event
        repeat: expr
        repeat-expr: num_event_keys
      - id: event_strings
        type: strz
        repeat: expr
        repeat-expr: num_event_keys
        doc: Not padded.

  anim_target:
    seq:
      - id: ignored
        type: u4
        repeat: expr
        repeat-expr: 2
      - id: anim_type
        type: u2
      - id: num_shared_channels
        type: u2
      - id: num_ik_chains
        type: u1
      - id: unknown
        type: u1
      - id: tag_length
        type: u2
        doc: Byte length of the target's tag in string run B.
      - id: ignored2
        type: u4
        repeat: expr
        repeat-expr: 3

  channel:
    seq:
      - id: ignored
        type: u4
        repeat: expr
        repeat-expr: 2
      - id: bone_hash
        type: u4
        doc: CRC-32/MPEG-2 of the channel name.
      - id: ignored2
        type: u4
      # The channel's flags word (u4le), as bit fields from its lowest bit.
      - id: duration
        type: b15le
        doc: Bits 0-14, ticks.
      - id: base_data_returned
        type: b1le
        doc: Bit 15.
      - id: unknown_bit16
        type: b1le
        doc: Bit 16.
      - id: animated_attribute
        type: b5le
        doc: Bits 17-21 (0 rotation, 1 transform, 2 morph weight, 3 contact IK, 4 weight IK, ...).
      - id: channel_type
        type: b3le
        doc: Bits 22-24 (0 Float1, 1 Float3, 2 Float4, 3 Euler angles, 4 TransformXYZ, 5 Float2).
      - id: ik_chain_index
        type: b4le
        doc: Bits 25-28; 15 means none.
      - id: num_components
        type: b3le
        doc: Bits 29-31.
      - id: ignored3
        type: u4

  component:
    seq:
      - id: num_keyframes
        type: u2
      - id: packed_type
        type: u1
        doc: Bits 0-1 curve type, bits 2-4 value format (bit 4 float32), bits 5-7 kept raw.
      - id: ignored_byte
        type: u1
      - id: ignored
        type: u4
    instances:
      curve_type:
        value: packed_type & 3
        doc: 0 baked, 1 continuous, 2 discontinuous.
      value_format:
        value: (packed_type >> 2) & 7
        doc: 0 (8.7 / 9.7), 1 (5.10 / 5.11), 3 (3.12 / 3.13), 4 float32.

  component_keys:
    params:
      - id: num_keyframes
        type: u2
      - id: packed_type
        type: u1
    seq:
      - id: keys
        repeat: expr
        repeat-expr: num_keyframes
        type:
          switch-on: (packed_type & 3) * 8 + ((packed_type >> 2) & 7)
          -unmatched: error
          cases:
            0: baked_8_7
            1: baked_5_10
            3: baked_3_12
            4: baked_f32
            8: continuous_9_7
            9: continuous_5_11
            11: continuous_3_13
            12: continuous_f32
            16: discontinuous_9_7
            17: discontinuous_5_11
            19: discontinuous_3_13
            20: discontinuous_f32

  # Baked keys: one value per frame.
  baked_8_7:
    seq:
      - id: value
        type: s2
        -scale: 128
  baked_5_10:
    seq:
      - id: value
        type: s2
        -scale: 1024
  baked_3_12:
    seq:
      - id: value
        type: s2
        -scale: 4096
  baked_f32:
    seq:
      - id: value
        type: f4

  # 17-bit values: the lowest bit is bit 15 of the time word (`time` masks it off).
  continuous_9_7:
    seq:
      - id: time_word
        type: u2
      - id: value_word
        type: s2
      - id: tangent
        type: s2
        -scale: 1024
    instances:
      time:
        value: time_word & 0x7fff
      value:
        value: ((value_word << 1) | (time_word >> 15)) / 128.0
  continuous_5_11:
    seq:
      - id: time_word
        type: u2
      - id: value_word
        type: s2
      - id: tangent
        type: s2
        -scale: 1024
    instances:
      time:
        value: time_word & 0x7fff
      value:
        value: ((value_word << 1) | (time_word >> 15)) / 2048.0
  continuous_3_13:
    seq:
      - id: time_word
        type: u2
      - id: value_word
        type: s2
      - id: tangent
        type: s2
        -scale: 1024
    instances:
      time:
        value: time_word & 0x7fff
      value:
        value: ((value_word << 1) | (time_word >> 15)) / 8192.0
  continuous_f32:
    seq:
      - id: time
        type: u2
      - id: value
        type: f4
      - id: tangent
        type: s2
        -scale: 1024
  discontinuous_9_7:
    seq:
      - id: time_word
        type: u2
      - id: value_word
        type: s2
      - id: tangent_in
        type: s2
        -scale: 1024
      - id: tangent_out
        type: s2
        -scale: 1024
    instances:
      time:
        value: time_word & 0x7fff
      value:
        value: ((value_word << 1) | (time_word >> 15)) / 128.0
  discontinuous_5_11:
    seq:
      - id: time_word
        type: u2
      - id: value_word
        type: s2
      - id: tangent_in
        type: s2
        -scale: 1024
      - id: tangent_out
        type: s2
        -scale: 1024
    instances:
      time:
        value: time_word & 0x7fff
      value:
        value: ((value_word << 1) | (time_word >> 15)) / 2048.0
  discontinuous_3_13:
    seq:
      - id: time_word
        type: u2
      - id: value_word
        type: s2
      - id: tangent_in
        type: s2
        -scale: 1024
      - id: tangent_out
        type: s2
        -scale: 1024
    instances:
      time:
        value: time_word & 0x7fff
      value:
        value: ((value_word << 1) | (time_word >> 15)) / 8192.0
  discontinuous_f32:
    seq:
      - id: time
        type: u2
      - id: value
        type: f4
      - id: tangent_in
        type: s2
        -scale: 1024
      - id: tangent_out
        type: s2
        -scale: 1024

  name_crc:
    doc: A CRC-32/MPEG-2 of a name, followed by a NUL so that the game can treat it as a string.
    seq:
      - id: crc
        type: u4
      - id: nul
        type: u1

  ik_chain:
    seq:
      - id: ignored
        type: u4
        repeat: expr
        repeat-expr: 2
      - id: anim_target_index
        type: u2
      - id: num_ik_targets
        type: u2
      - id: name
        type: name_crc
      - id: name_mirror
        type: name_crc
      - id: ik_strategy
        type: u4
      - id: begin_bone
        type: name_crc
      - id: begin_bone_mirror
        type: name_crc
      - id: end_bone
        type: name_crc
      - id: end_bone_mirror
        type: name_crc
      - id: twist_vector
        type: name_crc
      - id: twist_vector_bone
        type: name_crc
      - id: twist_vector_mirror_bone
        type: name_crc
      - id: ik_weight
        type: name_crc
      - id: ignored2
        type: u4

  ik_target:
    seq:
      - id: ignored
        type: u4
        repeat: expr
        repeat-expr: 2
      - id: anim_target_index
        type: u2
      - id: ik_chain_index
        type: u2
      - id: target_type
        type: u1
      - id: bone
        type: name_crc
      - id: bone_mirror
        type: name_crc
      - id: rotation
        type: name_crc
      - id: rotation2
        type: name_crc
      - id: translation
        type: name_crc
      - id: contact
        type: name_crc

  event:
    seq:
      - id: ignored
        type: u4
      - id: ticks
        type: u2
      - id: type
        type: s2
      - id: data_string_length
        type: u2
      - id: ignored2
        type: u4
