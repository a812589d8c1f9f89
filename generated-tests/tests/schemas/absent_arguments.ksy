meta:
  id: absent_arguments
doc: |
  An argument that names a structure which may be absent (`pairs[_index]` past the end of
  `pairs`): Kaitai fails there, and so do the reader and the writer.
seq:
  - id: pairs
    type: pair
    repeat: expr
    repeat-expr: 2
  - id: num_labels
    type: u1
  - id: labels
    type: label(pairs[_index])
    repeat: expr
    repeat-expr: num_labels
types:
  pair:
    seq:
      - id: len
        type: u1
  label:
    params:
      - id: p
        type: pair
    seq:
      - id: text
        size: p.len
