meta:
  id: sector_archive
  title: Sector archive (a toy format for `-layout`)
  endian: le
doc: |
  Files start on 16-byte sectors (`pos: sector * 16`), after them an optional name table;
  laid out in the listed order, with zero padding between blocks.
-layout:
  align: 16
  order: listed
  blocks:
    - files[].data
    - names
seq:
  - id: magic
    contents: SARC
  - id: file_count
    type: u2
    -derived: files.size
  - id: names_offset
    type: u2
  - id: names_size
    type: u2
    -derived: names._sizeof
  - id: files
    type: file_entry
    repeat: expr
    repeat-expr: file_count
instances:
  names:
    pos: names_offset
    size: names_size
    if: names_size != 0
types:
  file_entry:
    seq:
      - id: sector
        type: u2
      - id: size
        type: u2
        -derived: data._sizeof
    instances:
      data:
        pos: sector * 16
        size: size
