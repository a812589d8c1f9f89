meta:
  id: positions
  endian: le
doc: |
  Every entry stores its own offset, which its type is passed as `_io.pos`: in the substream
  of `items`, offsets count from its start; `tail` is in the file's stream.
seq:
  - id: len_items
    type: u1
  - id: items
    size: len_items
    type: items
  - id: tail
    type: entry(_io.pos)
types:
  items:
    seq:
      - id: entries
        type: entry(_io.pos)
        repeat: eos
  entry:
    params:
      - id: ofs
        type: u8
    seq:
      - id: own_ofs
        type: u1
        valid:
          expr: _ == ofs
      - id: x
        type: u1
