meta:
  id: uses_opaque
  ks-opaque-types: true
doc: An opaque type, `counted_text`, is the schema of that name beside this one.
seq:
  - id: greeting
    type: counted_text
  - id: parts
    type: counted_text
    repeat: expr
    repeat-expr: 2
instances:
  total:
    value: greeting.len + parts[0].len + parts[1].len
