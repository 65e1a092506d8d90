#!/usr/bin/env bash
# Call 3 (GPU machine, repository root, .gpu/ carried): the host path again with the fast call's
# parts (entering the extension, torch's allocation) and the same calls on a created stream,
# three processes in a row to see the host's spread.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.gpu/lib PYTHONPATH=$PWD/.gpu/torch/python:$PWD/.gpu TILEOPS_CACHE_DIR=/tmp/tileops-cache PYTHONDONTWRITEBYTECODE=1
out=${OUT:-/tmp/out}
mkdir -p "$out"
bash scripts/gpu/build-fast-call.sh 2>&1 | tail -1
.gpu/bin/tileops_host_path_bench --benchmark_repetitions=10 --benchmark_report_aggregates_only=true 2>&1 | grep median | tee "$out/host-path.txt"
for i in 1 2 3; do
  echo "=== process $i"
  python3 bench/torch/host_path.py --out "$out/torch-host-path-$i.json" 2>&1 | tee "$out/torch-host-path-$i.txt"
done
