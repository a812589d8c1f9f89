meta:
  id: params
  title: Parameters of every type a schema can pass (behaviour test)
  encoding: ASCII
enums:
  kind:
    1: small
    2: large
seq:
  - id: kind
    type: u1
    enum: kind
  - id: sizes
    type: u1
    repeat: expr
    repeat-expr: 2
  - id: header
    type: header
  - id: body
    type: body(kind, sizes, header, header.tag, [7, 8].as<u1[]>)
types:
  header:
    seq:
      - id: tag
        type: str
        size: 2
  body:
    params:
      - id: k
        type: u1
        enum: kind
      - id: lens
        type: u1[]
      - id: h
        type: header
      - id: tag
        type: str
      - id: fixed
        type: u1[]
    seq:
      - id: first
        size: lens[0] + fixed[1] - 8
      - id: second
        size: lens[1]
        if: k == kind::large and h.tag == "ok" and tag == "ok"
    instances:
      is_large:
        value: k == kind::large
instances:
  body_is_large:
    value: body.is_large
  body_first_len:
    value: body.lens[0]
