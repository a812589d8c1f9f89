meta:
  id: dag_dirs
  endian: le
doc: |
  Directories whose entries point at other directories by offset and size, as cramfs
  inodes do: a hostile file makes each directory point at every later one, so reading every
  path would take 2^n reads of the same few bytes.
seq:
  - id: root
    type: entry
types:
  entry:
    seq:
      - id: is_dir
        type: u1
      - id: ofs
        type: u1
      - id: len_as_dir
        type: u1
    instances:
      as_dir:
        io: _root._io
        pos: ofs
        size: len_as_dir
        type: dir
        if: is_dir == 1
  dir:
    seq:
      - id: children
        type: entry
        repeat: eos
