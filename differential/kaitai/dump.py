"""Kaitai's side of the differential test: parses a file with a parser that Kaitai Struct's
reference compiler generated (compile.js) and prints the object tree as JSON.

    python dump.py PY_DIR FORMAT FILE [SECONDS]

PY_DIR/FORMAT/FORMAT.py is the generated module. The tree is walked eagerly: every seq field and
every instance (Kaitai's instances are lazy Python properties; each is evaluated here, and an
exception it raises becomes an error leaf, so one bad instance does not hide the others).
Representation (the comparer reads it):

- a structure: {"@type": class name, "@instances": [names of its instances], "@params": [names
  of its parameters, when it has some], field: value...} with the parameters and seq fields
  first, in the order they were set, then the instances;
- integers, booleans and strings as themselves; floats as numbers, or {"@float": "nan"|"inf"|
  "-inf"}; byte arrays as {"@bytes": hex};
- an enum value as {"@enum": name, "value": integer} (an integer that no member names stays an
  integer, as Kaitai's resolve_enum leaves it);
- lists as lists; None (a field absent by its `if`) as null;
- {"@error": "Type: message"} for an instance (or the root) that raised;
- {"@cycle": path} for a structure already on the current path: the same object, or one of the
  same type whose seq fields hold the same values (iso9660's "." directory record reads its own
  directory again, as a new object each time),
  {"@ref": path} for one already written at another path (an instance that returns a field),
  {"@truncated": why} past the depth limit, the leaf budget or the time limit.

The whole file is parsed first (Kaitai reads seq fields eagerly at construction); a failure
there is {"read": false, "error": ...}. The output is {"read": true, "tree": ...}.
"""

import enum
import importlib
import json
import math
import sys
import time

MAX_DEPTH = 100
MAX_LEAVES = 3_000_000


class Walker:
    def __init__(self, seconds):
        self.deadline = time.monotonic() + seconds
        self.leaves = 0
        self.on_path = {}
        self.seen = {}
        self.truncated = None

    def budget_left(self):
        if self.truncated:
            return False
        if self.leaves > MAX_LEAVES:
            self.truncated = "leaf budget"
        elif time.monotonic() > self.deadline:
            self.truncated = "time limit"
        return self.truncated is None

    def value(self, v, path, depth):
        self.leaves += 1
        if v is None or isinstance(v, (bool, str)):
            return v
        if isinstance(v, enum.Enum):
            return {"@enum": v.name, "value": v.value}
        if isinstance(v, int):
            return v
        if isinstance(v, float):
            if math.isnan(v):
                return {"@float": "nan"}
            if math.isinf(v):
                return {"@float": "inf" if v > 0 else "-inf"}
            return v
        if isinstance(v, (bytes, bytearray)):
            return {"@bytes": bytes(v).hex()}
        if isinstance(v, list):
            out = []
            for i, item in enumerate(v):
                if not self.budget_left():
                    out.append({"@truncated": self.truncated})
                    break
                out.append(self.value(item, f"{path}/{i}", depth + 1))
            return out
        if hasattr(v, "_io") and hasattr(v, "_root"):
            return self.struct(v, path, depth)
        return {"@other": f"{type(v).__name__}: {v!r}"[:200]}

    def struct(self, obj, path, depth):
        key = id(obj)
        signature = shallow_signature(obj)
        if key in self.on_path or signature in self.on_path.values():
            return {"@cycle": self.seen.get(key) or next(
                (self.seen[k] for k, s in self.on_path.items() if s == signature), "?")}
        if key in self.seen:
            return {"@ref": self.seen[key]}
        if depth > MAX_DEPTH:
            return {"@truncated": "depth limit"}
        self.seen[key] = path or "/"
        self.on_path[key] = signature
        try:
            out = {"@type": type(obj).__qualname__}
            for name, v in list(vars(obj).items()):
                if name.startswith("_"):
                    continue
                out[name] = self.value(v, f"{path}/{name}", depth + 1)
            instances = instance_names(type(obj))
            out["@instances"] = instances
            params = param_names(type(obj))
            if params:
                out["@params"] = params
            for name in instances:
                if not self.budget_left():
                    out[name] = {"@truncated": self.truncated}
                    continue
                try:
                    v = getattr(obj, name)
                except Exception as e:  # an instance that fails is one error leaf
                    out[name] = {"@error": f"{type(e).__name__}: {e}"[:300]}
                    continue
                out[name] = self.value(v, f"{path}/{name}", depth + 1)
            return out
        finally:
            self.on_path.pop(key, None)


def shallow(v):
    if isinstance(v, enum.Enum):
        return v.value
    if v is None or isinstance(v, (bool, int, float, str, bytes, bytearray)):
        return bytes(v) if isinstance(v, bytearray) else v
    if isinstance(v, list):
        return ("list",) + tuple(shallow(x) for x in v[:64]) + (len(v),)
    return ("struct", type(v).__qualname__)


def shallow_signature(obj):
    """A structure's type and its seq fields' values, nested structures by their type alone."""
    fields = tuple((k, shallow(v)) for k, v in vars(obj).items() if not k.startswith("_"))
    if not fields:
        return hash(("object", id(obj)))
    return hash((type(obj).__qualname__, fields))


_instances = {}


def instance_names(cls):
    """The properties the generated class declares: Kaitai's instances, in declaration order."""
    if cls not in _instances:
        names = []
        for klass in reversed(cls.__mro__):
            if klass.__module__ in ("kaitaistruct", "builtins"):
                continue
            for name, attr in vars(klass).items():
                if isinstance(attr, property) and not name.startswith("_") and name not in names:
                    names.append(name)
        _instances[cls] = names
    return _instances[cls]


def param_names(cls):
    """The type's parameters: the arguments of its constructor before `_io`, which Kaitai's
    generated code keeps as attributes beside the seq fields."""
    code = cls.__init__.__code__
    names = code.co_varnames[1:code.co_argcount]
    return [n for n in names if not n.startswith("_")]


def root_class(module, fmt):
    wanted = fmt.replace("_", "").lower()
    for name, attr in vars(module).items():
        if isinstance(attr, type) and name.lower() == wanted:
            return attr
    raise LookupError(f"no class {fmt} in {module.__name__}")


def main():
    py_dir, fmt, file = sys.argv[1:4]
    seconds = float(sys.argv[4]) if len(sys.argv) > 4 else 60.0
    sys.path.insert(0, f"{py_dir}/{fmt}")
    sys.setrecursionlimit(20000)
    try:
        cls = root_class(importlib.import_module(fmt), fmt)
        with open(file, "rb") as f:
            data = f.read()
        root = cls.from_bytes(data)
    except Exception as e:
        json.dump({"read": False, "error": f"{type(e).__name__}: {e}"[:1000]}, sys.stdout)
        return
    walker = Walker(seconds)
    tree = walker.struct(root, "", 0)
    json.dump({"read": True, "tree": tree, "truncated": walker.truncated}, sys.stdout)


if __name__ == "__main__":
    main()
