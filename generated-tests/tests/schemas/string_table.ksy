meta:
  id: string_table
  title: A table of strings found by offset, and a blob found by sector
  endian: le
doc: |
  A plain Kaitai schema whose offsets have one use each: the position of their block. Nothing
  in it says how an edit moves the blocks; the compiler infers that each offset follows where
  its block is placed.
seq:
  - id: magic
    contents: STBL
  - id: num_entries
    type: u2
  - id: sector_blob
    type: u1
  - id: entries
    type: entry
    repeat: expr
    repeat-expr: num_entries
instances:
  blob:
    pos: sector_blob * 4
    size: 3
types:
  entry:
    seq:
      - id: len_text
        type: u2
      - id: ofs_text
        type: u4
    instances:
      text:
        io: _root._io
        pos: ofs_text
        size: len_text
        type: str
        encoding: ASCII
