meta:
  id: text_encodings
  endian: le
doc: |
  Text in encodings other than UTF-8: decoded to its text, kept with its bytes.
seq:
  - id: greeting_len
    type: u1
  - id: greeting
    type: str
    size: greeting_len
    encoding: Shift_JIS
  - id: title
    type: strz
    encoding: UTF-16LE
  - id: box
    type: str
    size: 4
    encoding: IBM437
  - id: padded
    type: str
    size: 6
    pad-right: 0x20
    encoding: windows-1251
instances:
  greets:
    value: greeting == "こんにちは"
