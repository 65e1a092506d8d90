#!/usr/bin/env bash
# Fourth GPU call of the fifteenth session: the untuned choice takes clustered tiles only from
# k = 2048 (kClusterMinK). The CUDA suite but the compile-every-variant test; gemm_bench's fused
# and batched rows, then its GEMM rows (large, decode, mid-m, GatedMLP) at dispatch's choice,
# beside torch in the same run. Summaries to stdout, logs to $OUT.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.gpu/lib PYTHONPATH=$PWD/.gpu/torch/python:$PWD/.gpu TILEOPS_CACHE_DIR=/tmp/tileops-cache
export PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
out=${OUT:-/tmp/out}
work=/tmp/work
mkdir -p "$out/fused" "$out/gemm" "$work"
start=$(date +%s)
FILTER='-NvrtcCompile.*' SHARDS=12 SANITIZE=0 STEP_TIMEOUT=150 OUT=$work bash scripts/gpu/run-suite.sh > "$work/suite.txt" 2>&1
echo "suite exit $? after $(( $(date +%s) - start )) s: $(grep -cE '^\[       OK \]' "$work/cuda-tests.log") ok, $(grep -cE '^\[  FAILED  \] [A-Z]' "$work/cuda-tests.log") failed"
grep -E "^\[  FAILED  \] [A-Z]" "$work/cuda-tests.log" | sort -u | head; grep -m5 "Failure" -A6 "$work/cuda-tests.log" | head -30
grep -E "AttentionShaped" "$work/cuda-tests.log" | head -4
cp "$work/cuda-tests.log" "$out/"
timeout 150 python3 bench/torch/gemm_bench.py --only fused --iters 20 --out "$out/fused" > "$out/bench-fused.log" 2>&1
echo "=== bench fused exit $? after $(( $(date +%s) - start )) s"; grep -E "err " "$out/bench-fused.log" | cut -c1-200
timeout 300 python3 bench/torch/gemm_bench.py --only gemm --iters 20 --out "$out/gemm" > "$out/bench-gemm.log" 2>&1
echo "=== bench gemm exit $? after $(( $(date +%s) - start )) s"; cat "$out/gemm/gemm.md" | cut -c1-220
