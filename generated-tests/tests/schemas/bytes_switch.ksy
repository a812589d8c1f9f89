meta:
  id: bytes_switch
  encoding: ASCII
doc: A switch on a byte array, with byte-array cases (`[0x49]`), as Kaitai allows.
seq:
  - id: ops
    type: op
    repeat: eos
types:
  op:
    seq:
      - id: code
        size: 1
      - id: body
        type:
          switch-on: code
          cases:
            '[0x49]': u1
            '[0x53]': strz
