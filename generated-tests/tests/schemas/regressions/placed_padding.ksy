meta:
  id: placed_padding
  endian: le
doc: |
  Bytes sized by `len % 2` but read by position are not padding that follows `len` (they are
  held as an instance, not as bytes in sequence), so `len` sizes two values and is not
  derived. The mutation tester found the generated code resizing them as plain bytes.
seq:
  - id: len
    type: u4
  - id: data
    size: len
instances:
  pad_byte:
    size: len % 2
    pos: 3
