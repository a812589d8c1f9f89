meta:
  id: block_pointers
  endian: le
doc: |
  Inodes whose block pointers each read a block by position, and whose directory view reads
  from the first block's stream, as ext2's `as_dir` reads `block[0].body._io`: a pointer past
  the end of the file fails that inode's directory alone, as in Kaitai, where the block is
  read only when the directory is asked for.
seq:
  - id: num_inodes
    type: u1
instances:
  inodes:
    pos: 1
    type: inode
    repeat: expr
    repeat-expr: num_inodes
types:
  inode:
    seq:
      - id: block
        type: block_ptr
        repeat: expr
        repeat-expr: 2
    instances:
      as_dir:
        io: block[0].body._io
        pos: 0
        type: dir
  block_ptr:
    seq:
      - id: ptr
        type: u1
    instances:
      body:
        pos: ptr * 4
        size: 4
        type: raw_block
  raw_block:
    seq:
      - id: body
        size: 4
  dir:
    seq:
      - id: entries
        type: u1
        repeat: eos
