meta:
  id: navigation
  endian: le
doc: |
  `_parent` and `_root`: a header at the root sizes every entry's name, an entry's body sizes
  its payload from two levels up, and one type (`label`) is held by two different parents.
seq:
  - id: header
    type: header
  - id: entries
    type: entry
    repeat: expr
    repeat-expr: header.count
  - id: footer
    type: footer
types:
  header:
    seq:
      - id: count
        type: u1
      - id: name_len
        type: u1
      - id: label_len
        type: u1
      - id: label
        type: label
  entry:
    seq:
      - id: name
        type: str
        size: _root.header.name_len
        encoding: ASCII
      - id: body
        type: body
  body:
    seq:
      - id: payload
        size: _parent._parent.header.name_len
      - id: extra
        type: u1
        if: _parent.name == "ab"
  footer:
    seq:
      - id: label_len
        type: u1
      - id: label
        type: label
  label:
    seq:
      - id: text
        type: str
        size: _parent.label_len
        encoding: ASCII
