meta:
  id: lumps
  endian: le
doc: |
  A directory of lumps at the end of the file, each lump read by position (`io: _root._io`)
  from its offset, as Doom's WAD files lay them out: the lumps follow each other, and the
  directory follows them.
seq:
  - id: magic
    contents: PWAD
  - id: num_directory
    type: u4
  - id: ofs_directory
    type: u4
instances:
  directory:
    pos: ofs_directory
    type: entry
    repeat: expr
    repeat-expr: num_directory
types:
  entry:
    seq:
      - id: ofs_lump
        type: u4
      - id: len_lump
        type: u4
    instances:
      lump:
        io: _root._io
        pos: ofs_lump
        size: len_lump
