# Plain Kaitai, as the gallery's gzip.ksy is: a body of raw deflate data, then the CRC-32 and
# the size of what it inflates to, which nothing here says. `derived_data.rs` adds that with
# an overlay.
meta:
  id: deflated
  endian: le
seq:
  - id: len_body
    type: u4
  - id: body
    size: len_body
  - id: body_crc32
    type: u4
  - id: len_inflated
    type: u4
