#!/usr/bin/env bash
# Installs Kaitai Struct's reference implementation for the differential test, under
# $DIFFERENTIAL_DIR (default /tmp/differential): the compiler kaitai-struct-compiler 0.11.0 and
# js-yaml from npm in node/, and the Python runtime kaitaistruct 0.11 (with msgpack and mcap, which
# make files of those formats, and PyYAML, with which compare.py reads schemas) in a venv, venv/. Idempotent: what is installed is not fetched again.
set -euo pipefail
dir="${DIFFERENTIAL_DIR:-/tmp/differential}"
mkdir -p "$dir/node"
if [ ! -f "$dir/node/node_modules/kaitai-struct-compiler/package.json" ] \
    || ! grep -q '"version": "0.11.0"' "$dir/node/node_modules/kaitai-struct-compiler/package.json" \
    || [ ! -d "$dir/node/node_modules/js-yaml" ]; then
    (cd "$dir/node" && npm install --no-audit --no-fund --silent kaitai-struct-compiler@0.11.0 js-yaml@4)
fi
if [ ! -x "$dir/venv/bin/python" ]; then
    python3 -m venv "$dir/venv"
fi
if ! "$dir/venv/bin/python" -c 'import kaitaistruct, msgpack, mcap, yaml, sys; sys.exit(kaitaistruct.__version__ != "0.11")' 2>/dev/null; then
    "$dir/venv/bin/pip" install --quiet --disable-pip-version-check kaitaistruct==0.11 msgpack mcap pyyaml
fi
echo "kaitai: compiler $(node -e "console.log(require('$dir/node/node_modules/kaitai-struct-compiler').version)"), runtime $("$dir/venv/bin/python" -c 'import kaitaistruct; print(kaitaistruct.__version__)')"
