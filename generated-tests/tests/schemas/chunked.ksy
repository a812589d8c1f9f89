meta:
  id: chunked
  title: Sizes, counts and checksums a plain schema leaves to the reader
  endian: be
  encoding: ASCII
doc: |
  Gallery-like layouts (PNG's chunks, GIF's sub-blocks, JPEG's segment lengths) written as a
  plain Kaitai schema would write them: no size or count says how it follows from the content,
  yet `check()` reports and `normalize()` recomputes each, by inference (`skelcodec schema
  check --explain-derived` lists them). Only the checksum is declared, as no schema can say
  it otherwise.
seq:
  - id: magic
    contents: "CHNK"
  - id: len_header
    doc: Counts itself, as JPEG's segment lengths do (inferred as `header._sizeof + 2`).
    type: u2
  - id: header
    size: len_header - 2
  - id: num_notes
    doc: The count of `notes` (inferred).
    type: u1
  - id: notes
    type: note
    repeat: expr
    repeat-expr: num_notes
  - id: num_marks
    doc: Used twice (a count and an instance), so nothing is inferred.
    type: u1
  - id: marks
    type: u1
    repeat: expr
    repeat-expr: num_marks
  - id: reserved
    doc: "Would be the size of `spare`, but `-derived: false` turns inference off."
    type: u1
    -derived: false
  - id: spare
    size: reserved
  - id: chunks
    type: chunk
    repeat: until
    repeat-until: _.kind == "END "
instances:
  has_marks:
    value: num_marks > 0
types:
  note:
    doc: A length, then its bytes (GIF's sub-blocks).
    seq:
      - id: len_text
        type: u1
      - id: text
        type: str
        size: len_text
  chunk:
    doc: A length, a kind, a body and a CRC-32 of the kind and the body (PNG's chunks).
    seq:
      - id: len_body
        type: u4
      - id: kind
        type: str
        size: 4
      - id: body
        size: len_body
        type:
          switch-on: kind
          cases:
            '"TEXT"': text_body
      - id: crc
        type: u4
        -derived: crc32(kind, body)
  text_body:
    seq:
      - id: keyword
        type: strz
      - id: text
        type: str
        size-eos: true
