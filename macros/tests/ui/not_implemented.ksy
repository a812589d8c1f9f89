meta:
  id: not_implemented
seq:
  - id: data
    size: 4
  - id: copy
    type: holder(_root)
types:
  holder:
    params:
      - id: whole
        type: not_implemented
