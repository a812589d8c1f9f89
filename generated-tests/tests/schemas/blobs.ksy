meta:
  id: blobs
  title: Entries whose bodies are instances at an offset (a table of contents)
  endian: le
  encoding: ASCII
doc: |
  Each entry's `len` is the size of its body, a parse instance read at `ofs` on its own (TTF's
  and ICO's tables, PE's sections): inferred as `len != 0 ? body._sizeof : len`, it follows the
  body where it was read or is absent (an edited `len` of an absent body is set back to 0), and
  keeps its stored value where the body could not be read.
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
        if: len != 0
