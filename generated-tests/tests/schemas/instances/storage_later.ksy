meta:
  id: storage_later
  endian: le
doc: |
  Index records whose bodies are in a storage section read after them, as in RPM, and a size
  the root reads from one of those bodies.
seq:
  - id: num_records
    type: u1
  - id: records
    type: record
    repeat: expr
    repeat-expr: num_records
  - id: storage
    size: 4
    type: storage
  - id: tail
    size: records[0].body
types:
  storage: {}
  record:
    seq:
      - id: ofs
        type: u1
    instances:
      body:
        io: _parent.storage._io
        pos: ofs
        type: u1
