"""Runs both sides of the differential test on every gathered file and compares them leaf by leaf.

    python compare.py [--dir /tmp/differential] [--bin PATH] [--jobs 2] [--timeout 120]
                      [--only FORMAT,...]

For each file of DIR/files/files.json (files.py): Kaitai's side is `kaitai/dump.py` with the
parsers compile.js generated in DIR/py (run with the venv's Python), skelcodec's side is
`skelcodec-differential read FORMAT FILE`; each runs in its own process under a time limit, so a
crash or a hang costs that file alone. Both outputs are kept in DIR/out/FORMAT/. The comparison
walks Kaitai's tree and skelcodec's document together; README.md lists every normalisation.
Prints one line per format and the totals, and writes DIR/summary.json.
"""

import argparse
import concurrent.futures
import json
import math
import os
import re
import struct
import subprocess
import sys
from collections import Counter

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = 6


class Stats:
    FIELDS = [
        "files", "kaitai_read", "skelcodec_read", "both_read", "compared", "equal",
        "equal_padded", "differ", "only_kaitai", "only_kaitai_parse_instances", "only_kaitai_instances", "only_kaitai_params",
        "only_skelcodec", "kaitai_instance_errors", "skelcodec_instance_errors", "kaitai_truncated", "written_back",
        "files_all_equal",
    ]

    def __init__(self):
        for f in self.FIELDS:
            setattr(self, f, 0)
        self.differ_examples = []
        self.only_kaitai_names = Counter()
        self.only_kaitai_instance_names = Counter()
        self.only_skelcodec_names = Counter()
        self.skelcodec_errors = []
        self.kaitai_errors = []
        self.write_problems = []
        self.normalised = Counter()
        self.skelcodec_instance_error_examples = []

    def add(self, other):
        for f in self.FIELDS:
            setattr(self, f, getattr(self, f) + getattr(other, f))
        self.differ_examples += other.differ_examples
        self.only_kaitai_names += other.only_kaitai_names
        self.only_kaitai_instance_names += other.only_kaitai_instance_names
        self.only_skelcodec_names += other.only_skelcodec_names
        self.skelcodec_errors += other.skelcodec_errors
        self.kaitai_errors += other.kaitai_errors
        self.write_problems += other.write_problems
        self.normalised += other.normalised
        self.skelcodec_instance_error_examples += other.skelcodec_instance_error_examples

    def as_json(self):
        out = {f: getattr(self, f) for f in self.FIELDS}
        out["differ_examples"] = self.differ_examples[:EXAMPLES]
        out["only_kaitai_names"] = dict(self.only_kaitai_names.most_common(12))
        out["only_kaitai_instance_names"] = dict(self.only_kaitai_instance_names.most_common(12))
        out["only_skelcodec_names"] = dict(self.only_skelcodec_names.most_common(12))
        out["skelcodec_errors"] = self.skelcodec_errors[:EXAMPLES]
        out["kaitai_errors"] = self.kaitai_errors[:EXAMPLES]
        out["write_problems"] = self.write_problems[:EXAMPLES]
        out["normalised"] = dict(self.normalised)
        out["skelcodec_instance_error_examples"] = self.skelcodec_instance_error_examples[:EXAMPLES]
        return out


def is_string_document(v):
    """skelcodec's document of a string: {"text": …} with its "rest" and "stored" bytes."""
    return isinstance(v, dict) and "text" in v and set(v) <= {"text", "rest", "stored"}


def is_struct(v):
    return isinstance(v, dict) and "@type" in v


def pattern(path):
    """A path with list indices left out, to name a field over all its occurrences."""
    return re.sub(r"/\d+(?=/|$)", "/[]", path) or "/"


def count_leaves(v):
    if isinstance(v, list):
        return sum(count_leaves(x) for x in v)
    if is_struct(v):
        return sum(count_leaves(x) for k, x in v.items() if not k.startswith("@"))
    if isinstance(v, dict) and any(k in v for k in ("@cycle", "@ref", "@truncated", "@error")):
        return 0
    if v is None:
        return 0
    if isinstance(v, dict) and not v.get("@bytes") and not v.get("@enum") and "@float" not in v:
        return sum(count_leaves(x) for x in v.values()) if not any(k.startswith("@") for k in v) else 1
    return 1


def is_bookkeeping(name):
    """Fields skelcodec adds to keep every byte (Kaitai has no such field): `_unread`,
    `_trailing`, `_bits_before_*`, `_bits_at_end`, and the root's `unclaimed` bytes."""
    return name.startswith("_") or name == "unclaimed"


