meta:
  id: on_their_own
  endian: le
  imports:
    - tagged
doc: |
  Parse instances read on their own, as Kaitai reads them only when used: one that fails or
  that is the value being read around it (a cycle) is that instance's own; positions in a
  substream, in an imported schema's root stream (`io: _root._io`), and a value instance of
  the stream's position evaluated once.
seq:
  - id: len
    type: u1
  - id: body
    size: len
    type: tagged
  - id: chunk
    size: 3
    type: chunk
instances:
  missing:
    pos: 200
    size: 4
  myself:
    pos: 0
    type: on_their_own
types:
  chunk:
    seq:
      - id: start
        size: 1
      - id: mark
        size: 0
        if: where < 0
      - id: rest
        size-eos: true
    instances:
      where:
        value: _io.pos
      first:
        pos: 0
        size: 1
      again:
        pos: where
        size: 2
