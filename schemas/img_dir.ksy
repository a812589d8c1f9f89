meta:
  id: img_dir
  title: GTA IMG directory, version 1 (GTA III, Vice City)
  file-extension: dir
  endian: le
  encoding: ASCII
doc: |
  The `.dir` half of a version 1 IMG archive: 32-byte entries and nothing else. The data is
  in the `.img` file beside it, each entry at a whole number of 2048-byte sectors from its
  start (gtamods wiki, "IMG archive").
seq:
  - id: entries
    type: entry
    repeat: eos
types:
  entry:
    seq:
      - id: offset
        type: u4
        doc: Where the entry's data starts in the `.img`, in sectors.
      - id: size
        type: u4
        doc: The entry's size in sectors.
      - id: name
        type: strz
        size: 24
        doc: The file name, NUL-padded (bytes after the NUL are kept).
