meta:
  id: not_implemented
seq:
  - id: data
    size: 4
    process: xor(0x5a)
