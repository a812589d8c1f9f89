meta:
  id: per_element_switch
  endian: le
doc: |
  Repeated switches whose selector depends on the element: each element chooses its own case
  (`_index` in `repeat: expr` and `repeat: until`, the partner `_` of a `-for-each`), so the
  field is a list of single values of the switch's enum.
seq:
  - id: count
    type: u1
  - id: kinds
    type: u1
    repeat: expr
    repeat-expr: count
  - id: items
    repeat: expr
    repeat-expr: count
    type:
      switch-on: kinds[_index]
      -unmatched: error
      cases:
        1: u2
        2: point
        3: blob
  - id: records
    doc: "Sized, without `_`: an element whose kind has no case keeps its bytes raw."
    size: 2
    repeat: expr
    repeat-expr: count
    type:
      switch-on: kinds[_index]
      cases:
        2: point
  - id: extras
    -for-each: kinds
    type:
      switch-on: _
      cases:
        2: point
        _: u1
  - id: flags
    repeat: until
    repeat-until: _index == 1
    type:
      switch-on: _index
      cases:
        0: u1
        _: u2
instances:
  second_x:
    value: items[1].as<point>.x
  blob_len:
    value: items[2].as<blob>.len_data
types:
  point:
    seq:
      - id: x
        type: u1
      - id: y
        type: u1
  blob:
    seq:
      - id: len_data
        type: u1
        -derived: data.size
      - id: data
        size: len_data
