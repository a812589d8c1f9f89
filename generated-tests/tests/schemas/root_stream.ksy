meta:
  id: root_stream
  endian: le
doc: |
  `io: _root._io`: a directory in a sized substream, and another in processed (xor) data, name
  blocks at absolute offsets of the whole file.
seq:
  - id: len_dir
    type: u1
  - id: dir
    type: directory
    size: len_dir
  - id: len_hidden
    type: u1
  - id: hidden
    type: directory
    size: len_hidden
    process: xor(0xff)
types:
  directory:
    seq:
      - id: entries
        type: entry
        repeat: eos
  entry:
    seq:
      - id: ofs
        type: u1
      - id: len
        type: u1
    instances:
      body:
        io: _root._io
        pos: ofs
        size: len
