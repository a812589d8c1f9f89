#!/usr/bin/env bash
# Build-side figures (the book's docs/performance.md quotes them), printed as a markdown table:
#   - clean build of the generated-codec crate skelcodec-formats (with its dependencies, and
#     the crate alone once they are built), dev and release;
#   - rebuild after a one-line schema edit (the title of schemas/ifp.ksy);
#   - lines of generated code per schema (the `expand` example);
#   - what the benches crate adds to `cargo build --workspace --all-targets`.
# Everything runs on a scratch copy of the working tree with its own target directory, so
# the tree is never edited and no build of yours is disturbed (it takes several minutes).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
(cd "$root" && git ls-files -co --exclude-standard -z | xargs -0 cp --parents -t "$scratch")
cd "$scratch"
export CARGO_TARGET_DIR="$scratch/target"

secs() { # runs a command quietly, prints its wall time in seconds
    local start end
    start=$(date +%s%N)
    "$@" >/dev/null 2>&1
    end=$(date +%s%N)
    echo "scale=1; ($end - $start) / 1000000000" | bc
}

edit_schema() { # appends to the title line of schemas/ifp.ksy
    sed -i "s/^  title: \(.*\)$/  title: \1 $1/" schemas/ifp.ksy
}

cp schemas/ifp.ksy ifp.ksy.orig
echo "| figure | dev | release |"
echo "|---|---:|---:|"
dev_full=$(secs cargo build -p skelcodec-formats)
rel_full=$(secs cargo build --release -p skelcodec-formats)
echo "| clean build of skelcodec-formats, dependencies included (s) | $dev_full | $rel_full |"
cargo clean -p skelcodec-formats >/dev/null 2>&1
cargo clean --release -p skelcodec-formats >/dev/null 2>&1
dev_crate=$(secs cargo build -p skelcodec-formats)
rel_crate=$(secs cargo build --release -p skelcodec-formats)
echo "| clean build of skelcodec-formats alone, dependencies built (s) | $dev_crate | $rel_crate |"
edit_schema "(edit 1)"
dev_edit=$(secs cargo build -p skelcodec-formats)
edit_schema "(edit 2)"
rel_edit=$(secs cargo build --release -p skelcodec-formats)
echo "| rebuild after a one-line edit of schemas/ifp.ksy (s) | $dev_edit | $rel_edit |"
ws=$(secs cargo build --workspace --all-targets --exclude benches)
with=$(secs cargo build --workspace --all-targets)
echo "| \`cargo build --workspace --all-targets\` without benches, from the state above (s) | $ws | |"
echo "| added by the benches crate (binrw, deku, criterion and the bench code) (s) | $with | |"
echo
echo "| schema | lines of generated code |"
echo "|---|---:|"
cargo build -q -p skelcodec-codegen --example expand >/dev/null 2>&1
cp ifp.ksy.orig schemas/ifp.ksy
for schema in schemas/*.ksy; do
    lines=$(cargo run -q -p skelcodec-codegen --example expand -- "$schema" 2>/dev/null | wc -l)
    echo "| \`$schema\` | $lines |"
done
