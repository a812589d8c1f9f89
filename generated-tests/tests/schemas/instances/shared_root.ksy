meta:
  id: shared_root
  endian: le
seq:
  - id: count
    type: u1
  - id: pool
    type: entry
    repeat: expr
    repeat-expr: count
  - id: refs
    type: ref
    repeat: expr
    repeat-expr: 2
types:
  entry:
    seq:
      - id: len
        type: u1
      - id: alias
        type: u1
    instances:
      aliased_len:
        value: _root.pool[alias].len
  ref:
    seq:
      - id: idx
        type: u1
      - id: body
        size: _root.pool[idx].aliased_len
