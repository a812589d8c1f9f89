meta:
  id: prior_elements
  endian: le
doc: |
  Elements of a list whose size is given by the element before them (Kaitai lets an element's
  attributes use the elements of its own list read before it): each record says how long the
  next one is; there are at most four (`_index` in `repeat-until`).
seq:
  - id: records
    type: 'record(_index == 0 ? 1 : records[_index - 1].next_len)'
    repeat: until
    repeat-until: _.next_len == 0 or _index == 3
types:
  record:
    params:
      - id: len
        type: u1
    seq:
      - id: data
        size: len
      - id: next_len
        type: u1
