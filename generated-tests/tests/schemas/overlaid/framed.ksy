# Plain Kaitai, as a gallery schema is: the CRC of each frame and the trailer's Adler-32 are
# read, and nothing here says what they are. `overlays.rs` adds that with overlays.
meta:
  id: framed
  endian: be
  imports:
    - tail
seq:
  - id: magic
    contents: FRM1
  - id: frames
    type: frame
    repeat: until
    repeat-until: _.kind == [0x45, 0x4e, 0x44, 0x20]
  - id: tail
    type: tail
types:
  frame:
    seq:
      - id: len
        type: u2
      - id: kind
        size: 4
      - id: body
        size: len
      - id: crc
        type: u4
