meta:
  id: on_demand
  endian: le
doc: |
  A directory of blocks read by position, each a parse instance read on demand (as Kaitai reads
  every instance): only when a program, a document, a comparison or a writer asks for it.
seq:
  - id: num_entries
    type: u1
  - id: entries
    type: entry
    repeat: expr
    repeat-expr: num_entries
types:
  entry:
    seq:
      - id: tag
        type: str
        size: 2
        encoding: ASCII
      - id: ofs
        type: u1
      - id: len
        type: u1
    instances:
      body:
        pos: ofs
        size: len
        type:
          switch-on: tag
          cases:
            '"nu"': numbers(len)
            '"tx"': text
            '"bd"': numbers(len + 1)
      tail:
        io: _root._io
        pos: ofs
        size: len
        type: tail(_root._io)
  numbers:
    params:
      - id: n
        type: u1
    seq:
      - id: items
        type: u1
        repeat: expr
        repeat-expr: n
  text:
    seq:
      - id: value
        type: str
        size-eos: true
        encoding: ASCII
  tail:
    params:
      - id: file
        type: io
    seq:
      - id: data
        size-eos: true
    instances:
      last_of_file:
        io: file
        pos: file.size - 1
        size: 1
