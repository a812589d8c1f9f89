meta:
  id: searched
  endian: le
doc: |
  A name that runs to the `ff` marker after which the rest reads to the end (`-scan`), and a
  count no field stores, solved as the one after which the items do (`-solve`), unless the
  hint gives it.
seq:
  - id: hint
    type: u1
  - id: name
    size-eos: true
    type: str
    encoding: ASCII
    -scan: [0xff]
  - id: marker
    contents: [0xff]
  - id: num_items
    type: u1
    -remember: hint
    -solve: [1, 8]
  - id: items
    type: u2
    repeat: expr
    repeat-expr: num_items
