meta:
  id: parent_override
  endian: le
doc: |
  `parent:` on a field: a `child` held by `wrapper` sees the root as its `_parent`
  (`parent: _parent`); one held with `parent: false` has none, and reads what `_parent`
  would give as 0.
seq:
  - id: len
    type: u1
  - id: wrapper
    type: wrapper
  - id: loose
    type: child
    parent: false
types:
  wrapper:
    seq:
      - id: inner
        type: child
        parent: _parent
  child:
    seq:
      - id: tag
        type: u1
      - id: data
        size: _parent.len
