meta:
  id: terminated_values
  endian: le
  encoding: ASCII
doc: |
  Byte arrays and text whose value ends at a terminator or before padding, as Kaitai reads
  them: the value is the bytes before the terminator (with it, under `include`), padding
  stripped; the terminator, padding and what follows are kept for writing.
seq:
  - id: name
    terminator: 0
  - id: len_note
    type: u1
  - id: note
    size: len_note
    terminator: 0
  - id: label
    size: 5
    pad-right: 0x20
  - id: line
    type: str
    terminator: 0x0a
  - id: title
    type: str
    size: 5
    pad-right: 0x20
  - id: kept
    terminator: 0x3b
    include: true
  - id: both
    size: 6
    pad-right: 0x20
    terminator: 0
  - id: as_kaitai_reads
    type: u1
    if: >-
      name.size == 2 and note == [0x47, 0x4e, 0x55] and label == [0x65, 0x66]
      and line == "gh" and title == "ij" and kept == [0x6b, 0x3b] and both.size == 2
    doc: Present when expressions see each value as Kaitai does.
instances:
  len_name:
    value: name.size
  note_is_gnu:
    value: note == [0x47, 0x4e, 0x55]
  both_len:
    value: both.size
  title_len:
    value: title.length