def f32_equal(a, b):
    try:
        return struct.pack("<f", a) == struct.pack("<f", b)
    except (OverflowError, struct.error):
        return False


class Comparer:
    def __init__(self, stats, kaitai_root, facts=None):
        self.s = stats
        self.root = kaitai_root
        self.contents, self.parse_instances = facts or (set(), set())
        self.file = ""

    def differ(self, path, k, v):
        self.s.compared += 1
        self.s.differ += 1
        if len(self.s.differ_examples) < 40:
            show = lambda x: json.dumps(x)[:120]
            self.s.differ_examples.append(f"{self.file}: {path}: kaitai {show(k)}, skelcodec {show(v)}")

    def equal(self, how=None):
        self.s.compared += 1
        self.s.equal += 1
        if how:
            self.s.equal_padded += 1
            self.s.normalised[how] += 1

    def resolve(self, k):
        while isinstance(k, dict) and "@ref" in k:
            node = self.root
            for part in k["@ref"].strip("/").split("/"):
                if part == "":
                    continue
                node = node[int(part)] if isinstance(node, list) else node.get(part)
            k = node
        return k

    def unwrap(self, k, v):
        """skelcodec's wrappers around a value: `rt::Decoded` ({value, stored, rest}) and a
        switch's case ({case_name: value}) when Kaitai's side holds the value itself."""
        while isinstance(v, dict):
            keys = set(v)
            if is_string_document(v):
                break
            if {"value", "stored"} <= keys <= {"value", "stored", "rest"}:
                v = v["value"]
                self.s.normalised["decoded value (process or encoding)"] += 1
                continue
            if len(v) == 1:
                (key,) = keys
                # Against a structure, only a key naming its type is a case (else it is a
                # field, or a case of another type: compared as a structure, field by field).
                if is_struct(k) and not names_case(key, k["@type"].rsplit(".", 1)[-1]):
                    break
                if is_bookkeeping(key) or v[key] is None and k is not None:
                    break
                v = v[key]
                self.s.normalised["switch case unwrapped"] += 1
                continue
            break
        return v

    def cmp(self, k, v, path):
        k = self.resolve(k)
        if isinstance(k, dict) and "@cycle" in k:
            self.s.normalised["cycle (not compared)"] += 1
            return
        if isinstance(k, dict) and "@truncated" in k:
            self.s.kaitai_truncated += 1
            return
        if isinstance(k, dict) and "@error" in k:
            self.s.kaitai_instance_errors += 1
            return
        if isinstance(v, dict) and set(v) == {"_error"}:
            # A parse instance skelcodec could not read: the document keeps the error.
            self.s.skelcodec_instance_errors += 1
            if len(self.s.skelcodec_instance_error_examples) < 20:
                self.s.skelcodec_instance_error_examples.append(f"{self.file}: {path}: {v['_error'][:200]}")
            return
        v = self.unwrap(k, v)
        if k is None:
            if v is not None and v != "nothing":
                self.s.only_skelcodec += count_leaves(v)
                self.s.only_skelcodec_names[pattern(path)] += 1
            return
        if is_struct(k):
            fields = [n for n in k if not n.startswith("@") and n not in k.get("@instances", ())]
            if not isinstance(v, dict) and len(fields) == 1:
                # A type of one field held as that field's value.
                self.s.normalised["one-field type held as its field"] += 1
                self.cmp(k[fields[0]], v, f"{path}/{fields[0]}")
                return
            if not isinstance(v, dict):
                self.differ(path, k.get("@type"), v)
                return
            self.struct(k, v, path)
        elif isinstance(k, list):
            if not isinstance(v, list):
                if isinstance(v, str) and all(isinstance(x, int) for x in k):
                    # A list of bytes read one by one: skelcodec may hold it as a byte string.
                    self.cmp({"@bytes": bytes(x & 0xFF for x in k).hex()}, v, path)
                    return
                self.differ(path, f"list of {len(k)}", v)
                return
            if len(k) != len(v):
                self.differ(path + "/length", len(k), len(v))
            for i, (a, b) in enumerate(zip(k, v)):
                self.cmp(a, b, f"{path}/{i}")
        elif isinstance(k, dict) and "@bytes" in k:
            self.bytes_leaf(k["@bytes"], v, path)
        elif isinstance(k, dict) and "@enum" in k:
            if v == k["@enum"] or v == k["value"] or (isinstance(v, dict) and v.get("value") == k["value"]):
                self.equal()
            else:
                self.differ(path, k, v)
        elif isinstance(k, dict) and "@float" in k:
            if v is None and k["@float"] == "nan":
                self.equal("NaN (null in skelcodec's JSON)")
            elif isinstance(v, float) and str(v) == k["@float"]:
                self.equal()
            else:
                self.differ(path, k, v)
        elif isinstance(k, bool):
            self.equal() if v is k else self.differ(path, k, v)
        elif isinstance(k, int):
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                self.differ(path, k, v)
            elif v == k:
                self.equal()
            else:
                self.differ(path, k, v)
        elif isinstance(k, float):
            if isinstance(v, (int, float)) and not isinstance(v, bool) and (
                    v == k or f32_equal(v, k) or math.isclose(v, k, rel_tol=1e-12)):
                self.equal()
            else:
                self.differ(path, k, v)
        elif isinstance(k, str):
            self.text_leaf(k, v, path)
        else:
            self.differ(path, k, v)

    def bytes_leaf(self, khex, v, path):
        if isinstance(v, list) and all(isinstance(x, int) for x in v):
            v = bytes(x & 0xFF for x in v).hex()
        if is_string_document(v):
            v = v.get("stored") or (v["text"].encode() + b"\x00" + bytes.fromhex(v.get("rest", ""))).hex()
        if isinstance(v, str) and not re.fullmatch(r"([0-9a-f]{2})*", v):
            v = v.encode().hex()
        if v == khex:
            self.equal()
        else:
            self.differ(path, {"@bytes": khex[:64]}, v[:64] if isinstance(v, str) else v)

    def text_leaf(self, k, v, path):
        """A string's document is {text, rest, stored} (docs: one shape per string)."""
        if not is_string_document(v):
            self.differ(path, k, v)
        elif v["text"] == k:
            self.equal("text before a terminator, rest kept" if "rest" in v else None)
        elif k.rstrip("\x00") == v["text"] and "rest" not in v:
            self.equal("fixed-size string: trailing NULs implied")
        elif "stored" in v and bytes.fromhex(v["stored"]) == k.encode("utf-8", "surrogateescape"):
            self.equal("text not UTF-8: compared as stored")
        else:
            self.differ(path, k, v)

    def struct(self, k, v, path):
        instances = set(k.get("@instances", ()))
        params = set(k.get("@params", ()))
        for name, kv in k.items():
            if name.startswith("@"):
                continue
            sub = f"{path}/{name}"
            key = (type_key(k["@type"].rsplit(".", 1)[-1]), name)
            is_contents = key in self.contents
            if name in v and is_contents and v[name] is True:
                self.s.normalised["conditional contents field, present (true in skelcodec)"] += 1
                continue
            if name in v:
                self.cmp(kv, v[name], sub)
                continue
            kv = self.resolve(kv)
            if kv is None:
                continue
            if isinstance(kv, dict) and "@error" in kv:
                self.s.kaitai_instance_errors += 1
                continue
            if isinstance(kv, dict) and ("@cycle" in kv or "@truncated" in kv):
                continue
            leaves = count_leaves(kv)
            if is_contents:
                self.s.normalised["contents field (a constant, left out of skelcodec's documents)"] += 1
            elif name in instances and key in self.parse_instances:
                self.s.only_kaitai_parse_instances += leaves
                self.s.only_kaitai_names[pattern(sub) + " (parse instance)"] += 1
            elif name in instances:
                self.s.only_kaitai_instances += leaves
                self.s.only_kaitai_instance_names[pattern(sub)] += 1
            elif name in params:
                self.s.only_kaitai_params += leaves
            else:
                self.s.only_kaitai += leaves
                self.s.only_kaitai_names[pattern(sub)] += 1
        for name, sv in v.items():
            if name in k or sv is None or sv in ("nothing", {"nothing": None}):
                continue
            if is_bookkeeping(name):
                self.s.normalised["skelcodec bookkeeping field"] += 1
                continue
            self.s.only_skelcodec += count_leaves(sv)
            self.s.only_skelcodec_names[pattern(f"{path}/{name}")] += 1


