meta:
  id: presence
  endian: le
doc: |
  Conditional fields that hold no value, as cpio pads a name of odd length: a zero byte
  (`contents`) present only when the condition holds. A document must say whether it is there.
seq:
  - id: len_name
    type: u1
  - id: name
    size: len_name
  - id: name_padding
    contents: [0x00]
    if: len_name % 2 == 1
  - id: body
    type: u1
