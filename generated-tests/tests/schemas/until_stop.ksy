meta:
  id: until_stop
  endian: le
doc: |
  Lists ended by `repeat-until`: operations up to a STOP opcode (as the gallery's Python
  pickle), and bytes up to a zero (numbers, written in bulk).
seq:
  - id: ops
    type: op
    repeat: until
    repeat-until: _.code == opcode::stop
  - id: text
    type: u1
    repeat: until
    repeat-until: _ == 0
types:
  op:
    seq:
      - id: code
        type: u1
        enum: opcode
      - id: arg
        type: u2
        if: code == opcode::push
enums:
  opcode:
    0x2e: stop
    0x50: push
    0x4e: none
