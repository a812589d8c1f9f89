meta:
  id: kept_params
  endian: le
doc: |
  Parameters that expressions reach from outside their value: a little-endian base-128
  number whose groups each get the running value of those before them (as the gallery's
  `vlq_base128_le`), and a header passed as a parameter whose own parameter an instance uses.
seq:
  - id: groups
    type: 'group(_index, _index == 0 ? 0 : groups[_index - 1].value_so_far)'
    repeat: until
    repeat-until: not _.has_next
  - id: header
    type: header(groups.size)
  - id: body
    type: body(header)
instances:
  value:
    value: groups.last.value_so_far
types:
  group:
    params:
      - id: idx
        type: s4
      - id: prev_value
        type: u8
    seq:
      - id: has_next
        type: b1
      - id: chunk
        type: b7
    instances:
      value_so_far:
        value: prev_value + (chunk << (7 * idx))
  header:
    params:
      - id: num_groups
        type: u1
    seq:
      - id: tag
        type: u1
    instances:
      is_long:
        value: num_groups > 1
  body:
    params:
      - id: hdr
        type: header
    seq:
      - id: len
        type: u1
        if: hdr.is_long
