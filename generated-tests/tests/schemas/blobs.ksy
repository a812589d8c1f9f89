meta:
  id: blobs
  title: Entries whose bodies are instances at an offset (a table of contents)
  endian: le
  encoding: ASCII
doc: |
  Each entry's `len` is the size of its body, a parse instance read at `ofs` on its own (TTF's
  and ICO's tables, PE's sections): inferred as `body._sizeof`, it follows the body while the
  body is held, and keeps its stored value where the body could not be read.
seq:
  - id: entries
    type: entry
    repeat: expr
    repeat-expr: 2
types:
  entry:
    seq:
      - id: ofs
        type: u1
      - id: len
        type: u1
    instances:
      body:
        pos: ofs
        size: len
        type: str
