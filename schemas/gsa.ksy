meta:
  id: gsa
  title: SWAT 3 GSkinAnimation
  file-extension: gsa
  endian: le
  encoding: ASCII
  -magic:
    - [0xcf, 0xd0, 0x09, 0xa8, 0x2a, 0x1f, 0xd2, 0x11, 0x87, 0x49, 0x00, 0x20, 0xaf, 0xe6, 0x36, 0xee]
doc: |
  SWAT 3 skeletal animation, exporter versions 4.1 and 4.2 (4.2 adds per-frame events).
  See shared/seeds/000 and shared/reference/formats.md section 4.

  The magic is the GUID {A809D0CF-1F2A-11D2-8749-0020AFE636EE}. The format note lists 22
  bytes (the GUID and its 6 node bytes again) while calling them 16; a file tells which by the
  two bytes after the GUID: the version is `01 04` or `02 04`, while a repeated tail starts
  `00 20`, so the choice is never ambiguous. It is remembered in `has_guid_tail` and written back.

  The skeleton block ("identical to that of a .gsm file") has no published layout. It is a
  named type holding its bytes, delimited by a scan: it ends at the first 0xFFFF after which
  the rest of the file (bone list, frames, events) parses exactly to the end. The marker may
  occur inside the skeleton; such candidates fail the parse and are passed over. When its
  layout is known, only the `skeleton` type changes.

  Bones per frame: the animated-bone list, or, when it is empty ("all bones"), the
  `bone_count` parameter (52 for SWT characters), or else the count solved from the file:
  every count from 1 to 1024 is tried and the only one for which the frames parse exactly to
  the end of the file is kept. In 4.1 files the frames have a fixed size, so at most one count
  fits; in 4.2 files events make frames vary, and when two counts both fit (or none does) the
  read fails and asks for `bone_count`.
params:
  - id: bone_count
    type: u2
    -default: 0
    doc: Bones per frame when the animated-bone list is empty; 0 solves it from the file.
seq:
  - id: magic
    contents: [0xcf, 0xd0, 0x09, 0xa8, 0x2a, 0x1f, 0xd2, 0x11, 0x87, 0x49, 0x00, 0x20, 0xaf, 0xe6, 0x36, 0xee]
  - id: has_guid_tail
    type: u1
    -remember: 'bytes_after_guid == 0x2000 ? 1 : 0'
    doc: 1 when the 6 GUID node bytes are repeated after the GUID (the format note's 22-byte magic).
  - id: guid_tail
    size: 6
    if: has_guid_tail != 0
  - id: version_minor
    type: u1
    doc: 1 (4.1, no events) or 2 (4.2, events per frame).
  - id: version_major
    type: u1
  - id: unknown1
    type: s2
  - id: framerate
    type: s2
    doc: Frames per second as exported; the game always plays at 10.
  - id: unknown2
    type: s2
  - id: skeleton
    type: skeleton
    -scan: [0xff, 0xff]
  - id: end_of_bones
    contents: [0xff, 0xff]
  - id: num_animated_bones
    type: u2
    -derived: animated_bones.size
    doc: 0 means every bone is animated.
  - id: animated_bones
    type: u2
    repeat: expr
    repeat-expr: num_animated_bones
  - id: num_frames
    type: u2
    -derived: frames.size
  - id: bones_per_frame
    type: u2
    -remember: 'num_animated_bones != 0 ? num_animated_bones : bone_count'
    -solve: [1, 1024]
    doc: Bone rotations per frame, as decided while reading (see the schema doc).
  - id: frames
    type: frame(bones_per_frame, version_minor >= 2)
    repeat: expr
    repeat-expr: num_frames
instances:
  bytes_after_guid:
    pos: 16
    type: u2

types:
  skeleton:
    doc: The skeleton and bone block of a .gsm file; its layout is unpublished, so it is kept whole.
    seq:
      - id: data
        size-eos: true

  frame:
    params:
      - id: num_bones
        type: u2
      - id: has_events
        type: bool
    seq:
      - id: origin_position
        type: vec3
        doc: Offset from the first frame's position (always the origin in known files).
      - id: origin_rotation
        type: quat
      - id: root_bone_offset
        type: vec3
      - id: bone_rotations
        type: quat
        repeat: expr
        repeat-expr: num_bones
      - id: events
        type: event_list
        if: has_events

  event_list:
    seq:
      - id: num_events
        type: u2
        -derived: events.size
      - id: events
        type: event
        repeat: expr
        repeat-expr: num_events

  event:
    doc: 'LLIFT, LPLANT, RLIFT, RPLANT, sound=NAME or itemsound=NAME (see `Event::kind`).'
    seq:
      - id: length
        type: u2
        -derived: name.length + 1
        doc: Length of the name including its NUL.
      - id: name
        type: strz
        size: length
