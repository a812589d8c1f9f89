meta:
  id: imported_roots
  endian: le
  imports:
    - imported_roots/piece
doc: |
  A table of pieces read by position, each a sized value of an imported schema whose
  `_root._io` instances, behind a substream, point inside the piece (a universal Mach-O file's
  objects).
seq:
  - id: num_entries
    type: u1
  - id: entries
    type: entry
    repeat: expr
    repeat-expr: num_entries
types:
  entry:
    seq:
      - id: ofs_piece
        type: u1
      - id: len_piece
        type: u1
    instances:
      piece:
        pos: ofs_piece
        size: len_piece
        type: piece
