meta:
  id: expression_families
  endian: le
doc: |
  One value instance per kind of expression of Kaitai's suite (its `expr_*` specs):
  arithmetic, floats, comparisons and logic, `?:`, text, bytes, lists, enums, sizes, the
  stream, casts. Both back ends compute each on many inputs.
seq:
  - id: a
    type: s2
  - id: b
    type: s2
  - id: header
    type: pair(a + 1)
  - id: word
    type: strz
    size: 4
    encoding: ASCII
  - id: digits
    type: str
    size: 2
    encoding: ASCII
  - id: blob
    size: 3
  - id: nums
    type: u1
    repeat: expr
    repeat-expr: 3
  - id: kind
    type: u1
    enum: kinds
  - id: left_letter
    type: str
    size: 1
    encoding: ASCII
    if: a > 0
  - id: right_letter
    type: str
    size: 1
    encoding: ASCII
    if: b > 0
  - id: rest
    size: '_io.eof ? 0 : _io.size - _io.pos'
types:
  pair:
    params:
      - id: base
        type: s4
    instances:
      offset:
        value: base + left
    seq:
      - id: left
        type: u1
      - id: right
        type: u1
enums:
  kinds:
    1: small
    2: big
instances:
  sum:
    value: a + b
  difference:
    value: a - b
  product:
    value: a * b
  quotient:
    value: 'b != 0 ? a / b : 0'
  remainder:
    value: 'b != 0 ? a % b : 0'
  shifted:
    value: (a << 3) >> 2
  masked:
    value: (a & b) | (a ^ 0x0f0f)
  inverted:
    value: ~a
  negated:
    value: -a
  grouped:
    value: (a + b) * (a - b) - a * b
  half:
    value: a / 2.0
  mixed:
    value: a * 1.5 + b
  truncated:
    value: mixed.to_i
  cast:
    value: mixed.as<s4>
  a_below_b:
    value: a < b
  at_most:
    value: a <= b and b >= -3
  either_negative:
    value: a < 0 or b < 0
  not_below:
    value: not (a < b)
  float_above:
    value: half > b
  larger:
    value: 'a > b ? a : b'
  word_length:
    value: word.length
  word_reversed:
    value: word.reverse
  joined:
    value: word + "-" + digits
  middle:
    value: word.substring(1, 3)
  word_is_ab:
    value: word == "ab"
  word_first:
    value: word < digits
  decimal:
    value: digits.to_i
  hexadecimal:
    value: digits.to_i(16)
  a_text:
    value: a.to_s
  blob_size:
    value: blob.size
  blob_first:
    value: blob.first
  blob_last:
    value: blob.last
  blob_min:
    value: blob.min
  blob_max:
    value: blob.max
  blob_second:
    value: blob[1]
  blob_is_abc:
    value: blob == [0x61, 0x62, 0x63]
  blob_low:
    value: blob < [0x80, 0, 0]
  nums_first:
    value: nums.first
  nums_last:
    value: nums.last
  nums_min:
    value: nums.min
  nums_max:
    value: nums.max
  nums_count:
    value: nums.size
  nums_total:
    value: nums.sum(_ * 2 - header.left)
  nums_second:
    value: nums[1]
  nums_listed:
    value: nums == [1, 2, 3]
  blob_above:
    value: '[0x80, 0, 0] > blob'
  literal_text:
    value: '[0x61, 0x62].to_s("ASCII")'
  literal_is_word:
    value: '[0x61, 0x62].to_s("ASCII") == word'
  header_base:
    value: header.base
  header_offset:
    value: header.offset
  kind_number:
    value: kind.to_i
  kind_is_big:
    value: kind == kinds::big
  kind_weight:
    value: 'kind == kinds::small ? 10 : kind == kinds::big ? 20 : 30'
  header_size:
    value: header._sizeof
  word_size:
    value: word._sizeof
  pair_size:
    value: sizeof<pair> + bitsizeof<u2>
  header_sum:
    value: header.left + header.right
  letters_equal:
    value: left_letter == right_letter
  left_letter_is_a:
    value: left_letter == "a"
  position:
    value: _io.pos
