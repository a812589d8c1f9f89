meta:
  id: unread_in_place
  endian: le
doc: |
  A record read in place and from a substream that it leaves partly unread, as pcap's
  packets and mcap's footer record are: Kaitai skips the bytes the substream leaves.
seq:
  - id: plain
    type: rec
  - id: sized
    type: rec
    size: 4
types:
  rec:
    seq:
      - id: a
        type: u1
      - id: b
        type: u1
