meta:
  id: unknown_encoding
doc: Text in an encoding Kaitai does not know, read only by an instance.
seq:
  - id: len
    type: u1
  - id: body
    size: len
instances:
  as_text:
    pos: 1
    size: len
    type: str
    encoding: KLINGON-1
