meta:
  id: read_again
  endian: le
doc: |
  A directory whose entries find their data's end at the next entry's offset, as
  dune_2_pak and chrome_pak do: Kaitai evaluates the instances once the list is complete.
seq:
  - id: files
    type: file(_index)
    repeat: until
    repeat-until: _.ofs == 0
types:
  file:
    params:
      - id: idx
        type: u4
    seq:
      - id: ofs
        type: u1
    instances:
      len_body:
        value: _parent.files[idx + 1].ofs - ofs
      body:
        pos: ofs
        size: len_body
        if: ofs != 0 and _parent.files[idx + 1].ofs != 0
