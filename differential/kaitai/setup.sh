#!/usr/bin/env bash
# Installs Kaitai Struct's reference implementation for the differential test, under
# $DIFFERENTIAL_DIR (default /tmp/differential): the compiler kaitai-struct-compiler 0.11.0 and
# js-yaml from npm in node/, and the Python runtime kaitaistruct 0.11 (with PyYAML, with which
# compare.py reads schemas) in a venv, venv/, beside the Python libraries that files.py runs as
# producers: msgpack, mcap, trimesh (glTF binary, STL), pymongo's bson, nbtlib (NBT), ds-store,
# pylnk3 (Windows shortcuts), python-bitcoinlib, scapy (Ethernet, IP, TCP, UDP, ICMP, RTP,
# SOME/IP), dnspython, py-vox-io (MagicaVoxel), mido (MIDI), omgifol (Doom WADs), vgio (Quake
# PAK) and websockets. Idempotent: what is installed is not fetched again.
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
producers="msgpack mcap trimesh pymongo nbtlib ds-store pylnk3 python-bitcoinlib scapy dnspython py-vox-io mido omgifol vgio websockets"
modules="msgpack, mcap, trimesh, bson, nbtlib, ds_store, pylnk3, bitcoin, scapy, dns, pyvox, mido, omg, vgio, websockets"
if ! "$dir/venv/bin/python" -c "import kaitaistruct, yaml, $modules, sys; sys.exit(kaitaistruct.__version__ != '0.11')" 2>/dev/null; then
    # shellcheck disable=SC2086
    "$dir/venv/bin/pip" install --quiet --disable-pip-version-check kaitaistruct==0.11 pyyaml $producers
fi
echo "kaitai: compiler $(node -e "console.log(require('$dir/node/node_modules/kaitai-struct-compiler').version)"), runtime $("$dir/venv/bin/python" -c 'import kaitaistruct; print(kaitaistruct.__version__)')"
