meta:
  id: listed_twice
  endian: le
doc: |
  Entries named in a table that one of them locates, each linked to another entry whose
  length sizes its body, as ELF's section headers: the list is read again once complete
  (an entry's body sees the entries after it) and once more after the table is read (its
  name sees the table).
seq:
  - id: count
    type: u1
  - id: names_idx
    type: u1
instances:
  entries:
    pos: 2
    type: entry
    repeat: expr
    repeat-expr: count
  names:
    pos: entries[names_idx].ofs
    size: entries[names_idx].len
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
      - id: linked_idx
        type: u1
    instances:
      name:
        io: _root.names._io
        pos: name_ofs
        type: strz
        encoding: ASCII
      body:
        pos: ofs
        size: _root.entries[linked_idx].len
  strings:
    seq:
      - id: all
        size-eos: true
