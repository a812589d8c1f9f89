meta:
  id: views
  title: What expressions see of terminated values, absent values, switches and casts (behaviour test)
  endian: le
  encoding: ASCII
seq:
  - id: name
    type: str
    terminator: 0x7c
  - id: tag
    terminator: 0x7c
    include: true
  - id: has_label
    type: u1
  - id: label
    type: str
    size: 1
    if: has_label == 1
    valid:
      expr: _ != "?"
  - id: code
    type: u1
  - id: number
    type:
      switch-on: code
      cases:
        1: u1
        2: u2
  - id: chunks
    size: 2
    repeat: expr
    repeat-expr: 2
  - id: ops
    type: op
    repeat: expr
    repeat-expr: 2
  - id: levels
    type: u1
    repeat: eos
    valid:
      max: 9
to-string: '"views of " + name + " (" + number.to_s + ")"'
instances:
  name_is_foo:
    value: name == "foo"
  tag_keeps_terminator:
    value: tag == [0x62, 0x7c]
  label_is_x:
    value: label == "x"
  label_is_not_y:
    value: label != "y"
  number_value:
    value: number
  second_chunk_is_known:
    value: chunks[1] == [3, 4]
  first_op_says_hi:
    value: ops[0].body.as<op::text>.value == "hi"
  second_op_says_hi:
    value: ops[1].body.as<views::op::text>.value == "hi"
  second_op_number:
    value: ops[1].body.as<op::number>.value
  missing_op_number:
    value: ops[2].body.as<op::number>.value
  truncated:
    value: 7.9.as<s4>
  bracketed_name:
    value: '"<" + name + ">"'
  name_reversed:
    value: name.reverse
  number_text:
    value: number.to_s
  parsed:
    value: '"-72".to_i + "ff".to_i(16)'
  middle:
    value: '"abcdef".substring(1, 4)'
  label_or_none:
    value: 'has_label == 1 ? name : "none"'
  name_sorts_before_fop:
    value: name < "fop"
  tag_bytes:
    value: tag
  last_chunk_max:
    value: chunks.last.max
  number_op_size:
    value: sizeof<op::number>
  u4_bits:
    value: bitsizeof<u4be>
types:
  op:
    seq:
      - id: code
        type: u1
      - id: body
        type:
          switch-on: code
          cases:
            1: number
            2: text
    types:
      number:
        seq:
          - id: value
            type: u1
      text:
        seq:
          - id: value
            type: strz
