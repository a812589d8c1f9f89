meta:
  id: tagged
doc: An imported schema whose `_root._io` is the stream its root value is read from.
seq:
  - id: ofs
    type: u1
  - id: rest
    size-eos: true
instances:
  data:
    io: _root._io
    pos: ofs
    size: 2
