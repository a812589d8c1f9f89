meta:
  id: not_implemented
  ks-opaque-types: true
seq:
  - id: data
    size: 4
