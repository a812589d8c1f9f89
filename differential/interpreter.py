#!/usr/bin/env python3
"""The interpreter against the generated code on the real files of a differential run.

After `differential/run.sh` (which keeps, in $DIFFERENTIAL_DIR, each file under files/FORMAT/
and the generated codec's document or error under out/FORMAT/FILE.skelcodec.json), this reads
every such file with `skelcodec decode --schema GALLERY/SCHEMA -I GALLERY` and compares: the
same document (the `value` of decode's output against the generated codec's), or the same
error (the generated codec's error message within the command's). A file read alike must also
be written back byte for byte by the interpreter, from its value (`roundtrip --schema`) and
from its document (`encode --schema`). Files of a schema the interpreter does not read yet are
left out, as are formats with no file compared.

    differential/interpreter.py [SKELCODEC]    (default: target/release/skelcodec)

Exits with 1 when a file reads otherwise.
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
GALLERY = os.environ.get("KAITAI_FORMATS", os.path.join(ROOT, "..", "shared", "kaitai-formats"))
WORK = os.environ.get("DIFFERENTIAL_DIR", "/tmp/differential")
CLI = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "target", "release", "skelcodec")


def schemas():
    with open(os.path.join(HERE, "formats.tsv")) as tsv:
        for line in tsv:
            if line.strip() and not line.startswith("#"):
                yield line.split("\t")[0]


def compare(schema, data, reference):
    """'document', 'error', 'refused', or why the two differ."""
    run = subprocess.run(
        [CLI, "decode", "--schema", os.path.join(GALLERY, schema), "-I", GALLERY, data],
        capture_output=True, text=True, timeout=300,
    )
    if "does not read these yet" in run.stderr:
        return "refused"
    if reference.get("document") is None:
        error = reference.get("error", "")
        if run.returncode != 0 and error and error in run.stderr:
            return "error"
        return f"the generated codec fails ({error}), the interpreter: {run.stderr.strip()[:300]}"
    if run.returncode != 0:
        return f"only the interpreter fails: {run.stderr.strip()[:300]}"
    if json.loads(run.stdout)["value"] != reference["document"]:
        return "the documents differ"
    return written_back(schema, data, run.stdout)


def written_back(schema, data, document):
    """'document' when the interpreter writes the file back from its value and its document."""
    with_schema = ["--schema", os.path.join(GALLERY, schema), "-I", GALLERY]
    run = subprocess.run([CLI, "roundtrip", *with_schema, data], capture_output=True, text=True, timeout=300)
    if run.returncode != 0:
        return f"not written back byte for byte: {(run.stdout + run.stderr).strip()[-300:]}"
    with tempfile.TemporaryDirectory() as tmp:
        source, output = os.path.join(tmp, "doc.json"), os.path.join(tmp, "out.bin")
        with open(source, "w") as f:
            f.write(document)
        run = subprocess.run([CLI, "encode", *with_schema, source, "-o", output], capture_output=True, text=True, timeout=300)
        if run.returncode != 0:
            return f"its document does not encode: {run.stderr.strip()[:300]}"
        with open(output, "rb") as f, open(data, "rb") as g:
            if f.read() != g.read():
                return "encoded from its document, the bytes differ"
    return "document"


def main():
    totals = {"document": 0, "error": 0, "differ": 0}
    formats = 0
    for schema in schemas():
        name = os.path.basename(schema)[: -len(".ksy")]
        out = os.path.join(WORK, "out", name)
        if not os.path.isdir(out):
            continue
        counts = {"document": 0, "error": 0, "differ": 0}
        for entry in sorted(os.listdir(out)):
            if not entry.endswith(".skelcodec.json"):
                continue
            data = os.path.join(WORK, "files", name, entry[: -len(".skelcodec.json")])
            if not os.path.exists(data):
                continue
            with open(os.path.join(out, entry)) as f:
                outcome = compare(schema, data, json.load(f))
            if outcome == "refused":
                break
            if outcome in counts:
                counts[outcome] += 1
            else:
                counts["differ"] += 1
                print(f"  {name}/{entry[: -len('.skelcodec.json')]}: {outcome}")
        if sum(counts.values()) == 0:
            continue
        formats += 1
        print(f"{name:28} same document {counts['document']}, same error {counts['error']}, differ {counts['differ']}")
        for key in totals:
            totals[key] += counts[key]
    print(
        f"interpreter on real files: {formats} formats, {totals['document']} files with the "
        f"generated codec's document, {totals['error']} with its error, {totals['differ']} otherwise"
    )
    return 1 if totals["differ"] else 0


if __name__ == "__main__":
    sys.exit(main())
