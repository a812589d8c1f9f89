meta:
  id: read_later
  endian: le
doc: |
  Symbols in a header whose data is found through sections read after the header, as in
  Microsoft PE: Kaitai evaluates the symbols' instances once the sections are read.
seq:
  - id: header
    type: header
  - id: sections
    type: section
    repeat: expr
    repeat-expr: header.num_sections
types:
  header:
    seq:
      - id: num_sections
        type: u1
      - id: num_symbols
        type: u1
      - id: symbols
        type: symbol
        repeat: expr
        repeat-expr: num_symbols
  symbol:
    seq:
      - id: section_idx
        type: u1
    instances:
      data:
        pos: _root.sections[section_idx].ofs
        size: _root.sections[section_idx].len
  section:
    seq:
      - id: ofs
        type: u1
      - id: len
        type: u1
