meta:
  id: settling
  endian: le
doc: |
  Derived fields that settle only when measured again: `total` (the record's whole size)
  comes before `len_body`, a base-128 length whose own size follows the body's. Recomputed in
  the order of the fields, `total` measures the old `len_body`; `normalize()` recomputes until
  nothing changes.
seq:
  - id: total
    type: u2
    -derived: _sizeof
  - id: len_body
    type: vlq_base128_le
  - id: body
    size: len_body
