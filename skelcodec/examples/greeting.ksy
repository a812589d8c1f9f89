meta:
  id: greeting
  title: A greeting, for the facade's examples
  endian: le
seq:
  - id: magic
    contents: HI
  - id: len_text
    type: u1
  - id: text
    size: len_text
    type: str
    encoding: ASCII
