#!/usr/bin/env bash
# One GPU call for the tenth session's work: the whole CUDA suite in shards, compute-sanitizer
# over the 16-byte rotary kernel and the timing tests, tileops bench rows with CUPTI and with
# events, the rotary benchmark and the mid-M tile sweep. Logs go to $OUT.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.gpu/lib PYTHONPATH=$PWD/.gpu/torch/python TILEOPS_CACHE_DIR=/tmp/tileops-cache
export PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
out=${OUT:-/tmp/out}
SHARDS=8 SANITIZE=0 bash scripts/gpu/run-suite.sh; echo "suite exit $?"
grep -E "^\[  FAILED|Failure" -A3 "$out/cuda-tests.log" | head -30
grep -E "^\[       OK \] .*(BenchTiming|KernelRecord|Cupti)" "$out/cuda-tests.log" | head
for tool in memcheck racecheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 3 .gpu/bin/tileops_cuda_tests \
    --gtest_filter='*CudaRotary*' > "$out/sanitizer-rotary-$tool.log" 2>&1
  echo "rotary $tool exit $? $(grep -m1 'SUMMARY' "$out/sanitizer-rotary-$tool.log")"
done
B=".gpu/bin/tileops bench --device cuda:0 --iters 30"
for row in "RMSNormFwdOp --workload llama-8b-decode" "GatedMLPFwdOp --workload llama-8b-mlp-decode" "AddFwdOp --workload hidden-state-prefill"; do
  name=$(echo $row | cut -d' ' -f1)
  echo "=== $row (default timer)"; timeout 60 $B $row --json "$out/bench-$name.json" 2>&1 | tail -6
  echo "=== $row (events)"; TILEOPS_BENCH_TIMER=events timeout 60 $B $row 2>&1 | tail -4
done
timeout 90 python3 bench/torch/rotary_bench.py --out "$out/rotary.json" 2>&1 | grep -v -i warn | tail -6
ITERS=12 timeout ${SWEEP_TIMEOUT:-200} python3 bench/torch/gemm_tile_sweep.py --shapes small-mid --tiles all --out "$out" > "$out/tile_sweep.md" 2>"$out/tile_sweep.err"
echo "sweep exit $?"; cat "$out/tile_sweep.md"; tail -3 "$out/tile_sweep.err"
