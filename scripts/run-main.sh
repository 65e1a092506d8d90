#!/usr/bin/env bash
# Quick start, part 1: install what is needed, build, and run the main job: every op on the best
# device present (the CPU when there is no GPU) over its manifest workloads, checked against the
# float64 reference, with a table of times and roofline figures.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake --preset default >/dev/null
cmake --build --preset default
./build/default/tileops run --all "$@"
