meta:
  id: document_errors
  endian: le
doc: |
  A record whose documents both back ends refuse in the same words: a misspelt key, an enum
  name the enum does not have, a number out of range, a value of the wrong kind.
seq:
  - id: kind
    type: u1
    enum: animal
  - id: count
    type: u1
  - id: pair
    type: pair
types:
  pair:
    seq:
      - id: a
        type: u1
      - id: b
        type: u1
enums:
  animal:
    1: cat
    2: dog
