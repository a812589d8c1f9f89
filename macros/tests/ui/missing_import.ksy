meta:
  id: missing_import
  imports:
    - /common/nowhere
seq:
  - id: x
    type: nowhere
