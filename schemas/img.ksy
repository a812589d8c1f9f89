meta:
  id: img
  title: GTA IMG archive, version 2 (San Andreas)
  file-extension: img
  endian: le
  encoding: ASCII
  -magic:
    - [0x56, 0x45, 0x52, 0x32]
doc: |
  A San Andreas IMG archive: `VER2`, an entry count, a directory of 32-byte entries, then the
  entries' data, each at a whole number of 2048-byte sectors from the start of the archive
  (gtamods wiki, "IMG archive"). The data is kept as one block, with the gaps, padding and
  stale sectors between entries: the entries are files of other formats, which
  `formats::img` hands out by name, and the archive is written back byte for byte.
seq:
  - id: magic
    contents: VER2
  - id: num_entries
    type: u4
    -derived: entries.size
  - id: entries
    type: entry
    repeat: expr
    repeat-expr: num_entries
  - id: body
    size-eos: true
    doc: Everything after the directory, as stored.
types:
  entry:
    seq:
      - id: offset
        type: u4
        doc: Where the entry's data starts, in sectors from the start of the archive.
      - id: streaming_size
        type: u2
        doc: The entry's size in sectors (the game streams this many).
      - id: archive_size
        type: u2
        doc: A second size in sectors, 0 in the game's own archives.
      - id: name
        type: strz
        size: 24
        doc: The file name, NUL-padded (bytes after the NUL are kept).
