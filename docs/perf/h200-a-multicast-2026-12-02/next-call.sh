#!/usr/bin/env bash
# Written for the next session's first GPU call; not run in this one (the device time ran out).
# It checks what this session could not: the untuned choice of the 128-deep 64x32 and 64x64 tiles
# (the CUDA suite, whose CudaTensorCoreGemm.NarrowTilesForWeightStreams asserts it, in fp16 and
# bf16), the GEMM benchmark at dispatch's choice, and a head-to-head sweep of the 64- and
# 128-deep 64x128 and 128x64 tiles, which section 7 of the report lacks. Summaries to stdout.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.gpu/lib PYTHONPATH=$PWD/.gpu/torch/python:$PWD/.gpu TILEOPS_CACHE_DIR=/tmp/tileops-cache
export PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
out=${OUT:-/tmp/out}
work=/tmp/work
mkdir -p "$out/gemm" "$work"
start=$(date +%s)
FILTER='-NvrtcCompile.*' SHARDS=12 SANITIZE=0 STEP_TIMEOUT=150 OUT=$work bash scripts/gpu/run-suite.sh > "$work/suite.txt" 2>&1
echo "suite exit $? after $(( $(date +%s) - start )) s: $(grep -cE '^\[       OK \]' "$work/cuda-tests.log") ok, $(grep -cE '^\[  FAILED  \] [A-Z]' "$work/cuda-tests.log") failed"
grep -E "^\[  FAILED  \] [A-Z]" "$work/cuda-tests.log" | sort -u | head; grep -m5 "Failure" -A6 "$work/cuda-tests.log" | head -30
cp "$work/cuda-tests.log" "$out/"
timeout 200 python3 bench/torch/gemm_bench.py --only gemm --iters 20 --out "$out/gemm" > "$out/bench-gemm.log" 2>&1
echo "=== bench gemm exit $? after $(( $(date +%s) - start )) s"; grep -E "^\| (mid|decode|large)" "$out/gemm/gemm.md" | cut -c1-160
timeout 200 python3 bench/torch/gemm_tile_sweep.py --shapes mid-m --iters 20 --out "$out" \
  --tiles 64x128x64/s8,64x128x128/s4,128x64x64/s8,128x64x128/s4 > "$out/tile-sweep-siblings.md" 2> "$work/tile-sweep.err"
echo "=== sibling sweep exit $? after $(( $(date +%s) - start )) s"; cat "$out/tile-sweep-siblings.md"
