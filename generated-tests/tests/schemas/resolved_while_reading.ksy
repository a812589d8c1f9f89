meta:
  id: resolved_while_reading
  title: A parse instance the sequence needs, inside it, with an instance of its own past it
  endian: le
doc: |
  `data`'s size is `ptr.len_far`, so reading the file reads the instance `ptr` (at once, not on
  demand), which lies inside the bytes read in sequence; `ptr`'s own instance `far`, read on
  demand, lies past them, in the file's stream. The bytes between are no field's.
seq:
  - id: ofs
    type: u1
  - id: data
    size: ptr.len_far
instances:
  ptr:
    pos: ofs
    size: 2
    type: pointer
types:
  pointer:
    seq:
      - id: at
        type: u1
      - id: len_far
        type: u1
    instances:
      far:
        io: _root._io
        pos: at
        size: len_far
