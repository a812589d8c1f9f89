meta:
  id: unmatched_switch
  endian: le
doc: |
  Switches without `_` whose selector matches no case, as Kaitai reads them: an unsized one
  reads nothing (`null`), a sized one keeps the bytes raw, and `-unmatched: error` makes an
  unknown selector a read error. A counted list of such a switch holds one `null` per element
  (Minecraft's NBT writes an empty list as a list of `TAG_End`, a tag no case names).
seq:
  - id: kind
    type: u1
  - id: body
    type:
      switch-on: kind
      cases:
        1: u2
        2: u4
  - id: sized_kind
    type: u1
  - id: sized
    size: 2
    type:
      switch-on: sized_kind
      cases:
        1: pair
  - id: strict_kind
    type: u1
  - id: strict
    type:
      switch-on: strict_kind
      -unmatched: error
      cases:
        1: u1
  - id: list_kind
    type: u1
  - id: num_items
    type: u1
  - id: items
    type:
      switch-on: list_kind
      cases:
        1: u2
        2: pair
    repeat: expr
    repeat-expr: num_items
types:
  pair:
    seq:
      - id: a
        type: u1
      - id: b
        type: u1
