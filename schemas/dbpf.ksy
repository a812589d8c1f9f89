meta:
  id: dbpf
  title: The Sims 2 package (DBPF 1.1)
  file-extension: package
  endian: le
  -magic:
    - DBPF
doc: |
  A DBPF 1.1 package: a 96-byte header, resources found through an index at an absolute
  offset (index 7.1: 20-byte entries; 7.2 adds the instance-high word: 24 bytes), and for
  compressed resources a directory resource (DIR, type 0xE86B1EEF) listing their uncompressed
  sizes. Resources are kept as stored (a compressed one keeps its QFS bytes, so an unmodified
  package round-trips exactly); `formats::sims2` decompresses and decodes the ANIM ones.

  Resources, the index and the hole index are read by position; their offsets are derived
  from the layout: packed after the header, the resources in index order, then the index, as
  Maxis tools write them. Holes describe free space of the stored layout, so a new layout has
  none.
-layout:
  blocks:
    - index[].data
    - index
    - holes
  order: listed
  clears:
    - holes
seq:
  - id: magic
    contents: DBPF
  - id: major_version
    type: u4
  - id: minor_version
    type: u4
  - id: user_major_version
    type: u4
  - id: user_minor_version
    type: u4
  - id: flags
    type: u4
  - id: created
    type: u4
  - id: modified
    type: u4
  - id: index_major_version
    type: u4
  - id: index_entry_count
    type: u4
    -derived: index.size
  - id: index_offset
    type: u4
  - id: index_size
    type: u4
    -derived: index._sizeof
  - id: hole_count
    type: u4
    -derived: holes.size
  - id: hole_offset
    type: u4
  - id: hole_size
    type: u4
    -derived: holes._sizeof
  - id: index_minor_version
    type: u4
    doc: 1 (index 7.1) or 2 (index 7.2, with instance-high words).
  - id: reserved
    size: 32
instances:
  has_instance_hi:
    value: index_minor_version >= 2
    doc: Index entries and DIR records carry an instance-high word (index 7.2).
  index:
    pos: index_offset
    type: index_entry
    repeat: expr
    repeat-expr: index_entry_count
  holes:
    pos: hole_offset
    type: hole
    repeat: expr
    repeat-expr: hole_count
    if: hole_count != 0
    doc: Free areas a tool may reuse when it rewrites the package in place.

types:
  index_entry:
    seq:
      - id: type
        type: u4
        doc: 0xFB00791E for ANIM, 0xE86B1EEF for the DIR.
      - id: group
        type: u4
      - id: instance
        type: u4
      - id: instance_hi
        type: u4
        if: _root.has_instance_hi
      - id: offset
        type: u4
      - id: size
        type: u4
        -derived: data._sizeof
    instances:
      data:
        pos: offset
        size: size
        type:
          switch-on: type
          cases:
            0xe86b1eef: directory
        doc: |
          The resource as stored (QFS-compressed when the DIR lists it); the DIR itself is
          decoded, every other resource kept as bytes.

  directory:
    doc: The DIR resource, never compressed itself.
    seq:
      - id: records
        type: directory_record
        repeat: eos

  directory_record:
    doc: A compressed resource and its uncompressed size.
    seq:
      - id: type
        type: u4
      - id: group
        type: u4
      - id: instance
        type: u4
      - id: instance_hi
        type: u4
        if: _root.has_instance_hi
      - id: uncompressed_size
        type: u4

  hole:
    seq:
      - id: offset
        type: u4
      - id: size
        type: u4
