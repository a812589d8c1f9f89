meta:
  id: uses_shared
  imports:
    - /common/pair
doc: Imports a type by absolute path, found in the directories `codec!` is given.
seq:
  - id: pairs
    type: pair
    repeat: expr
    repeat-expr: 2
