meta:
  id: saved_positions
  endian: le
doc: |
  Value instances of the stream's position used in conditions, as Windows resource files
  save where a name starts to read it again as text (`save_pos1: {value: _io.pos}` in an
  `if:`): each is evaluated once, where first used, and kept in the value.
seq:
  - id: names
    type: name_or_id
    repeat: expr
    repeat-expr: 2
types:
  name_or_id:
    seq:
      - id: first
        type: u2
        if: save_pos1 >= 0
      - id: as_numeric
        type: u2
        if: not is_string
      - id: rest
        type: u2
        repeat: until
        repeat-until: _ == 0
        if: is_string
      - id: noop
        size: 0
        if: is_string and save_pos2 >= 0
    instances:
      save_pos1:
        value: _io.pos
      save_pos2:
        value: _io.pos
      is_string:
        value: first != 0xffff
      as_string:
        pos: save_pos1
        size: save_pos2 - save_pos1 - 2
        type: str
        encoding: ASCII
        if: is_string
