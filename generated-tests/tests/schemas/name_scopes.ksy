meta:
  id: name_scopes
  endian: le
doc: |
  Names an expression resolves in the type it is written in: two nested enums called `color`
  whose `red` differ, and `sizeof` of a built-in type.
seq:
  - id: a
    type: first
  - id: b
    type: second
  - id: words
    size: count * sizeof<u4>
  - id: bits
    size: bitsizeof<u2> / 8
instances:
  count:
    value: 2
types:
  first:
    seq:
      - id: x
        type: u1
        valid: color::red.to_i
    instances:
      is_red:
        value: x == color::red.to_i
    enums:
      color:
        1: red
  second:
    seq:
      - id: y
        type: u1
      - id: z
        type: u1
        if: y == color::red.to_i
      - id: shade
        type: u1
        enum: color
        if: y == 2
    instances:
      is_red:
        value: shade == color::red
    enums:
      color:
        2: red
        7: blue
