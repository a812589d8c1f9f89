meta:
  id: evaluated_once
  endian: le
doc: |
  Look-ahead instances at `_io.pos + n`, evaluated once where first needed, and the `_io` of
  an instance read from another stream.
seq:
  - id: first
    type: u1
  - id: second
    type: u1
    if: ahead == 0
  - id: third
    type: u1
    if: ahead == 0
  - id: part
    size: 2
    type: part
  - id: last
    type: u1
    if: part.peeked == 0x44
instances:
  ahead:
    doc: "First needed by `second`, at 1: the byte at 2."
    pos: _io.pos + 1
    type: u1
  at_end:
    doc: "Never needed while reading: read once the type is, at its end."
    pos: _io.pos - 1
    type: u1
    if: first != 0
types:
  part:
    seq:
      - id: byte
        type: u1
      - id: second
        type: u1
    instances:
      peeked:
        pos: _io.pos - 1
        type: u1
      from_file:
        doc: "Read from the file's stream, sized by this part's own (2 bytes), not the file's."
        io: _root._io
        pos: 0
        size: _io.size
