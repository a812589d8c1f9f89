# Plain Kaitai, laid out as a ZIP is: files whose header, before the data, gives the data's
# CRC-32 and size as stored (method 0) or inflated (method 8), an index that reads each file
# again by its offset, and an end record counting the files, and giving the index's size and
# where it starts. Nothing here says so: `derived_data.rs` adds it with an overlay.
meta:
  id: archive
  endian: le
seq:
  - id: sections
    type: section
    repeat: eos
types:
  section:
    seq:
      - id: kind
        type: u1
      - id: body
        type:
          switch-on: kind
          cases:
            1: file
            2: end
            3: index
  file:
    seq:
      - id: header
        type: header
      - id: data
        size: header.len_data
  header:
    seq:
      - id: method
        type: u1
      - id: crc
        type: u4
      - id: len_data
        type: u4
      - id: len_plain
        type: u4
  index:
    seq:
      - id: ofs_file
        type: u4
    instances:
      file:
        pos: ofs_file
        type: section
  end:
    seq:
      - id: num_files
        type: u2
      - id: len_index
        type: u4
      - id: ofs_index
        type: u4
