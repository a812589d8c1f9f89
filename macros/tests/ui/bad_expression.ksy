meta:
  id: bad_expression
seq:
  - id: len
    type: u1
  - id: data
    size: len +* 2
