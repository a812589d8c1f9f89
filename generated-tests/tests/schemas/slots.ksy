meta:
  id: slots
  title: A chunk whose content is read from its own stream (RIFF's idiom)
  endian: le
  encoding: ASCII
doc: |
  The chunk keeps its content's bytes in a slot (a type that reads nothing); the content is an
  instance read from the slot's stream. `normalize()` writes an edited content back into the
  slot, the chunk's length (inferred) follows the slot, and the pad byte (`len % 2`) its length.
seq:
  - id: chunk
    type: chunk
instances:
  content:
    io: chunk.data_slot._io
    pos: 0
    type: content
types:
  chunk:
    seq:
      - id: len
        type: u4
      - id: data_slot
        type: slot
        size: len
      - id: pad_byte
        size: len % 2
    types:
      slot: {}
  content:
    seq:
      - id: title
        type: strz
      - id: rest
        size-eos: true
