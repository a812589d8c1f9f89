meta:
  id: sizes_while_reading
  title: The sizes of fields read already steer later reads (behaviour test)
  endian: le
seq:
  - id: magic
    contents: "AB"
  - id: head
    type: head
  - id: body
    size: head.len - head._sizeof - magic._sizeof
types:
  head:
    seq:
      - id: len
        type: u2
      - id: name
        type: strz
        encoding: ASCII
