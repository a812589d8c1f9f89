meta:
  id: tail_palette
  title: A header, data no field reads, and a palette found from the end of the file
doc: |
  PCX's layout: the palette is read at `_io.size - 4`, a position a writer, which has no input,
  cannot compute; its bytes are the file's unclaimed bytes.
seq:
  - id: header
    size: 4
instances:
  palette:
    pos: _io.size - 4
    type: palette
types:
  palette:
    seq:
      - id: magic
        contents: [0x0c]
      - id: colors
        type: u1
        repeat: expr
        repeat-expr: 3
