meta:
  id: byte_table
doc: A lookup table of byte arrays, as a list literal of byte-array literals (dcmp_0).
seq:
  - id: tag
    type: u1
  - id: body
    size: table[tag].size
instances:
  table:
    value: '[[0x01, 0x02], [0x03, 0x04, 0x05]]'
  word:
    value: table[tag]
