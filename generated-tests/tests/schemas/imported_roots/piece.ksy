meta:
  id: piece
  endian: le
doc: |
  A piece whose header, a substream of its own, points at the body with an offset from the
  piece's start: the piece is an imported schema's root, so its `_root._io` is the piece's
  stream, not the file (a Mach-O object's load commands and the data they point to).
seq:
  - id: header
    type: header
    size: 2
types:
  header:
    seq:
      - id: ofs_body
        type: u1
      - id: kind
        type: u1
    instances:
      body:
        doc: A number, read at once (raw bytes of a known size would be read on demand).
        io: _root._io
        pos: ofs_body
        type: u2
