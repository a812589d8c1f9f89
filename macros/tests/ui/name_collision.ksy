meta:
  id: name_collision
seq:
  - id: a
    type: holder
types:
  holder:
    seq:
      - id: b
        type: holder_b
    types:
      b:
        seq:
          - id: x
            type: u1
  holder_b:
    seq:
      - id: y
        type: u1
