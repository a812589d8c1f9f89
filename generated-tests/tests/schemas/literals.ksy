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
instances:
  numbers_are_known:
    value: numbers == [1, 0x1337, 3]
  names_are_known:
    value: names == ["foo", "bar"]
  out_of_range:
    value: numbers[7]
