meta:
  id: block_refs
  endian: le
doc: |
  Values read from the whole file without a position (`io: _root._io` and no `pos`) whose
  type reads nothing of its own, only blocks by position, as a macOS .DS_Store's
  `directories` reach their B-tree blocks.
seq:
  - id: num_blocks
    type: u1
  - id: ofs_blocks
    type: u1
    repeat: expr
    repeat-expr: num_blocks
instances:
  refs:
    io: _root._io
    type: block_ref(_index)
    repeat: expr
    repeat-expr: num_blocks
types:
  block_ref:
    params:
      - id: idx
        type: u1
    instances:
      block:
        pos: _root.ofs_blocks[idx]
        size: 2
