meta:
  id: look_ahead_after_substream
  endian: le
doc: A conditional look-ahead evaluated once the type is read, using a field's stream.
seq:
  - id: len_header
    type: u1
  - id: header
    size: len_header
    type: header
instances:
  first_of_header:
    pos: 1
    type: u1
    if: header._io.size > 1
types:
  header:
    seq:
      - id: tag
        type: u1
