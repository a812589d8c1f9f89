meta:
  id: pair
  endian: le
doc: Two bytes, imported by absolute path (`/common/pair`) from an import directory.
seq:
  - id: a
    type: u1
  - id: b
    type: u1
