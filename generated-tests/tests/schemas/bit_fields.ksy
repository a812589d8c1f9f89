meta:
  id: bit_fields
  endian: le
  bit-endian: be
doc: |
  Bit fields in both bit orders, an enum and a boolean on bits, a byte-aligned field after
  bits (which drops the rest of its byte), a list of nibbles and a 64-bit field that straddles
  nine bytes.
seq:
  - id: version
    type: b3
  - id: compressed
    type: b1
  - id: kind
    type: b4
    enum: kind
  - id: flags
    type: b5
  - id: count
    type: u1
  - id: nibbles
    type: b4le
    repeat: expr
    repeat-expr: count
  - id: wide
    type: b64le
enums:
  kind:
    1: mesh
    2: skin
instances:
  is_skin:
    value: kind == kind::skin
  nibble_sum:
    value: nibbles[0] + nibbles[1] + nibbles[2]
