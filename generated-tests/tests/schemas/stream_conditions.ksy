meta:
  id: stream_conditions
  title: A condition computed from the input stream, followed by the writer (behaviour test)
seq:
  - id: a
    type: u1
  - id: b
    type: u1
    if: _io.size > 3
  - id: rest
    type: u1
    repeat: eos
