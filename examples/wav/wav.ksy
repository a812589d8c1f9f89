meta:
  id: wav
  title: WAVE audio (RIFF)
  file-extension: wav
  endian: le
  -magic: [RIFF]
doc: |
  A RIFF WAVE file: a `RIFF` header whose size covers the rest of the file, the form type
  `WAVE`, then chunks. Each chunk is a four-character code, a size, that many bytes of body
  and, after an odd size, one pad byte to keep chunks on even offsets. The sizes are derived:
  `check()` reports one that disagrees with the content, `normalize()` recomputes it.
seq:
  - id: magic
    contents: RIFF
  - id: riff_size
    type: u4
    -derived: _sizeof - 8
    doc: Bytes after this field, `WAVE` included.
  - id: form_type
    contents: WAVE
  - id: chunks
    type: chunk
    repeat: eos
types:
  chunk:
    seq:
      - id: fourcc
        type: str
        size: 4
        encoding: ASCII
      - id: size
        type: u4
        -derived: body._sizeof
      - id: body
        size: size
        type:
          switch-on: fourcc
          cases:
            '"fmt "': format_chunk
            '"LIST"': list_chunk
      - id: pad
        size: size % 2
        if: not _io.eof
        doc: |
          The pad byte after an odd-sized body (zero by the specification, kept as read).
          Absent when the file ends first, as Python's `wave` module and others write it.
  format_chunk:
    seq:
      - id: audio_format
        type: u2
        enum: audio_format
      - id: channels
        type: u2
      - id: sample_rate
        type: u4
      - id: byte_rate
        type: u4
        -derived: sample_rate * block_align
      - id: block_align
        type: u2
      - id: bits_per_sample
        type: u2
      - id: extension
        type: format_extension
        if: not _io.eof
        doc: Absent from the 16-byte PCM header; other formats add cbSize and their fields.
  format_extension:
    seq:
      - id: extension_size
        type: u2
        -derived: extensible._sizeof + rest._sizeof
        doc: cbSize, the bytes after it.
      - id: extensible
        type: extensible_fields
        if: _parent.audio_format == audio_format::extensible
      - id: rest
        size-eos: true
        doc: Fields of other formats, kept as read.
  extensible_fields:
    seq:
      - id: valid_bits_per_sample
        type: u2
      - id: channel_mask
        type: u4
        doc: Speaker positions, one bit each (front left = 1, front right = 2, …).
      - id: sub_format
        size: 16
        doc: The format GUID; its first two bytes are the audio_format code.
  list_chunk:
    seq:
      - id: list_type
        type: str
        size: 4
        encoding: ASCII
      - id: items
        type: info_item
        repeat: eos
  info_item:
    seq:
      - id: fourcc
        type: str
        size: 4
        encoding: ASCII
      - id: size
        type: u4
        -derived: text._sizeof
      - id: text
        type: strz
        size: size
        encoding: UTF-8
        doc: The text up to its NUL; bytes after it are kept.
      - id: pad
        size: size % 2
enums:
  audio_format:
    1: pcm
    3: ieee_float
    6: alaw
    7: mulaw
    0xfffe: extensible
