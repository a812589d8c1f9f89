meta:
  id: names_later
  endian: le
doc: |
  Entries whose names are in a table that one of them locates, as ELF's section headers
  and their string table: the table is read after the entries, the entries again after it.
seq:
  - id: count
    type: u1
instances:
  entries:
    pos: 1
    type: entry
    repeat: expr
    repeat-expr: count
  names:
    pos: entries[0].ofs
    size: entries[0].len
    type: strings
types:
  entry:
    seq:
      - id: ofs
        type: u1
      - id: len
        type: u1
      - id: name_ofs
        type: u1
    instances:
      name:
        io: _root.names._io
        pos: name_ofs
        type: strz
        encoding: ASCII
  strings:
    seq:
      - id: all
        size-eos: true
