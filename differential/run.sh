#!/usr/bin/env bash
# The differential test, end to end: installs Kaitai Struct's reference implementation, gathers
# real files, compiles the schemas of formats.tsv with both compilers, reads every file with
# both, compares the values leaf by leaf and prints the table (summary in $DIR/summary.json).
#
#   differential/run.sh [--only FORMAT,...] [--no-files] [--install-tools]
#
# $DIFFERENTIAL_DIR (default /tmp/differential) holds everything it installs and makes;
# $CARGO_TARGET_DIR is honoured (default: the workspace's target/). Needs the network the first
# time (npm, PyPI). One format's failure (a schema either compiler rejects, generated code rustc
# refuses, a parser that crashes or hangs) is recorded and the others go on.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
export DIFFERENTIAL_DIR="${DIFFERENTIAL_DIR:-/tmp/differential}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
export KAITAI_FORMATS="${KAITAI_FORMATS:-$root/../shared/kaitai-formats}"
dir="$DIFFERENTIAL_DIR"
only=""
files=1
tools=0
while [ $# -gt 0 ]; do
    case "$1" in
        --only) only="$2"; shift 2 ;;
        --no-files) files=0; shift ;;
        --install-tools) tools=1; shift ;;
        *) echo "usage: $0 [--only FORMAT,...] [--no-files] [--install-tools]" >&2; exit 2 ;;
    esac
done
mkdir -p "$dir"
python="$dir/venv/bin/python"

echo "== Kaitai Struct's reference implementation" >&2
"$here/kaitai/setup.sh" >&2

if [ "$tools" = 1 ]; then
    echo "== producers of the files (apt-get)" >&2
    "$here/tools.sh" >&2
fi

if [ "$files" = 1 ]; then
    echo "== real files" >&2
    "$python" "$here/files.py" --out "$dir/files" ${only:+--only "$only"}
fi

schemas=$(grep -v '^#' "$here/formats.tsv" | cut -f1 | grep . )
if [ -n "$only" ]; then
    schemas=$(for s in $schemas; do b=$(basename "$s" .ksy); if [[ ",$only," == *",$b,"* ]]; then echo "$s"; fi; done)
fi
echo "== Kaitai's compiler: Python parsers" >&2
# shellcheck disable=SC2086
node "$here/kaitai/compile.js" "$KAITAI_FORMATS" "$dir/py" $schemas >&2 || true

echo "== skelcodec's compiler (cargo build --release -p skelcodec-differential)" >&2
# rustc's refusal of one format's generated code takes that format out and the build goes on:
# each round leaves out the formats whose generated files rustc named.
skip=""
echo '{}' > "$dir/uncompilable.json"
for round in 1 2 3 4 5; do
    if (cd "$root" && SKELCODEC_DIFFERENTIAL=1 SKELCODEC_DIFFERENTIAL_SKIP="$skip" \
        cargo build --release -p skelcodec-differential --message-format short) 2> "$dir/build.log"; then
        break
    fi
    failed=$(grep -oE 'out/[A-Za-z0-9_]+\.rs' "$dir/build.log" | sed -E 's#out/(.*)\.rs#\1#' | sort -u | grep -v '^formats$' || true)
    if [ -z "$failed" ] || [ "$round" = 5 ]; then
        tail -30 "$dir/build.log" >&2
        echo "the skelcodec side does not build (not because of one format's generated code)" >&2
        exit 1
    fi
    "$python" - "$dir/build.log" "$dir/uncompilable.json" $failed <<'PY'
import json, re, sys
log, out, failed = sys.argv[1], sys.argv[2], sys.argv[3:]
known = json.load(open(out))
lines = open(log).read().splitlines()
for fmt in failed:
    first = next((l for l in lines if f"out/{fmt}.rs" in l and "error" in l), f"rustc refused out/{fmt}.rs")
    known[fmt] = re.sub(r"^.*?out/", "out/", first)[:300]
json.dump(known, open(out, "w"), indent=1)
PY
    echo "rustc refuses the generated code of: $failed (left out, recorded in $dir/uncompilable.json)" >&2
    skip="${skip:+$skip,}$(echo $failed | tr ' ' ',')"
done

echo "== both sides, compared" >&2
"$python" "$here/compare.py" --dir "$dir" --python "$python" --bin "$CARGO_TARGET_DIR/release/skelcodec-differential" \
    --gallery "$KAITAI_FORMATS" ${only:+--only "$only"}
