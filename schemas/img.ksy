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
  (gtamods wiki, "IMG archive"). The entries are files of other formats, kept as bytes, which
  `formats::img_archive` hands out by name.

  Each entry's data is read by position (`offset * 2048`) and is `streaming_size` whole
  sectors long; the offsets and sizes are derived from the layout: the data laid out in
  directory order from where the first entry is stored (tools leave room after the
  directory for it to grow; when it outgrows that room, from the next sector after it),
  each at the next whole sector. Bytes no entry claims (that room, stale sectors of an entry
  that moved) are kept (`unclaimed`), so any archive round-trips; `normalize()` packs the
  entries again with zero padding and drops stale sectors.
-layout:
  blocks:
    - entries[].data
  order: listed
  align: 2048
  start: stored
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
types:
  entry:
    seq:
      - id: offset
        type: u4
        doc: Where the entry's data starts, in sectors from the start of the archive.
      - id: streaming_size
        type: u2
        -derived: data._sizeof / 2048
        doc: The entry's size in sectors (the game streams this many).
      - id: archive_size
        type: u2
        doc: A second size in sectors, 0 in the game's own archives.
      - id: name
        type: strz
        size: 24
        doc: The file name, NUL-padded (bytes after the NUL are kept).
    instances:
      data:
        pos: offset * 2048
        size: streaming_size * 2048
        doc: The entry's sectors, as stored (whole sectors, padding included).
  directory_entry:
    doc: |
      An entry of the directory without its data, the same 32 bytes as `entry`: what a tool
      reads to reach each entry without reading the archive (`img_archive::directory_v2`).
    seq:
      - id: offset
        type: u4
      - id: streaming_size
        type: u2
      - id: archive_size
        type: u2
      - id: name
        type: strz
        size: 24
