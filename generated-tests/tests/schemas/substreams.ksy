meta:
  id: substreams
  title: User types read from the bytes a size or a terminator delimits, for each element (behaviour test)
  encoding: ASCII
seq:
  - id: words
    type: word
    terminator: 0x2c
    repeat: expr
    repeat-expr: 2
  - id: blocks
    type: block
    size: 2
    repeat: expr
    repeat-expr: 2
  - id: tail
    type: word
    terminator: 0x2e
    include: true
  - id: lens
    type: u1
    repeat: expr
    repeat-expr: 2
  - id: names
    type: str
    size: lens[_index]
    repeat: expr
    repeat-expr: 2
types:
  word:
    seq:
      - id: text
        type: str
        size-eos: true
  block:
    seq:
      - id: a
        type: u1
      - id: rest
        size-eos: true
