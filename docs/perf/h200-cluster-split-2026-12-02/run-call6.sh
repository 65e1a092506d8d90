#!/usr/bin/env bash
# Sixth GPU call of the thirteenth session (tree d011c63): the whole CUDA suite but the
# compile-every-variant test (CI runs it), the torch suite, then the GEMM benchmark with dispatch
# choosing (decode, mid, MLP, then the large rows). Logs go to $OUT.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.gpu/lib PYTHONPATH=$PWD/.gpu/torch/python:$PWD/.gpu TILEOPS_CACHE_DIR=/tmp/tileops-cache
export PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
out=${OUT:-/tmp/out}
mkdir -p "$out"
start=$(date +%s)
FILTER='-NvrtcCompile.*' SHARDS=12 SANITIZE=0 STEP_TIMEOUT=150 bash scripts/gpu/run-suite.sh > "$out/suite.txt" 2>&1
echo "suite exit $? after $(( $(date +%s) - start )) s: $(grep -cE '^\[       OK \]' "$out/cuda-tests.log") ok, $(grep -cE '^\[  FAILED  \] [A-Z]' "$out/cuda-tests.log") failed"
grep -E "^\[  FAILED|Failure" -A8 "$out/cuda-tests.log" | head -40
timeout 150 bash scripts/gpu/run-torch-suite.sh > "$out/torch-suite.txt" 2>&1
echo "torch suite exit $? after $(( $(date +%s) - start )) s"; grep -E "passed|failed|error" "$out/torch-suite.txt" | tail -5
timeout 100 python3 bench/torch/gemm_bench.py --only small-m --iters 20 --out "$out/bench-small-m" > "$out/bench-small-m.log" 2>&1
echo "=== small-m exit $? after $(( $(date +%s) - start )) s"; grep -v Warn "$out/bench-small-m.log" | grep -v warn_once
timeout 150 python3 bench/torch/gemm_bench.py --only gemm --iters 10 --out "$out/bench-gemm" > "$out/bench-gemm.log" 2>&1
echo "=== gemm exit $? after $(( $(date +%s) - start )) s"; grep -E "large|square" "$out/bench-gemm.log"