def names_case(key, type_name):
    """True when `key` names a switch case of type `type_name`: its name, or its name and a
    number (cases of one type with different arguments: `relocation_section5`)."""
    return type_key(type_name) in (type_key(key), type_key(key.rstrip("0123456789")))


def type_key(name):
    """A type's name as both sides spell it, reduced: `ext_graphic_control`, `ExtGraphicControl`."""
    return name.replace("_", "").lower()


def schema_facts(gallery, schema):
    """What the comparison needs to know of a schema and the schemas it imports, as sets of
    (type key, name): the seq fields with `contents` (skelcodec leaves these constants out of
    documents; its writer writes them) and the parse instances (skelcodec stores them as
    fields, where its documents leave value instances out)."""
    found, parse, seen = set(), set(), set()

    def load(path):
        if path in seen or not os.path.exists(path):
            return
        seen.add(path)
        with open(path) as f:
            ksy = yaml.safe_load(f)
        meta = ksy.get("meta", {})
        walk(meta.get("id", ""), ksy)
        for imp in meta.get("imports", []) or []:
            base = gallery if imp.startswith("/") else os.path.dirname(path)
            load(os.path.join(base, imp.lstrip("/") + ".ksy"))

    def walk(name, spec):
        for attr in spec.get("seq", []) or []:
            if isinstance(attr, dict) and "contents" in attr and "id" in attr:
                found.add((type_key(name), attr["id"]))
        for inst, ispec in (spec.get("instances", {}) or {}).items():
            if isinstance(ispec, dict) and "value" not in ispec:
                parse.add((type_key(name), inst))
        for sub, subspec in (spec.get("types", {}) or {}).items():
            walk(sub, subspec or {})

    load(os.path.join(gallery, schema))
    return found, parse


