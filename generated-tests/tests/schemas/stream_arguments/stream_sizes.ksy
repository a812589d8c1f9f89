meta:
  id: stream_sizes
  endian: le
doc: |
  Records passed the end of their part of the file (`_io.size - 2`, which only the input
  stream gives), directly and as `_root.end_of_records`: files of at least 8 bytes give every
  record an `extra` byte and a `tag`.
seq:
  - id: records
    type: record(_io.size - 2)
    repeat: until
    repeat-until: _.last != 0
  - id: trailer
    type: u2
instances:
  end_of_records:
    value: _io.size - 2
types:
  record:
    params:
      - id: limit
        type: u8
    seq:
      - id: last
        type: u1
      - id: extra
        type: u1
        if: limit > 4
      - id: note
        type: note
  note:
    seq:
      - id: tag
        type: u1
        if: _root.end_of_records >= 6
