meta:
  id: unknown_type
  endian: le
seq:
  - id: count
    type: u4
  - id: items
    type: widget
