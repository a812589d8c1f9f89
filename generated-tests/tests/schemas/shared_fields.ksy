meta:
  id: shared_fields
  endian: le
doc: |
  Fields kept as views of the file read (`shared_bytes.rs`): counted lists of fixed-size
  elements, decoded when first looked at and written back as their bytes until changed, and
  strings.
seq:
  - id: num_points
    type: u2
    -derived: points.size
  - id: points
    type: point
    repeat: expr
    repeat-expr: num_points
  - id: weights
    type: f4
    repeat: expr
    repeat-expr: num_points - 1
  - id: words
    type: u2be
    repeat: expr
    repeat-expr: num_points - 1
  - id: label
    type: strz
    encoding: ASCII
  - id: title_len
    type: u1
  - id: title
    type: str
    size: title_len
    encoding: ASCII
types:
  point:
    seq:
      - id: x
        type: s2
      - id: y
        type: s2
