meta:
  id: other_streams
  endian: le
doc: |
  Instances read from the stream of another value (`io: x._io`): a name table kept as raw
  bytes, obfuscated with `xor`, whose entries are found from records after it, and a
  header's own stream read again by its parent, the parent's stream (`_parent._io`); values
  at positions counted from the end of a stream (`_io.size - 1`), which a writer could not
  compute, and a parse instance without `pos` (a type of instances only): all kept as read.
seq:
  - id: header
    size: 4
    type: header
  - id: table
    size: header.table_len
    process: xor(0x55)
    type: name_table
  - id: records
    type: record
    repeat: expr
    repeat-expr: header.num_records
instances:
  header_tail:
    io: header._io
    pos: 2
    type: u2
  last_byte:
    pos: _io.size - 1
    size: 1
types:
  header:
    seq:
      - id: table_len
        type: u1
      - id: num_records
        type: u1
      - id: reserved
        type: u2
    instances:
      reserved_high:
        pos: _io.size - 1
        size: 1
  name_table:
    seq:
      - id: raw
        size-eos: true
  record:
    seq:
      - id: name_ofs
        type: u1
      - id: value
        type: u1
    instances:
      name:
        io: _parent.table._io
        pos: name_ofs
        type: strz
        encoding: ASCII
      first_of_file:
        io: _parent._io
        pos: 0
        size: 1
      value_bits:
        type: bits_of(value)
      is_odd:
        value: value_bits.is_odd
  bits_of:
    params:
      - id: raw
        type: u1
    instances:
      is_odd:
        value: (raw & 1) != 0
