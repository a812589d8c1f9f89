# An `if` computed from the stream of another value (`header._io`): a writer has no streams,
# so it follows the value and the codec reads its output back.
meta:
  id: substream_conditions
seq:
  - id: len
    type: u1
  - id: header
    type: header
    size: len
  - id: body
    type: u1
    if: header._io.size > 3
types:
  header:
    seq:
      - id: tag
        type: u1
