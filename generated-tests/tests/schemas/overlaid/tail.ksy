# Imported by `framed.ksy`: its overlay reaches it by this `meta/id`.
meta:
  id: tail
  endian: le
seq:
  - id: note
    size: 3
  - id: sum
    type: u4
