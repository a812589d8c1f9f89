#!/usr/bin/env bash
# Runs the whole benchmark (about 6 minutes on 2 cores, plus the first build) and prints the
# markdown tables of that one run; extra arguments go to criterion (e.g. a filter, or
# `--measurement-time 3`). Build-side figures: benches/build-metrics.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo bench -p benches -- "$@" >&2
dir=${CRITERION_HOME:-${CARGO_TARGET_DIR:-target}/criterion}
cat "$dir/skelcodec-report.md"
