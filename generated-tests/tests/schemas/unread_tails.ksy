meta:
  id: unread_tails
  endian: le
doc: |
  Kaitai skips the bytes of a substream its type does not read; they are kept in `_unread`.
  The directory's `next_ofs` reaches the root's `dir` while `dir` is still being read: nothing
  reads with it, so it gets no method (a warning), and the rest compiles.
seq:
  - id: dir
    size: 6
    type: entries
  - id: blocks
    size: 3
    type: block
    repeat: expr
    repeat-expr: 2
types:
  entries:
    seq:
      - id: count
        type: u1
      - id: entries
        type: u2
        repeat: expr
        repeat-expr: count
    instances:
      first_of_root:
        value: _root.dir.entries[0]
  block:
    seq:
      - id: tag
        type: u1
