meta:
  id: any_params
  endian: le
  encoding: ASCII
doc: Parameters of Kaitai's `struct`, `struct[]` and `str[]` types.
seq:
  - id: head
    type: head
  - id: tail
    type: tail
  - id: names
    type: str
    size: 2
    repeat: expr
    repeat-expr: 2
  - id: body
    type: body(head, [head, tail], names)
types:
  head:
    seq:
      - id: len
        type: u1
  tail:
    seq:
      - id: x
        type: u1
  body:
    params:
      - id: one
        type: struct
      - id: all
        type: struct[]
      - id: labels
        type: str[]
    seq:
      - id: data
        size: one.as<head>.len
      - id: extra
        size: all[1].as<tail>.x
      - id: tag
        size: labels[1].length
      - id: mismatched
        size: all[0].as<tail>.x
