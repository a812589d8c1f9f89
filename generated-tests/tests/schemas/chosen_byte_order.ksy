meta:
  id: chosen_byte_order
doc: |
  A byte order chosen by a header, as TIFF and ELF do: `II` little-endian, `MM` big-endian,
  for the body and the types nested in it; and a look-ahead kept in the value.
seq:
  - id: mark
    size: 2
  - id: body
    type: body
instances:
  first_byte:
    pos: 2
    type: u1
types:
  body:
    meta:
      endian:
        switch-on: _root.mark
        cases:
          '[0x49, 0x49]': le
          '[0x4d, 0x4d]': be
    seq:
      - id: count
        type: u2
      - id: items
        type: item
        repeat: expr
        repeat-expr: count
    types:
      item:
        seq:
          - id: value
            type: u4
