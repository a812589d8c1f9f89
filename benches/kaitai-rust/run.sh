#!/usr/bin/env bash
# Reads TrueType fonts with Kaitai Struct's own Rust output and with skelcodec's codec of the same
# gallery schema (font/ttf.ksy), in one run, and prints the time per read of each (min and median
# of many reads). Kaitai's output leaves the tables, parse instances, unread until they are
# used; the figure is what issue 30 compares.
#
#   benches/kaitai-rust/run.sh [FONT.ttf ...]     (default: every .ttf under /usr/share/fonts)
#
# Kaitai's Rust runtime is not on crates.io: give a checkout of
# kaitai-io/kaitai_struct_rust_runtime 0.11 as $KAITAI_RUST_RUNTIME. It and the generated code
# stay in $KAITAI_RUST_DIR (default /tmp/kaitai-rust) and are never committed. The compiler comes
# from differential/kaitai/setup.sh (npm, once).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
dir="${KAITAI_RUST_DIR:-/tmp/kaitai-rust}"
runtime="${KAITAI_RUST_RUNTIME:?give a checkout of kaitai-io/kaitai_struct_rust_runtime as KAITAI_RUST_RUNTIME}"
gallery="${KAITAI_FORMATS:-$root/../shared/kaitai-formats}"
export DIFFERENTIAL_DIR="${DIFFERENTIAL_DIR:-/tmp/differential}"
"$root/differential/kaitai/setup.sh" >&2

mkdir -p "$dir/src"
KAITAI_NODE_MODULES="$DIFFERENTIAL_DIR/node/node_modules" node "$here/compile.js" \
    "$gallery/font/ttf.ksy" "$dir/src/kaitai_ttf.rs"
cp "$here/main.rs" "$dir/src/main.rs"
cat > "$dir/Cargo.toml" <<TOML
[package]
name = "kaitai-rust-ttf"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
kaitai = { path = "$runtime" }
skelcodec-macros = { path = "$root/macros" }
skelcodec-runtime = { path = "$root/runtime" }

[profile.release]
lto = "fat"
codegen-units = 1

[workspace]
TOML
sed -i "s#@GALLERY@#$gallery#" "$dir/src/main.rs"
if [ $# -eq 0 ]; then
    mapfile -t fonts < <(find /usr/share/fonts -name '*.ttf' | sort)
else
    fonts=("$@")
fi
(cd "$dir" && cargo run --quiet --release -- "${fonts[@]}")