def run_json(args, timeout):
    try:
        p = subprocess.run(args, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"read": False, "error": f"time limit ({timeout} s)"}
    try:
        return json.loads(p.stdout)
    except ValueError:
        tail = p.stderr.decode(errors="replace").strip().splitlines()[-1:] or [""]
        return {"read": False, "error": f"crashed (exit {p.returncode}): {tail[0][:300]}"}


def one_file(fmt, entry, opts):
    file = entry["file"]
    out = os.path.join(opts.dir, "out", fmt)
    os.makedirs(out, exist_ok=True)
    base = os.path.join(out, os.path.basename(file))
    kaitai = run_json([opts.python, os.path.join(HERE, "kaitai", "dump.py"), os.path.join(opts.dir, "py"),
                       fmt, file, str(opts.timeout * 0.6)], opts.timeout)
    skel = run_json([opts.bin, "read", fmt, file], opts.timeout)
    for suffix, doc in ((".kaitai.json", kaitai), (".skelcodec.json", skel)):
        with open(base + suffix, "w") as f:
            json.dump(doc, f)
    stats = Stats()
    stats.files = 1
    name = os.path.basename(file)
    if kaitai.get("read"):
        stats.kaitai_read = 1
        if kaitai.get("truncated"):
            stats.kaitai_truncated += 1
    else:
        stats.kaitai_errors.append(f"{name}: {kaitai.get('error')}")
    if skel.get("read"):
        stats.skelcodec_read = 1
        if skel.get("written_back") == "byte-exact":
            stats.written_back = 1
        else:
            stats.write_problems.append(f"{name}: {skel.get('written_back')}")
    else:
        stats.skelcodec_errors.append(f"{name}: {skel.get('error')}")
    if kaitai.get("read") and skel.get("read"):
        stats.both_read = 1
        comparer = Comparer(stats, kaitai["tree"], opts.facts[fmt])
        comparer.file = name
        try:
            comparer.cmp(kaitai["tree"], skel["document"], "")
        except Exception as e:  # a comparer bug costs this file's comparison, not the run
            stats.differ += 1
            stats.differ_examples.append(f"{name}: the comparer failed: {type(e).__name__}: {e}")
        if not (stats.differ or stats.only_kaitai or stats.only_kaitai_parse_instances
                or stats.only_skelcodec or stats.skelcodec_instance_errors):
            stats.files_all_equal = 1
    return fmt, stats


COLUMNS = [("files", "files"), ("kaitai_read", "k-read"), ("skelcodec_read", "s-read"),
           ("compared", "compared"), ("equal", "equal"), ("differ", "differ"),
           ("only_kaitai", "only-k"), ("only_kaitai_parse_instances", "only-k-pinst"),
           ("only_kaitai_instances", "only-k-vinst"),
           ("only_skelcodec", "only-s"), ("skelcodec_instance_errors", "s-inst-err"),
           ("written_back", "written")]


