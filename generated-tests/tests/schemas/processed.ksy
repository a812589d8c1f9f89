meta:
  id: processed
  endian: le
doc: |
  Values stored transformed (`process`) or framed inside bytes they do not fill: each keeps
  its bytes as stored, so that an untouched file writes back exactly.
seq:
  - id: key
    type: u1
  - id: masked
    size: 4
    process: xor(key)
  - id: rotated
    size: 2
    process: rol(3)
    type: pair
  - id: packed_len
    type: u2
  - id: packed
    size: packed_len
    process: zlib
  - id: label
    size: 8
    pad-right: 0x20
    terminator: 0
    type: name
types:
  pair:
    seq:
      - id: a
        type: u1
      - id: b
        type: u1
  name:
    seq:
      - id: text
        type: str
        size-eos: true
        encoding: ASCII
instances:
  masked_first:
    value: masked[0]
  pair_sum:
    value: rotated.a + rotated.b
  packed_size:
    value: packed.size
