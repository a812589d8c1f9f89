meta:
  id: recursive_root
doc: |
  A root type that holds a value of itself (behaviour test): each value's body is as long as
  its holder's `len`, which the holder passes down (`_parent.len`); the file's root has no
  holder, and reads it as 0.
seq:
  - id: len
    type: u1
  - id: body
    size: _parent.len
  - id: next
    type: recursive_root
    if: len != 0
