meta:
  id: slot_header
  title: A chunk whose content does not read its whole slot (WAV's format chunk)
  endian: le
doc: |
  The content's size depends on its fields (`extra` is there or not), and the slot keeps bytes
  after it that nothing reads: `normalize()` finds the bytes the content was read from by
  reading it again from the slot's old bytes, and writes the edited content in their place.
seq:
  - id: chunk
    type: chunk
instances:
  header:
    io: chunk.data_slot._io
    pos: 0
    type: header
types:
  chunk:
    seq:
      - id: len
        type: u1
      - id: data_slot
        type: slot
        size: len
    types:
      slot: {}
  header:
    seq:
      - id: kind
        type: u1
      - id: extra
        type: u2
        if: kind == 1
