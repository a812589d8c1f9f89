meta:
  id: hygiene
  title: Names that collide with what generated code uses (a compile-pass test)
  endian: le
seq:
  - id: r
    type: u1
  - id: w
    type: u1
  - id: item
    type: u1
  - id: value
    type: u1
  - id: index
    type: u1
  - id: c
    type: u1
  - id: b
    type: u1
  - id: bytes
    type: u1
  - id: count
    type: u1
  - id: items
    type: vec
    repeat: expr
    repeat-expr: count
  - id: maybe
    type: option
    if: r > 0
  - id: text
    type: string
  - id: holder
    type: holder
  - id: kind
    type: u1
    enum: kind
  - id: sized
    type: sized(r)
  - id: keywords
    type: keywords
instances:
  check:
    value: r + 1
types:
  sized:
    params:
      - id: w
        type: u1
    seq:
      - id: data
        size: w
  vec:
    seq:
      - id: x
        type: u1
  option:
    seq:
      - id: some
        type: u1
  string:
    seq:
      - id: len
        type: u1
      - id: none
        type: str
        size: len
        encoding: UTF-8
  holder:
    seq:
      - id: a
        type: u1
      - id: b
        type:
          switch-on: a
          cases:
            1: holder_b
            2: vec
  keywords:
    seq:
      - id: box
        type: u1
      - id: try
        type: u1
      - id: macro
        type: u1
  holder_b:
    seq:
      - id: ok
        type: u1
enums:
  kind:
    0: unknown
    1: true
    2: false
    3: self
    4: gsm_610
    5: gsm610
  holder_b:
    1: one
