meta:
  id: choices
  title: Selectors and flags that follow what they choose
  endian: le
  encoding: ASCII
doc: |
  A switch's selector whose keys each call for a case type of their own follows the case the
  value holds (`kind`; a value of the default case keeps it); a `b1` flag whose one use is a
  later field's `if` follows that field's presence (`has_note`, `not is_short`, and a held
  header's `flags.has_name`).
seq:
  - id: flags
    type: flags
  - id: has_note
    type: b1
  - id: is_short
    type: b1
  - id: reserved
    type: b6
  - id: name
    type: strz
    if: flags.has_name
  - id: note
    type: u1
    if: has_note
  - id: long_tail
    type: u2
    if: not is_short
  - id: kind
    type: u1
  - id: body
    type:
      switch-on: kind
      cases:
        1: point
        2: text
        _: blob
types:
  flags:
    seq:
      - id: has_name
        type: b1
      - id: rest
        type: b7
  point:
    seq:
      - id: x
        type: u1
      - id: y
        type: u1
  text:
    seq:
      - id: len
        type: u1
      - id: value
        type: str
        size: len
  blob:
    seq:
      - id: data
        type: u1
