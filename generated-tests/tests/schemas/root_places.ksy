meta:
  id: root_places
  endian: le
doc: |
  `_root.header.base` used inside `header` while it is read, and values read by position
  that need each other in an order other than the file's.
seq:
  - id: header
    type: header
  - id: body
    size: header.len_body
instances:
  kind:
    pos: 7
    type:
      switch-on: is_wide
      cases:
        true: u2
        false: u1
  is_wide:
    value: flag == 1
  flag:
    pos: 6
    type: u1
types:
  header:
    seq:
      - id: len_body
        type: u1
      - id: base
        type: u1
      - id: entries
        type: entry
        repeat: expr
        repeat-expr: 2
  entry:
    seq:
      - id: ofs
        type: u1
    instances:
      first_byte:
        pos: _root.header.base + ofs
        type: u1
