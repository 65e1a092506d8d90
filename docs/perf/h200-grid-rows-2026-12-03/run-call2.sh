#!/usr/bin/env bash
# Call 2 (GPU machine, repository root, .gpu/ carried, torch binding bundled): what the last
# session left unrun on main's GEMM (docs/perf/h200-a-multicast-2026-12-02/next-call.sh): the
# GEMM benchmark at dispatch's choice and the sibling sweep of the 64- and 128-deep 64x128 and
# 128x64 tiles; then the torch suite.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.gpu/lib PYTHONPATH=$PWD/.gpu/torch/python:$PWD/.gpu TILEOPS_CACHE_DIR=/tmp/tileops-cache
export PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
out=${OUT:-/tmp/out}
work=/tmp/work
mkdir -p "$out/gemm" "$work"
start=$(date +%s)
timeout 220 python3 bench/torch/gemm_bench.py --only gemm --iters 20 --out "$out/gemm" > "$work/bench-gemm.log" 2>&1
echo "=== bench gemm exit $? after $(( $(date +%s) - start )) s"; grep -E "^\| (mid|decode|large|[0-9])" "$out/gemm/gemm.md" | cut -c1-170; tail -3 "$work/bench-gemm.log"
timeout 200 python3 bench/torch/gemm_tile_sweep.py --shapes mid-m --iters 20 --out "$work" \
  --tiles 64x128x64/s8,64x128x128/s4,128x64x64/s8,128x64x128/s4 > "$out/tile-sweep-siblings.md" 2> "$work/tile-sweep.err"
echo "=== sibling sweep exit $? after $(( $(date +%s) - start )) s"; cat "$out/tile-sweep-siblings.md"; tail -3 "$work/tile-sweep.err"
OUT=$work timeout 150 bash scripts/gpu/run-torch-suite.sh > "$work/torch.txt" 2>&1
echo "=== torch suite exit $? after $(( $(date +%s) - start )) s"; tail -5 "$work/torch.txt"
cp "$work/torch.txt" "$out/"
