#!/usr/bin/env bash
# Seeds fuzz/corpus/<target>/ with the project's own fixtures (never the third-party corpus).
# AnimationSet blobs are cut out of the DRS fixtures through their node tables.
set -euo pipefail
cd "$(dirname "$0")"
fixtures=../generated-tests/fixtures
seed() { # target, files...
    local target=$1
    shift
    mkdir -p "corpus/$target"
    cp "$@" "corpus/$target/"
}
# The edit target: the first byte picks the format (see fuzz_targets/edit.rs).
mkdir -p corpus/edit
for pair in 0:ifp/*/*.ifp 1:dff/*.dff 2:drs/*.drs 3:gsa/*.gsa 4:sims2/*.5an 5:sims2/*.package; do
    for file in "$fixtures"/${pair#*:}; do
        { printf "\\$(printf %03o "${pair%%:*}")"; cat "$file"; } >"corpus/edit/${pair%%:*}-$(basename "$file")"
    done
done
for kind in read roundtrip; do
    seed "${kind}_ifp" "$fixtures"/ifp/*/*.ifp
    seed "${kind}_dff" "$fixtures"/dff/*.dff
    seed "${kind}_gsa" "$fixtures"/gsa/*.gsa "$fixtures"/gsa/broken/*.gsa
    seed "${kind}_drs" "$fixtures"/drs/*.drs "$fixtures"/drs/broken/*.drs
    seed "${kind}_sims2_anim" "$fixtures"/sims2/*.5an "$fixtures"/sims2/broken/*.5an
    seed "${kind}_dbpf" "$fixtures"/sims2/*.package
    mkdir -p "corpus/${kind}_animation_set"
    python3 - "$fixtures"/drs/*.drs "corpus/${kind}_animation_set" <<'PY'
import os, struct, sys
*files, out = sys.argv[1:]
for path in files:
    data = open(path, "rb").read()
    table, count = struct.unpack_from("<i", data, 8)[0], struct.unpack_from("<I", data, 16)[0]
    for i in range(1, count):
        _, _, offset, size = struct.unpack_from("<iiii", data, table + 32 * i)
        blob = data[offset:offset + size]
        if blob.startswith(b"\x0b\x00\x00\x00Battleforge"):
            name = f"{os.path.basename(path)}.{i}.bin"
            open(os.path.join(out, name), "wb").write(blob)
PY
done
seed qfs "$fixtures"/sims2/*.5an
# The feature schemas: the first byte picks the schema (see fuzz_targets/roundtrip_features.rs).
mkdir -p corpus/roundtrip_features
for pair in 0:bit_fields 1:processed 2:other_streams 3:text_encodings; do
    { printf "\\$(printf %03o "${pair%%:*}")"; cat "$fixtures/features/${pair#*:}.bin"; } >"corpus/roundtrip_features/${pair#*:}"
done
# recursion.ksy: a node (value, kind=1) holding a node (kind=2) whose branch is a node ending
# in a leaf (kind=3, mark).
printf '\004\001\001\002\002\003\003\011' >corpus/roundtrip_features/recursion
