meta:
  id: numbers_in_text
doc: |
  Counts and sizes spelled as text, as NITF spells them: `to_i` reads the number, and text that
  is no number fails where Kaitai fails (reading `items`, asking for `width`).
seq:
  - id: count_text
    type: str
    size: 3
    encoding: ASCII
  - id: items
    type: u1
    repeat: expr
    repeat-expr: count_text.to_i
  - id: width_text
    type: str
    size: 2
    encoding: ASCII
instances:
  width:
    value: width_text.to_i(16)
