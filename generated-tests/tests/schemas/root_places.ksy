meta:
  id: root_places
  endian: le
doc: |
  `_root.header.base` used inside `header` while it is read, values read by position that
  need each other in an order other than the file's (also through `_root.flag`), and what
  every value of the file knows without being passed anything: the size of a root field
  that always has one size and a constant of the root.
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
  kind_bytes:
    pos: 7
    size: _root.flag + 1
  entry_mask:
    value: 0x0e
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
      header_len:
        value: _root.header._sizeof
      masked:
        value: (ofs + 3) & _root.entry_mask
