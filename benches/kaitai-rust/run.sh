#!/usr/bin/env bash
# Reads real files with Kaitai Struct's own Rust output and with skelcodec's codec of the same
# gallery schema, in one process, and prints a table of the time per read of each (main.rs).
#
#   benches/kaitai-rust/run.sh [FORMAT | FILE ...]
#
# FORMAT: png, gif, jpeg, gzip, zip, ttf or ico, a sample of its files on this machine (default:
# all); FILE: one file, of the format its extension names. Kaitai's Rust runtime is not on
# crates.io: give a checkout of kaitai-io/kaitai_struct_rust_runtime 0.11.0 as
# $KAITAI_RUST_RUNTIME. It and the generated code stay in $KAITAI_RUST_DIR (default
# /tmp/kaitai-rust) and are never committed. The compiler comes from differential/kaitai/setup.sh
# (npm, once). The generated Rust is patched where Kaitai's Rust target is known to get it wrong
# (patch.pl); a format a patch no longer matches, or whose Rust still does not compile, is left
# out, with the reason.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
dir="${KAITAI_RUST_DIR:-/tmp/kaitai-rust}"
runtime="${KAITAI_RUST_RUNTIME:?give a checkout of kaitai-io/kaitai_struct_rust_runtime as KAITAI_RUST_RUNTIME}"
gallery="${KAITAI_FORMATS:-$root/../shared/kaitai-formats}"
gallery="$(cd "$gallery" && pwd)"
export DIFFERENTIAL_DIR="${DIFFERENTIAL_DIR:-/tmp/differential}"
"$root/differential/kaitai/setup.sh" >&2
schemas=(image/png image/gif image/jpeg archive/gzip archive/zip font/ttf image/ico)

# Kaitai's Rust, one module per format: the schema's file and those of the schemas it imports,
# which refer to each other as `super::NAME`.
rm -rf "$dir/src"
mkdir -p "$dir/src"
formats=()
for schema in "${schemas[@]}"; do
    format="$(basename "$schema")"
    module="$dir/src/kaitai_$format"
    if files="$(KAITAI_NODE_MODULES="$DIFFERENTIAL_DIR/node/node_modules" node "$here/compile.js" \
        "$gallery/$schema.ksy" "$module" "$gallery" 2>"$dir/compile.log")"; then
        echo '#![allow(warnings)]' >"$module/mod.rs"
        for file in $files; do echo "pub mod ${file%.rs};" >>"$module/mod.rs"; done
        # The patches for what Kaitai's Rust target gets wrong (patch.pl says which).
        if perl "$here/patch.pl" "$module" >"$dir/patch.log" 2>&1; then
            [ ! -s "$dir/patch.log" ] || echo "$format: patched: $(cat "$dir/patch.log")" >&2
            formats+=("$format")
        else
            echo "left out: $format: $(cat "$dir/patch.log")" >&2
        fi
    else
        echo "left out: $format: Kaitai's compiler fails: $(head -n 1 "$dir/compile.log")" >&2
    fi
done
sed -e "s#@GALLERY@#$gallery#g" -e "s#@BENCHES@#$root/benches#g" "$here/main.rs" >"$dir/src/main.rs"
[ -f "$dir/Cargo.lock" ] || cp "$root/Cargo.lock" "$dir/Cargo.lock" # the workspace's versions
cat >"$dir/Cargo.toml" <<TOML
[package]
name = "kaitai-rust-cmp"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
kaitai = { path = "$runtime" }
skelcodec-macros = { path = "$root/macros" }
skelcodec-runtime = { path = "$root/runtime" }

[features]
$(for schema in "${schemas[@]}"; do echo "$(basename "$schema") = []"; done)

[profile.release]
lto = "fat"
codegen-units = 1

[workspace]
TOML

# Builds the formats left; those whose Kaitai module has errors are left out, and again.
cd "$dir"
until cargo build --quiet --release --message-format short --features "${formats[*]}" 2>build.log; do
    failed="$(grep -oE '^src/kaitai_[a-z0-9_]+/[^ ]*: error' build.log | cut -d/ -f2 | sort -u)"
    [ -n "$failed" ] || { cat build.log >&2; exit 1; }
    for module in $failed; do
        echo "left out: ${module#kaitai_}: Kaitai's generated Rust does not compile:" \
            "$(grep -m 1 "^src/$module/" build.log)" >&2
        mapfile -t formats < <(printf '%s\n' "${formats[@]}" | grep -vx "${module#kaitai_}")
    done
done
"${CARGO_TARGET_DIR:-target}/release/kaitai-rust-cmp" "$@" # without the build's warnings again
