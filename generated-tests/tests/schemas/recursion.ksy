meta:
  id: recursion
  title: A type that holds itself through a conditional field and a switch (behaviour test)
seq:
  - id: head
    type: node
types:
  node:
    seq:
      - id: value
        type: u1
      - id: kind
        type: u1
      - id: next
        type: node
        if: kind == 1
      - id: branch
        type:
          switch-on: kind
          cases:
            2: node
            3: leaf
        if: kind >= 2
  leaf:
    seq:
      - id: mark
        type: u1
