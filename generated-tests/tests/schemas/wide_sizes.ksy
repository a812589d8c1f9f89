meta:
  id: wide_sizes
  endian: le
doc: |
  A `u8` size that Compound File directory entries store as all ones where no stream follows
  (Kaitai computes in 64 bits, so the value expressions see is -1): the size of a body read by
  position, derived from it only where the body is there.
seq:
  - id: kind
    type: u1
  - id: len_body
    type: u8
instances:
  body:
    pos: 9
    size: len_body
    if: kind == 1
