meta:
  id: not_implemented
seq:
  - id: data
    size: 4
    parent: _root
