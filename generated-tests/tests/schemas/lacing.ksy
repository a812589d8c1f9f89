meta:
  id: lacing
  title: A table of the sizes of the elements of a list
  endian: le
doc: |
  Ogg's lacing values: a list of integers whose one use is the size of each element of a
  later list as long (`size: lens[_index]`). Each is derived from the element it sizes,
  `lens[_index] = segments[_index]._sizeof` (`records[_index]._sizeof + 1` for `records`).
  `num`, the count of all four lists, follows the first.
seq:
  - id: num
    type: u1
  - id: lens
    type: u1
    repeat: expr
    repeat-expr: num
  - id: segments
    size: lens[_index]
    repeat: expr
    repeat-expr: num
  - id: record_lens
    type: u2
    repeat: expr
    repeat-expr: num
  - id: records
    type: record
    size: record_lens[_index] - 1
    repeat: expr
    repeat-expr: num
types:
  record:
    seq:
      - id: name
        type: str
        size-eos: true
        encoding: ASCII
