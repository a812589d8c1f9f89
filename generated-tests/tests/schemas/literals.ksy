meta:
  id: literals
  title: List literals and indexing in expressions (behaviour test)
  endian: le
seq:
  - id: magic
    size: 2
    valid:
      eq: '[0x50, 0x4b]'
  - id: numbers
    type: u2
    repeat: expr
    repeat-expr: 3
  - id: names
    type: strz
    encoding: ASCII
    repeat: expr
    repeat-expr: 2
  - id: tail
    type: u1
    if: numbers[1] == 0x1337 and magic[1] == 0x4b
  - id: pairs
    type: pair
    repeat: expr
    repeat-expr: 2
instances:
  second_a:
    value: pairs[1].a
  missing_a:
    value: pairs[5].a
  second_name_length:
    value: pairs[1].name.length
  numbers_are_known:
    value: numbers == [1, 0x1337, 3]
  names_are_known:
    value: names == ["foo", "bar"]
  out_of_range:
    value: numbers[7]
types:
  pair:
    seq:
      - id: a
        type: u1
      - id: name
        type: strz
        encoding: ASCII
