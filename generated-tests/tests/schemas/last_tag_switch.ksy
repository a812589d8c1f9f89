meta:
  id: last_tag_switch
  encoding: ASCII
doc: A switch on the text of the last element of a list (Allegro DAT's `properties.last.magic`).
seq:
  - id: tags
    type: tag
    repeat: until
    repeat-until: _.name == "END!" or _.name == "BYTE"
  - id: body
    type:
      switch-on: tags.last.name
      cases:
        '"BYTE"': u1
instances:
  kind:
    value: tags.last.name
types:
  tag:
    seq:
      - id: name
        type: str
        size: 4
