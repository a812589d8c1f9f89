meta:
  id: pointed_names
  endian: le
doc: |
  A block read by position whose type points into the whole file (`io: _root._io`), as a
  Windows minidump's streams point to their strings and memory ranges: the name lies outside
  the block's own bytes, between bytes no field claims.
seq:
  - id: ofs_block
    type: u4
instances:
  block:
    pos: ofs_block
    size: 8
    type: block
types:
  block:
    seq:
      - id: ofs_name
        type: u4
      - id: len_name
        type: u4
    instances:
      name:
        io: _root._io
        pos: ofs_name
        size: len_name
        type: str
        encoding: ASCII
