#!/usr/bin/env python3
"""The edit property on the real files of a differential run, before and after normalize().

After `differential/run.sh` (which keeps each file under files/FORMAT/ in $DIFFERENTIAL_DIR and
builds `skelcodec-differential` with every format compiled in), this runs
`skelcodec-differential edit FORMAT FILE EDITS` on each file: about EDITS one-leaf edits of its
document (numbers moved by one, zeroed and doubled, booleans flipped, strings and byte strings
changed, grown and shrunk), each written once as edited ("before": what a user who fixes no
size by hand gets) and once normalized first ("after": `encode --normalize`). Prints per
format the edits, those the writer refused before and after, edits of a derived field that
normalize() set back, the writes that read back as another value, and what check() reports on
the unedited files (derivations that do not hold on a real file); the last two must be none.
Then the refusals by kind.

    differential/edits.py [--bin SKELCODEC_DIFFERENTIAL] [--edits N] [--only png,zip] [--json OUT]

Exits with 1 when a write reads back as another value or check() disagrees with a real file.
"""
import argparse
import collections
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
WORK = os.environ.get("DIFFERENTIAL_DIR", "/tmp/differential")
TARGET = os.environ.get("CARGO_TARGET_DIR", "/tmp/diff_target")


def formats():
    """The format ids of formats.tsv, in its order."""
    with open(os.path.join(HERE, "formats.tsv")) as tsv:
        for line in tsv:
            if line.strip() and not line.startswith("#"):
                yield os.path.splitext(os.path.basename(line.split("\t")[0]))[0]


def edit(binary, fmt, path, edits):
    run = subprocess.run([binary, "edit", fmt, path, str(edits)], capture_output=True, text=True,
                         timeout=600)
    try:
        return json.loads(run.stdout)
    except json.JSONDecodeError:
        return {"error": (run.stderr or run.stdout).strip()[:300]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(TARGET, "release", "skelcodec-differential"))
    ap.add_argument("--edits", type=int, default=60)
    ap.add_argument("--only", default="")
    ap.add_argument("--json", default="")
    args = ap.parse_args()
    only = set(filter(None, args.only.split(",")))
    table = {}
    kinds = {"before": collections.Counter(), "after": collections.Counter()}
    corrupted = []
    dropped = []
    disagreements = []
    for fmt in formats():
        if only and fmt not in only:
            continue
        folder = os.path.join(WORK, "files", fmt)
        if not os.path.isdir(folder):
            continue
        row = collections.Counter()
        for name in sorted(os.listdir(folder)):
            report = edit(args.bin, fmt, os.path.join(folder, name), args.edits)
            before, after = report.get("before", {}), report.get("after", {})
            if "error" in report or before.get("unreadable") or before.get("not_faithful"):
                continue
            row["files"] += 1
            row["edits"] += after["edits"]
            row["refused_before"] += before["refused_by_writer"]
            row["refused_after"] += after["refused_by_writer"]
            row["undone"] += after["undone"]
            row["corrupted"] += len(after["corrupted"]) + len(before["corrupted"])
            # Edits normalize() set back though check() did not report them: lost edits.
            row["dropped"] += len(after.get("dropped", []))
            dropped += [f"{fmt}/{name}: {d}" for d in after.get("dropped", [])]
            # check() on the unedited file: a derivation that does not hold on a real file.
            row["disagree"] += len(after.get("disagreements", []))
            disagreements += [f"{fmt}/{name}: {d}" for d in after.get("disagreements", [])]
            corrupted += [f"{fmt}/{name}: {c}" for c in after["corrupted"] + before["corrupted"]]
            for when in ("before", "after"):
                kinds[when].update(report[when]["refusals"])
        if row["files"]:
            table[fmt] = row
    print(f"{'format':24} {'files':>5} {'edits':>6} {'refused':>8} {'after':>6} {'undone':>6} "
          f"{'corrupt':>7} {'disagree':>8}")
    total = collections.Counter()
    for fmt, row in table.items():
        total.update(row)
        print(f"{fmt:24} {row['files']:5} {row['edits']:6} {row['refused_before']:8} "
              f"{row['refused_after']:6} {row['undone']:6} {row['corrupted']:7} {row['disagree']:8}")
    print(f"{'total (' + str(len(table)) + ' formats)':24} {total['files']:5} {total['edits']:6} "
          f"{total['refused_before']:8} {total['refused_after']:6} {total['undone']:6} "
          f"{total['corrupted']:7} {total['disagree']:8}")
    for when in ("before", "after"):
        print(f"refusals {when}: " + ", ".join(f"{k} {n}" for k, n in kinds[when].most_common()))
    for line in corrupted[:20]:
        print("CORRUPTED", line)
    for line in disagreements[:20]:
        print("DISAGREES", line)
    for line in dropped[:20]:
        print("DROPPED", line)
    print(f"dropped (set back by normalize() though check() did not report them): {len(dropped)}")
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"formats": table, "kinds": kinds, "corrupted": corrupted,
                       "disagreements": disagreements, "dropped": dropped}, out, indent=1)
    return 1 if corrupted or disagreements or dropped else 0


if __name__ == "__main__":
    sys.exit(main())
