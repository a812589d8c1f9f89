meta:
  id: placed_in_unread
doc: A substream its sequence does not read to the end, with an instance placed in the rest.
seq:
  - id: len
    type: u1
  - id: body
    size: len
    type: body
instances:
  body_size:
    value: sizeof<body>
    doc: The type's own size, 1, however many bytes its substream leaves unread.
types:
  body:
    seq:
      - id: tag
        type: u1
    instances:
      pair:
        pos: 1
        size: 2