def table(per_format, status, total):
    head = f"{'format':24} " + " ".join(f"{label:>11}" for _, label in COLUMNS) + "  note"
    lines = [head, "-" * len(head)]
    for fmt, st in per_format.items():
        notes = [status[fmt]] if status.get(fmt) else []
        if not notes and st.skelcodec_errors:
            notes.append("skelcodec: " + st.skelcodec_errors[0])
        if not notes and st.kaitai_errors:
            notes.append("kaitai: " + st.kaitai_errors[0])
        if st.differ:
            notes.append("first difference: " + st.differ_examples[0])
        if st.write_problems:
            notes.append("not written back: " + st.write_problems[0])
        note = "; ".join(notes)
        lines.append(f"{fmt:24} " + " ".join(f"{getattr(st, f):>11}" for f, _ in COLUMNS)
                     + (f"  {note[:140]}" if note else ""))
    lines.append("-" * len(head))
    lines.append(f"{'total':24} " + " ".join(f"{getattr(total, f):>11}" for f, _ in COLUMNS))
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", default="/tmp/differential")
    ap.add_argument("--bin", default=os.path.join(os.environ.get("CARGO_TARGET_DIR", "/tmp/diff_target"),
                                                  "release", "skelcodec-differential"))
    ap.add_argument("--python", default="/tmp/differential/venv/bin/python")
    ap.add_argument("--gallery", default=os.environ.get("KAITAI_FORMATS", os.path.join(
        HERE, "..", "..", "shared", "kaitai-formats")))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--only", default="")
    ap.add_argument("--formats", default=os.path.join(HERE, "formats.tsv"))
    opts = ap.parse_args()
    only = set(filter(None, opts.only.split(",")))
    with open(os.path.join(opts.dir, "files", "files.json")) as f:
        files = json.load(f)
    with open(opts.formats) as f:
        order = [os.path.basename(line.split("\t")[0])[:-4] for line in f
                 if line.strip() and not line.startswith("#")]
    order = [fmt for fmt in order if not only or fmt in only]
    # Why a side has no parser for a format: Kaitai's compiler error, skelcodec's rejection
    # (or rustc's, recorded by run.sh in uncompilable.json).
    status = {}
    kaitai_status = json.load(open(os.path.join(opts.dir, "py", "status.json")))
    skel_status = json.loads(subprocess.run([opts.bin, "formats"], capture_output=True).stdout)["formats"]
    uncompilable_path = os.path.join(opts.dir, "uncompilable.json")
    uncompilable = json.load(open(uncompilable_path)) if os.path.exists(uncompilable_path) else {}
    for fmt in order:
        notes = []
        if kaitai_status.get(fmt, "not compiled") is not None:
            notes.append(f"kaitai: {kaitai_status.get(fmt, 'not compiled')}")
        if fmt in uncompilable:
            notes.append(f"skelcodec: generated code does not compile: {uncompilable[fmt]}")
        elif fmt not in skel_status:
            notes.append("skelcodec: not compiled in")
        elif skel_status[fmt] is not None:
            notes.append(f"skelcodec: schema rejected: {skel_status[fmt]}")
        if notes:
            status[fmt] = "; ".join(notes)
    per_format = {fmt: Stats() for fmt in order}
    opts.facts = {fmt: schema_facts(opts.gallery, files[fmt]["schema"]) if fmt in files else None
                  for fmt in order}
    jobs = [(fmt, e) for fmt in order for e in files.get(fmt, {}).get("files", [])]
    with concurrent.futures.ThreadPoolExecutor(opts.jobs) as pool:
        for fmt, st in pool.map(lambda j: one_file(j[0], j[1], opts), jobs):
            per_format[fmt].add(st)
            print(f"compare: {fmt}: done {st.files_all_equal and 'all equal' or ''}", file=sys.stderr)
    total = Stats()
    for st in per_format.values():
        total.add(st)
    print(table(per_format, status, total))
    with_files = [f for f, st in per_format.items() if st.files]
    print(f"\nformats with files: {len(with_files)}; files: {total.files}; "
          f"Kaitai reads {total.kaitai_read}, skelcodec reads {total.skelcodec_read}, both {total.both_read}; "
          f"leaves compared {total.compared}, equal {total.equal} ({total.equal_padded} after a normalisation), "
          f"differ {total.differ}; only Kaitai: {total.only_kaitai} seq leaves, "
          f"{total.only_kaitai_parse_instances} parse instance leaves, {total.only_kaitai_instances} value "
          f"instance leaves; only skelcodec: {total.only_skelcodec}; "
          f"parse instances skelcodec could not read: {total.skelcodec_instance_errors}; "
          f"files whose leaves are all equal: {total.files_all_equal}; "
          f"written back byte-exact: {total.written_back}/{total.skelcodec_read}")
    summary = {"formats": {f: dict(st.as_json(), status=status.get(f)) for f, st in per_format.items()},
               "total": total.as_json()}
    with open(os.path.join(opts.dir, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)


if __name__ == "__main__":
    main()
