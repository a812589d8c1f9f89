meta:
  id: root_params
  endian: le
doc: |
  A root type with parameters, each with a default: `read` uses the defaults, `read_with`
  and the interpreter's `with_argument` take others.
params:
  - id: len_body
    type: u1
    -default: 1
  - id: has_tail
    type: bool
    -default: false
  - id: kind
    type: u2
    enum: kind
    -default: kind::plain
seq:
  - id: body
    size: len_body
  - id: tail
    type: u1
    if: has_tail
  - id: wide
    type: u2
    if: kind == kind::wide
enums:
  kind:
    1: plain
    2: wide
