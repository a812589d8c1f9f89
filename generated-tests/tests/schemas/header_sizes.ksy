meta:
  id: header_sizes
  title: A header that sizes and counts what follows it
  endian: le
  encoding: ASCII
doc: |
  The gallery's most common layout (uImage, DEX, ZIP's local headers): a header whose fields
  give the size and the count of the values that follow it in the holder. Each field's one use
  is there, so it is derived in the holder: `header.len_data = data._sizeof`,
  `header.num_items = items.size`. Sizes every value has (`len_tail._sizeof`,
  `header._sizeof`) and the root's constants (`_root.unit`) count as literals:
  `len_note = note._sizeof / 2`, `len_tail = tail._sizeof + 5 + 2`.
seq:
  - id: header
    type: header
  - id: data
    type: str
    size: header.len_data
  - id: items
    type: u1
    repeat: expr
    repeat-expr: header.num_items
  - id: len_note
    type: u1
  - id: note
    type: str
    size: len_note * _root.unit
  - id: len_tail
    type: u2
  - id: tail
    type: str
    size: len_tail - len_tail._sizeof - header._sizeof
instances:
  unit:
    value: 2
types:
  header:
    seq:
      - id: magic
        contents: HS
      - id: len_data
        type: u2
      - id: num_items
        type: u1
