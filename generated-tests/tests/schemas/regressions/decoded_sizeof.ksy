meta:
  id: decoded_sizeof
  endian: le
doc: The `_sizeof` of text in an encoding of its own counts the bytes it is stored in.
seq:
  - id: len_name
    type: u1
  - id: name
    size: len_name
    type: str
    encoding: UTF-16BE
  - id: total
    type: u1
    -derived: name._sizeof + 2
