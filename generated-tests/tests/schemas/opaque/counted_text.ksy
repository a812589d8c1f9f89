meta:
  id: counted_text
  encoding: UTF-8
seq:
  - id: len
    type: u1
  - id: text
    type: str
    size: len
