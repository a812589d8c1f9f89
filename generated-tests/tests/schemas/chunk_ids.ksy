meta:
  id: chunk_ids
  title: Chunks whose id, through an alias, selects what their slot holds
  endian: le
doc: |
  RIFF's idiom: a chunk's id, named by a value instance with an enum (`chunk_id: chunk.id`),
  selects the type of the value read from the chunk's slot. The id is the selector's one use,
  and each key calls for a type of its own, so `chunk.id` follows the case the value holds:
  `chunk.id = ((body is name_body) ? 1 : ((body is size_body) ? 2 : chunk.id))`.
seq:
  - id: chunks
    type: chunk_type
    repeat: eos
types:
  chunk_type:
    seq:
      - id: chunk
        type: chunk
    instances:
      chunk_id:
        value: chunk.id
        enum: fourcc
      body:
        io: chunk.data_slot._io
        pos: 0
        type:
          switch-on: chunk_id
          cases:
            'fourcc::name': name_body
            'fourcc::size': size_body
  chunk:
    seq:
      - id: id
        type: u1
      - id: len
        type: u1
      - id: data_slot
        type: slot
        size: len
    types:
      slot: {}
  name_body:
    seq:
      - id: text
        type: strz
        encoding: ASCII
  size_body:
    seq:
      - id: w
        type: u1
      - id: h
        type: u1
enums:
  fourcc:
    1: name
    2: size
