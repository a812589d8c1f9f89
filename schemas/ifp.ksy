meta:
  id: ifp
  title: GTA animation package (IFP)
  file-extension: ifp
  endian: le
  encoding: ASCII
  -magic: [ANPK, ANP3]
doc: |
  GTA animation package. Version 1 (`ANPK`, GTA III and Vice City) is a tree of sections,
  each `fourcc, u32 size, payload`; version 2 (`ANP3`, San Andreas) is a flat layout with
  fixed 24-byte names and fixed-point key frames. See shared/reference/formats.md section 1.
  Only NAME, INFO and ANIM sizes are used by the game to read; every other size is derived
  and stored as read. Bytes after the declared content (sector padding, stale data) are kept.
seq:
  - id: magic
    type: str
    size: 4
    encoding: ASCII
  - id: body
    type:
      switch-on: magic
      -unmatched: error
      cases:
        '"ANPK"': anpk
        '"ANP3"': anp3
  - id: tail
    size-eos: true
    doc: Bytes after the declared content (sector padding or stale data), kept as read.

types:
  # ---------------------------------------------------------------- version 1: ANPK
  anpk:
    doc: An ANPK pack after its magic.
    seq:
      - id: size
        type: u4
        -derived: _sizeof - 4
        doc: Bytes after this field to the end of the pack.
      - id: info_fourcc
        type: str
        size: 4
        doc: Usually "INFO"; not checked (real files are unreliable here).
      - id: info_size
        type: u4
        -derived: 4 + name.length + 1
        doc: Payload bytes of INFO, unpadded (the count and the name with its NUL).
      - id: num_animations
        type: s4
        -derived: animations.size
      - id: name
        type: strz
        size: info_size - 4
        -align: 4
        doc: Package name, NUL-terminated and padded to a multiple of 4; pad bytes kept.
      - id: animations
        type: anpk_animation
        repeat: expr
        repeat-expr: num_animations

  anpk_animation:
    seq:
      - id: name_fourcc
        type: str
        size: 4
        doc: '"NAME".'
      - id: name_size
        type: u4
        -derived: name.length + 1
        doc: Length of the name with its NUL, unpadded.
      - id: name
        type: strz
        size: name_size
        -align: 4
      - id: dgan_fourcc
        type: str
        size: 4
        doc: '"DGAN".'
      - id: dgan_size
        type: u4
        -derived: _sizeof - 16 - name._sizeof
        doc: Bytes after this field to the end of the animation.
      - id: info_fourcc
        type: str
        size: 4
      - id: info_size
        type: u4
        doc: Always 8 in known files; governs how many INFO bytes are read.
      - id: num_objects
        type: s4
        -derived: objects.size
      - id: info_unknown
        type: s4
        doc: Always 0 in known files.
      - id: info_extra
        size: info_size - 8
        -align: 4
        doc: INFO payload beyond the two known words (none in known files).
      - id: objects
        type: anpk_object
        repeat: expr
        repeat-expr: num_objects

  anpk_object:
    doc: A CPAN section holding one ANIM header and, when it has frames, a key-frame section.
    seq:
      - id: cpan_fourcc
        type: str
        size: 4
      - id: cpan_size
        type: u4
        -derived: _sizeof - 8
      - id: anim_fourcc
        type: str
        size: 4
      - id: anim_size
        type: u4
        doc: 44 in Vice City files (with a bone tag), 48 in GTA III files.
      - id: bone_name
        type: strz
        size: 28
      - id: num_frames
        type: s4
        doc: The game trusts this count, not the key-frame section's size.
      - id: unknown
        type: s4
      - id: last_frame
        type: s4
        doc: Written as num_frames - 1 by known exporters; ignored by the game.
      - id: bone_tag
        type: s4
        if: anim_size == 44
      - id: extra_words
        type: s4
        repeat: expr
        repeat-expr: 2
        if: anim_size == 48
        doc: Two words of unknown meaning in 48-byte (GTA III) headers.
      - id: anim_extra
        size: anim_size - 40
        if: anim_size != 44 and anim_size != 48
        doc: The rest of an ANIM header of any other size, kept raw.
      - id: keyframes
        type: anpk_keyframes(num_frames)
        if: num_frames != 0
        doc: Absent when the object has no frames.

  anpk_keyframes:
    params:
      - id: num_frames
        type: s4
    seq:
      - id: kind
        type: str
        size: 4
        doc: KR00 (rotation), KRT0 (+ translation) or KRTS (+ scale).
      - id: size
        type: u4
        -derived: frames._sizeof
      - id: frames
        repeat: expr
        repeat-expr: num_frames
        type:
          switch-on: kind
          -unmatched: error
          cases:
            '"KR00"': anpk_kr00
            '"KRT0"': anpk_krt0
            '"KRTS"': anpk_krts

  anpk_kr00:
    seq:
      - id: rotation
        type: quat
        doc: Stored inverted; the game conjugates it on load.
      - id: time
        type: f4
        doc: Absolute time in seconds.
  anpk_krt0:
    seq:
      - id: rotation
        type: quat
      - id: translation
        type: vec3
      - id: time
        type: f4
  anpk_krts:
    seq:
      - id: rotation
        type: quat
      - id: translation
        type: vec3
      - id: scale
        type: vec3
        doc: Read and ignored by the games.
      - id: time
        type: f4

  # ---------------------------------------------------------------- version 2: ANP3
  anp3:
    doc: An ANP3 package after its magic.
    seq:
      - id: end_offset
        type: u4
        -derived: _sizeof - 4
        doc: Bytes after this field to the end of the data; ignored by the game.
      - id: name
        type: strz
        size: 24
      - id: num_animations
        type: u4
        -derived: animations.size
      - id: animations
        type: anp3_animation
        repeat: expr
        repeat-expr: num_animations

  anp3_animation:
    seq:
      - id: name
        type: strz
        size: 24
      - id: num_objects
        type: u4
        -derived: objects.size
      - id: frame_data_size
        type: u4
        -derived: objects.sum(_.frames._sizeof)
        doc: Bytes of all key frames of the animation; the game allocates exactly this much.
      - id: flags
        type: u4
        doc: Bit 0 is the compressed flag; the frame layout follows each object's frame type.
      - id: objects
        type: anp3_object
        repeat: expr
        repeat-expr: num_objects
    instances:
      compressed:
        value: (flags & 1) != 0

  anp3_object:
    seq:
      - id: name
        type: strz
        size: 24
      - id: frame_type
        type: u4
        enum: anp3_frame_type
      - id: num_frames
        type: u4
        -derived: frames.size
      - id: bone_id
        type: s4
        doc: -1 when unknown (the name is used instead).
      - id: frames
        repeat: expr
        repeat-expr: num_frames
        type:
          switch-on: frame_type
          -unmatched: error
          cases:
            anp3_frame_type::rotation: anp3_rotation
            anp3_frame_type::rotation_translation: anp3_rotation_translation
            anp3_frame_type::rotation_compressed: anp3_rotation_compressed
            anp3_frame_type::rotation_translation_compressed: anp3_rotation_translation_compressed

  anp3_rotation:
    seq:
      - id: rotation
        type: quat
      - id: time
        type: f4
  anp3_rotation_translation:
    doc: Time comes before the translation, unlike ANPK's KRT0.
    seq:
      - id: rotation
        type: quat
      - id: time
        type: f4
      - id: translation
        type: vec3
  anp3_rotation_compressed:
    seq:
      - id: rotation
        type: quat
        -component: s2
        -scale: 4096
      - id: time
        type: s2
        -scale: 60
        doc: Absolute time in seconds, stored in 1/60 s ticks.
  anp3_rotation_translation_compressed:
    seq:
      - id: rotation
        type: quat
        -component: s2
        -scale: 4096
      - id: time
        type: s2
        -scale: 60
      - id: translation
        type: vec3
        -component: s2
        -scale: 1024

enums:
  anp3_frame_type:
    1: rotation
    2: rotation_translation
    3: rotation_compressed
    4: rotation_translation_compressed
