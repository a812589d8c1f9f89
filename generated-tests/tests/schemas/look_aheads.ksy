meta:
  id: look_aheads
  endian: le
doc: |
  Look-ahead instances with `if` and `enum`: the last byte of the file names a padding length
  when a flag says so, and the first byte, read again, is a kind; arguments spread over lines.
seq:
  - id: flags
    type: u1
  - id: payload
    size: '_io.size - 3 - (has_padding ? padding_len : 0) - (kind == kind::big ? 1 : 0)'
  - id: padding
    size: 'has_padding ? padding_len : 0'
  - id: checked
    type: |
      pair(
        1
      )
  - id: big_extra
    type: u1
    if: kind == kind::big
  - id: last
    type: u1
instances:
  has_padding:
    value: (flags & 1) != 0
  padding_len:
    pos: _io.size - 1
    type: u1
    if: has_padding
  kind:
    pos: 0
    type: u1
    enum: kind
enums:
  kind:
    1: small
    2: big
types:
  pair:
    params:
      - id: n
        type: u1
    seq:
      - id: items
        type: u1
        repeat: expr
        repeat-expr: n
